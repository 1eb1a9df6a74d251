/* The all-pairs softened-gravity force pass (tiled, register-blocked) and the potential-energy pass. */
/* SPDX-License-Identifier: MIT */
#include <cuda_runtime.h>

#include "gc_kernels.h"

/* GPU Gems 3 ch. 31 design: a block stages a tile of `T` j bodies (float4 position + mass)
 * in shared memory, then every thread accumulates over the tile. Beyond the book, each
 * thread owns B i bodies, so one broadcast LDS.128 of a j body feeds B interactions of
 * 13 issue slots each (3 FADD, 3 FFMA, MUFU.RSQ, 3 FMUL, 3 FFMA); the j loop is unrolled so
 * shared-memory addresses are immediates; and the j range can be split over S blocks
 * (blockIdx.y) whose partial sums a second pass adds in a fixed order, so small N still
 * fills the chip and results stay bit-repeatable. This file is built with -ftz=true: r^2 +
 * eps^2 >= eps^2 > 0 is never denormal, so rsqrtf is a bare MUFU.RSQ without the
 * denormal-fixup branch. */

#define GC_T 128 /* threads per block = tile length; 128 keeps small-N blocks plentiful */

/* Each thread handles i = blockIdx.x * T * B + k * T + threadIdx.x (k < B): coalesced
 * loads and stores for every k. Bodies past n are clamped on load and not stored. The last
 * tile is padded with zero-mass bodies at the origin, which add exactly zero (r^2 >= eps2
 * > 0 keeps rsqrt finite), so the inner loop has no bounds test. */
template <int B>
static __global__ void __launch_bounds__(GC_T, 8)
accel_tiled(const float4 *__restrict__ pos, float4 *__restrict__ out, int n,
            int tiles_per_slice, float eps2, int out_stride)
{
    __shared__ float4 tile[GC_T];
    const int ibase = blockIdx.x * GC_T * B + threadIdx.x;
    float xi[B], yi[B], zi[B], ax[B], ay[B], az[B];
#pragma unroll
    for (int k = 0; k < B; k++) {
        int i = ibase + k * GC_T;
        float4 p = pos[i < n ? i : n - 1];
        xi[k] = p.x; yi[k] = p.y; zi[k] = p.z;
        ax[k] = 0.0f; ay[k] = 0.0f; az[k] = 0.0f;
    }
    const int ntiles = (n + GC_T - 1) / GC_T;
    const int t0 = blockIdx.y * tiles_per_slice;
    const int t1 = min(t0 + tiles_per_slice, ntiles);
    for (int t = t0; t < t1; t++) {
        const int j = t * GC_T + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
#pragma unroll 32
        for (int jj = 0; jj < GC_T; jj++) {
            const float4 q = tile[jj];
#pragma unroll
            for (int k = 0; k < B; k++) {
                const float dx = q.x - xi[k], dy = q.y - yi[k], dz = q.z - zi[k];
                const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2)));
                const float inv = rsqrtf(r2);
                const float s = (q.w * inv) * (inv * inv);
                ax[k] = fmaf(dx, s, ax[k]);
                ay[k] = fmaf(dy, s, ay[k]);
                az[k] = fmaf(dz, s, az[k]);
            }
        }
        __syncthreads();
    }
    float4 *dst = out + (size_t)blockIdx.y * (size_t)out_stride;
#pragma unroll
    for (int k = 0; k < B; k++) {
        const int i = ibase + k * GC_T;
        if (i < n)
            dst[i] = make_float4(ax[k], ay[k], az[k], 0.0f);
    }
}

/* acc[i] = sum over the S slices in slice order (fixed order: repeatable results). */
static __global__ void accel_reduce(const float4 *__restrict__ part, float4 *__restrict__ acc,
                                    int n, int slices)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 a = part[i];
    for (int s = 1; s < slices; s++) {
        const float4 p = part[(size_t)s * n + i];
        a.x += p.x; a.y += p.y; a.z += p.z;
    }
    acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
}

template <int B>
static int blocks_per_sm(int *out)
{
    return (int)cudaOccupancyMaxActiveBlocksPerMultiprocessor(out, accel_tiled<B>, GC_T, 0);
}

/* Cost model in units of "warp tile passes per SM": with nb = blocks_i * S blocks spread
 * over the SMs, the busiest SM runs ceil(nb / sms) blocks, each of T/32 warps doing
 * (tiles + 1) tile passes (the +1 stands for the per-block set-up, partial store and the
 * reduction) at 13 B + 1 issues per j body for B bodies. An SM with fewer than 16 resident
 * warps is taken to be latency-bound and charged proportionally. */
