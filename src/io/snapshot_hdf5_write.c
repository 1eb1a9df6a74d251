/* Writes HDF5 snapshots in the GADGET/SWIFT layout: /Header, then a /PartTypeN group per component. */
/* SPDX-License-Identifier: MIT */
#include "snapshot_hdf5.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "outfile.h"
#include "snapshot_hdf5_layout.h"
#include "units.h"

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

/* A group whose attributes stay in its object header: libhdf5 moves more than 8 to a
 * fractal heap and B-tree of their own, which made /Header and /Units ~12 KB of a
 * snapshot's size. */
static hid_t attr_group(hid_t file, const char *name)
{
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    hid_t g = gcpl >= 0 && H5Pset_attr_phase_change(gcpl, 64, 0) >= 0
                  ? H5Gcreate2(file, name, H5P_DEFAULT, gcpl, H5P_DEFAULT)
                  : H5I_INVALID_HID;
    close_id(&gcpl, H5Pclose);
    return g;
}

/* The code units in cgs (the galaxy scaling of units.h): length, mass, velocity, time. */
struct cgs {
    double length, mass, velocity, time;
};

static struct cgs galaxy_cgs(void)
{
    struct cgs u;
    u.length = GC_KPC_PER_LENGTH_UNIT * GC_CM_PER_KPC;
    u.time = GC_MYR_PER_TIME_UNIT * GC_S_PER_MYR;
    u.velocity = u.length / u.time;
    u.mass = u.length * u.length * u.length / (GC_G_CGS * u.time * u.time); /* G = 1 */
    return u;
}

/* The run's units: 'g' galaxy scaling (cgs known), 'h' Henon units (no physical scale),
 * 0 unknown (a snapshot written without its run). */
static char unit_kind(const struct gc_snapshot_run *run)
{
    if (run && strcmp(run->units, "galaxy") == 0)
        return 'g';
    if (run && strcmp(run->units, "henon") == 0)
        return 'h';
    return 0;
}

/* GADGET-4's unit attributes, where it writes them (Header, /Parameters), and EAGLE's
 * UnitTime_in_s; pynbody and yt read these names. */
static int put_gadget_units(hid_t loc, const struct cgs *u, int with_time)
{
    return put_attr(loc, "UnitLength_in_cm", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &u->length, 0) &&
           put_attr(loc, "UnitMass_in_g", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &u->mass, 0) &&
           put_attr(loc, "UnitVelocity_in_cm_per_s", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                    &u->velocity, 0) &&
           (!with_time ||
            put_attr(loc, "UnitTime_in_s", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &u->time, 0));
}

/* /Units: the GADGET names and SWIFT's, and in words which system the values are in. Henon
 * units have no physical scale: the group says so and gives no cgs values. */
static int put_units(hid_t file, char kind)
{
    static const char *const word[2] = {
        "galaxy: N-body units with G = 1, 1 length unit = 3.2 kpc, 1 time unit = 18 Myr",
        "henon: Henon units of a star cluster, G = M = 1, E = -1/4, no physical scale"};
    const struct cgs u = galaxy_cgs();
    const double one = 1.0;
    hid_t g = attr_group(file, "Units");
    int ok = g >= 0 && put_string_attr(g, "UnitSystem", word[kind == 'h']);
    if (ok && kind == 'g')
        ok = put_gadget_units(g, &u, 1) &&
             put_attr(g, "Unit length in cgs (U_L)", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      &u.length, 0) &&
             put_attr(g, "Unit mass in cgs (U_M)", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &u.mass,
                      0) &&
             put_attr(g, "Unit time in cgs (U_t)", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &u.time,
                      0) &&
             put_attr(g, "Unit current in cgs (U_I)", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &one,
                      0) &&
             put_attr(g, "Unit temperature in cgs (U_T)", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      &one, 0);
    close_id(&g, H5Gclose);
    return ok;
}

/* Time in Gyr, as EAGLE writes it (Time_GYR): pynbody takes a snapshot's time from it and
 * otherwise from a cosmology, which a collision run has not. */
static int put_time_gyr(hid_t loc, double time)
{
    const double gyr = time * GC_MYR_PER_TIME_UNIT * 1e-3;
    return put_attr(loc, "Time_GYR", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &gyr, 0);
}

