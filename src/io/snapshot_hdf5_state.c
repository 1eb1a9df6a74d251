/* Reads /IntegratorState into a neutral state description (state.h): each dataset a field, whatever scheme wrote it; the scheme then reads its fields by name and checks them. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "snapshot_hdf5_reader.h"

/* Widest field read: a vector of a few components, not a matrix a body. */
#define MAX_WIDTH 16

/* One dataset of the group, n rows of 1 or `width` values of one class. */
struct field_source {
    hid_t d;
    char name[GC_STATE_NAME];
    H5T_class_t cls;
    int rank;       /* 1: one value a body; 2: n x width */
    uint32_t width;
};

/* Dataset `name` of g checked as a field of n rows: integers or floating-point numbers, 1-D
 * of n or n x width (width <= MAX_WIDTH), whose storage its values can fill. */
static enum gc_status open_field(const struct gc_snapshot_reader *r, hid_t g, const char *name,
                                 size_t n, struct field_source *f)
{
    hsize_t dims[H5S_MAX_RANK] = {0};
    hid_t sp = H5I_INVALID_HID, t = H5I_INVALID_HID;
    int rank = -1, ok = 0;
    const char *insane = NULL;
    f->d = H5Dopen2(g, name, H5P_DEFAULT);
    if (f->d >= 0) {
        sp = H5Dget_space(f->d);
        t = H5Dget_type(f->d);
    }
    if (sp >= 0 && t >= 0) {
        rank = H5Sget_simple_extent_ndims(sp);
        f->cls = H5Tget_class(t);
        ok = (f->cls == H5T_FLOAT || f->cls == H5T_INTEGER) && (rank == 1 || rank == 2) &&
             H5Sget_simple_extent_dims(sp, dims, NULL) >= 0 && dims[0] == n &&
             (rank == 1 || (dims[1] >= 1 && dims[1] <= MAX_WIDTH));
        f->rank = rank;
        f->width = rank == 2 ? (uint32_t)dims[1] : 1;
        if (ok && !(H5Dget_storage_size(f->d) > 0))
            insane = "declared but never written";
        else if (ok)
            insane = gc_snapshot_hdf5_storage_insane(f->d, t, (hsize_t)n * f->width);
    }
    close_id(&t, H5Tclose);
    close_id(&sp, H5Sclose);
    if (!ok || insane) {
        if (insane)
            gc_log_error("%s: /IntegratorState/%s: %s", r->name, name, insane);
        else
            gc_log_error("%s: /IntegratorState/%s must hold integers or floating-point numbers, "
                         "%zu rows (one a body) of at most %d values", r->name, name, n,
                         MAX_WIDTH);
        close_id(&f->d, H5Dclose);
        return GC_ERR_PARSE;
    }
    memcpy(f->name, name, strlen(name) + 1); /* shorter than GC_STATE_NAME (open_fields) */
    return GC_OK;
}

/* The group's datasets, in the order the file lists them (by name). */
static enum gc_status open_fields(const struct gc_snapshot_reader *r, hid_t g, size_t n,
                                  struct field_source *f, size_t *count)
{
    H5G_info_t info;
    enum gc_status st = GC_OK;
    *count = 0;
    if (H5Gget_info(g, &info) < 0) {
        gc_log_error("%s: cannot list /IntegratorState (file truncated or corrupt?)", r->name);
        return GC_ERR_PARSE;
    }
    for (hsize_t k = 0; k < info.nlinks && st == GC_OK; k++) {
        char name[GC_STATE_NAME + 1];
        hid_t o;
        int dataset;
        const ssize_t len = H5Lget_name_by_idx(g, ".", H5_INDEX_NAME, H5_ITER_INC, k, name,
                                               sizeof name, H5P_DEFAULT);
        if (len < 0 || (size_t)len >= GC_STATE_NAME) {
            gc_log_error("%s: /IntegratorState: a member's name is unreadable or longer than "
                         "%d characters", r->name, GC_STATE_NAME - 1);
            return GC_ERR_PARSE;
        }
        /* H5Iget_type, not H5Oget_info: its signature differs between HDF5 1.10 and 1.14. */
        o = H5Oopen(g, name, H5P_DEFAULT);
        dataset = o >= 0 && H5Iget_type(o) == H5I_DATASET;
        close_id(&o, H5Oclose);
        if (!dataset) {
            gc_log_error("%s: /IntegratorState/%s is not a dataset", r->name, name);
            return GC_ERR_PARSE;
        }
        if (*count == GC_STATE_MAX_FIELDS) {
            gc_log_error("%s: /IntegratorState holds more than %d datasets", r->name,
                         GC_STATE_MAX_FIELDS);
            return GC_ERR_PARSE;
        }
        st = open_field(r, g, name, n, &f[*count]);
        if (st == GC_OK)
            (*count)++;
    }
    return st;
}

