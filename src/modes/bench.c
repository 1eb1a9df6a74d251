/* --benchmark and --compare: timed leapfrog steps per N, and cross-backend accuracy against float64. */
/* SPDX-License-Identifier: MIT */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend_bench.h"
#include "bench_parts.h"
#include "force.h"
#include "log.h"
#include "models.h"
#include "sim.h"
#include "stop.h"

/* Flops per interaction as the classic CUDA nbody sample counts them, so GFLOP/s figures
 * compare with its published ones (3 sub, 3 mul + 2 add for r^2, add eps^2, rsqrt, 2 mul
 * for inv^3, 1 mul by mass, 3 fma = 6). */
#define FLOPS_PER_INTERACTION 20.0
/* Each timed repeat runs about this long (CUDA) unless --steps fixes the step count; a
 * median of 5 such repeats is stable to ~1% on a dedicated GPU. */
#define REPEAT_TARGET_S_CUDA 0.25
#define REPEAT_TARGET_S_CPU 1.0
/* Tolerances of --compare. Forces: the bound for float32 with fp64-checked
 * summation; positions after a short run (K <= ~100 steps) differ by the force error
 * times dt^2 growth, far below this, while chaotic growth over long runs is not a bug. */
#define COMPARE_ACC_RMS_TOL 1e-5
#define COMPARE_POS_RMS_TOL 1e-4
/* The two backends build the same tree with the same formulas: their forces differ by the
 * rounding of the sums (~1e-6), and where the GPU's fused multiply-adds tip a cell exactly
 * at its opening radius the other way, by that cell's approximation error (~1e-4) for a
 * few bodies. */
#define COMPARE_TREE_RMS_TOL 1e-4
/* Rows of the float64 force reference: all of them up to this many, else an even sample. */
#define COMPARE_REF_ROWS 4096

struct bench_row {
    size_t n;
    unsigned steps;      /* steps (or kernel launches) per timed repeat */
    int repeats;
    double ms_step;      /* median over repeats of one leapfrog step (force pass + update) */
    double ms_kernel;    /* CUDA: median of the force kernel alone; 0 = not measured */
    double ms_ref;       /* CUDA: median of the classic reference kernel; 0 = not measured */
    char plan[64];
};

/* What one timed repeat runs: `steps` leapfrog steps, or `steps` force kernels alone (the
 * backend's benchmark table: KERNEL its own, REFERENCE the classic one). */
enum what { STEPS = -1, KERNEL = 0, REFERENCE = 1 };

static enum gc_status run_once(struct gc_sim *sim, int what, unsigned steps, double *ms)
{
    struct gc_backend *b = gc_sim_backend(sim);
    const struct gc_sim_params *p = gc_sim_params(sim);
    double t0 = 0.0;
    enum gc_status st = gc_bench_timer_start(b, &t0);
    if (st != GC_OK)
        return st;
    if (what == STEPS) {
        st = gc_sim_advance(sim, gc_sim_time(sim) + (double)steps * p->dt);
    } else {
        const struct gc_backend_bench *t = gc_backend_bench(b);
        for (unsigned k = 0; k < steps && st == GC_OK; k++)
            st = t->force_kernel(b, p->eps * p->eps, what);
    }
    if (st != GC_OK)
        return st;
    st = gc_bench_timer_stop(b, t0, ms);
    *ms /= (double)steps;
    return st;
}

/* Median ms per step (or kernel) over `repeats` repeats, after one untimed warm-up repeat. */
static enum gc_status time_median(struct gc_sim *sim, int what, unsigned steps, int repeats,
                                  double *ms)
{
    double t[64];
    enum gc_status st;
    if (repeats > 64)
        repeats = 64;
    st = run_once(sim, what, steps, &t[0]);
    for (int r = 0; r < repeats && st == GC_OK; r++)
        st = run_once(sim, what, steps, &t[r]);
    if (st == GC_OK)
        *ms = gc_bench_median(t, repeats);
    return st;
}

