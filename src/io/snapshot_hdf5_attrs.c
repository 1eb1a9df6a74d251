/* Reads a snapshot's attributes (/Header, groups' Component), checking its string heaps first. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "gheap_check.h"
#include "log.h"
#include "snapshot_hdf5_reader.h"

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
static enum gc_status scan_heaps(const struct gc_snapshot_reader *r, unsigned ss, long long *bad)
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
static int heaps_safe(const struct gc_snapshot_reader *r)
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

const char *gc_snapshot_hdf5_class_word(H5T_class_t c)
{
    return c == H5T_INTEGER ? "integers" : c == H5T_FLOAT ? "floating-point numbers" : "strings";
}

/* Reads attribute `name` of loc (called `where` in messages): `count` values of class cls,
 * converted to mem_type. Returns 1 when read, 0 when absent (an error only if required),
 * -1 on a logged error. */
static int get_attr(const struct gc_snapshot_reader *r, hid_t loc, const char *where,
                    const char *name, H5T_class_t cls, hid_t mem_type, void *out,
                    hssize_t count, int required)
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
                     gc_snapshot_hdf5_class_word(cls));
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

/* String attribute `name` of loc (fixed or variable length) into buf (cap bytes, cut to
 * fit); 1 when read, 0 when absent, -1 on a logged error. */
static int get_string(const struct gc_snapshot_reader *r, hid_t loc, const char *where,
                      const char *name, char *buf, size_t cap)
{
    hid_t a = H5I_INVALID_HID, t = H5I_INVALID_HID, sp = H5I_INVALID_HID, mt = H5I_INVALID_HID;
    htri_t ex = H5Aexists(loc, name);
    int res = -1, var;
    size_t size;
    char fixed[256] = {0};
    if (ex == 0)
        return 0;
    if (ex > 0)
        a = H5Aopen(loc, name, H5P_DEFAULT);
    if (a >= 0)
        t = H5Aget_type(a);
    if (a >= 0)
        sp = H5Aget_space(a);
    if (t < 0 || sp < 0 || H5Tget_class(t) != H5T_STRING ||
        H5Sget_simple_extent_npoints(sp) != 1) {
        gc_log_error("%s: attribute %s of %s must be one string", r->name, name, where);
        goto out;
    }
    var = H5Tis_variable_str(t) > 0;
    size = H5Tget_size(t);
    /* HDF5 converts strings only within one character set (h5py writes UTF-8). */
    mt = H5Tcopy(H5T_C_S1);
    if (mt < 0 || H5Tset_size(mt, var ? H5T_VARIABLE : sizeof fixed - 1) < 0 ||
        H5Tset_cset(mt, H5Tget_cset(t)) < 0) {
        gc_log_error("%s: cannot read attribute %s of %s", r->name, name, where);
        goto out;
    }
    if (var) {
        char *v = NULL;
        if (!heaps_safe(r))
            goto out;
        if (H5Aread(a, mt, &v) < 0 || !v) {
            gc_log_error("%s: cannot read attribute %s of %s", r->name, name, where);
            goto out;
        }
        snprintf(buf, cap, "%s", v);
        H5free_memory(v);
    } else if (size == 0 || size >= sizeof fixed || H5Aread(a, mt, fixed) < 0) {
        gc_log_error("%s: attribute %s of %s is not a short string", r->name, name, where);
        goto out;
    } else {
        snprintf(buf, cap, "%s", fixed);
    }
    res = 1;
out:
    close_id(&mt, H5Tclose);
    close_id(&sp, H5Sclose);
    close_id(&t, H5Tclose);
    close_id(&a, H5Aclose);
    return res;
}

/* The Component attribute of a group (a string, fixed or variable length), when present. */
int gc_snapshot_hdf5_get_component(const struct gc_snapshot_reader *r, hid_t g,
                                   const char *where, unsigned *comp)
{
    char buf[32] = {0};
    int got = get_string(r, g, where, "Component", buf, sizeof buf);
    if (got <= 0)
        return got;
    for (unsigned c = 0; c < 4; c++)
        if (strcmp(buf, component_name(c)) == 0) {
            *comp = c;
            return 1;
        }
    gc_log_error("%s: attribute Component of %s is '%.31s', not halo, disk, bulge or star", r->name,
                 where, buf);
    return -1;
}