/* One attribute of the group: a floating-point value of one number becomes a named number of
 * the state; anything else is left alone. */
static herr_t read_scalar(hid_t g, const char *name, const H5A_info_t *info, void *data)
{
    struct gc_state *s = data;
    hid_t a = H5Aopen(g, name, H5P_DEFAULT);
    hid_t t = a >= 0 ? H5Aget_type(a) : H5I_INVALID_HID;
    hid_t sp = a >= 0 ? H5Aget_space(a) : H5I_INVALID_HID;
    double v;
    (void)info;
    if (t >= 0 && sp >= 0 && H5Tget_class(t) == H5T_FLOAT &&
        H5Sget_simple_extent_npoints(sp) == 1 && strlen(name) < GC_STATE_NAME - 1 &&
        H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0)
        gc_state_add_scalar(s, name, v);
    close_id(&sp, H5Sclose);
    close_id(&t, H5Tclose);
    close_id(&a, H5Aclose);
    return s->nscalars < GC_STATE_MAX_SCALARS ? 0 : 1; /* 1 stops: the state is full */
}

/* The group's floating-point attributes of one value as the state's named numbers (by
 * H5Aiterate2, whose signature HDF5 1.10 and 1.14 share, unlike H5Oget_info's). */
static void read_scalars(hid_t g, struct gc_state *s)
{
    hsize_t at = 0;
    (void)H5Aiterate2(g, H5_INDEX_NAME, H5_ITER_INC, &at, read_scalar, s);
}

enum gc_status gc_snapshot_hdf5_read_state(const struct gc_snapshot_reader *r, size_t n,
                                           struct gc_snapshot_run *run)
{
    struct field_source f[GC_STATE_MAX_FIELDS];
    struct gc_state *s = &run->state;
    size_t count = 0;
    hid_t g;
    unsigned char *buf = NULL;
    enum gc_status st;
    if (H5Lexists(r->file, "IntegratorState", H5P_DEFAULT) <= 0)
        return GC_OK;
    st = gc_snapshot_hdf5_open_group(r, "IntegratorState", &g);
    if (st != GC_OK || g < 0)
        return st;
    memset(s, 0, sizeof *s);
    snprintf(s->scheme, sizeof s->scheme, "%s", run->integrator);
    st = open_fields(r, g, n, f, &count);
    /* Each field in the blob as the widest of its class: integers as int64, numbers as
     * float64 (libhdf5 converts), a record a body. */
    for (size_t k = 0; k < count && st == GC_OK; k++) {
        const enum gc_state_type type = f[k].cls == H5T_FLOAT ? GC_STATE_F64 : GC_STATE_I64;
        st = gc_state_add(s, f[k].name, type, type, f[k].width, s->record);
        s->record += 8 * f[k].width;
    }
    if (st == GC_OK && count > 0)
        st = gc_state_alloc_host(s, n);
    if (st == GC_OK && count > 0 && !(buf = malloc(GC_HDF5_CHUNK * MAX_WIDTH * 8))) {
        gc_log_error("%s: out of memory for the integrator state of %zu bodies", r->name, n);
        st = GC_ERR_NOMEM;
    }
    for (size_t k = 0; k < count && st == GC_OK; k++) {
        const struct gc_state_field *fd = &s->field[k];
        const size_t w = fd->width, cols = f[k].rank == 2 ? w : 0;
        for (size_t r0 = 0; r0 < n && st == GC_OK; r0 += GC_HDF5_CHUNK) {
            const size_t rows = n - r0 < GC_HDF5_CHUNK ? n - r0 : GC_HDF5_CHUNK;
            const hid_t mt = fd->type == GC_STATE_F64 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT64;
            if (rows_io(f[k].d, 0, mt, buf, r0, rows, cols) < 0) {
                gc_log_error("%s: cannot read /IntegratorState/%s (file truncated or corrupt?)",
                             r->name, fd->name);
                st = GC_ERR_IO;
                break;
            }
            for (size_t i = 0; i < rows; i++)
                memcpy(gc_state_at(s, fd, r0 + i), buf + 8 * w * i, 8 * w);
        }
    }
    if (st == GC_OK && count > 0)
        read_scalars(g, s);
    for (size_t k = 0; k < count; k++)
        close_id(&f[k].d, H5Dclose);
    close_id(&g, H5Gclose);
    free(buf);
    if (st != GC_OK)
        gc_snapshot_run_free(run);
    return st;
}