static enum gc_status bench_one(const struct gc_options *opt, const struct gc_bodies *bodies,
                                struct gc_backend *b, struct bench_row *row)
{
    struct gc_sim *sim = NULL;
    double t1 = 0.0;
    enum gc_status st = gc_sim_create(b, NULL, bodies, &opt->params, NULL, &sim);
    const int repeats = opt->repeats > 0 ? opt->repeats : 5;
    memset(row, 0, sizeof *row);
    row->n = bodies->n;
    row->repeats = repeats;
    if (st != GC_OK)
        return st;
    /* First step: warms caches and clocks, and sizes the repeats when --steps is not given. */
    if (!opt->json)
        gc_log_info("benchmark: N = %zu: timing a first step to size the repeats", bodies->n);
    st = run_once(sim, STEPS, 1, &t1);
    if (st != GC_OK)
        goto out;
    if (opt->steps) {
        row->steps = opt->steps;
    } else {
        double target = gc_backend_is_device(b) ? REPEAT_TARGET_S_CUDA : REPEAT_TARGET_S_CPU;
        double k = ceil(target * 1e3 / (t1 > 1e-6 ? t1 : 1e-6));
        row->steps = k < 1.0 ? 1u : k > 2000.0 ? 2000u : (unsigned)k;
    }
    st = time_median(sim, STEPS, row->steps, repeats, &row->ms_step);
    if (st == GC_OK && gc_backend_bench(b) && gc_backend_bench(b)->force_kernel) {
        const struct gc_backend_bench *t = gc_backend_bench(b);
        st = time_median(sim, KERNEL, row->steps, repeats, &row->ms_kernel);
        if (st == GC_OK)
            st = time_median(sim, REFERENCE, row->steps, repeats, &row->ms_ref);
        snprintf(row->plan, sizeof row->plan, "%s", t->plan ? t->plan(b) : "");
    }
out:
    gc_sim_destroy(sim);
    return st;
}

static double rate(size_t n, double ms)
{
    return ms > 0.0 ? (double)n * (double)n / (ms * 1e-3) : 0.0;
}

/* The all-pairs loop's rate against the hardware's peak, where the backend knows it. */
static int peak_of(struct gc_backend *b, struct gc_bench_peak *pk)
{
    const struct gc_backend_bench *t = gc_backend_bench(b);
    memset(pk, 0, sizeof *pk);
    return t && t->peak && t->peak(b, pk) == GC_OK && pk->flops > 0.0;
}

