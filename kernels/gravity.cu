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

/* Each thread handles i = blockIdx.x * T * B + k * T + threadIdx.x (k < B): coalesced
 * loads and stores for every k. Bodies past n are clamped on load and not stored. The last
 * tile is padded with zero-mass bodies at the origin, which add exactly zero (r^2 >= eps2
 * > 0 keeps rsqrt finite), so the inner loop has no bounds test.
 * Summation: each tile's 128 terms are summed in float (the hot loop), and the tile sums
 * are added into double accumulators (3 DADD per body per tile, ~0.03 issues a pair). A
 * plain float running sum over tens of thousands of terms loses ~2e-5 (norm-wise) on the
 * Dubinski table, whose halo forces largely cancel; this keeps the error near 1e-7, as the
 * CPU backend's blocked float/double sum does. U is the j-loop unroll: the loop body must
 * stay small enough for the instruction cache (B * U * 13 instructions). */
#ifdef GC_STUDY
/* 1/sqrt(x) without the MUFU unit: the classic bit-level first guess (3.4% error) and
 * three Newton steps (1.7e-3, 4.4e-6, then float rounding), 12 FMA-pipe/ALU
 * instructions. x > 0 and normal (x >= eps2 > 0). A study variant (P > 0) only. */
static __device__ __forceinline__ float soft_rsqrt(float x)
{
    const float h = 0.5f * x;
    float y = __int_as_float(0x5f3759df - (__float_as_int(x) >> 1));
    y = y * fmaf(-h, y * y, 1.5f);
    y = y * fmaf(-h, y * y, 1.5f);
    y = y * fmaf(-h, y * y, 1.5f);
    return y;
}
#define GC_RSQRT(soft, x) ((soft) ? soft_rsqrt(x) : rsqrtf(x))
#else
#define GC_RSQRT(soft, x) rsqrtf(x)
#endif

template <int T, int B, int U, int MINB, int P = 0>
static __global__ void __launch_bounds__(T, MINB)
accel_tiled(const float4 *__restrict__ pos, float4 *__restrict__ acc,
            double *__restrict__ part, int n, int tiles_per_slice, float eps2, int slices,
            int i0, int i1)
{
    __shared__ float4 tile[T];
    const int ibase = i0 + blockIdx.x * T * B + threadIdx.x;
    float xi[B], yi[B], zi[B];
    double sx[B], sy[B], sz[B];
#pragma unroll
    for (int k = 0; k < B; k++) {
        int i = ibase + k * T;
        float4 p = pos[i < i1 ? i : i1 - 1];
        xi[k] = p.x; yi[k] = p.y; zi[k] = p.z;
        sx[k] = 0.0; sy[k] = 0.0; sz[k] = 0.0;
    }
    const int ntiles = (n + T - 1) / T;
    const int t0 = blockIdx.y * tiles_per_slice;
    const int t1 = min(t0 + tiles_per_slice, ntiles);
    /* The next tile's body is loaded into a register while this tile is computed, so the
     * global-load latency is hidden behind the loop instead of stalling after a barrier. */
    float4 next = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    if (t0 < t1 && t0 * T + (int)threadIdx.x < n)
        next = pos[t0 * T + threadIdx.x];
    for (int t = t0; t < t1; t++) {
        const int j = (t + 1) * T + threadIdx.x;
        float ax[B], ay[B], az[B];
        tile[threadIdx.x] = next;
        next = (t + 1 < t1 && j < n) ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
#pragma unroll
        for (int k = 0; k < B; k++) {
            ax[k] = 0.0f; ay[k] = 0.0f; az[k] = 0.0f;
        }
        __syncthreads();
#pragma unroll U
        for (int jj = 0; jj < T; jj++) {
            const float4 q = tile[jj];
            /* With P > 0, every P-th j body takes the FMA-pipe reciprocal square root, so
             * the MUFU unit (in case it binds: docs/perf-log/allpairs-kernel.md) is left
             * 1/P of its work. */
            const bool soft = P > 0 && jj % (P > 0 ? P : 1) == 0;
            (void)soft;
#pragma unroll
            for (int k = 0; k < B; k++) {
                const float dx = q.x - xi[k], dy = q.y - yi[k], dz = q.z - zi[k];
                const float r2 = fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, eps2)));
                const float inv = GC_RSQRT(soft, r2);
                const float s = (q.w * inv) * (inv * inv);
                ax[k] = fmaf(dx, s, ax[k]);
                ay[k] = fmaf(dy, s, ay[k]);
                az[k] = fmaf(dz, s, az[k]);
            }
        }
#pragma unroll
        for (int k = 0; k < B; k++) {
            sx[k] += (double)ax[k]; sy[k] += (double)ay[k]; sz[k] += (double)az[k];
        }
        __syncthreads();
    }
