/* cpu_loops: the CPU backend's force loops on one thread, each instruction set, in cycles of the clock measured beside them: what a core does when it has the core, on a busy machine too. */
/* SPDX-License-Identifier: MIT */
/* Usage: cpu_loops [N_ALLPAIRS [N_TREE]]  (defaults 16384 and 65536)
 *        cpu_loops crossover                (all pairs against the tree, 2,048 to 32,768)
 * All pairs: 4,096 bodies against N_ALLPAIRS, the backend's tile loop called directly. Tree:
 * one force pass of the built-in pair (theta 0.5) through the backend, on one thread. Time is
 * the thread's (or process's) CPU time, so that waiting for a core another process holds
 * does not count; the clock is a chain of dependent additions timed the same way before and
 * after each run (gc_cpu_peak_estimate's method), so the figures are cycles. Each is the
 * best of REPS runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "backend_cpu_simd.h"
#include "backend_tree.h"
#include "models.h"

#define REPS 7
#define ROWS 4096

static double cpu_seconds(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double ghz(void)
{
    struct gc_cpu_peak p;
    gc_cpu_peak_estimate(1, &p);
    return p.ghz;
}

/* FP32 flops one core's FMA pipes finish a cycle (gc_cpu_peak_estimate's pipes and lanes). */
static double per_cycle(void)
{
    struct gc_cpu_peak p;
    gc_cpu_peak_estimate(1, &p);
    return 2.0 * p.pipes * p.lanes;
}

static void allpairs(const struct cpu_kernels *k, size_t n)
{
    const size_t rows = n < ROWS ? n : ROWS;
    struct gc_bodies b;
    float *a = malloc(3 * n * sizeof *a);
    double best = 1e30, clock = 0.0;
    if (!a || gc_models_build("mw-m31", n, 1, &b) != GC_OK)
        return;
    {
        float *x = malloc(4 * n * sizeof *x);
        struct cpu_soa s = {x, x + n, x + 2 * n, x + 3 * n, n};
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 4; c++)
                x[(size_t)c * n + i] = b.pos[4 * i + (size_t)c];
        for (int r = 0; r < REPS; r++) {
            const double g0 = ghz(), t0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
            double t, g;
            for (size_t i = 0; i < rows; i += GC_CPU_TILE) {
                const size_t e = i + GC_CPU_TILE < rows ? i + GC_CPU_TILE : rows;
                k->allpairs_accel(&s, i, e, 0.025f * 0.025f, a + i, a + n + i, a + 2 * n + i);
            }
            t = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
            g = 0.5 * (g0 + ghz());
            if (t * g < best * clock || r == 0) {
                best = t;
                clock = g;
            }
        }
        free(x);
    }
    {
        const double cyc = best * clock * 1e9 / ((double)rows * (double)n), f = per_cycle();
        printf("all pairs %-8s N %7zu: %.3f cycles a pair (%.2f GHz), %.1f%% of a core's FP32 "
               "FMA peak (%.0f flops a cycle) at 20 flops a pair, %.1f%% at the %d it "
               "executes\n", k->isa, n, cyc, clock, 100.0 * 20.0 / (f * cyc), f,
               100.0 * k->flops_per_pair / (f * cyc), k->flops_per_pair);
    }
    gc_bodies_free(&b);
    free(a);
}

/* Best CPU seconds of one force pass of method m over b on be (one thread). */
static double pass_seconds(struct gc_backend *be, const struct gc_bodies *b,
                           enum gc_force_method m)
{
    const struct gc_force_params fp = {.method = m, .eps2 = 0.025f * 0.025f, .theta = 0.5f};
    double best = 1e30;
    if (gc_backend_upload(be, b) != GC_OK || gc_backend_accel(be, &fp) != GC_OK)
        return 0.0;
    for (int r = 0; r < REPS; r++) {
        const double t0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
        if (gc_backend_accel(be, &fp) != GC_OK)
            return 0.0;
        const double t = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - t0;
        best = t < best ? t : best;
    }
    return best;
}

/* Where the tree overtakes all pairs on one core (the CPU backend's tree_above). */
static void crossover(void)
{
    struct gc_backend_options opt = {0};
    struct gc_backend *be = NULL;
    opt.quiet = 1;
    opt.threads = 1;
    if (gc_backend_create("cpu", &opt, &be) != GC_OK)
        return;
    printf("# one core, %s; CPU ms of a force pass (best of %d)\n",
           gc_backend_device_name(be), REPS);
    for (size_t n = 2048; n <= 32768; n *= 2) {
        struct gc_bodies b;
        double ap, tr;
        if (gc_models_build("mw-m31", n, 1, &b) != GC_OK)
            break;
        ap = pass_seconds(be, &b, GC_FORCE_ALLPAIRS);
        tr = pass_seconds(be, &b, GC_FORCE_TREE);
        printf("N %6zu: all pairs %8.2f ms, tree %8.2f ms: the tree %.2fx as fast\n", n,
               1e3 * ap, 1e3 * tr, tr > 0.0 ? ap / tr : 0.0);
        gc_bodies_free(&b);
    }
    gc_backend_destroy(be);
}

static void tree(const char *isa, size_t n)
{
    struct gc_backend_options opt = {0};
    struct gc_backend *be = NULL;
    struct gc_bodies b;
    struct gc_tree_stats ts;
    const struct gc_force_params fp = {.method = GC_FORCE_TREE, .eps2 = 0.025f * 0.025f,
                                       .theta = 0.5f};
    double best = 1e30, clock = 0.0;
    opt.quiet = 1;
    opt.threads = 1;
    opt.cpu_isa = isa;
    if (gc_backend_create("cpu", &opt, &be) != GC_OK ||
        gc_models_build("mw-m31", n, 1, &b) != GC_OK)
        return;
    if (gc_backend_upload(be, &b) == GC_OK && gc_backend_accel(be, &fp) == GC_OK) {
        for (int r = 0; r < REPS; r++) {
            const double g0 = ghz(), t0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
            double t, g;
            if (gc_backend_accel(be, &fp) != GC_OK)
                break;
            t = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - t0;
            g = 0.5 * (g0 + ghz());
            if (t * g < best * clock || r == 0) {
                best = t;
                clock = g;
            }
        }
        gc_backend_tree(be)->stats(be, &ts);
        printf("tree      %-8s N %7zu: %.0f Mcycles a force pass on one core (%.2f GHz): "
               "%.0f ms on 2 cores at 2.45 GHz, %.0f ms at %.2f GHz, if they scale\n", isa, n,
               best * clock * 1e3, clock, best * clock / (2.0 * 2.45) * 1e3,
               best / 2.0 * 1e3, clock);
    }
    gc_bodies_free(&b);
    gc_backend_destroy(be);
}

int main(int argc, char **argv)
{
    static const char *const isas[] = {"portable", "avx2", "avx512"};
    const size_t na = argc > 1 ? strtoul(argv[1], NULL, 10) : 16384;
    const size_t nt = argc > 2 ? strtoul(argv[2], NULL, 10) : 65536;
    if (argc > 1 && strcmp(argv[1], "crossover") == 0) {
        crossover();
        return 0;
    }
    for (int s = 0; s < 3; s++) {
        const struct cpu_kernels *k;
        if (gc_cpu_kernels_choose(isas[s], &k) != GC_OK)
            continue;
        allpairs(k, na);
        tree(isas[s], nt);
    }
    return 0;
}
