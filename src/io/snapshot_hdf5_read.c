/* Reads HDF5 snapshots in the GADGET/SWIFT layout, from a file or a memory image, into bodies. */
/* SPDX-License-Identifier: MIT */
#include "snapshot_hdf5.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdf5_chunk_check.h"
#include "hdf5_read_driver.h"
#include "infile.h"
#include "log.h"
#include "snapshot_hdf5_reader.h"

/* The open datasets of one /PartTypeN group. */
struct group {
    int t;
    size_t n;
    unsigned component;
    double table_mass; /* MassTable entry, used where Masses is absent */
    hid_t g, id, x, v, m, gal;
    int f64;           /* Coordinates, Velocities or Masses stored wider than float32 */
    int id_signed;     /* ParticleIDs stored as signed integers (read as such: -1 stays -1) */
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

static enum gc_status open_dataset(const struct gc_snapshot_reader *r, struct group *gr,
                                   const char *name, H5T_class_t cls, size_t cols, int required,
                                   hid_t *d)
{
    hsize_t dims[H5S_MAX_RANK] = {0};
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
    if (t < 0 || rank < 0 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
        gc_log_error("%s: PartType%d/%s: cannot read its type or shape (file corrupt?)",
                     r->name, gr->t, name);
        goto out;
    }
    if (H5Tget_class(t) != cls) {
        gc_log_error("%s: PartType%d/%s must hold %s", r->name, gr->t, name,
                     gc_snapshot_hdf5_class_word(cls));
        goto out;
    }
    if (rank != (cols ? 2 : 1) || dims[0] != gr->n || (cols && dims[1] != cols)) {
        char want[48], got[96];
        int used = 0;
        snprintf(want, sizeof want, cols ? "%zu x %zu" : "%zu", gr->n, cols);
        if (rank == 0)
            snprintf(got, sizeof got, "a scalar");
        for (int k = 0; k < rank && k < 4 && used < (int)sizeof got; k++)
            used += snprintf(got + used, sizeof got - (size_t)used, "%s%llu", k ? " x " : "",
                             (unsigned long long)dims[k]);
        if (rank > 4 && used < (int)sizeof got)
            snprintf(got + used, sizeof got - (size_t)used, " x ... (%d dimensions)", rank);
        gc_log_error("%s: PartType%d/%s has shape %s, expected %s (the header counts %zu "
                     "bodies of this type)", r->name, gr->t, name, got, want, gr->n);
        goto out;
    }
    /* Values that are not the file's own, or never written (read as fill values: refused
     * rather than loaded as zeros; a tiny file cannot make us allocate for bodies it does
     * not hold). */
    {
        const char *why =
            gc_snapshot_hdf5_storage_insane(*d, t, (hsize_t)gr->n * (cols ? cols : 1));
        if (why) {
            gc_log_error("%s: PartType%d/%s %s", r->name, gr->t, name, why);
            goto out;
        }
    }
    if (cls == H5T_FLOAT && H5Tget_size(t) > 4)
        gr->f64 = 1;
    if (cls == H5T_INTEGER && strcmp(name, "ParticleIDs") == 0)
        gr->id_signed = H5Tget_sign(t) == H5T_SGN_2;
    st = GC_OK;
out:
    close_id(&sp, H5Sclose);
    close_id(&t, H5Tclose);
    if (st != GC_OK)
        close_id(d, H5Dclose);
    return st;
}

/* What the object at `name` is, in words, for a message about finding the wrong kind. */
static enum gc_status group_open(const struct gc_snapshot_reader *r,
                                 const struct gc_snapshot_header *h, int t, struct group *gr)
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
    st = gc_snapshot_hdf5_open_group(r, name, &gr->g);
    if (st == GC_OK && gr->g < 0) {
        gc_log_error("%s: /%s is missing (the header counts %zu bodies of that type)", r->name,
                     name, gr->n);
        st = GC_ERR_PARSE;
    }
    if (st != GC_OK)
        return st;
    if (gc_snapshot_hdf5_get_component(r, gr->g, name, &gr->component) < 0)
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

/* Read buffers for GC_HDF5_CHUNK rows. */
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
static enum gc_status group_read(const struct gc_snapshot_reader *r, const struct group *gr,
                                 struct gc_bodies *out, unsigned char *seen, struct rbuf *b)
{
    static const char *const xv_name[2] = {"Coordinates", "Velocities"};
    for (size_t r0 = 0; r0 < gr->n; r0 += GC_HDF5_CHUNK) {
        const size_t k = gr->n - r0 < GC_HDF5_CHUNK ? gr->n - r0 : GC_HDF5_CHUNK;
        const char *what = NULL;
        if (rows_io(gr->id, 0, gr->id_signed ? H5T_NATIVE_LLONG : H5T_NATIVE_ULLONG, b->id, r0,
                    k, 0) < 0)
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
            /* Signed IDs were read as such: a negative one is named as it is written. */
            const long long sid = gr->id_signed ? (long long)id : 1;
            const double m = gr->m >= 0 ? b->m[j] : gr->table_mass;
            const long long g = gr->gal >= 0 ? b->gal[j] : 0;
            size_t i;
            if (sid < 1) {
                gc_log_error("%s: PartType%d/ParticleIDs[%zu] = %lld is out of range: IDs "
                             "must be 1 to %zu, each once", r->name, gr->t, r0 + j, sid, out->n);
                return GC_ERR_PARSE;
            }
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

/* Rows of dataset `name` of group g; 0 when absent or unreadable. */
static hsize_t rows_of(hid_t g, const char *name)
{
    hsize_t dims[H5S_MAX_RANK] = {0};
    hid_t d = H5I_INVALID_HID, sp = H5I_INVALID_HID;
    if (H5Lexists(g, name, H5P_DEFAULT) > 0)
        d = H5Dopen2(g, name, H5P_DEFAULT);
    if (d >= 0)
        sp = H5Dget_space(d);
    if (sp < 0 || H5Sget_simple_extent_ndims(sp) < 1 ||
        H5Sget_simple_extent_dims(sp, dims, NULL) < 0)
        dims[0] = 0;
    close_id(&sp, H5Sclose);
    close_id(&d, H5Dclose);
    return dims[0];
}

/* A /PartTypeN group holding bodies that the header does not count would be left out in
 * silence (three groups of 64 bodies read as 64): refused. Empty groups, which some codes
 * write for every type, are fine. */
static enum gc_status check_uncounted(const struct gc_snapshot_reader *r,
                                      const struct gc_snapshot_header *h)
{
    for (int t = 0; t < GC_HDF5_NTYPES_READ; t++) {
        char name[16];
        hid_t g;
        hsize_t n;
        enum gc_status st;
        if (h->npart[t] > 0)
            continue;
        snprintf(name, sizeof name, "PartType%d", t);
        st = gc_snapshot_hdf5_open_group(r, name, &g);
        if (st != GC_OK)
            return st;
        if (g < 0)
            continue;
        n = rows_of(g, "Coordinates");
        if (n == 0)
            n = rows_of(g, "ParticleIDs");
        H5Gclose(g);
        if (n > 0) {
            gc_log_error("%s: /%s holds %llu bodies but /Header NumPart_ThisFile[%d] counts "
                         "0: the header does not match the file", r->name, name,
                         (unsigned long long)n, t);
            return GC_ERR_PARSE;
        }
    }
    return GC_OK;
}

static enum gc_status read_file(const struct gc_snapshot_reader *r, struct gc_bodies *out,
                                double *time, struct gc_snapshot_run *run)
{
    struct gc_snapshot_header h;
    struct group gr[5]; /* types 1..4 used */
    struct rbuf b = {0};
    unsigned char *seen = NULL;
    int f64 = 0;
    enum gc_status st = gc_snapshot_hdf5_get_header(r, &h);

    for (int t = 0; t < 5; t++) {
        memset(&gr[t], 0, sizeof gr[t]);
        gr[t].g = gr[t].id = gr[t].x = gr[t].v = gr[t].m = gr[t].gal = H5I_INVALID_HID;
    }
    if (st == GC_OK)
        st = check_uncounted(r, &h);
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
        b.id = malloc(GC_HDF5_CHUNK * sizeof *b.id);
        b.gal = malloc(GC_HDF5_CHUNK * sizeof *b.gal);
        b.x = malloc(3 * GC_HDF5_CHUNK * sizeof *b.x);
        b.v = malloc(3 * GC_HDF5_CHUNK * sizeof *b.v);
        b.m = malloc(GC_HDF5_CHUNK * sizeof *b.m);
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
    if (st == GC_OK && run && gc_snapshot_hdf5_get_parameters(r, run) < 0)
        st = GC_ERR_PARSE;
    if (st == GC_OK && run)
        st = gc_snapshot_hdf5_read_state(r, h.n, run);
    if (st != GC_OK) {
        gc_bodies_free(out);
        return st;
    }
    if (time)
        *time = h.time;
    return GC_OK;
}

enum gc_status gc_snapshot_hdf5_read(const char *path, struct gc_bodies *out, double *time)
{
    return gc_snapshot_hdf5_read_run(path, out, time, NULL);
}

enum gc_status gc_snapshot_hdf5_read_run(const char *path, struct gc_bodies *out, double *time,
                                         struct gc_snapshot_run *run)
{
    int heaps = 0;
    struct gc_snapshot_reader r = {path, GC_MAX_BODIES, H5I_INVALID_HID, NULL, 0, &heaps};
    enum gc_status st;
    hid_t fapl;
    FILE *f;

    memset(out, 0, sizeof *out);
    if (run)
        memset(run, 0, sizeof *run);
    st = gc_infile_check(path);
    if (st != GC_OK)
        return st;
    f = fopen(path, "rb");
    if (!f) {
        gc_log_error("%s: cannot open: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    fclose(f);
    silence_hdf5();
    fapl = gc_hdf5_read_access(NULL, 0);
    r.file = fapl >= 0 ? H5Fopen(path, H5F_ACC_RDONLY, fapl) : H5I_INVALID_HID;
    if (r.file < 0) {
        gc_log_error("%s: not a readable HDF5 file (truncated or corrupt?)", path);
        st = GC_ERR_IO;
    } else {
        st = read_file(&r, out, time, run);
        H5Fclose(r.file);
    }
    close_id(&fapl, H5Pclose);
    return st;
}

enum gc_status gc_snapshot_hdf5_read_image(const void *image, size_t size, const char *name,
                                           size_t max_bodies, struct gc_bodies *out,
                                           double *time)
{
    int heaps = 0;
    struct gc_snapshot_reader r = {name, max_bodies < GC_MAX_BODIES ? max_bodies : GC_MAX_BODIES,
                       H5I_INVALID_HID, (const unsigned char *)image, size, &heaps};
    enum gc_status st;
    hid_t fapl;

    memset(out, 0, sizeof *out);
    if (!image || size == 0) {
        gc_log_error("%s: empty file", name);
        return GC_ERR_PARSE;
    }
    silence_hdf5();
    fapl = gc_hdf5_read_access(image, size);
    r.file = fapl >= 0 ? H5Fopen(name, H5F_ACC_RDONLY, fapl) : H5I_INVALID_HID;
    if (r.file < 0) {
        gc_log_error("%s: not a readable HDF5 file (truncated or corrupt?)", name);
        st = GC_ERR_IO;
    } else {
        /* The run's parts are read too (and dropped), so that the fuzzers reach them. */
        struct gc_snapshot_run run;
        memset(&run, 0, sizeof run);
        st = read_file(&r, out, time, &run);
        gc_snapshot_run_free(&run);
        H5Fclose(r.file);
    }
    close_id(&fapl, H5Pclose);
    return st;
}
