/* The all-pairs force kernel's variant study: each forced variant (T, B, U, M, P) timed alone at one N and checked against float64 (built with GC_STUDY). */
/* SPDX-License-Identifier: MIT */
/* Usage: accel_variants N T,B,U,M[,P] [T,B,U,M[,P] ...]
 * Prints, per variant: the plan, the median of 5 timed runs of 5 force passes (CUDA events),
 * interactions per second (N^2 per pass, self-pairs counted) and the relative RMS force error
 * against a float64 sum over 512 evenly spaced bodies. The product's planner never picks the
 * unrated variants; this tool is how they are measured (docs/perf-log). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "gc_kernels.h"
#include "models.h"

#define REPEATS 5
#define PASSES 5
#define REF_ROWS 512
#define EPS2 (0.025f * 0.025f)

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int fail(const char *what, cudaError_t e)
{
    fprintf(stderr, "accel_variants: %s: %s\n", what, cudaGetErrorString(e));
    return 1;
}

/* Relative RMS of acc against float64 over REF_ROWS bodies. */
static double force_error(const struct gc_bodies *b, const float *acc)
{
    double num = 0.0, den = 0.0;
    for (int r = 0; r < REF_ROWS; r++) {
        const size_t i = (size_t)r * b->n / REF_ROWS;
        double a[3] = {0, 0, 0};
        for (size_t j = 0; j < b->n; j++) {
            double d[3], r2 = EPS2;
            for (int k = 0; k < 3; k++) {
                d[k] = (double)b->pos[4 * j + k] - b->pos[4 * i + k];
                r2 += d[k] * d[k];
            }
            for (int k = 0; k < 3; k++)
                a[k] += b->pos[4 * j + 3] * d[k] / (r2 * sqrt(r2));
        }
        for (int k = 0; k < 3; k++) {
            num += (acc[4 * i + k] - a[k]) * (acc[4 * i + k] - a[k]);
            den += a[k] * a[k];
        }
    }
    return sqrt(num / den);
}

int main(int argc, char **argv)
{
    struct gc_bodies b = {0};
    struct cudaDeviceProp prop;
    float *d_pos = NULL, *d_acc = NULL, *h_acc = NULL;
    double *d_part = NULL;
    size_t part_cap = 0;
    cudaEvent_t e0, e1;
    cudaError_t e;
    long n;
    if (argc < 3 || (n = atol(argv[1])) < 1024) {
        fprintf(stderr, "usage: accel_variants N T,B,U,M[,P] ...  (N >= 1024)\n");
        return 2;
    }
    if (gc_models_build("mw-m31", (size_t)n, 1, &b) != GC_OK)
        return 1;
    if ((e = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess)
        return fail("no CUDA device", e);
    h_acc = malloc((size_t)n * 4 * sizeof *h_acc);
    if (!h_acc)
        return 1;
    if ((e = cudaMalloc((void **)&d_pos, (size_t)n * 4 * sizeof(float))) != cudaSuccess ||
        (e = cudaMalloc((void **)&d_acc, (size_t)n * 4 * sizeof(float))) != cudaSuccess ||
        (e = cudaMemcpy(d_pos, b.pos, (size_t)n * 4 * sizeof(float), cudaMemcpyHostToDevice)) !=
            cudaSuccess ||
        (e = cudaEventCreate(&e0)) != cudaSuccess || (e = cudaEventCreate(&e1)) != cudaSuccess)
        return fail("set-up", e);
    printf("# %s, N = %ld, eps 0.025, %d passes per timing, median of %d; N^2 interactions "
           "per pass (self-pairs counted)\n", prop.name, n, PASSES, REPEATS);
    for (int a = 2; a < argc; a++) {
        int force[5] = {0, 0, 0, 0, 0};
        struct gc_cuda_accel_plan plan;
        double t[REPEATS], ms;
        if (sscanf(argv[a], "%d,%d,%d,%d,%d", &force[0], &force[1], &force[2], &force[3],
                   &force[4]) < 4) {
            fprintf(stderr, "accel_variants: '%s' is not T,B,U,M[,P]\n", argv[a]);
            return 2;
        }
        if (gc_cuda_accel_plan((size_t)n, prop.multiProcessorCount, force, &plan) != 0) {
            printf("variant %-14s not compiled (configure with -DGC_STUDY=ON)\n", argv[a]);
            continue;
        }
        if (gc_cuda_accel_scratch(&plan, (size_t)n) > part_cap) {
            cudaFree(d_part);
            part_cap = gc_cuda_accel_scratch(&plan, (size_t)n);
            if ((e = cudaMalloc((void **)&d_part, part_cap * sizeof(double))) != cudaSuccess)
                return fail("scratch", e);
        }
        for (int r = -1; r < REPEATS; r++) { /* r = -1: warm-up */
            float f = 0.0f;
            cudaEventRecord(e0, 0);
            for (int p = 0; p < PASSES; p++)
                if ((e = (cudaError_t)gc_cuda_launch_accel(d_pos, d_acc, d_part, (size_t)n, EPS2,
                                                          &plan, 0)) != cudaSuccess)
                    return fail(argv[a], e);
            cudaEventRecord(e1, 0);
            if ((e = cudaEventSynchronize(e1)) != cudaSuccess ||
                (e = cudaEventElapsedTime(&f, e0, e1)) != cudaSuccess)
                return fail(argv[a], e);
            if (r >= 0)
                t[r] = (double)f / PASSES;
        }
        qsort(t, REPEATS, sizeof t[0], cmp);
        ms = t[REPEATS / 2];
        if ((e = cudaMemcpy(h_acc, d_acc, (size_t)n * 4 * sizeof(float),
                            cudaMemcpyDeviceToHost)) != cudaSuccess)
            return fail("readback", e);
        printf("variant %-14s ms/pass %9.4f  interactions/s %.4e  error %.2e  plan T=%d B=%d "
               "U=%d M=%d P=%d blocks=%dx%d\n", argv[a], ms,
               (double)n * (double)n / (ms * 1e-3), force_error(&b, h_acc), plan.threads,
               plan.bodies_per_thread, plan.unroll, plan.min_blocks, plan.soft_period,
               plan.blocks_i, plan.jsplit);
        fflush(stdout);
    }
    cudaFree(d_pos);
    cudaFree(d_acc);
    cudaFree(d_part);
    free(h_acc);
    gc_bodies_free(&b);
    return 0;
}
