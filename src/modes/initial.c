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
    return (b && strcmp(gc_backend_name(b), "cuda") == 0) ? m->n_gpu : m->n_cpu;
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
        st = gc_thin_select(&all, o->n, o->halo || src.format == GC_IO_HDF5, out);
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