/* /Header as GADGET-4 writes it for a non-cosmological run (Redshift 0, Omega0 and
 * OmegaLambda 0, HubbleParam 1, no periodic box), GADGET-2's flags all off but the
 * precision, and the units where the run's are known. */
static int put_header(hid_t file, const size_t count[GC_HDF5_NTYPES], double time, int f64,
                      char units)
{
    static const char *const flag[] = {"Flag_Sfr",       "Flag_Feedback", "Flag_Cooling",
                                       "Flag_StellarAge", "Flag_Metals",  "Flag_Entropy_ICs"};
    uint32_t lo[GC_HDF5_NTYPES], hi[GC_HDF5_NTYPES];
    double zero6[GC_HDF5_NTYPES] = {0}, zero = 0.0, one_d = 1.0;
    int32_t one = 1, dp = f64, off = 0;
    const struct cgs u = galaxy_cgs();
    hid_t h = attr_group(file, "Header");
    int ok;
    for (int t = 0; t < GC_HDF5_NTYPES; t++) {
        lo[t] = (uint32_t)(count[t] & 0xffffffffu);
        hi[t] = (uint32_t)((uint64_t)count[t] >> 32);
    }
    ok = h >= 0 &&
         put_attr(h, "NumPart_ThisFile", H5T_STD_U32LE, H5T_NATIVE_UINT32, lo, GC_HDF5_NTYPES) &&
         put_attr(h, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, lo, GC_HDF5_NTYPES) &&
         put_attr(h, "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT32, hi,
                  GC_HDF5_NTYPES) &&
         put_attr(h, "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, zero6, GC_HDF5_NTYPES) &&
         put_attr(h, "Time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &time, 0) &&
         put_attr(h, "Redshift", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, 0) &&
         put_attr(h, "BoxSize", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, 0) &&
         put_attr(h, "NumFilesPerSnapshot", H5T_STD_I32LE, H5T_NATIVE_INT32, &one, 0) &&
         put_attr(h, "Omega0", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, 0) &&
         put_attr(h, "OmegaLambda", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &zero, 0) &&
         put_attr(h, "HubbleParam", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &one_d, 0) &&
         put_attr(h, "Flag_DoublePrecision", H5T_STD_I32LE, H5T_NATIVE_INT32, &dp, 0);
    for (size_t k = 0; ok && k < sizeof flag / sizeof flag[0]; k++)
        ok = put_attr(h, flag[k], H5T_STD_I32LE, H5T_NATIVE_INT32, &off, 0);
    if (ok && units == 'g')
        ok = put_gadget_units(h, &u, 0) && put_time_gyr(h, time);
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

/* Staging buffers of GC_HDF5_CHUNK bodies for one group. */
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
        s->x64 = malloc(3 * GC_HDF5_CHUNK * sizeof *s->x64);
        s->v64 = malloc(3 * GC_HDF5_CHUNK * sizeof *s->v64);
        s->m64 = malloc(GC_HDF5_CHUNK * sizeof *s->m64);
    } else {
        s->x32 = malloc(3 * GC_HDF5_CHUNK * sizeof *s->x32);
        s->v32 = malloc(3 * GC_HDF5_CHUNK * sizeof *s->v32);
        s->m32 = malloc(GC_HDF5_CHUNK * sizeof *s->m32);
    }
    s->id = malloc(GC_HDF5_CHUNK * sizeof *s->id);
    s->gal = malloc(GC_HDF5_CHUNK * sizeof *s->gal);
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

/* One /PartTypeN group: the bodies i with type[i] == t, in run order, GC_HDF5_CHUNK at a time. */
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
        ok = put_string_attr(g, "Component", component_name(GC_TAG_COMPONENT(b->tag[first])));
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
        for (; i < b->n && k < GC_HDF5_CHUNK; i++) {
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

/* /Parameters: the run's settings as attributes (SWIFT keeps its run-time parameters in a
 * group of that name), so that a restart continues with them. */
static int put_parameters(hid_t file, const struct gc_snapshot_run *r, double time)
{
    const int64_t index = r->index;
    hid_t g = attr_group(file, "Parameters");
    int ok = g >= 0;
    struct {
        const char *name;
        double v;
    } num[] = {{"Softening", r->eps}, {"TimeStep", r->dt},        {"Eta", r->eta},
               {"DtMax", r->dt_max},  {"Theta", r->theta},         {"SnapshotEvery", r->every}};
    struct {
        const char *name, *v;
    } text[] = {{"Integrator", r->integrator}, {"ForceMethod", r->force}, {"Model", r->model},
                {"Units", r->units}};
    for (size_t k = 0; ok && k < sizeof text / sizeof text[0]; k++)
        ok = !*text[k].v || put_string_attr(g, text[k].name, text[k].v);
    for (size_t k = 0; ok && k < sizeof num / sizeof num[0]; k++)
        ok = put_attr(g, num[k].name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &num[k].v, 0);
    ok = ok && put_attr(g, "Seed", H5T_STD_U64LE, H5T_NATIVE_UINT64, &r->seed, 0) &&
         put_attr(g, "SnapshotIndex", H5T_STD_I64LE, H5T_NATIVE_INT64, &index, 0);
    /* pynbody reads a time and its cosmology from /Parameters, not /Header, when the group
     * exists: the time in Gyr is given here too (and HubbleParam is not, which would make it
     * treat the run as cosmological). */
    if (ok && unit_kind(r) == 'g')
        ok = put_time_gyr(g, time);
    close_id(&g, H5Gclose);
    return ok;
}

/* The libhdf5 types of a state's values: in memory (native) and in the file (little-endian,
 * as the rest of the layout). */
static hid_t native_type(enum gc_state_type t)
{
    switch (t) {
    case GC_STATE_F32: return H5T_NATIVE_FLOAT;
    case GC_STATE_F64: return H5T_NATIVE_DOUBLE;
    case GC_STATE_I64: return H5T_NATIVE_INT64;
    case GC_STATE_U8: return H5T_NATIVE_UINT8;
    default: return H5I_INVALID_HID;
    }
}

static hid_t file_type(enum gc_state_type t)
{
    switch (t) {
    case GC_STATE_F32: return H5T_IEEE_F32LE;
    case GC_STATE_F64: return H5T_IEEE_F64LE;
    case GC_STATE_I64: return H5T_STD_I64LE;
    case GC_STATE_U8: return H5T_STD_U8LE;
    default: return H5I_INVALID_HID;
    }
}

/* Bytes the state's stored fields take in the file. */
static size_t state_bytes(const struct gc_state *st)
{
    size_t per_body = 0;
    for (size_t k = 0; k < st->nfields; k++)
        per_body += st->field[k].width * gc_state_type_size(st->field[k].stored);
    return st->n * per_body;
}

/* /IntegratorState: each field of the state that files keep, a dataset of its name with n
 * rows in run order (n x width, or n for one value a body), GC_HDF5_CHUNK rows at a time;
 * each named number an attribute of the group. libhdf5 converts the blob's type to the
 * stored one. */
static int put_state(hid_t file, const struct gc_state *st)
{
    size_t widest = 0;
    unsigned char *buf;
    hid_t g;
    int ok;
    for (size_t k = 0; k < st->nfields; k++)
        if (st->field[k].width * gc_state_type_size(st->field[k].type) > widest)
            widest = st->field[k].width * gc_state_type_size(st->field[k].type);
    buf = malloc(GC_HDF5_CHUNK * widest);
    g = buf ? H5Gcreate2(file, "IntegratorState", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT)
            : H5I_INVALID_HID;
    ok = g >= 0;
    for (size_t k = 0; ok && k < st->nscalars; k++)
        ok = put_attr(g, st->scalar[k].name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                      &st->scalar[k].value, 0);
    for (size_t k = 0; ok && k < st->nfields; k++) {
        const struct gc_state_field *f = &st->field[k];
        const size_t size = gc_state_type_size(f->type), cols = f->width > 1 ? f->width : 0;
        hid_t d;
        if (f->stored == GC_STATE_NONE)
            continue;
        d = make_dataset(g, f->name, file_type(f->stored), st->n, cols);
        ok = d >= 0;
        for (size_t r0 = 0; ok && r0 < st->n; r0 += GC_HDF5_CHUNK) {
            const size_t rows = st->n - r0 < GC_HDF5_CHUNK ? st->n - r0 : GC_HDF5_CHUNK;
            for (size_t i = 0; i < rows; i++)
                memcpy(buf + i * f->width * size, gc_state_at(st, f, r0 + i), f->width * size);
            ok = rows_io(d, 1, native_type(f->type), buf, r0, rows, cols) >= 0;
        }
        close_id(&d, H5Dclose);
    }
    close_id(&g, H5Gclose);
    free(buf);
    return ok;
}

/* The file is built in memory (libhdf5's core driver, no backing store) and written to disk
 * here. libhdf5 1.10 does not survive a failed write to disk: a close whose flush failed
 * leaves the file half torn down, and the library crashes at exit closing it again (SIGSEGV
 * in H5F__close_cb after the disk filled up during a snapshot). Our own write meets the full
 * disk instead, reports the system's reason and removes the partial file. The core driver's
 * buffer is ours (these callbacks) and handed over at the close instead of freed, so the
 * file is held in memory once. */
struct image {
    void *mem;   /* the file's bytes after the close; owned */
    size_t size; /* bytes allocated */
};

static void *image_malloc(size_t size, H5FD_file_image_op_t op, void *udata)
{
    struct image *im = udata;
    (void)op;
    im->size = size;
    return calloc(1, size ? size : 1);
}

static void *image_memcpy(void *dest, const void *src, size_t size, H5FD_file_image_op_t op,
                          void *udata)
{
    (void)op;
    (void)udata;
    return memcpy(dest, src, size);
}

/* Grown space is zeroed: the file's unused gaps hold no stale memory. */
static void *image_realloc(void *ptr, size_t size, H5FD_file_image_op_t op, void *udata)
{
    struct image *im = udata;
    const size_t old = ptr ? im->size : 0;
    unsigned char *p = realloc(ptr, size ? size : 1);
    (void)op;
    if (!p)
        return NULL;
    if (size > old)
        memset(p + old, 0, size - old);
    im->size = size;
    return p;
}

static herr_t image_free(void *ptr, H5FD_file_image_op_t op, void *udata)
{
    struct image *im = udata;
    if (op == H5FD_FILE_IMAGE_OP_FILE_CLOSE && !im->mem)
        im->mem = ptr;
    else
        free(ptr);
    return 0;
}

static void *udata_copy(void *udata)
{
    return udata;
}

static herr_t udata_free(void *udata)
{
    (void)udata;
    return 0;
}

/* The in-memory file's access list: 1.8 format, the core driver growing by `step` bytes. */
static hid_t memory_fapl(struct image *im, size_t step)
{
    H5FD_file_image_callbacks_t cb = {image_malloc, image_memcpy, image_realloc, image_free,
                                      udata_copy, udata_free, im};
    hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    /* The HDF5 1.8 file format: readable by every h5py, yt and pynbody of the last decade,
     * and its compact groups keep a small snapshot at a few KB instead of ~12. */
    if (fapl >= 0 && (H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18) < 0 ||
                      H5Pset_fapl_core(fapl, step, 0) < 0 ||
                      H5Pset_file_image_callbacks(fapl, &cb) < 0))
        close_id(&fapl, H5Pclose);
    return fapl;
}

/* The end-of-file address the closed file's superblock records: its size (the driver's
 * buffer grows in steps, and what H5Fget_file_image says before the close can be short of
 * what the close adds). Version 2
 * (the 1.8 format): signature (8 bytes), version, offset and length sizes, flags, base
 * address (8), extension address (8), end-of-file address (8), little-endian (HDF5 File
 * Format Specification, "Superblock"). 0 when it is not that superblock. */
static size_t stored_eof(const struct image *im)
{
    const unsigned char *p = im->mem;
    uint64_t eof = 0;
    if (!p || im->size < 36 || memcmp(p, "\211HDF\r\n\032\n", 8) != 0 || p[8] != 2 || p[9] != 8)
        return 0;
    for (int k = 7; k >= 0; k--)
        eof = eof << 8 | p[28 + k];
    return (size_t)eof;
}

/* Bytes of the file's datasets (the core driver then grows at most once). */
static size_t data_bytes(const struct gc_bodies *b, const struct gc_snapshot_run *run)
{
    const size_t w = has_f64(b) ? 8 : 4;
    const size_t state = run ? state_bytes(&run->state) : 0;
    return b->n * (7 * w + sizeof(uint64_t) + 1) + state + ((size_t)64 << 10);
}

enum gc_status gc_snapshot_hdf5_write(const char *path, const struct gc_bodies *b, double time)
{
    return gc_snapshot_hdf5_write_run(path, b, time, NULL);
}

enum gc_status gc_snapshot_hdf5_write_run(const char *path, const struct gc_bodies *b,
                                          double time, const struct gc_snapshot_run *run)
{
    size_t count[GC_HDF5_NTYPES] = {0};
    uint8_t *type = NULL;
    struct stage s = {0};
    struct image im = {NULL, 0};
    struct gc_outfile out;
    hid_t file = H5I_INVALID_HID, fapl;
    size_t used = 0;
    int ok;
    enum gc_status st;

    if (!b || b->n == 0 || !b->pos || !b->vel || !b->tag) {
        gc_log_error("%s: no bodies to write", path);
        return GC_ERR_INVALID;
    }
    if (!isfinite(time)) {
        gc_log_error("%s: snapshot time %g is not finite", path, time);
        return GC_ERR_INVALID;
    }
    if (run && state_bytes(&run->state) > 0 &&
        (run->state.n != b->n || run->state.memory != GC_STATE_HOST)) {
        gc_log_error("%s: an integrator state of %zu bodies for %zu bodies", path, run->state.n,
                     b->n);
        return GC_ERR_INVALID;
    }
    /* Complete or not at all under its name; a device or pipe written as it is. */
    st = gc_outfile_begin(&out, path);
    if (st != GC_OK)
        return st;
    type = malloc(b->n);
    if (!type || !stage_alloc(&s, has_f64(b))) {
        gc_log_error("%s: out of memory preparing a snapshot of %zu bodies", path, b->n);
        free(type);
        stage_free(&s);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < b->n; i++) {
        type[i] = (uint8_t)type_of_component(GC_TAG_COMPONENT(b->tag[i]));
        count[type[i]]++;
    }

    /* Made first: a folder that is missing or not writable is told before any work. */
    st = gc_outfile_open(&out);
    if (st != GC_OK)
        goto out;
    st = GC_ERR_IO;
    silence_hdf5();
    fapl = memory_fapl(&im, data_bytes(b, run));
    /* In memory only (the core driver without a backing store): the name touches no file. */
    file = fapl >= 0 ? H5Fcreate(out.write, H5F_ACC_TRUNC, H5P_DEFAULT, fapl)
                     : H5I_INVALID_HID;
    close_id(&fapl, H5Pclose);
    ok = file >= 0 && put_header(file, count, time, has_f64(b), unit_kind(run));
    if (ok && unit_kind(run))
        ok = put_units(file, unit_kind(run));
    for (int t = 1; ok && t <= 4; t++)
        if (count[t])
            ok = put_group(file, b, type, t, count[t], &s);
    if (ok && run)
        ok = put_parameters(file, run, time) &&
             (!run->group_of || gc_hdf5_put_groups(file, run->group_of, b->n));
    if (ok && run && state_bytes(&run->state) > 0)
        ok = put_state(file, &run->state);
    if (file >= 0 && H5Fclose(file) < 0)
        ok = 0;
    used = ok ? stored_eof(&im) : 0;
    if (used == 0 || used > im.size) {
        /* Nothing of this reached the disk: only memory can be short here. */
        gc_log_error("%s: cannot build the snapshot of %zu bodies in memory (out of memory?)",
                     path, b->n);
        st = GC_ERR_NOMEM;
    } else if (!gc_outfile_write(&out, im.mem, used)) {
        gc_log_error("%s: cannot write %s: %s%s", path, out.write, strerror(errno),
                     out.direct ? "" : " (removed it)");
    } else {
        st = GC_OK;
    }
    st = gc_outfile_end(&out, st == GC_OK) != GC_OK && st == GC_OK ? GC_ERR_IO : st;
out:
    free(im.mem);
    free(type);
    stage_free(&s);
    return st;
}
