/* The classic GPU Gems 3 ch. 31 force kernel, kept only as the benchmark's side-by-side reference. */
/* SPDX-License-Identifier: MIT */
#include <cuda_runtime.h>

#include "gc_kernels.h"

/* As in the CUDA samples' nbody: one body per thread, 256-thread blocks, a 256-body tile
 * in shared memory, IEEE-mode rsqrtf (this file is built without fast math or -ftz, so
 * the compiler keeps its denormal handling). Only the guard for n not a multiple of the
 * tile is added (zero-mass padding), so it runs the same inputs as the product kernel. */
#define REF_T 256

static __global__ void accel_classic(const float4 *__restrict__ pos, float4 *__restrict__ acc,
                                     int n, float eps2)
{
    __shared__ float4 sh[REF_T];
    const int i = blockIdx.x * REF_T + threadIdx.x;
    const float4 p = pos[i < n ? i : n - 1];
    float3 a = make_float3(0.0f, 0.0f, 0.0f);
    for (int t = 0; t < n; t += REF_T) {
        const int j = t + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
#pragma unroll 4
        for (int k = 0; k < REF_T; k++) {
            const float4 q = sh[k];
            float3 r;
            r.x = q.x - p.x;
            r.y = q.y - p.y;
            r.z = q.z - p.z;
            float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + eps2;
            float inv = rsqrtf(dist2);
            float inv3 = inv * inv * inv;
            float s = q.w * inv3;
            a.x += r.x * s;
            a.y += r.y * s;
            a.z += r.z * s;
        }
        __syncthreads();
    }
    if (i < n)
        acc[i] = make_float4(a.x, a.y, a.z, 0.0f);
}

extern "C" int gc_cuda_launch_accel_reference(const float *d_pos, float *d_acc, size_t n,
                                              float eps2, void *stream)
{
    if (n == 0)
        return 0;
    accel_classic<<<(unsigned)((n + REF_T - 1) / REF_T), REF_T, 0, (cudaStream_t)stream>>>(
        (const float4 *)d_pos, (float4 *)d_acc, (int)n, eps2);
    return (int)cudaGetLastError();
}
