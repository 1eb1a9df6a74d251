/* Tests of --compare and --benchmark on the CUDA backend (skipped without a device). */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "backend.h"
#include "backend_cuda.h"
#include "bench.h"
#include "bodies.h"
#include "check.h"
#include "cli.h"
#include "model_galaxy.h"

int main(void)
{
    struct gc_options o;
    struct gc_bodies bodies = {0};
    struct gc_backend *b = NULL;
    if (gc_backend_cuda_device_count() == 0) {
        printf("no CUDA device: skipped\n");
        return CHECK_SKIP;
    }
    gc_cli_defaults(&o);
    CHECK(gc_model_galaxy_build(o.model, 4096, 1, &bodies) == GC_OK);
    /* --compare: GPU and CPU forces within 1e-5 of float64, positions after 20 steps. */
    o.mode = GC_MODE_COMPARE;
    o.steps = 20;
    CHECK(gc_bench_compare(&o, &bodies) == GC_OK);
    /* --benchmark smoke run: both timers (events and the host clock) report. */
    o.mode = GC_MODE_BENCHMARK;
    o.steps = 3;
    o.repeats = 3;
    CHECK(gc_backend_create("cuda", NULL, &b) == GC_OK);
    if (b)
        CHECK(gc_bench_run(&o, &bodies, b) == GC_OK);
    gc_backend_destroy(b);
    CHECK(gc_backend_create("cpu", NULL, &b) == GC_OK);
    if (b)
        CHECK(gc_bench_run(&o, &bodies, b) == GC_OK);
    gc_backend_destroy(b);
    gc_bodies_free(&bodies);
    return CHECK_DONE();
}
