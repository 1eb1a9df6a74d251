/* HDF5 snapshots in the GADGET/SWIFT layout through the libhdf5 C library (stubs when built without it). */
/* SPDX-License-Identifier: MIT */
#include "snapshot_hdf5.h"

#include <string.h>
#include <strings.h>

#include "gheap_check.h"
#include "log.h"

int gc_snapshot_hdf5_name(const char *path)
{
    static const char *const suffix[] = {".hdf5", ".h5", ".hdf"};
    size_t len = path ? strlen(path) : 0;
    for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++) {
        size_t s = strlen(suffix[k]);
        if (len > s && strcasecmp(path + len - s, suffix[k]) == 0)
            return 1;
    }
    return 0;
}

#ifdef GC_HAVE_HDF5

#include <errno.h>
#include <float.h>
#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#define NTYPES 6 /* GADGET's particle types 0 (gas) .. 5 (black holes) */
/* Rows moved per H5Dread/H5Dwrite: bounded buffers whatever N is (~3.6 MiB at float64). */
#define CHUNK ((size_t)65536)

/* Indexed by enum gc_component (disk 0, bulge 1, halo 2, star 3). */
static const char *const component_name[4] = {"disk", "bulge", "halo", "star"};
/* GADGET's types: halo (dark matter) 1, disk 2, bulge 3, stars 4 (a star cluster's bodies
 * mixed with other components; a set of one component is written as PartType1). */
static const int type_of_component[4] = {2, 3, 1, 4};

static unsigned component_of_type(int t)
{
    return t == 2 ? GC_DISK : t == 3 ? GC_BULGE : t == 4 ? GC_STAR : GC_HALO;
}

int gc_snapshot_hdf5_available(void)
{
    return 1;
}

/* libhdf5 prints its whole error stack on stderr by default; each problem here is reported
 * once, in our words, so the stack printer is off while we call the library. */
struct quiet {
    H5E_auto2_t func;
    void *data;
};