#pragma unroll
    for (int k = 0; k < B; k++) {
        const int i = ibase + k * T;
        if (i >= i1)
            continue;
        if (slices == 1) {
            acc[i] = make_float4((float)sx[k], (float)sy[k], (float)sz[k], 0.0f);
        } else {
            double *dst = part + (size_t)blockIdx.y * 3 * (size_t)n;
            dst[i] = sx[k];
            dst[(size_t)n + i] = sy[k];
            dst[2 * (size_t)n + i] = sz[k];
        }
    }
}

/* acc[i] = sum over the S slices' double partials in slice order (fixed order: repeatable). */
static __global__ void accel_reduce(const double *__restrict__ part, float4 *__restrict__ acc,
                                    int n, int slices, int i0, int i1)
{
    const int i = i0 + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= i1)
        return;
    double x = 0.0, y = 0.0, z = 0.0;
    for (int s = 0; s < slices; s++) {
        const double *p = part + (size_t)s * 3 * (size_t)n;
        x += p[i];
        y += p[(size_t)n + i];
        z += p[2 * (size_t)n + i];
    }
    acc[i] = make_float4((float)x, (float)y, (float)z, 0.0f);
}

/* The compiled variants: threads per block T (= tile length), bodies per thread B, j
 * unroll U, the blocks-per-SM bound M that caps registers (65536 / (T * M)), and P
 * (every P-th j body uses soft_rsqrt; 0 = never). `rate` is the force kernel's measured
 * rate at N = 1,048,576, in 1e12 interactions/s (docs/perf-log/allpairs-kernel.md); the planner
 * picks among the variants that have one. The unrated ones are the variant study's, built
 * only with GC_STUDY and reached only by forcing them (bench/accel_variants). */
struct variant {
    int t, b, u, m, p;
    double rate;
    void (*fn)(const float4 *, float4 *, double *, int, int, float, int, int, int);
};
static const struct variant variants[] = {
    {256, 4, 16, 2, 0, 2.093, accel_tiled<256, 4, 16, 2>},
    {128, 4, 16, 4, 0, 2.071, accel_tiled<128, 4, 16, 4>},
    {128, 2, 16, 8, 0, 1.973, accel_tiled<128, 2, 16, 8>},
    {128, 1, 32, 8, 0, 1.918, accel_tiled<128, 1, 32, 8>},
#ifdef GC_STUDY
    {128, 4, 8, 4, 0, 0.0, accel_tiled<128, 4, 8, 4>},
    {128, 4, 32, 4, 0, 0.0, accel_tiled<128, 4, 32, 4>},
    {128, 4, 16, 5, 0, 0.0, accel_tiled<128, 4, 16, 5>},
    {128, 4, 16, 6, 0, 0.0, accel_tiled<128, 4, 16, 6>},
    {64, 4, 16, 8, 0, 0.0, accel_tiled<64, 4, 16, 8>},
    {128, 8, 8, 4, 0, 0.0, accel_tiled<128, 8, 8, 4>},
    {128, 8, 8, 3, 0, 0.0, accel_tiled<128, 8, 8, 3>},
    {128, 2, 32, 8, 0, 0.0, accel_tiled<128, 2, 32, 8>},
    {256, 4, 32, 2, 0, 0.0, accel_tiled<256, 4, 32, 2>},
    {256, 4, 8, 2, 0, 0.0, accel_tiled<256, 4, 8, 2>},
    {128, 4, 16, 4, 16, 0.0, accel_tiled<128, 4, 16, 4, 16>},
    {128, 4, 16, 4, 8, 0.0, accel_tiled<128, 4, 16, 4, 8>},
    {256, 4, 16, 2, 16, 0.0, accel_tiled<256, 4, 16, 2, 16>},
    {256, 4, 16, 2, 8, 0.0, accel_tiled<256, 4, 16, 2, 8>},
#endif
};
#define NVARIANTS ((int)(sizeof variants / sizeof variants[0]))

/* Cost model: with nb = blocks_i * S blocks spread over the SMs, the busiest SM runs
 * ceil(nb / sms) blocks, each doing (tiles + 1/2) x T j bodies (the 1/2 stands for the
 * per-block set-up, partial store and the reduction) for T x B i bodies, at the variant's
 * measured rate (a forced variant without one: 13 + 1/B issues a pair). An SM with fewer
 * than 16 resident warps is taken to be latency-bound and charged proportionally. */
extern "C" int gc_cuda_accel_plan(size_t n, int sm_count, const int force[5],
                                  struct gc_cuda_accel_plan *plan)
{
    return gc_cuda_accel_plan_range(n, n, sm_count, force, plan);
}