static void print_rows(const struct gc_options *opt, struct gc_backend *b,
                       const struct bench_row *rows, int count)
{
    struct gc_bench_peak pk;
    const int peak = peak_of(b, &pk);
    if (opt->json) {
        printf("{\n  \"backend\": \"%s\",\n  \"device\": \"%s\",\n", gc_backend_name(b),
               gc_backend_device_name(b));
        printf("  \"eps\": %g,\n  \"dt\": %g,\n  \"flops_per_interaction\": %g,\n",
               opt->params.eps, opt->params.dt, FLOPS_PER_INTERACTION);
        if (peak)
            printf("  \"loops\": \"%s\",\n  \"executed_flops_per_interaction\": %g,\n"
                   "  \"peak_gflops\": %.6g,\n  \"peak_how\": \"%s\",\n", pk.loops,
                   pk.pair_flops, pk.flops * 1e-9, pk.how);
        printf("  \"results\": [\n");
        for (int k = 0; k < count; k++) {
            const struct bench_row *r = &rows[k];
            printf("    {\"n\": %zu, \"steps\": %u, \"repeats\": %d, \"ms_per_step\": %.6g, "
                   "\"interactions_per_s\": %.6g, \"gflops\": %.6g, \"ms_kernel\": %.6g, "
                   "\"kernel_interactions_per_s\": %.6g, \"ms_reference\": %.6g, "
                   "\"reference_interactions_per_s\": %.6g, \"ratio_to_reference\": %.4g, "
                   "\"percent_of_peak\": %.4g, \"plan\": \"%s\"}%s\n",
                   r->n, r->steps, r->repeats, r->ms_step, rate(r->n, r->ms_step),
                   FLOPS_PER_INTERACTION * rate(r->n, r->ms_step) * 1e-9, r->ms_kernel,
                   rate(r->n, r->ms_kernel), r->ms_ref, rate(r->n, r->ms_ref),
                   r->ms_kernel > 0.0 ? r->ms_ref / r->ms_kernel : 0.0,
                   peak ? 100.0 * rate(r->n, r->ms_step) * pk.pair_flops / pk.flops : 0.0,
                   r->plan, k + 1 < count ? "," : "");
        }
        printf("  ]\n}\n");
        return;
    }
    printf("# backend %s on %s; eps %g; N^2 interactions per step (self-pairs counted), "
           "%g flops each; median of %d repeats after warm-up\n", gc_backend_name(b),
           gc_backend_device_name(b), opt->params.eps, FLOPS_PER_INTERACTION,
           rows[0].repeats);
    if (peak)
        printf("# %s loops, %g flops an interaction as executed (an FMA two); FP32 FMA peak "
               "%.1f GFLOP/s = %s\n", pk.loops, pk.pair_flops, pk.flops * 1e-9, pk.how);
    printf("# %9s %6s %12s %14s %10s", "N", "steps", "ms/step", "interactions/s", "GFLOP/s");
    if (peak)
        printf(" %8s %10s %8s", "% peak", "exec GF/s", "% peak");
    if (rows[0].ms_kernel > 0.0)
        printf(" %12s %14s %12s %14s %7s  %s", "ms/kernel", "kernel int/s", "ms/classic",
               "classic int/s", "ratio", "plan");
    printf("\n");
    for (int k = 0; k < count; k++) {
        const struct bench_row *r = &rows[k];
        printf("%11zu %6u %12.4f %14.4e %10.1f", r->n, r->steps, r->ms_step,
               rate(r->n, r->ms_step), FLOPS_PER_INTERACTION * rate(r->n, r->ms_step) * 1e-9);
        if (peak)
            printf(" %8.1f %10.1f %8.1f",
                   100.0 * FLOPS_PER_INTERACTION * rate(r->n, r->ms_step) / pk.flops,
                   pk.pair_flops * rate(r->n, r->ms_step) * 1e-9,
                   100.0 * pk.pair_flops * rate(r->n, r->ms_step) / pk.flops);
        if (r->ms_kernel > 0.0)
            printf(" %12.4f %14.4e %12.4f %14.4e %7.3f  %s", r->ms_kernel,
                   rate(r->n, r->ms_kernel), r->ms_ref, rate(r->n, r->ms_ref),
                   r->ms_ref / r->ms_kernel, r->plan);
        printf("\n");
    }
    fflush(stdout);
}

enum gc_status gc_bench_run(const struct gc_options *opt, const struct gc_bodies *initial,
                            struct gc_backend *backend)
{
    struct gc_options allpairs;
    /* --sweep sizes: powers of two, the Dubinski table's 81,920, and a million bodies. */
    static const size_t sweep_cuda[] = {1024, 4096, 16384, 65536, 81920, 262144, 1048576};
    static const size_t sweep_cpu[] = {1024, 4096, 16384, 65536};
    const int device = gc_backend_is_device(backend);
    const size_t *sizes = device ? sweep_cuda : sweep_cpu;
    const int nsizes = device ? 7 : 4;
    size_t ns[8];
    int count = 0;
    struct bench_row rows[8];
    enum gc_status st = GC_OK;

    /* -n with --sweep: the sweep's largest size, the list's smaller ones before it. */
    for (int k = 0; opt->sweep && k < nsizes; k++)
        if (!opt->n || sizes[k] < opt->n)
            ns[count++] = sizes[k];
    if (!opt->sweep || opt->n)
        ns[count++] = opt->n;

    /* All pairs unless the tree is asked for: this table has the kernel alone and the
     * classic kernel beside it, which only all pairs have. */
    if (opt->params.force && strcmp(opt->params.force, "tree") == 0)
        return gc_bench_tree(opt, initial, backend);
    allpairs = *opt;
    allpairs.params.force = "allpairs";
    opt = &allpairs;

    for (int k = 0; k < count && st == GC_OK; k++) {
        if (!opt->sweep) {
            st = bench_one(opt, initial, backend, &rows[k]);
        } else {
            struct gc_bodies bodies = {0};
            st = gc_models_build(opt->model, ns[k], opt->seed, &bodies);
            if (st == GC_OK)
                st = bench_one(opt, &bodies, backend, &rows[k]);
            gc_bodies_free(&bodies);
        }
        if (st == GC_OK && !opt->json)
            gc_log_info("benchmark: N = %zu done (%.4f ms/step)", rows[k].n, rows[k].ms_step);
    }
    if (st == GC_OK)
        print_rows(opt, backend, rows, count);
    if (st == GC_ERR_INTERRUPTED) {
        gc_stop_told();
        gc_log_warn("benchmark stopped by %s: no table (it needs every size timed whole)",
                    gc_stop_name(gc_stop_requested()));
    }
    return st;
}

