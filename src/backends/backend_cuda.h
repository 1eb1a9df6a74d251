/* CUDA-only extras beyond the backend table: device probing and event timing for --benchmark. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CUDA_H
#define GC_BACKEND_CUDA_H

#include "backend.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef GC_ENABLE_CUDA
/* Number of CUDA devices the runtime can use; 0 when there is no driver or no device.
 * Tests use it to tell "no GPU here" (skip) from "GPU present but broken" (fail). */
int gc_backend_cuda_device_count(void);

/* The force kernels the benchmark can time on a CUDA backend's current bodies. */
enum gc_cuda_accel_variant {
    GC_CUDA_ACCEL_PRODUCT = 0,   /* the product kernel, as accel uses it */
    GC_CUDA_ACCEL_REFERENCE = 1  /* the classic GPU Gems kernel (kernels/gravity_reference.cu) */
};
enum gc_status gc_backend_cuda_accel_variant(struct gc_backend *b, float eps2,
                                             enum gc_cuda_accel_variant v);

/* CUDA-event timer on the backend's stream: mark(0) records the start, mark(1) the stop;
 * elapsed waits for the stop and gives the milliseconds between them. */
enum gc_status gc_backend_cuda_timer_mark(struct gc_backend *b, int stop);
enum gc_status gc_backend_cuda_timer_elapsed(struct gc_backend *b, double *ms);

/* One line describing the launch plan for the current N, e.g. "B=4 T=128 S=12". */
const char *gc_backend_cuda_plan_str(struct gc_backend *b);
#endif

#ifdef __cplusplus
}
#endif
#endif
