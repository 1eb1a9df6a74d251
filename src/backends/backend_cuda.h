/* CUDA-only extra beyond the backend tables: whether this machine has a usable CUDA device at all. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CUDA_H
#define GC_BACKEND_CUDA_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef GC_ENABLE_CUDA
/* Number of CUDA devices the runtime can use; 0 when there is no driver or no device.
 * Tests use it to tell "no GPU here" (skip) from "GPU present but broken" (fail). */
int gc_backend_cuda_device_count(void);
#endif

#ifdef __cplusplus
}
#endif
#endif
