/* Plain-C declarations of the CUDA kernel launchers (no CUDA types), shared by backend and benchmark. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_KERNELS_H
#define GC_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Launchers return 0 on success or a cudaError_t value (checked and logged by the caller).
 * Device arrays of bodies are float4 (x, y, z, w): pos.w = mass, vel.w and acc.w unused.
 * `stream` is a cudaStream_t passed as void * so this header needs no CUDA types. */

/* How the force pass is split, chosen at run time per N by gc_cuda_accel_plan. */
struct gc_cuda_accel_plan {
    int variant;           /* index of the compiled kernel variant (B, U) */
    int bodies_per_thread; /* B: i bodies each thread owns (1, 2, 4 or 8); one LDS.128 serves B */
    int unroll;            /* U: j-loop unroll of that variant */
    int threads;           /* T: threads per block; also the shared-memory tile length */
    int min_blocks;        /* M: blocks per SM the variant's register cap was built for */
    int soft_period;       /* P: every P-th j body uses the FMA-pipe rsqrt; 0 = all MUFU */
    int blocks_i;          /* blocks along i: ceil(n / (threads * B)) */
    int jsplit;            /* S: j range split into S slices (blocks along y); 1 = no split */
    int tiles_per_slice;   /* tiles of `threads` j bodies per slice */
};

/* Picks the variant (B, U) and j-split for n bodies on a device with `sm_count`
 * multiprocessors, so that small N still fills the chip. force restricts the
 * variant: force = {T, B, U, M, P}, 0 = any (P: 0 = none) (all 0 = the planner's own choice among its default variants; for benchmark variant studies). Returns 0 or a
 * cudaError_t (cudaErrorInvalidValue when no compiled variant matches). */
int gc_cuda_accel_plan(size_t n, int sm_count, const int force[5],
                       struct gc_cuda_accel_plan *plan);

/* Doubles of scratch `d_part` that gc_cuda_launch_accel needs for this plan (0 when
 * jsplit == 1): per-slice partial sums, kept in double. */
size_t gc_cuda_accel_scratch(const struct gc_cuda_accel_plan *plan, size_t n);

/* d_acc[i] = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps2)^(3/2), self-pair included. */
int gc_cuda_launch_accel(const float *d_pos, float *d_acc, double *d_part, size_t n, float eps2,
                         const struct gc_cuda_accel_plan *plan, void *stream);

/* Per-block partial sums of m_i * sum_{j != i} m_j / sqrt(r^2 + eps2), in double, written
 * to d_wpart[0 .. gc_cuda_potential_blocks(n)); W = -1/2 * their sum. */
int gc_cuda_potential_blocks(size_t n);
int gc_cuda_launch_potential(const float *d_pos, double *d_wpart, size_t n, float eps2,
                             void *stream);

/* The classic GPU Gems 3 ch. 31 kernel (one body per thread, 256-thread tiles, IEEE
 * rsqrtf without fast math), kept only as the benchmark's side-by-side reference. */
int gc_cuda_launch_accel_reference(const float *d_pos, float *d_acc, size_t n, float eps2,
                                   void *stream);

/* v += a dt */
int gc_cuda_launch_kick(float *d_vel, const float *d_acc, size_t n, float dt, void *stream);
/* x += v dt */
int gc_cuda_launch_drift(float *d_pos, const float *d_vel, size_t n, float dt, void *stream);
/* v += a dt_kick, then x += v dt_drift, in one pass over the bodies. */
int gc_cuda_launch_kick_drift(float *d_pos, float *d_vel, const float *d_acc, size_t n,
                              float dt_kick, float dt_drift, void *stream);

#ifdef __cplusplus
}
#endif
#endif
