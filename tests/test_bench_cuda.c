/* The CUDA backend's benchmark table and --compare, against what they promise (skipped without a device). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "backend_bench.h"
#include "backend_cuda.h"
#include "bench.h"
#include "bodies.h"
#include "check.h"
#include "test_util.h"
#include "cli.h"
#include "model_galaxy.h"

#define N 8192
#define EPS2 (0.025f * 0.025f)

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Accelerations the benchmark table's force kernel `kernel` leaves in the backend, read
 * back through the compute table (v = 0, then kick(1): v = a). */
static void kernel_accelerations(struct gc_backend *b, const struct gc_bodies *in, int kernel,
                                 struct gc_bodies *out)
{
    memcpy(out->pos, in->pos, in->n * 4 * sizeof(float));
    memset(out->vel, 0, in->n * 4 * sizeof(float));
    CHECK(gc_backend_upload(b, out) == GC_OK);
    CHECK(gc_backend_bench(b)->force_kernel(b, EPS2, kernel) == GC_OK);
    CHECK(gc_backend_kick(b, 1.0f) == GC_OK);
    CHECK(gc_backend_download(b, out) == GC_OK);
}

/* Relative RMS of a (vel xyz) against the float64 sum, over every 16th body. */
static double error_vs_float64(const struct gc_bodies *in, const struct gc_bodies *a)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < in->n; i += 16) {
        double r[3] = {0, 0, 0};
        for (size_t j = 0; j < in->n; j++) {
            double d[3], r2 = EPS2;
            for (int k = 0; k < 3; k++) {
                d[k] = (double)in->pos[4 * j + k] - in->pos[4 * i + k];
                r2 += d[k] * d[k];
            }
            for (int k = 0; k < 3; k++)
                r[k] += in->pos[4 * j + 3] * d[k] / (r2 * sqrt(r2));
        }
        for (int k = 0; k < 3; k++) {
            num += (a->vel[4 * i + k] - r[k]) * (a->vel[4 * i + k] - r[k]);
            den += r[k] * r[k];
        }
    }
    return sqrt(num / den);
}

int main(void)
{
    struct gc_options o;
    struct gc_bodies bodies = {0}, acc = {0}, kern = {0}, ref = {0};
    struct gc_backend *b = NULL;
    const struct gc_backend_bench *t;
    double t0, wall, ms = 0.0;
    if (gc_backend_cuda_device_count() == 0) {
        printf("SKIP: no usable CUDA device\n");
        return CHECK_SKIP;
    }
    {
        /* The options galaxy-bench --compare --steps 20 resolves (eps, integrator, model). */
        char *argv[] = {"galaxy-bench", "--compare", "--steps", "20", NULL};
        CHECK(gc_cli_parse(4, argv, GC_PROGRAM_BENCH, &o) == GC_OK);
        CHECK(o.mode == GC_MODE_COMPARE && o.params.eps == 0.025f);
    }
    CHECK(gc_model_galaxy_build(o.model, N, 1, &bodies) == GC_OK);
    CHECK(gc_bodies_alloc(&acc, N) == GC_OK && gc_bodies_alloc(&kern, N) == GC_OK &&
          gc_bodies_alloc(&ref, N) == GC_OK);
    CHECK(gc_backend_create("cuda", NULL, &b) == GC_OK);
    if (!b)
        return CHECK_DONE();
    t = gc_backend_bench(b);
    CHECK(t && t->mark && t->elapsed && t->force_kernel && t->plan);
    if (!t || !t->force_kernel)
        return CHECK_DONE();

    /* The kernel alone is the product's force pass: the same bits as accel. */
    CHECK(gc_backend_accelerations(b, &bodies, ALLPAIRS(EPS2),
                                   &acc) == GC_OK);
    kernel_accelerations(b, &bodies, 0, &kern);
    CHECK(memcmp(acc.vel, kern.vel, N * 4 * sizeof(float)) == 0);
    /* The classic reference kernel computes the same forces. Its float sums run in body
     * order, one rounding per term over 8192 terms, so it sits nearer 1e-5 of float64
     * than the product's tiled partial sums: 3e-5 leaves room without hiding a wrong term
     * (one missing body of 8192 is ~1e-4). */
    kernel_accelerations(b, &bodies, 1, &ref);
    printf("force error vs float64: product %.2e, classic reference %.2e; plan %s\n",
           error_vs_float64(&bodies, &kern), error_vs_float64(&bodies, &ref), t->plan(b));
    CHECK_LT(error_vs_float64(&bodies, &kern), 1e-5);
    CHECK_LT(error_vs_float64(&bodies, &ref), 3e-5);
    CHECK(strstr(t->plan(b), "T=") != NULL);

    /* The event timer measures the work queued between its marks: more than zero, no more
     * than the wall clock around it, and most of it for work far longer than a launch. */
    CHECK(gc_backend_sync(b) == GC_OK);
    t0 = now_s();
    CHECK(t->mark(b, 0) == GC_OK);
    for (int k = 0; k < 200; k++)
        CHECK(t->force_kernel(b, EPS2, 1) == GC_OK);
    CHECK(t->mark(b, 1) == GC_OK);
    CHECK(t->elapsed(b, &ms) == GC_OK);
    wall = (now_s() - t0) * 1e3;
    printf("200 classic passes at N = %d: events %.3f ms, wall %.3f ms\n", N, ms, wall);
    CHECK(ms > 0.0);
    CHECK(ms <= wall * 1.01 + 0.05);
    CHECK(ms >= 0.5 * wall);

    /* --compare: GPU and CPU forces within 1e-5 of float64, positions after 20 steps. */
    CHECK(gc_bench_compare(&o, &bodies) == GC_OK);
    gc_backend_destroy(b);
    gc_bodies_free(&bodies);
    gc_bodies_free(&acc);
    gc_bodies_free(&kern);
    gc_bodies_free(&ref);
    return CHECK_DONE();
}
