/* Initial conditions from the options: read and thin a table, or generate a model; --save. */
/* SPDX-License-Identifier: MIT */
#include "initial.h"

#include <string.h>

#include "io.h"
#include "log.h"
#include "models.h"
#include "table.h"
#include "thin.h"

/* Default body count of a built-in model: what each backend steps at interactive rates. */
static size_t default_model_n(const struct gc_model_info *m, const struct gc_backend *b)
{
    if (m->n_fixed)
        return m->n_fixed;
    return gc_backend_is_device(b) ? m->n_gpu : m->n_cpu;
}

/* Default body count of a data file with its halos on the CPU backend: every body on a GPU
 * (81,920 of the Dubinski table step at ~220 frames/s on an H100), but on a
 * CPU the O(N^2) step must stay interactive: the built-in model's 8,192. Of the table that
 * is 3,276 disk, 1,640 bulge and 3,276 halo bodies, and the disks keep their size until
 * the first passage (half-mass radii 1.6 and 2.4 at t = 0, 1.7 and 2.4 at 270 Myr;
 * without the halos 6.5 and 8.2: docs/usage.md, "Choosing N", tools/measure_encounter). */
#define DATA_CPU_N 8192

static size_t default_data_n(const struct gc_options *o, const struct gc_backend *b,
                             const struct gc_bodies *all)
{
    if (o->n || !o->halo || gc_backend_is_device(b))
        return o->n; /* 0 = every eligible body */
    return gc_thin_eligible(all, 1) > DATA_CPU_N ? DATA_CPU_N : 0;
}

static enum gc_status build(const struct gc_options *o, const struct gc_backend *b,
                            struct gc_bodies *out)
{
    const struct gc_model_info *m;
    enum gc_status st;
    if (o->data) {
        struct gc_bodies all;
        struct gc_io_source src;
        st = gc_io_read(o->data, &all, &src);
        if (st != GC_OK)
            return st;
        /* A snapshot is a run's state: restart it as it is (halos and double-precision
         * state included); -n still thins it, over every component. */
        if (src.format == GC_IO_HDF5 && (o->n == 0 || o->n == all.n)) {
            gc_log_info("%s: snapshot of %zu bodies at t = %.9g (%.4g Myr); the restarted "
                        "run's clock starts at 0", o->data, all.n, src.time,
                        src.time * GC_MYR_PER_TIME_UNIT);
            *out = all;
            return GC_OK;
        }
        st = gc_thin_select(&all, default_data_n(o, b, &all), o->halo || src.format == GC_IO_HDF5,
                            out);
        gc_bodies_free(&all);
        return st;
    }
    m = gc_models_find(o->model);
    if (!m) {
        gc_log_error("unknown model '%s'; available: %s", o->model, GC_MODEL_NAMES);
        return GC_ERR_INVALID;
    }
    return gc_models_build(o->model, o->n ? o->n : default_model_n(m, b), o->seed, out);
}

enum gc_status gc_initial_bodies(const struct gc_options *o, const struct gc_backend *backend,
                                 struct gc_bodies *out)
{
    enum gc_status st = build(o, backend, out);
    if (st == GC_OK && o->save) {
        st = gc_table_write(o->save, out);
        if (st == GC_OK)
            gc_log_info("wrote %zu bodies to %s", out->n, o->save);
    }
    if (st != GC_OK)
        gc_bodies_free(out);
    return st;
}