/* Relative RMS of a's accelerations (vel xyz) against b's, over all bodies. */
static double rms_between(const struct gc_bodies *a, const struct gc_bodies *b)
{
    double num = 0.0, den = 0.0;
    for (size_t i = 0; i < a->n; i++)
        for (int k = 0; k < 3; k++) {
            const double d = (double)a->vel[4 * i + k] - b->vel[4 * i + k];
            num += d * d;
            den += (double)b->vel[4 * i + k] * b->vel[4 * i + k];
        }
    return den > 0.0 ? sqrt(num / den) : (num > 0.0 ? INFINITY : 0.0);
}

/* Positions of a against b after the same steps: RMS and largest difference relative to
 * the system's RMS radius about b's centre of mass. */
static void position_difference(const struct gc_bodies *a, const struct gc_bodies *b,
                                double *rms, double *max)
{
    double c[3] = {0, 0, 0}, m = 0.0, r2 = 0.0, d2sum = 0.0, scale;
    const size_t n = b->n;
    *max = 0.0;
    for (size_t i = 0; i < n; i++) {
        m += b->pos[4 * i + 3];
        for (int k = 0; k < 3; k++)
            c[k] += b->pos[4 * i + 3] * b->pos[4 * i + k];
    }
    for (int k = 0; k < 3; k++)
        c[k] /= m;
    for (size_t i = 0; i < n; i++) {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            const double x = b->pos[4 * i + k] - c[k];
            const double d = (double)a->pos[4 * i + k] - b->pos[4 * i + k];
            r2 += x * x;
            d2 += d * d;
        }
        d2sum += d2;
        *max = fmax(*max, sqrt(d2));
        if (!isfinite(d2))
            *max = INFINITY;
    }
    scale = sqrt(r2 / (double)n);
    *rms = isfinite(d2sum) ? sqrt(d2sum / (double)n) / scale : INFINITY;
    *max /= scale;
}

enum gc_status gc_bench_compare(const struct gc_options *opt, const struct gc_bodies *initial)
{
    struct gc_backend_options bo = {0};
    struct gc_backend *be[2] = {NULL, NULL};
    const char *names[2] = {"cuda", "cpu"};
    struct gc_bodies acc[2] = {{0}, {0}}, tacc[2] = {{0}, {0}}, fin[2] = {{0}, {0}};
    struct gc_bench_errors ea[2], et[2];
    const size_t n = initial->n;
    const size_t rows = n < COMPARE_REF_ROWS ? n : COMPARE_REF_ROWS;
    const unsigned steps = opt->steps ? opt->steps : 10;
    const float eps2 = opt->params.eps * opt->params.eps;
    const struct gc_force_params fp = {.method = GC_FORCE_ALLPAIRS, .eps2 = eps2};
    const struct gc_force_params ft = {.method = GC_FORCE_TREE, .eps2 = eps2,
                                       .theta = opt->params.theta};
    enum gc_force_method method = GC_FORCE_ALLPAIRS;
    double *ref = NULL, pos_rms = 0.0, pos_max = 0.0, tree_rms = 0.0;
    enum gc_status st = GC_OK;

