/* The benchmark table of a backend: device-side timing and the classic reference kernel, for --benchmark, reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_BENCH_H
#define GC_BACKEND_BENCH_H

#include <stddef.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A backend without this table is timed with the host's clock around a sync. */
struct gc_backend_bench {
    /* Timer on the backend's own queue: mark(0) records the start, mark(1) the stop;
     * elapsed waits for the stop and gives the milliseconds between them. */
    enum gc_status (*mark)(struct gc_backend *b, int stop);
    enum gc_status (*elapsed)(struct gc_backend *b, double *ms);
    /* optional: one all-pairs force pass of the current bodies, like accel, with the
     * force kernel alone (kernel = 0) or the field's classic reference kernel (kernel = 1:
     * GPU Gems 3 ch. 31) for the side-by-side figure; NULL = none */
    enum gc_status (*force_kernel)(struct gc_backend *b, float eps2, int kernel);
    /* optional: one line describing how the force pass is laid out for the current N */
    const char *(*plan)(struct gc_backend *b);
    /* optional: device memory in use now, bytes (the benchmark's per-body figure) */
    enum gc_status (*memory)(struct gc_backend *b, size_t *bytes);
};

/* The backend's benchmark table, or NULL. */
const struct gc_backend_bench *gc_backend_bench(const struct gc_backend *b);

#ifdef __cplusplus
}
#endif
#endif