extern "C" int gc_cuda_accel_plan(size_t n, int sm_count, struct gc_cuda_accel_plan *plan)
{
    static const int bs[3] = {4, 2, 1};
    double best = 0.0;
    const long ntiles = ((long)n + GC_T - 1) / GC_T;
    if (sm_count < 1)
        sm_count = 1;
    plan->threads = GC_T;
    plan->bodies_per_thread = 1;
    plan->blocks_i = (int)ntiles;
    plan->jsplit = 1;
    plan->tiles_per_slice = (int)ntiles;
    for (int b = 0; b < 3; b++) {
        const int B = bs[b];
        int occ = 0;
        int err = B == 4 ? blocks_per_sm<4>(&occ) : B == 2 ? blocks_per_sm<2>(&occ)
                                                           : blocks_per_sm<1>(&occ);
        if (err)
            return err;
        if (occ < 1)
            occ = 1;
        const long bi = ((long)n + (long)GC_T * B - 1) / ((long)GC_T * B);
        /* Split no finer than 2 tiles a slice, at most 64 slices. */
        long smax = ntiles / 2 < 64 ? ntiles / 2 : 64;
        if (smax < 1)
            smax = 1;
        for (long s = 1; s <= smax; s++) {
            const long tps = (ntiles + s - 1) / s;
            const long slices = (ntiles + tps - 1) / tps; /* slices actually non-empty */
            if (slices != s)
                continue;
            const long nb = bi * s;
            const long per_sm = (nb + sm_count - 1) / sm_count;
            const long resident = per_sm < occ ? per_sm : occ;
            double warps = (double)resident * GC_T / 32.0;
            double cost = (double)per_sm * (GC_T / 32.0) * (double)(tps + 1) * (13.0 * B + 1.0);
            if (warps < 16.0)
                cost *= 16.0 / warps;
            cost *= 1.0 + 0.002 * (double)s; /* prefer fewer slices on ties */
            if (best == 0.0 || cost < best) {
                best = cost;
                plan->bodies_per_thread = B;
                plan->blocks_i = (int)bi;
                plan->jsplit = (int)s;
                plan->tiles_per_slice = (int)tps;
            }
        }
    }
    return 0;
}

extern "C" size_t gc_cuda_accel_scratch(const struct gc_cuda_accel_plan *plan, size_t n)
{
    return plan->jsplit > 1 ? (size_t)plan->jsplit * n : 0;
}

extern "C" int gc_cuda_launch_accel(const float *d_pos, float *d_acc, float *d_part, size_t n,
                                    float eps2, const struct gc_cuda_accel_plan *plan,
                                    void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const float4 *pos = (const float4 *)d_pos;
    float4 *out = plan->jsplit > 1 ? (float4 *)d_part : (float4 *)d_acc;
    dim3 grid((unsigned)plan->blocks_i, (unsigned)plan->jsplit);
    if (n == 0)
        return 0;
    switch (plan->bodies_per_thread) {
    case 4:
        accel_tiled<4><<<grid, GC_T, 0, st>>>(pos, out, (int)n, plan->tiles_per_slice, eps2,
                                              (int)n);
        break;
    case 2:
        accel_tiled<2><<<grid, GC_T, 0, st>>>(pos, out, (int)n, plan->tiles_per_slice, eps2,
                                              (int)n);
        break;
    default:
        accel_tiled<1><<<grid, GC_T, 0, st>>>(pos, out, (int)n, plan->tiles_per_slice, eps2,
                                              (int)n);
        break;
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || plan->jsplit == 1)
        return (int)e;
    accel_reduce<<<(unsigned)((n + 255) / 256), 256, 0, st>>>((const float4 *)d_part,
                                                               (float4 *)d_acc, (int)n,
                                                               plan->jsplit);
    return (int)cudaGetLastError();
}

#define GC_POT_T 256

/* phi_i = sum_j m_j / sqrt(r^2 + eps2) in float per thread (as the forces), self term
 * m_i / eps removed and the block's sum of m_i phi_i formed in double. */
static __global__ void __launch_bounds__(GC_POT_T)
potential_tiled(const float4 *__restrict__ pos, double *__restrict__ wpart, int n, float eps2)
{
    __shared__ float4 tile[GC_POT_T];
    __shared__ double red[GC_POT_T];
    const int i = blockIdx.x * GC_POT_T + threadIdx.x;
    const float4 p = pos[i < n ? i : n - 1];
    float phi = 0.0f;
    for (int t = 0; t < n; t += GC_POT_T) {
        const int j = t + threadIdx.x;
        tile[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
#pragma unroll 16
        for (int jj = 0; jj < GC_POT_T; jj++) {
            const float4 q = tile[jj];
            const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            phi = fmaf(q.w, rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2)))), phi);
        }
        __syncthreads();
    }
    double v = 0.0;
    if (i < n)
        v = (double)p.w * ((double)phi - (double)p.w / sqrt((double)eps2));
    red[threadIdx.x] = v;
    __syncthreads();
    for (int s = GC_POT_T / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        wpart[blockIdx.x] = red[0];
}

extern "C" int gc_cuda_potential_blocks(size_t n)
{
    return (int)((n + GC_POT_T - 1) / GC_POT_T);
}

extern "C" int gc_cuda_launch_potential(const float *d_pos, double *d_wpart, size_t n,
                                        float eps2, void *stream)
{
    if (n == 0)
        return 0;
    potential_tiled<<<(unsigned)gc_cuda_potential_blocks(n), GC_POT_T, 0,
                      (cudaStream_t)stream>>>((const float4 *)d_pos, d_wpart, (int)n, eps2);
    return (int)cudaGetLastError();
}