    bo.threads = opt->threads;
    bo.device = gc_cli_device(opt, 0);
    bo.no_interop = 1;
    for (int k = 0; k < 2 && st == GC_OK; k++) {
        st = gc_backend_create(names[k], &bo, &be[k]);
        if (st == GC_OK)
            st = gc_bodies_alloc(&acc[k], n);
        if (st == GC_OK)
            st = gc_bodies_alloc(&tacc[k], n);
        if (st == GC_OK)
            st = gc_bodies_alloc(&fin[k], n);
    }
    if (st != GC_OK) {
        gc_log_error("--compare needs both the cuda and the cpu backend (%s)",
                     gc_status_str(st));
        goto out;
    }
    st = gc_force_method_choose(opt->params.force, n, be[0], &method);
    ref = st == GC_OK ? gc_bench_reference_rows(initial, rows, (double)eps2) : NULL;
    if (!ref) {
        st = st == GC_OK ? GC_ERR_NOMEM : st;
        goto out;
    }
    /* Forces of both backends against float64, on the same initial state: all pairs, and
     * the tree when the run uses it (then also the two trees against each other). */
    for (int k = 0; k < 2 && st == GC_OK; k++) {
        st = gc_backend_accelerations(be[k], initial, &fp, &acc[k]);
        if (st == GC_OK)
            gc_bench_errors_of(&acc[k], ref, rows, &ea[k]);
        if (st == GC_OK && method == GC_FORCE_TREE)
            st = gc_backend_accelerations(be[k], initial, &ft, &tacc[k]);
        if (st == GC_OK && method == GC_FORCE_TREE)
            gc_bench_errors_of(&tacc[k], ref, rows, &et[k]);
    }
    if (st == GC_OK && method == GC_FORCE_TREE)
        tree_rms = rms_between(&tacc[0], &tacc[1]);
    /* The same K leapfrog steps on both; positions relative to the system's RMS radius. */
    for (int k = 0; k < 2 && st == GC_OK; k++) {
        struct gc_sim *sim = NULL;
        st = gc_sim_create(be[k], NULL, initial, &opt->params, NULL, &sim);
        if (st == GC_OK)
            st = gc_sim_advance(sim, (double)steps * opt->params.dt);
        if (st == GC_OK)
            st = gc_sim_download(sim, &fin[k]);
        gc_sim_destroy(sim);
    }
    if (st == GC_OK)
        position_difference(&fin[0], &fin[1], &pos_rms, &pos_max);
    if (st == GC_OK) {
        printf("# compare: %zu bodies, eps %g, dt %g, %u steps (%s); cuda on %s vs cpu on %s\n",
               n, opt->params.eps, opt->params.dt, steps,
               method == GC_FORCE_TREE ? "tree" : "all pairs", gc_backend_device_name(be[0]),
               gc_backend_device_name(be[1]));
        printf("# float64 force reference over %zu %s rows\n", rows,
               rows == n ? "(all)" : "(evenly sampled)");
        for (int k = 0; k < 2; k++)
            printf("accel %-4s vs float64: relative RMS %.3e, max per-body relative %.3e\n",
                   names[k], ea[k].rms, ea[k].max);
        for (int k = 0; k < 2 && method == GC_FORCE_TREE; k++)
            printf("tree  %-4s (theta %.2f) vs float64: per-body relative median %.3e, 99th "
                   "percentile %.3e, max %.3e (RMS %.3e)\n", names[k], opt->params.theta,
                   et[k].median, et[k].p99, et[k].max, et[k].rms);
        if (method == GC_FORCE_TREE)
            printf("tree  cuda vs cpu: relative RMS %.3e (tolerance %.0e)\n", tree_rms,
                   COMPARE_TREE_RMS_TOL);
        printf("positions cuda vs cpu after %u steps: RMS %.3e, max %.3e (relative to the "
               "RMS radius)\n", steps, pos_rms, pos_max);
        printf("tolerances: accel relative RMS <= %.0e, position RMS <= %.0e\n",
               COMPARE_ACC_RMS_TOL, COMPARE_POS_RMS_TOL);
        if (!(ea[0].rms <= COMPARE_ACC_RMS_TOL) || !(ea[1].rms <= COMPARE_ACC_RMS_TOL) ||
            !(pos_rms <= COMPARE_POS_RMS_TOL) || !(tree_rms <= COMPARE_TREE_RMS_TOL)) {
            gc_log_error("compare: difference beyond tolerance (accel cuda %.3e, cpu %.3e, "
                         "tree cuda vs cpu %.3e, positions %.3e)", ea[0].rms, ea[1].rms,
                         tree_rms, pos_rms);
            st = GC_ERR_CUDA;
        } else {
            printf("compare: PASS\n");
        }
    }
out:
    free(ref);
    for (int k = 0; k < 2; k++) {
        gc_bodies_free(&acc[k]);
        gc_bodies_free(&tacc[k]);
        gc_bodies_free(&fin[k]);
        gc_backend_destroy(be[k]);
    }
    return st;
}