extern "C" int gc_cuda_accel_plan_range(size_t ni, size_t n, int sm_count, const int force[5],
                                        struct gc_cuda_accel_plan *plan)
{
    double best = 0.0;
    const int forced = force[0] || force[1] || force[2] || force[3];
    if (sm_count < 1)
        sm_count = 1;
    plan->variant = -1;
    for (int v = 0; v < NVARIANTS; v++) {
        const int B = variants[v].b, T = variants[v].t;
        const long ntiles = ((long)n + T - 1) / T;
        int occ = 0;
        if (forced ? (force[0] && force[0] != T) || (force[1] && force[1] != B) ||
                         (force[2] && force[2] != variants[v].u) ||
                         (force[3] && force[3] != variants[v].m) || force[4] != variants[v].p
                   : !(variants[v].rate > 0.0))
            continue;
        cudaError_t err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &occ, variants[v].fn, T, 0);
        if (err != cudaSuccess)
            return (int)err;
        if (occ < 1)
            occ = 1;
        const long bi = ((long)ni + (long)T * B - 1) / ((long)T * B);
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
            double warps = (double)resident * T / 32.0;
            const double per_pair = variants[v].rate > 0.0 ? 1.0 / variants[v].rate
                                                           : (13.0 + 1.0 / B) / 6.0;
            double cost = (double)per_sm * ((double)tps + 0.5) * T * (double)(T * B) * per_pair;
            if (warps < 16.0)
                cost *= 16.0 / warps;
            cost *= 1.0 + 0.002 * (double)s; /* prefer fewer slices on ties */
            if (best == 0.0 || cost < best) {
                best = cost;
                plan->variant = v;
                plan->threads = T;
                plan->min_blocks = variants[v].m;
                plan->soft_period = variants[v].p;
                plan->bodies_per_thread = B;
                plan->unroll = variants[v].u;
                plan->blocks_i = (int)bi;
                plan->jsplit = (int)s;
                plan->tiles_per_slice = (int)tps;
            }
        }
    }
    return plan->variant < 0 ? (int)cudaErrorInvalidValue : 0;
}

extern "C" size_t gc_cuda_accel_scratch(const struct gc_cuda_accel_plan *plan, size_t n)
{
    return plan->jsplit > 1 ? (size_t)plan->jsplit * 3 * n : 0;
}

extern "C" int gc_cuda_launch_accel(const float *d_pos, float *d_acc, double *d_part, size_t n,
                                    float eps2, const struct gc_cuda_accel_plan *plan,
                                    void *stream)
{
    return gc_cuda_launch_accel_range(d_pos, d_acc, d_part, n, 0, n, eps2, plan, stream);
}

extern "C" int gc_cuda_launch_accel_range(const float *d_pos, float *d_acc, double *d_part,
                                          size_t n, size_t i0, size_t i1, float eps2,
                                          const struct gc_cuda_accel_plan *plan, void *stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    dim3 grid((unsigned)plan->blocks_i, (unsigned)plan->jsplit);
    if (n == 0 || i1 <= i0)
        return 0;
    if (plan->variant < 0 || plan->variant >= NVARIANTS)
        return (int)cudaErrorInvalidValue;
    variants[plan->variant].fn<<<grid, plan->threads, 0, st>>>((const float4 *)d_pos, (float4 *)d_acc,
                                                      d_part, (int)n, plan->tiles_per_slice,
                                                      eps2, plan->jsplit, (int)i0, (int)i1);
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess || plan->jsplit == 1)
        return (int)e;
    accel_reduce<<<(unsigned)((i1 - i0 + 255) / 256), 256, 0, st>>>(
        d_part, (float4 *)d_acc, (int)n, plan->jsplit, (int)i0, (int)i1);
    return (int)cudaGetLastError();
}

#define GC_POT_T 256

/* phi_i = sum_j m_j / sqrt(r^2 + eps2) in float per thread (as the forces), self term
 * m_i / eps removed and the block's sum of m_i phi_i formed in double. */
static __global__ void __launch_bounds__(GC_POT_T)
potential_tiled(const float4 *__restrict__ pos, double *__restrict__ wpart, int n, float eps2,
                int i0, int i1)
{
    __shared__ float4 tile[GC_POT_T];
    __shared__ double red[GC_POT_T];
    const int i = i0 + blockIdx.x * GC_POT_T + threadIdx.x;
    const float4 p = pos[i < i1 ? i : i1 - 1];
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
    if (i < i1)
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
    return gc_cuda_launch_potential_range(d_pos, d_wpart, n, 0, n, eps2, stream);
}

extern "C" int gc_cuda_launch_potential_range(const float *d_pos, double *d_wpart, size_t n,
                                              size_t i0, size_t i1, float eps2, void *stream)
{
    if (n == 0 || i1 <= i0)
        return 0;
    potential_tiled<<<(unsigned)gc_cuda_potential_blocks(i1 - i0), GC_POT_T, 0,
                      (cudaStream_t)stream>>>((const float4 *)d_pos, d_wpart, (int)n, eps2,
                                              (int)i0, (int)i1);
    return (int)cudaGetLastError();
}