static void quiet_begin(struct quiet *q)
{
    H5Eget_auto2(H5E_DEFAULT, &q->func, &q->data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static void quiet_end(const struct quiet *q)
{
    H5Eset_auto2(H5E_DEFAULT, q->func, q->data);
}

static void close_id(hid_t *id, herr_t (*fn)(hid_t))
{
    if (*id >= 0)
        fn(*id);
    *id = H5I_INVALID_HID;
}

/* Moves rows [r0, r0 + k) of a 1-D (cols == 0) or n x cols dataset between file and buf. */
static herr_t rows_io(hid_t d, int write, hid_t mem_type, void *buf, hsize_t r0, hsize_t k,
                      hsize_t cols)
{
    hsize_t start[2] = {r0, 0}, count[2] = {k, cols};
    hid_t fs = H5Dget_space(d), ms = H5I_INVALID_HID;
    herr_t e = -1;
    if (fs >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0)
        ms = H5Screate_simple(cols ? 2 : 1, count, NULL);
    if (ms >= 0)
        e = write ? H5Dwrite(d, mem_type, ms, fs, H5P_DEFAULT, buf)
                  : H5Dread(d, mem_type, ms, fs, H5P_DEFAULT, buf);
    close_id(&ms, H5Sclose);
    close_id(&fs, H5Sclose);
    return e;
}

/* ---- writing ---- */

/* Attribute of n values (n == 0: a scalar). */
static int put_attr(hid_t loc, const char *name, hid_t file_type, hid_t mem_type,
                    const void *v, hsize_t n)
{
    hid_t space = n ? H5Screate_simple(1, &n, NULL) : H5Screate(H5S_SCALAR);
    hid_t a = space >= 0 ? H5Acreate2(loc, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT)
                         : H5I_INVALID_HID;
    herr_t e = a >= 0 ? H5Awrite(a, mem_type, v) : -1;
    close_id(&a, H5Aclose);
    close_id(&space, H5Sclose);
    return e >= 0;
}

/* Fixed-length string attribute, as GADGET writes its strings. */
static int put_string_attr(hid_t loc, const char *name, const char *s)
{
    hid_t t = H5Tcopy(H5T_C_S1);
    int ok = t >= 0 && H5Tset_size(t, strlen(s)) >= 0 && H5Tset_strpad(t, H5T_STR_NULLPAD) >= 0 &&
             put_attr(loc, name, t, t, s, 0);
    close_id(&t, H5Tclose);
    return ok;
}

static int put_header(hid_t file, const size_t count[NTYPES], double time, int f64)
{
    uint32_t lo[NTYPES], hi[NTYPES];
    double zero6[NTYPES] = {0}, zero = 0.0;
    int32_t one = 1, dp = f64;
    hid_t h = H5Gcreate2(file, "Header", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int ok;
    for (int t = 0; t < NTYPES; t++) {
        lo[t] = (uint32_t)(count[t] & 0xffffffffu);
        hi[t] = (uint32_t)((uint64_t)count[t] >> 32);
    }
    ok = h >= 0 &&
         put_attr(h, "NumPart_ThisFile", H5T_STD_U32LE, H5T_NATIVE_UINT32, lo, NTYPES) &&
         put_attr(h, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, lo, NTYPES) &&
         put_attr(h, "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT32, hi, NTYPES) &&
         put_attr(h, "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, zero6, NTYPES) &&
         put_attr(h, "Time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &time, 0) &&
         put_attr(h, "Redshift", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, 0) &&
         put_attr(h, "BoxSize", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, 0) &&
         put_attr(h, "NumFilesPerSnapshot", H5T_STD_I32LE, H5T_NATIVE_INT32, &one, 0) &&
         put_attr(h, "Flag_DoublePrecision", H5T_STD_I32LE, H5T_NATIVE_INT32, &dp, 0);
    close_id(&h, H5Gclose);
    return ok;
}

static hid_t make_dataset(hid_t g, const char *name, hid_t file_type, hsize_t n, hsize_t cols)
{
    hsize_t dims[2] = {n, cols};
    hid_t space = H5Screate_simple(cols ? 2 : 1, dims, NULL);
    hid_t d = space >= 0 ? H5Dcreate2(g, name, file_type, space, H5P_DEFAULT, H5P_DEFAULT,
                                      H5P_DEFAULT)
                         : H5I_INVALID_HID;
    close_id(&space, H5Sclose);
    return d;
}

/* Staging buffers of CHUNK bodies for one group. */
struct stage {
    double *x64, *v64, *m64;
    float *x32, *v32, *m32;
    uint64_t *id;
    uint8_t *gal;
};

static int stage_alloc(struct stage *s, int f64)
{
    memset(s, 0, sizeof *s);
    if (f64) {
        s->x64 = malloc(3 * CHUNK * sizeof *s->x64);
        s->v64 = malloc(3 * CHUNK * sizeof *s->v64);
        s->m64 = malloc(CHUNK * sizeof *s->m64);
    } else {
        s->x32 = malloc(3 * CHUNK * sizeof *s->x32);
        s->v32 = malloc(3 * CHUNK * sizeof *s->v32);
        s->m32 = malloc(CHUNK * sizeof *s->m32);
    }
    s->id = malloc(CHUNK * sizeof *s->id);
    s->gal = malloc(CHUNK * sizeof *s->gal);
    return (f64 ? s->x64 && s->v64 && s->m64 : s->x32 && s->v32 && s->m32) && s->id && s->gal;
}

static void stage_free(struct stage *s)
{
    free(s->x64);
    free(s->v64);
    free(s->m64);
    free(s->x32);
    free(s->v32);
    free(s->m32);
    free(s->id);
    free(s->gal);
    memset(s, 0, sizeof *s);
}

static int has_f64(const struct gc_bodies *b)
{
    return b->pos64 && b->vel64 && b->mass64;
}

/* One /PartTypeN group: the bodies i with type[i] == t, in run order, CHUNK at a time. */
static int put_group(hid_t file, const struct gc_bodies *b, const uint8_t *type, int t,
                     size_t n, struct stage *s)
{
    const int f64 = has_f64(b);
    const hid_t ft = f64 ? H5T_IEEE_F64LE : H5T_IEEE_F32LE;
    const hid_t mt = f64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_FLOAT;
    char name[16];
    hid_t g, dx = H5I_INVALID_HID, dv = H5I_INVALID_HID, dm = H5I_INVALID_HID;
    hid_t di = H5I_INVALID_HID, dg = H5I_INVALID_HID;
    size_t i = 0, row = 0;
    int ok;

    snprintf(name, sizeof name, "PartType%d", t);
    g = H5Gcreate2(file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    ok = g >= 0;
    if (ok) {
        /* Every body of a group has the same component (put_header's caller made it so). */
        size_t first = 0;
        while (type[first] != t)
            first++;
        ok = put_string_attr(g, "Component", component_name[GC_TAG_COMPONENT(b->tag[first])]);
    }
    if (ok) {
        dx = make_dataset(g, "Coordinates", ft, n, 3);
        dv = make_dataset(g, "Velocities", ft, n, 3);
        dm = make_dataset(g, "Masses", ft, n, 0);
        di = make_dataset(g, "ParticleIDs", H5T_STD_U64LE, n, 0);
        dg = make_dataset(g, "GalaxyIndex", H5T_STD_U8LE, n, 0);
        ok = dx >= 0 && dv >= 0 && dm >= 0 && di >= 0 && dg >= 0;
    }
    while (ok && row < n) {
        size_t k = 0;
        for (; i < b->n && k < CHUNK; i++) {
            if (type[i] != t)
                continue;
            for (int c = 0; c < 3; c++) {
                if (f64) {
                    s->x64[3 * k + c] = b->pos64[3 * i + c];
                    s->v64[3 * k + c] = b->vel64[3 * i + c];
                } else {
                    s->x32[3 * k + c] = b->pos[4 * i + c];
                    s->v32[3 * k + c] = b->vel[4 * i + c];
                }
            }
            if (f64)
                s->m64[k] = b->mass64[i];
            else
                s->m32[k] = b->pos[4 * i + 3];
            s->id[k] = (uint64_t)i + 1;
            s->gal[k] = (uint8_t)GC_TAG_GALAXY(b->tag[i]);
            k++;
        }
        ok = rows_io(dx, 1, mt, f64 ? (void *)s->x64 : (void *)s->x32, row, k, 3) >= 0 &&
             rows_io(dv, 1, mt, f64 ? (void *)s->v64 : (void *)s->v32, row, k, 3) >= 0 &&
             rows_io(dm, 1, mt, f64 ? (void *)s->m64 : (void *)s->m32, row, k, 0) >= 0 &&
             rows_io(di, 1, H5T_NATIVE_UINT64, s->id, row, k, 0) >= 0 &&
             rows_io(dg, 1, H5T_NATIVE_UINT8, s->gal, row, k, 0) >= 0;
        row += k;
    }
    close_id(&dx, H5Dclose);
    close_id(&dv, H5Dclose);
    close_id(&dm, H5Dclose);
    close_id(&di, H5Dclose);
    close_id(&dg, H5Dclose);
    close_id(&g, H5Gclose);
    return ok;
}

enum gc_status gc_snapshot_hdf5_write(const char *path, const struct gc_bodies *b, double time)
{
    size_t count[NTYPES] = {0};
    uint8_t *type = NULL;
    struct stage s = {0};
    struct quiet q;
    char *tmp = NULL;
    hid_t file = H5I_INVALID_HID, fapl;
    int single = 1, ok;

    if (!b || b->n == 0 || !b->pos || !b->vel || !b->tag) {
        gc_log_error("%s: no bodies to write", path);
        return GC_ERR_INVALID;
    }
    if (!isfinite(time)) {
        gc_log_error("%s: snapshot time %g is not finite", path, time);
        return GC_ERR_INVALID;
    }
    for (size_t i = 0; i < b->n; i++) {
        single &= (GC_TAG_COMPONENT(b->tag[i]) == GC_TAG_COMPONENT(b->tag[0]) &&
                   GC_TAG_GALAXY(b->tag[i]) == GC_TAG_GALAXY(b->tag[0]));
    }
    type = malloc(b->n);
    tmp = malloc(strlen(path) + sizeof ".part");
    if (!type || !tmp || !stage_alloc(&s, has_f64(b))) {
        gc_log_error("%s: out of memory preparing a snapshot of %zu bodies", path, b->n);
        free(type);
        free(tmp);
        stage_free(&s);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < b->n; i++) {
        type[i] = (uint8_t)(single ? 1 : type_of_component[GC_TAG_COMPONENT(b->tag[i])]);
        count[type[i]]++;
    }
    strcpy(tmp, path);
    strcat(tmp, ".part");

    quiet_begin(&q);
    /* The HDF5 1.8 file format: readable by every h5py, yt and pynbody of the last decade,
     * and its compact groups keep a small snapshot at a few KB instead of ~12. */
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) >= 0)
        file = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
    close_id(&fapl, H5Pclose);
    ok = file >= 0 && put_header(file, count, time, has_f64(b));
    for (int t = 1; ok && t <= 4; t++)
        if (count[t])
            ok = put_group(file, b, type, t, count[t], &s);
    /* Closing flushes: a full disk shows up here. */
    if (file >= 0 && H5Fclose(file) < 0)
        ok = 0;
    quiet_end(&q);
    if (ok && rename(tmp, path) != 0) {
        gc_log_error("%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
        remove(tmp);
        ok = -1;
    } else if (!ok) {
        gc_log_error("%s: cannot write the HDF5 snapshot (folder missing or not writable, "
                     "or disk full?)", path);
        remove(tmp);
    }
    free(type);
    free(tmp);
    stage_free(&s);
    return ok == 1 ? GC_OK : GC_ERR_IO;
}

/* ---- reading ---- */

struct reader {
    const char *name;   /* file name for messages */
    size_t max_bodies;
    hid_t file;
    const unsigned char *image; /* the in-memory file, or NULL: the file at `name` */
    size_t image_size;
    int *heaps;         /* 0 until the global heaps are checked, then 1 (safe) or -1 */
};

/* The largest global heap collection checked from disk; a longer one (a legitimate one
 * holds a few short strings) counts as corrupt. */
#define GHEAP_MAX_READ ((size_t)64 << 20)

/* Checks the collection that starts at byte `at` of the file (`rest` bytes to its end). */
static enum gc_status check_collection_on_disk(FILE *f, long long at, uint64_t len,
                                               long long rest, unsigned ss)
{
    size_t avail = (uint64_t)rest < len ? (size_t)rest : (size_t)len;
    unsigned char *c;
    enum gc_status st = GC_ERR_PARSE;
    if (avail > GHEAP_MAX_READ)
        return GC_ERR_PARSE;
    c = malloc(avail ? avail : 1);
    if (c && fseeko(f, (off_t)at, SEEK_SET) == 0 && fread(c, 1, avail, f) == avail)
        st = gc_gheap_check_collection(c, avail, len, ss);
    free(c);
    return st;
}

/* Finds every global heap collection of the file (a "GCOL" header anywhere) and checks it;
 * the byte offset of the first bad one goes to *bad. */
static enum gc_status scan_heaps(const struct reader *r, unsigned ss, long long *bad)
{
    enum { WINDOW = 1 << 20 };
    const size_t hdr = gc_gheap_header_size(ss);
    unsigned char *w;
    long long base = 0, size;
    FILE *f;
    enum gc_status st = GC_OK;
    uint64_t len;
    if (r->image) {
        for (size_t o = 0; o + hdr <= r->image_size; o++)
            if (gc_gheap_is_collection(r->image + o, r->image_size - o, ss, &len) &&
                gc_gheap_check_collection(r->image + o, r->image_size - o, len, ss) != GC_OK) {
                *bad = (long long)o;
                return GC_ERR_PARSE;
            }
        return GC_OK;
    }
    f = fopen(r->name, "rb");
    w = malloc(WINDOW + hdr);
    if (!f || !w || fseeko(f, 0, SEEK_END) != 0 || (size = (long long)ftello(f)) < 0) {
        st = GC_ERR_IO;
        goto out;
    }
    /* Windows overlap by a header's length so that no header is cut in two. */
    for (base = 0; st == GC_OK && base < size; base += WINDOW) {
        long long left = size - base;
        size_t n = left < (long long)(WINDOW + hdr) ? (size_t)left : WINDOW + hdr;
        if (fseeko(f, (off_t)base, SEEK_SET) != 0 || fread(w, 1, n, f) != n) {
            st = GC_ERR_IO;
            break;
        }
        for (size_t o = 0; o < WINDOW && o + hdr <= n; o++)
            if (gc_gheap_is_collection(w + o, n - o, ss, &len) &&
                check_collection_on_disk(f, base + (long long)o, len, size - base - (long long)o,
                                         ss) != GC_OK) {
                *bad = base + (long long)o;
                st = GC_ERR_PARSE;
                break;
            }
    }
out:
    free(w);
    if (f)
        fclose(f);
    return st;
}

/* libhdf5 decodes the global heap that holds variable-length strings without the checks
 * that keep it from looping forever or reading past its buffer (tests/fuzz/hangs): every
 * collection of the file is checked before the first such string is read. */
static int heaps_safe(const struct reader *r)
{
    size_t sa = 0, ss = 0;
    hid_t fcpl;
    long long bad = -1;
    enum gc_status st;
    if (*r->heaps)
        return *r->heaps > 0;
    fcpl = H5Fget_create_plist(r->file);
    if (fcpl < 0 || H5Pget_sizes(fcpl, &sa, &ss) < 0)
        ss = 0;
    close_id(&fcpl, H5Pclose);
    st = ss ? scan_heaps(r, (unsigned)ss, &bad) : GC_ERR_PARSE;
    if (st == GC_ERR_IO)
        gc_log_error("%s: cannot read the file to check its strings", r->name);
    else if (st != GC_OK)
        gc_log_error("%s: corrupt HDF5 global heap (variable-length strings) at byte %lld: "
                     "not read", r->name, bad);
    *r->heaps = st == GC_OK ? 1 : -1;
    return st == GC_OK;
}

static const char *class_word(H5T_class_t c)
{
    return c == H5T_INTEGER ? "integers" : c == H5T_FLOAT ? "floating-point numbers" : "strings";
}

/* Reads attribute `name` of loc (called `where` in messages): `count` values of class cls,
 * converted to mem_type. Returns 1 when read, 0 when absent (an error only if required),
 * -1 on a logged error. */
static int get_attr(const struct reader *r, hid_t loc, const char *where, const char *name,
                    H5T_class_t cls, hid_t mem_type, void *out, hssize_t count, int required)
{
    hid_t a = H5I_INVALID_HID, t = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    htri_t ex = H5Aexists(loc, name);
    int res = -1;
    hssize_t np;
    if (ex <= 0) {
        if (ex < 0 || required)
            gc_log_error("%s: %s has no attribute %s", r->name, where, name);
        return ex < 0 || required ? -1 : 0;
    }
    a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a >= 0)
        t = H5Aget_type(a);
    if (a >= 0)
        sp = H5Aget_space(a);
    if (t < 0 || sp < 0) {
        gc_log_error("%s: cannot open attribute %s of %s (file corrupt?)", r->name, name, where);
        goto out;
    }
    if (H5Tget_class(t) != cls) {
        gc_log_error("%s: attribute %s of %s must hold %s", r->name, name, where,
                     class_word(cls));
        goto out;
    }
    np = H5Sget_simple_extent_npoints(sp);
    if (np != count) {
        gc_log_error("%s: attribute %s of %s has %lld values, expected %lld", r->name, name,
                     where, (long long)np, (long long)count);
        goto out;
    }
    if (H5Aread(a, mem_type, out) < 0) {
        gc_log_error("%s: cannot read attribute %s of %s (file corrupt?)", r->name, name, where);
        goto out;
    }
    res = 1;
out:
    close_id(&sp, H5Sclose);
    close_id(&t, H5Tclose);
    close_id(&a, H5Aclose);
    return res;
}

/* The Component attribute of a group (a string, fixed or variable length), when present. */
static int get_component(const struct reader *r, hid_t g, const char *where, unsigned *comp)
{
    char buf[32] = {0};
    hid_t a = H5I_INVALID_HID, t = H5I_INVALID_HID, sp = H5I_INVALID_HID, mt = H5I_INVALID_HID;
    htri_t ex = H5Aexists(g, "Component");
    int res = -1, var;
    size_t size;
    if (ex == 0)
        return 0;
    if (ex > 0)
        a = H5Aopen(g, "Component", H5P_DEFAULT);
    if (a >= 0)
        t = H5Aget_type(a);
    if (a >= 0)
        sp = H5Aget_space(a);
    if (t < 0 || sp < 0 || H5Tget_class(t) != H5T_STRING ||
        H5Sget_simple_extent_npoints(sp) != 1) {
        gc_log_error("%s: attribute Component of %s must be one string (halo, disk or bulge)",
                     r->name, where);
        goto out;
    }
    var = H5Tis_variable_str(t) > 0;
    size = H5Tget_size(t);
    /* HDF5 converts strings only within one character set (h5py writes UTF-8). */
    mt = H5Tcopy(H5T_C_S1);
    if (mt < 0 || H5Tset_size(mt, var ? H5T_VARIABLE : sizeof buf - 1) < 0 ||
        H5Tset_cset(mt, H5Tget_cset(t)) < 0) {
        gc_log_error("%s: cannot read attribute Component of %s", r->name, where);
        goto out;
    }
    if (var) {
        char *s = NULL;
        if (!heaps_safe(r))
            goto out;
        if (H5Aread(a, mt, &s) < 0 || !s) {
            gc_log_error("%s: cannot read attribute Component of %s", r->name, where);
            goto out;
        }
        strncpy(buf, s, sizeof buf - 1);
        H5free_memory(s);
    } else if (size == 0 || size >= sizeof buf || H5Aread(a, mt, buf) < 0) {
        gc_log_error("%s: attribute Component of %s is not halo, disk, bulge or star", r->name,
                     where);
        goto out;
    }
    buf[sizeof buf - 1] = '\0';
    for (unsigned c = 0; c < 4; c++)
        if (strcmp(buf, component_name[c]) == 0) {
            *comp = c;
            res = 1;
            goto out;
        }
    gc_log_error("%s: attribute Component of %s is '%.31s', not halo, disk, bulge or star", r->name,
                 where, buf);
out:
    close_id(&mt, H5Tclose);
    close_id(&sp, H5Sclose);
    close_id(&t, H5Tclose);
    close_id(&a, H5Aclose);
    return res;
}

struct header {
    long long npart[NTYPES];
    double mass_table[NTYPES];
    double time;
    size_t n; /* sum of npart */
};

static enum gc_status get_header(const struct reader *r, struct header *h)
{
    static const char *const type_word[NTYPES] = {"gas", "", "", "", "stars", "black holes"};
    long long total[NTYPES] = {0}, high[NTYPES] = {0}, files = 1;
    hid_t g;
    htri_t ex = H5Lexists(r->file, "Header", H5P_DEFAULT);
    int ok;

    memset(h, 0, sizeof *h);
    g = ex > 0 ? H5Gopen2(r->file, "Header", H5P_DEFAULT) : H5I_INVALID_HID;
    if (g < 0) {
        gc_log_error("%s: no /Header group: not a snapshot in the GADGET/SWIFT layout", r->name);
        return GC_ERR_PARSE;
    }
    ok = get_attr(r, g, "/Header", "NumPart_ThisFile", H5T_INTEGER, H5T_NATIVE_LLONG, h->npart,
                  NTYPES, 1) > 0 &&
         get_attr(r, g, "/Header", "Time", H5T_FLOAT, H5T_NATIVE_DOUBLE, &h->time, 1, 1) > 0;
    /* The rest is optional in files from other codes, but must agree when present. */
    ok = ok &&
         get_attr(r, g, "/Header", "MassTable", H5T_FLOAT, H5T_NATIVE_DOUBLE, h->mass_table,
                  NTYPES, 0) >= 0 &&
         get_attr(r, g, "/Header", "NumPart_Total", H5T_INTEGER, H5T_NATIVE_LLONG, total,
                  NTYPES, 0) >= 0 &&
         get_attr(r, g, "/Header", "NumPart_Total_HighWord", H5T_INTEGER, H5T_NATIVE_LLONG,
                  high, NTYPES, 0) >= 0 &&
         get_attr(r, g, "/Header", "NumFilesPerSnapshot", H5T_INTEGER, H5T_NATIVE_LLONG, &files,
                  1, 0) >= 0;
    if (H5Aexists(g, "NumPart_Total") <= 0)
        memcpy(total, h->npart, sizeof total);
    H5Gclose(g);
    if (!ok)
        return GC_ERR_PARSE;
    if (!isfinite(h->time)) {
        gc_log_error("%s: /Header Time is not finite (%g)", r->name, h->time);
        return GC_ERR_PARSE;
    }
    if (files != 1) {
        gc_log_error("%s: /Header NumFilesPerSnapshot = %lld: only single-file snapshots can "
                     "be read", r->name, files);
        return GC_ERR_PARSE;
    }
    for (int t = 0; t < NTYPES; t++) {
        if (h->npart[t] < 0 || (size_t)h->npart[t] > r->max_bodies) {
            gc_log_error("%s: /Header NumPart_ThisFile[%d] = %lld is out of range (0 to %zu)",
                         r->name, t, h->npart[t], r->max_bodies);
            return GC_ERR_PARSE;
        }
        if (total[t] != h->npart[t] || high[t] != 0) {
            gc_log_error("%s: /Header NumPart_Total[%d] (%lld, high word %lld) differs from "
                         "NumPart_ThisFile[%d] (%lld): only single-file snapshots can be read",
                         r->name, t, total[t], high[t], t, h->npart[t]);
            return GC_ERR_PARSE;
        }
        if (!isfinite(h->mass_table[t]) || h->mass_table[t] < 0.0) {
            gc_log_error("%s: /Header MassTable[%d] = %g must be finite and >= 0", r->name, t,
                         h->mass_table[t]);
            return GC_ERR_PARSE;
        }
        if ((t == 0 || t > 4) && h->npart[t] > 0) {
            gc_log_error("%s: holds %lld bodies of PartType%d (%s); galaxy reads the "
                         "collisionless types 1 (halo), 2 (disk), 3 (bulge) and 4 (stars) only",
                         r->name, h->npart[t], t, type_word[t]);
            return GC_ERR_PARSE;
        }
        h->n += (size_t)h->npart[t];
    }
    if (h->n == 0 || h->n > r->max_bodies) {
        gc_log_error("%s: /Header counts %zu bodies (expected 1 to %zu)", r->name, h->n,
                     r->max_bodies);
        return GC_ERR_PARSE;
    }
    return GC_OK;
}

/* The open datasets of one /PartTypeN group. */
struct group {
    int t;
    size_t n;
    unsigned component;
    double table_mass; /* MassTable entry, used where Masses is absent */
    hid_t g, id, x, v, m, gal;
    int f64;           /* Coordinates, Velocities or Masses stored wider than float32 */
};

static void group_close(struct group *gr)
{
    close_id(&gr->id, H5Dclose);
    close_id(&gr->x, H5Dclose);
    close_id(&gr->v, H5Dclose);
    close_id(&gr->m, H5Dclose);
    close_id(&gr->gal, H5Dclose);
    close_id(&gr->g, H5Gclose);
}

/* Opens dataset `name` of the group and checks class and shape (cols == 0: 1-D of n).
 * *d stays invalid when the dataset is absent and not required. */
static enum gc_status open_dataset(const struct reader *r, struct group *gr, const char *name,
                                   H5T_class_t cls, size_t cols, int required, hid_t *d)
{
    hsize_t dims[2] = {0, 0};
    hid_t t = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    htri_t ex = H5Lexists(gr->g, name, H5P_DEFAULT);
    enum gc_status st = GC_ERR_PARSE;
    int rank;

    *d = H5I_INVALID_HID;
    if (ex == 0 && !required)
        return GC_OK;
    if (ex == 0) {
        if (strcmp(name, "Masses") == 0)
            gc_log_error("%s: PartType%d/Masses is missing and MassTable[%d] is 0: no masses "
                         "for these bodies", r->name, gr->t, gr->t);
        else
            gc_log_error("%s: PartType%d/%s is missing", r->name, gr->t, name);
        return GC_ERR_PARSE;
    }
    if (ex > 0)
        *d = H5Dopen2(gr->g, name, H5P_DEFAULT);
    if (*d < 0) {
        gc_log_error("%s: PartType%d/%s is not a readable dataset", r->name, gr->t, name);
        return GC_ERR_PARSE;
    }
    t = H5Dget_type(*d);
    sp = H5Dget_space(*d);
    rank = sp >= 0 ? H5Sget_simple_extent_ndims(sp) : -1;
    if (t < 0 || rank < 0 || rank > 2 || H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
        gc_log_error("%s: PartType%d/%s: cannot read its type or shape (file corrupt?)",
                     r->name, gr->t, name);
        goto out;
    }
    if (H5Tget_class(t) != cls) {
        gc_log_error("%s: PartType%d/%s must hold %s", r->name, gr->t, name, class_word(cls));
        goto out;
    }
    if (rank != (cols ? 2 : 1) || dims[0] != gr->n || (cols && dims[1] != cols)) {
        char want[48], got[48];
        snprintf(want, sizeof want, cols ? "%zu x %zu" : "%zu", gr->n, cols);
        if (rank == 2)
            snprintf(got, sizeof got, "%llu x %llu", (unsigned long long)dims[0],
                     (unsigned long long)dims[1]);
        else if (rank == 1)
            snprintf(got, sizeof got, "%llu", (unsigned long long)dims[0]);
        else
            snprintf(got, sizeof got, "a scalar");
        gc_log_error("%s: PartType%d/%s has shape %s, expected %s (the header counts %zu "
                     "bodies of this type)", r->name, gr->t, name, got, want, gr->n);
        goto out;
    }
    /* A dataset declared but never written reads as fill values: refuse it rather than
     * load zeros (and a tiny file cannot make us allocate for bodies it does not hold). */
    if (H5Dget_storage_size(*d) == 0) {
        gc_log_error("%s: PartType%d/%s holds no data (declared but never written)", r->name,
                     gr->t, name);
        goto out;
    }
    if (cls == H5T_FLOAT && H5Tget_size(t) > 4)
        gr->f64 = 1;
    st = GC_OK;
out:
    close_id(&sp, H5Sclose);
    close_id(&t, H5Tclose);
    if (st != GC_OK)
        close_id(d, H5Dclose);
    return st;
}

static enum gc_status group_open(const struct reader *r, const struct header *h, int t,
                                 struct group *gr)
{
    char name[16];
    enum gc_status st;
    memset(gr, 0, sizeof *gr);
    gr->g = gr->id = gr->x = gr->v = gr->m = gr->gal = H5I_INVALID_HID;
    gr->t = t;
    gr->n = (size_t)h->npart[t];
    gr->component = component_of_type(t);
    gr->table_mass = h->mass_table[t];
    snprintf(name, sizeof name, "PartType%d", t);
    if (H5Lexists(r->file, name, H5P_DEFAULT) > 0)
        gr->g = H5Gopen2(r->file, name, H5P_DEFAULT);
    if (gr->g < 0) {
        gc_log_error("%s: /%s is missing (the header counts %zu bodies of that type)", r->name,
                     name, gr->n);
        return GC_ERR_PARSE;
    }
    if (get_component(r, gr->g, name, &gr->component) < 0)
        return GC_ERR_PARSE;
    st = open_dataset(r, gr, "ParticleIDs", H5T_INTEGER, 0, 1, &gr->id);
    if (st == GC_OK)
        st = open_dataset(r, gr, "Coordinates", H5T_FLOAT, 3, 1, &gr->x);
    if (st == GC_OK)
        st = open_dataset(r, gr, "Velocities", H5T_FLOAT, 3, 1, &gr->v);
    if (st == GC_OK)
        st = open_dataset(r, gr, "Masses", H5T_FLOAT, 0, !(gr->table_mass > 0.0), &gr->m);
    if (st == GC_OK)
        st = open_dataset(r, gr, "GalaxyIndex", H5T_INTEGER, 0, 0, &gr->gal);
    return st;
}

/* Read buffers for CHUNK rows. */
struct rbuf {
    unsigned long long *id;
    long long *gal;
    double *x, *v, *m;
};

static int finite_float(double v)
{
    return isfinite(v) && fabs(v) <= FLT_MAX;
}

/* Reads one group's rows into out, at the index each ParticleID names; seen marks IDs. */
static enum gc_status group_read(const struct reader *r, const struct group *gr,
                                 struct gc_bodies *out, unsigned char *seen, struct rbuf *b)
{
    static const char *const xv_name[2] = {"Coordinates", "Velocities"};
    for (size_t r0 = 0; r0 < gr->n; r0 += CHUNK) {
        const size_t k = gr->n - r0 < CHUNK ? gr->n - r0 : CHUNK;
        const char *what = NULL;
        if (rows_io(gr->id, 0, H5T_NATIVE_ULLONG, b->id, r0, k, 0) < 0)
            what = "ParticleIDs";
        else if (rows_io(gr->x, 0, H5T_NATIVE_DOUBLE, b->x, r0, k, 3) < 0)
            what = "Coordinates";
        else if (rows_io(gr->v, 0, H5T_NATIVE_DOUBLE, b->v, r0, k, 3) < 0)
            what = "Velocities";
        else if (gr->m >= 0 && rows_io(gr->m, 0, H5T_NATIVE_DOUBLE, b->m, r0, k, 0) < 0)
            what = "Masses";
        else if (gr->gal >= 0 && rows_io(gr->gal, 0, H5T_NATIVE_LLONG, b->gal, r0, k, 0) < 0)
            what = "GalaxyIndex";
        if (what) {
            gc_log_error("%s: cannot read PartType%d/%s (file truncated or corrupt?)", r->name,
                         gr->t, what);
            return GC_ERR_IO;
        }
        for (size_t j = 0; j < k; j++) {
            const unsigned long long id = b->id[j];
            const double m = gr->m >= 0 ? b->m[j] : gr->table_mass;
            const long long g = gr->gal >= 0 ? b->gal[j] : 0;
            size_t i;
            if (id < 1 || id > out->n) {
                gc_log_error("%s: PartType%d/ParticleIDs[%zu] = %llu is out of range: IDs "
                             "must be 1 to %zu, each once", r->name, gr->t, r0 + j, id, out->n);
                return GC_ERR_PARSE;
            }
            i = (size_t)(id - 1);
            if (seen[i]) {
                gc_log_error("%s: PartType%d/ParticleIDs[%zu] = %llu appears twice: IDs "
                             "must be 1 to %zu, each once", r->name, gr->t, r0 + j, id, out->n);
                return GC_ERR_PARSE;
            }
            seen[i] = 1;
            for (int w = 0; w < 2; w++) {
                const double *src = w ? b->v : b->x;
                for (int c = 0; c < 3; c++)
                    if (!finite_float(src[3 * j + c])) {
                        gc_log_error("%s: PartType%d/%s[%zu][%d] is not a finite float (%g)",
                                     r->name, gr->t, xv_name[w], r0 + j, c, src[3 * j + c]);
                        return GC_ERR_PARSE;
                    }
            }
            if (!finite_float(m) || !(m > 0.0) || (float)m <= 0.0f) {
                gc_log_error("%s: PartType%d/Masses[%zu]: mass must be positive and finite, "
                             "got %g", r->name, gr->t, r0 + j, m);
                return GC_ERR_PARSE;
            }
            if (g != 0 && g != 1) {
                gc_log_error("%s: PartType%d/GalaxyIndex[%zu] = %lld, expected 0 or 1",
                             r->name, gr->t, r0 + j, g);
                return GC_ERR_PARSE;
            }
            for (int c = 0; c < 3; c++) {
                out->pos[4 * i + c] = (float)b->x[3 * j + c];
                out->vel[4 * i + c] = (float)b->v[3 * j + c];
                if (out->pos64) {
                    out->pos64[3 * i + c] = b->x[3 * j + c];
                    out->vel64[3 * i + c] = b->v[3 * j + c];
                }
            }
            out->pos[4 * i + 3] = (float)m;
            out->vel[4 * i + 3] = 0.0f;
            if (out->mass64)
                out->mass64[i] = m;
            out->tag[i] = GC_TAG((unsigned)g, gr->component);
        }
    }
    return GC_OK;
}

static enum gc_status read_file(const struct reader *r, struct gc_bodies *out, double *time)
{
    struct header h;
    struct group gr[5]; /* types 1..4 used */
    struct rbuf b = {0};
    unsigned char *seen = NULL;
    int f64 = 0;
    enum gc_status st = get_header(r, &h);

    for (int t = 0; t < 5; t++) {
        memset(&gr[t], 0, sizeof gr[t]);
        gr[t].g = gr[t].id = gr[t].x = gr[t].v = gr[t].m = gr[t].gal = H5I_INVALID_HID;
    }
    for (int t = 1; t <= 4 && st == GC_OK; t++)
        if (h.npart[t] > 0) {
            st = group_open(r, &h, t, &gr[t]);
            f64 |= gr[t].f64;
        }
    if (st == GC_OK)
        st = gc_bodies_alloc(out, h.n);
    if (st == GC_OK && f64)
        st = gc_bodies_alloc_f64(out);
    if (st == GC_OK) {
        seen = calloc(h.n, 1);
        b.id = malloc(CHUNK * sizeof *b.id);
        b.gal = malloc(CHUNK * sizeof *b.gal);
        b.x = malloc(3 * CHUNK * sizeof *b.x);
        b.v = malloc(3 * CHUNK * sizeof *b.v);
        b.m = malloc(CHUNK * sizeof *b.m);
        if (!seen || !b.id || !b.gal || !b.x || !b.v || !b.m) {
            gc_log_error("%s: out of memory reading %zu bodies", r->name, h.n);
            st = GC_ERR_NOMEM;
        }
    }
    for (int t = 1; t <= 4 && st == GC_OK; t++)
        if (h.npart[t] > 0)
            st = group_read(r, &gr[t], out, seen, &b);
    /* The header's counts sum to n and no ID was out of range or repeated, so every index
     * 0..n-1 was filled exactly once. */
    for (int t = 1; t <= 4; t++)
        group_close(&gr[t]);
    free(seen);
    free(b.id);
    free(b.gal);
    free(b.x);
    free(b.v);
    free(b.m);
    if (st != GC_OK) {
        gc_bodies_free(out);
        return st;
    }
    if (time)
        *time = h.time;
    return GC_OK;
}

/* File access: close every object with the file, so no error path can leak one. */
static hid_t access_plist(void)
{
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl >= 0 && H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0)
        close_id(&fapl, H5Pclose);
    return fapl;
}

enum gc_status gc_snapshot_hdf5_read(const char *path, struct gc_bodies *out, double *time)
{
    int heaps = 0;
    struct reader r = {path, GC_MAX_BODIES, H5I_INVALID_HID, NULL, 0, &heaps};
    struct quiet q;
    enum gc_status st;
    hid_t fapl;
    FILE *f;

    memset(out, 0, sizeof *out);
    f = fopen(path, "rb");
    if (!f) {
        gc_log_error("%s: cannot open: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    fclose(f);
    quiet_begin(&q);
    fapl = access_plist();
    r.file = fapl >= 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : H5I_INVALID_HID;
    if (r.file < 0) {
        gc_log_error("%s: not a readable HDF5 file (truncated or corrupt?)", path);
        st = GC_ERR_IO;
    } else {
        st = read_file(&r, out, time);
        H5Fclose(r.file);
    }
    close_id(&fapl, H5Pclose);
    quiet_end(&q);
    return st;
}

enum gc_status gc_snapshot_hdf5_read_image(const void *image, size_t size, const char *name,
                                           size_t max_bodies, struct gc_bodies *out,
                                           double *time)
{
    int heaps = 0;
    struct reader r = {name, max_bodies < GC_MAX_BODIES ? max_bodies : GC_MAX_BODIES,
                       H5I_INVALID_HID, (const unsigned char *)image, size, &heaps};
    struct quiet q;
    enum gc_status st;
    hid_t fapl;

    memset(out, 0, sizeof *out);
    if (!image || size == 0) {
        gc_log_error("%s: empty file", name);
        return GC_ERR_PARSE;
    }
    quiet_begin(&q);
    fapl = access_plist();
    /* The core driver reads the file from memory; no backing store, nothing on disk. */
    if (fapl >= 0 && (H5Pset_fapl_core(fapl, 1 << 16, 0) < 0 ||
                      H5Pset_file_image(fapl, (void *)image, size) < 0))
        close_id(&fapl, H5Pclose);
    r.file = fapl >= 0 ? H5Fopen(name, H5F_ACC_RDONLY, fapl) : H5I_INVALID_HID;
    if (r.file < 0) {
        gc_log_error("%s: not a readable HDF5 file (truncated or corrupt?)", name);
        st = GC_ERR_IO;
    } else {
        st = read_file(&r, out, time);
        H5Fclose(r.file);
    }
    close_id(&fapl, H5Pclose);
    quiet_end(&q);
    return st;
}

#else /* !GC_HAVE_HDF5 */

static enum gc_status no_hdf5(const char *what)
{
    gc_log_error("%s: this build has no HDF5 support: install libhdf5-dev (the HDF5 C "
                 "library) and rebuild", what ? what : "HDF5");
    return GC_ERR_UNSUPPORTED;
}

int gc_snapshot_hdf5_available(void)
{
    return 0;
}

enum gc_status gc_snapshot_hdf5_write(const char *path, const struct gc_bodies *b, double time)
{
    (void)b;
    (void)time;
    return no_hdf5(path);
}

enum gc_status gc_snapshot_hdf5_read(const char *path, struct gc_bodies *out, double *time)
{
    memset(out, 0, sizeof *out);
    (void)time;
    return no_hdf5(path);
}

enum gc_status gc_snapshot_hdf5_read_image(const void *image, size_t size, const char *name,
                                           size_t max_bodies, struct gc_bodies *out,
                                           double *time)
{
    (void)image;
    (void)size;
    (void)max_bodies;
    (void)time;
    memset(out, 0, sizeof *out);
    return no_hdf5(name);
}

#endif