int gc_snapshot_hdf5_get_parameters(const struct gc_snapshot_reader *r,
                                    struct gc_snapshot_run *run)
{
    struct {
        const char *name;
        double *v;
    } num[] = {{"Softening", &run->eps}, {"TimeStep", &run->dt},     {"Eta", &run->eta},
               {"DtMax", &run->dt_max},  {"Theta", &run->theta},     {"SnapshotEvery", &run->every}};
    struct {
        const char *name;
        char *v;
        size_t cap;
    } text[] = {{"Integrator", run->integrator, sizeof run->integrator},
                {"ForceMethod", run->force, sizeof run->force},
                {"Model", run->model, sizeof run->model},
                {"Units", run->units, sizeof run->units}};
    long long index = -1;
    hid_t g;
    int ok = 1;
    run->index = -1;
    if (H5Lexists(r->file, "Parameters", H5P_DEFAULT) <= 0)
        return 0;
    g = H5Gopen2(r->file, "Parameters", H5P_DEFAULT);
    if (g < 0)
        return 0; /* another code's /Parameters of another kind: not ours to read */
    for (size_t k = 0; ok && k < sizeof text / sizeof text[0]; k++)
        ok = get_string(r, g, "/Parameters", text[k].name, text[k].v, text[k].cap) >= 0;
    for (size_t k = 0; ok && k < sizeof num / sizeof num[0]; k++) {
        /* Not recorded is not 0 (a softening of 0 is a setting of its own): NaN. */
        const int got = get_attr(r, g, "/Parameters", num[k].name, H5T_FLOAT,
                                 H5T_NATIVE_DOUBLE, num[k].v, 1, 0);
        ok = got >= 0;
        if (got == 0)
            *num[k].v = NAN;
        if (got > 0 && (!isfinite(*num[k].v) || *num[k].v < 0.0)) {
            gc_log_error("%s: /Parameters %s = %g must be finite and >= 0", r->name,
                         num[k].name, *num[k].v);
            ok = 0;
        }
    }
    ok = ok &&
         get_attr(r, g, "/Parameters", "Seed", H5T_INTEGER, H5T_NATIVE_UINT64, &run->seed, 1,
                  0) >= 0 &&
         get_attr(r, g, "/Parameters", "SnapshotIndex", H5T_INTEGER, H5T_NATIVE_LLONG, &index, 1,
                  0) >= 0;
    H5Gclose(g);
    run->index = index;
    return ok ? 1 : -1;
}

enum gc_status gc_snapshot_hdf5_get_header(const struct gc_snapshot_reader *r,
                                           struct gc_snapshot_header *h)
{
    static const char *const type_word[GC_HDF5_NTYPES_READ] = {
        "gas", "", "", "", "stars", "black holes", "neutrinos"};
    long long total[GC_HDF5_NTYPES_READ] = {0}, high[GC_HDF5_NTYPES_READ] = {0}, files = 1;
    hid_t g;
    htri_t ex = H5Lexists(r->file, "Header", H5P_DEFAULT);
    int ok, nt = GC_HDF5_NTYPES;

    memset(h, 0, sizeof *h);
    if (ex < 0) {
        gc_log_error("%s: cannot look up /Header: the file's group structure is corrupt",
                     r->name);
        return GC_ERR_PARSE;
    }
    g = ex > 0 ? H5Gopen2(r->file, "Header", H5P_DEFAULT) : H5I_INVALID_HID;
    if (g < 0) {
        gc_log_error("%s: no /Header group: not a snapshot in the GADGET/SWIFT layout", r->name);
        return GC_ERR_PARSE;
    }
    /* GADGET's 6 types or SWIFT's 7, the same number in every per-type array. */
    if (H5Aexists(g, "NumPart_ThisFile") > 0) {
        hid_t a = H5Aopen(g, "NumPart_ThisFile", H5P_DEFAULT);
        hid_t sp = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
        if (sp >= 0 && H5Sget_simple_extent_npoints(sp) == GC_HDF5_NTYPES_READ)
            nt = GC_HDF5_NTYPES_READ;
        close_id(&sp, H5Sclose);
        close_id(&a, H5Aclose);
    }
    ok = get_attr(r, g, "/Header", "NumPart_ThisFile", H5T_INTEGER, H5T_NATIVE_LLONG, h->npart,
                  nt, 1) > 0 &&
         get_attr(r, g, "/Header", "Time", H5T_FLOAT, H5T_NATIVE_DOUBLE, &h->time, 1, 1) > 0;
    /* The rest is optional in files from other codes, but must agree when present. */
    ok = ok &&
         get_attr(r, g, "/Header", "MassTable", H5T_FLOAT, H5T_NATIVE_DOUBLE, h->mass_table,
                  nt, 0) >= 0 &&
         get_attr(r, g, "/Header", "NumPart_Total", H5T_INTEGER, H5T_NATIVE_LLONG, total, nt,
                  0) >= 0 &&
         get_attr(r, g, "/Header", "NumPart_Total_HighWord", H5T_INTEGER, H5T_NATIVE_LLONG,
                  high, nt, 0) >= 0 &&
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
    /* A restart's clock goes on from Time: it must leave room for steps (a time of 1e308
     * is finite, but nothing can be added to it, and is 5e309 Myr, which is inf). */
    if (fabs(h->time) > GC_HDF5_MAX_TIME) {
        gc_log_error("%s: /Header Time = %g is out of range (|Time| <= %g N-body units)",
                     r->name, h->time, GC_HDF5_MAX_TIME);
        return GC_ERR_PARSE;
    }
    if (files != 1) {
        gc_log_error("%s: /Header NumFilesPerSnapshot = %lld: only single-file snapshots can "
                     "be read", r->name, files);
        return GC_ERR_PARSE;
    }
    for (int t = 0; t < nt; t++) {
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
