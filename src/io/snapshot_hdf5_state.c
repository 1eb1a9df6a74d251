/* Reads /IntegratorState, the Hermite state a restart continues from, into a snapshot's run record. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hermite_formulas.h"
#include "log.h"
#include "snapshot_hdf5_reader.h"

/* One n x cols (cols 0: 1-D of n) dataset of /IntegratorState, opened and its shape checked. */
static enum gc_status open_state(const struct gc_snapshot_reader *r, hid_t g, const char *name,
                                 H5T_class_t cls, size_t n, size_t cols, hid_t *d)
{
    hsize_t dims[H5S_MAX_RANK] = {0};
    hid_t sp = H5I_INVALID_HID, t = H5I_INVALID_HID;
    int rank = -1, ok;
    *d = H5Lexists(g, name, H5P_DEFAULT) > 0 ? H5Dopen2(g, name, H5P_DEFAULT) : H5I_INVALID_HID;
    if (*d < 0) {
        gc_log_error("%s: /IntegratorState/%s is missing", r->name, name);
        return GC_ERR_PARSE;
    }
    sp = H5Dget_space(*d);
    t = H5Dget_type(*d);
    if (sp >= 0)
        rank = H5Sget_simple_extent_ndims(sp);
    ok = t >= 0 && H5Tget_class(t) == cls && rank == (cols ? 2 : 1) && rank <= H5S_MAX_RANK &&
         H5Sget_simple_extent_dims(sp, dims, NULL) >= 0 && dims[0] == n &&
         (!cols || dims[1] == cols) && H5Dget_storage_size(*d) > 0 &&
         !gc_snapshot_hdf5_storage_insane(*d, t, (hsize_t)n * (cols ? cols : 1));
    close_id(&t, H5Tclose);
    close_id(&sp, H5Sclose);
    if (!ok) {
        gc_log_error("%s: /IntegratorState/%s must hold %s, %zu%s, as many rows as bodies",
                     r->name, name, gc_snapshot_hdf5_class_word(cls), n, cols ? " x 3" : "");
        close_id(d, H5Dclose);
        return GC_ERR_PARSE;
    }
    return GC_OK;
}

enum gc_status gc_snapshot_hdf5_read_state(const struct gc_snapshot_reader *r, size_t n,
                                           struct gc_snapshot_run *run)
{
    static const char *const name[6] = {"Position", "Velocity", "Acceleration", "Jerk",
                                        "Snap", "Crackle"};
    hid_t g, d[8];
    double *buf = NULL;
    long long *ticks = NULL;
    unsigned char *levels = NULL;
    enum gc_status st = GC_OK;
    if (H5Lexists(r->file, "IntegratorState", H5P_DEFAULT) <= 0)
        return GC_OK;
    st = gc_snapshot_hdf5_open_group(r, "IntegratorState", &g);
    if (st != GC_OK || g < 0)
        return st;
    for (int k = 0; k < 8; k++)
        d[k] = H5I_INVALID_HID;
    if (!(run->dt_max > 0.0)) {
        gc_log_error("%s: /IntegratorState without /Parameters DtMax: its ticks have no size",
                     r->name);
        st = GC_ERR_PARSE;
    }
    for (int k = 0; k < 6 && st == GC_OK; k++)
        st = open_state(r, g, name[k], H5T_FLOAT, n, 3, &d[k]);
    if (st == GC_OK)
        st = open_state(r, g, "Tick", H5T_INTEGER, n, 0, &d[6]);
    if (st == GC_OK)
        st = open_state(r, g, "Level", H5T_INTEGER, n, 0, &d[7]);
    if (st == GC_OK) {
        run->records = calloc(n, sizeof *run->records);
        buf = malloc(3 * GC_HDF5_CHUNK * sizeof *buf);
        ticks = malloc(GC_HDF5_CHUNK * sizeof *ticks);
        levels = malloc(GC_HDF5_CHUNK);
        if (!run->records || !buf || !ticks || !levels) {
            gc_log_error("%s: out of memory for the integrator state of %zu bodies", r->name, n);
            st = GC_ERR_NOMEM;
        }
    }
    for (size_t r0 = 0; r0 < n && st == GC_OK; r0 += GC_HDF5_CHUNK) {
        const size_t k = n - r0 < GC_HDF5_CHUNK ? n - r0 : GC_HDF5_CHUNK;
        struct gc_hermite_record *rec = &run->records[r0];
        for (int q = 0; q < 6 && st == GC_OK; q++) {
            if (rows_io(d[q], 0, H5T_NATIVE_DOUBLE, buf, r0, k, 3) < 0) {
                gc_log_error("%s: cannot read /IntegratorState/%s (file truncated or corrupt?)",
                             r->name, name[q]);
                st = GC_ERR_IO;
                break;
            }
            for (size_t i = 0; i < k && st == GC_OK; i++) {
                double *dst = q == 0   ? rec[i].x
                              : q == 1 ? rec[i].v
                              : q == 2 ? rec[i].a
                              : q == 3 ? rec[i].j
                              : q == 4 ? rec[i].s
                                       : rec[i].c;
                memcpy(dst, &buf[3 * i], 3 * sizeof *dst);
                if (!isfinite(dst[0]) || !isfinite(dst[1]) || !isfinite(dst[2])) {
                    gc_log_error("%s: /IntegratorState/%s[%zu] is not finite", r->name, name[q],
                                 r0 + i);
                    st = GC_ERR_PARSE;
                }
            }
        }
        if (st == GC_OK && (rows_io(d[6], 0, H5T_NATIVE_LLONG, ticks, r0, k, 0) < 0 ||
                            rows_io(d[7], 0, H5T_NATIVE_UCHAR, levels, r0, k, 0) < 0)) {
            gc_log_error("%s: cannot read /IntegratorState/Tick or Level (file truncated or "
                         "corrupt?)", r->name);
            st = GC_ERR_IO;
        }
        for (size_t i = 0; i < k && st == GC_OK; i++) {
            rec[i].i = (int64_t)(r0 + i);
            rec[i].t = ticks[i];
            rec[i].level = levels[i];
            if (levels[i] >= GC_HERMITE_LEVELS || ticks[i] < 0 ||
                !gc_hermite_on_grid(ticks[i], (int)levels[i])) {
                gc_log_error("%s: /IntegratorState body %zu: level %u, tick %lld (expected a "
                             "level below %d and a tick >= 0 that is a multiple of the "
                             "level's step)", r->name, r0 + i, (unsigned)levels[i], ticks[i],
                             GC_HERMITE_LEVELS);
                st = GC_ERR_PARSE;
            }
        }
    }
    for (int k = 0; k < 8; k++)
        close_id(&d[k], H5Dclose);
    close_id(&g, H5Gclose);
    free(buf);
    free(ticks);
    free(levels);
    if (st != GC_OK)
        gc_snapshot_run_free(run);
    else
        run->nrecords = n;
    return st;
}
