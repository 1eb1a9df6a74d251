/* The benchmark table of a backend: device-side timing and the classic reference kernel, for --benchmark, reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_BENCH_H
#define GC_BACKEND_BENCH_H

#include <stddef.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the all-pairs force loop does on the hardware it runs on, for the benchmark's
 * comparison with the hardware's peak. */
struct gc_bench_peak {
    double flops;            /* FP32 FMA peak of the cores (or device) in use, flops/s */
    double pair_flops;       /* flops one interaction executes (an FMA two), instruction by
                              * instruction, beside the convention's 20 */
    char loops[32];          /* which loops run, e.g. "avx2" */
    char how[320];           /* how the peak was found: cores, clock and its source, vector
                              * width, FMA pipes */
};

/* A backend without this table is timed with the host's clock around a sync. */
struct gc_backend_bench {
    /* optional (both or neither): timer on the backend's own queue: mark(0) records the
     * start, mark(1) the stop; elapsed waits for the stop and gives the milliseconds
     * between them; NULL = the host's clock around a sync */
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
    /* optional: the all-pairs loop against the peak (gc_bench_peak); NULL = not known */
    enum gc_status (*peak)(struct gc_backend *b, struct gc_bench_peak *out);
};

/* The backend's benchmark table, or NULL. */
const struct gc_backend_bench *gc_backend_bench(const struct gc_backend *b);

#ifdef __cplusplus
}
#endif
#endif
