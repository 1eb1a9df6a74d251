/* --benchmark and --compare: timed leapfrog steps per N, and cross-backend accuracy against float64. */
/* SPDX-License-Identifier: MIT */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend_bench.h"
#include "log.h"
#include "models.h"
#include "sim.h"

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

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Timer: the backend's own (CUDA events on its stream) where its benchmark table has one, a
 * monotonic clock around a synchronised region otherwise. */
static enum gc_status timer_start(struct gc_backend *b, double *t0)
{
    const struct gc_backend_bench *t = gc_backend_bench(b);
    if (t)
        return t->mark(b, 0);
    *t0 = now_s();
    return gc_backend_sync(b);
}

static enum gc_status timer_stop(struct gc_backend *b, double t0, double *ms)
{
    const struct gc_backend_bench *t = gc_backend_bench(b);
    enum gc_status st;
    if (t) {
        st = t->mark(b, 1);
        return st != GC_OK ? st : t->elapsed(b, ms);
    }
    st = gc_backend_sync(b);
    *ms = (now_s() - t0) * 1e3;
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

/* What one timed repeat runs: `steps` leapfrog steps, or `steps` force kernels alone (the
 * backend's benchmark table: KERNEL its own, REFERENCE the classic one). */
enum what { STEPS = -1, KERNEL = 0, REFERENCE = 1 };

static enum gc_status run_once(struct gc_sim *sim, int what, unsigned steps, double *ms)
{
    struct gc_backend *b = gc_sim_backend(sim);
    const struct gc_sim_params *p = gc_sim_params(sim);
    double t0 = 0.0;
    enum gc_status st = timer_start(b, &t0);
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
    st = timer_stop(b, t0, ms);
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
        *ms = median(t, repeats);
    return st;
}

static enum gc_status bench_one(const struct gc_options *opt, const struct gc_bodies *bodies,
                                struct gc_backend *b, struct bench_row *row)
{
    struct gc_sim sim;
    double t1 = 0.0;
    enum gc_status st = gc_sim_init(&sim, b, NULL, bodies, &opt->params);
    const int repeats = opt->repeats > 0 ? opt->repeats : 5;
    memset(row, 0, sizeof *row);
    row->n = bodies->n;
    row->repeats = repeats;
    if (st != GC_OK)
        return st;
    /* First step: warms caches and clocks, and sizes the repeats when --steps is not given. */
    st = run_once(&sim, STEPS, 1, &t1);
    if (st != GC_OK)
        goto out;
    if (opt->steps) {
        row->steps = opt->steps;
    } else {
        double target = gc_backend_is_device(b) ? REPEAT_TARGET_S_CUDA : REPEAT_TARGET_S_CPU;
        double k = ceil(target * 1e3 / (t1 > 1e-6 ? t1 : 1e-6));
        row->steps = k < 1.0 ? 1u : k > 2000.0 ? 2000u : (unsigned)k;
    }
    st = time_median(&sim, STEPS, row->steps, repeats, &row->ms_step);
    if (st == GC_OK && gc_backend_bench(b) && gc_backend_bench(b)->force_kernel) {
        const struct gc_backend_bench *t = gc_backend_bench(b);
        st = time_median(&sim, KERNEL, row->steps, repeats, &row->ms_kernel);
        if (st == GC_OK)
            st = time_median(&sim, REFERENCE, row->steps, repeats, &row->ms_ref);
        snprintf(row->plan, sizeof row->plan, "%s", t->plan ? t->plan(b) : "");
    }
out:
    gc_sim_free(&sim);
    return st;
}

static double rate(size_t n, double ms)
{
    return ms > 0.0 ? (double)n * (double)n / (ms * 1e-3) : 0.0;
}

static void print_rows(const struct gc_options *opt, struct gc_backend *b,
                       const struct bench_row *rows, int count)
{
    if (opt->json) {
        printf("{\n  \"backend\": \"%s\",\n  \"device\": \"%s\",\n", gc_backend_name(b),
               gc_backend_device_name(b));
        printf("  \"eps\": %g,\n  \"dt\": %g,\n  \"flops_per_interaction\": %g,\n",
               opt->params.eps, opt->params.dt, FLOPS_PER_INTERACTION);
        printf("  \"results\": [\n");
        for (int k = 0; k < count; k++) {
            const struct bench_row *r = &rows[k];
            printf("    {\"n\": %zu, \"steps\": %u, \"repeats\": %d, \"ms_per_step\": %.6g, "
                   "\"interactions_per_s\": %.6g, \"gflops\": %.6g, \"ms_kernel\": %.6g, "
                   "\"kernel_interactions_per_s\": %.6g, \"ms_reference\": %.6g, "
                   "\"reference_interactions_per_s\": %.6g, \"ratio_to_reference\": %.4g, "
                   "\"plan\": \"%s\"}%s\n",
                   r->n, r->steps, r->repeats, r->ms_step, rate(r->n, r->ms_step),
                   FLOPS_PER_INTERACTION * rate(r->n, r->ms_step) * 1e-9, r->ms_kernel,
                   rate(r->n, r->ms_kernel), r->ms_ref, rate(r->n, r->ms_ref),
                   r->ms_kernel > 0.0 ? r->ms_ref / r->ms_kernel : 0.0, r->plan,
                   k + 1 < count ? "," : "");
        }
        printf("  ]\n}\n");
        return;
    }
    printf("# backend %s on %s; eps %g; N^2 interactions per step (self-pairs counted), "
           "%g flops each; median of %d repeats after warm-up\n", gc_backend_name(b),
           gc_backend_device_name(b), opt->params.eps, FLOPS_PER_INTERACTION,
           rows[0].repeats);
    printf("# %9s %6s %12s %14s %10s", "N", "steps", "ms/step", "interactions/s", "GFLOP/s");
    if (rows[0].ms_kernel > 0.0)
        printf(" %12s %14s %12s %14s %7s  %s", "ms/kernel", "kernel int/s", "ms/classic",
               "classic int/s", "ratio", "plan");
    printf("\n");
    for (int k = 0; k < count; k++) {
        const struct bench_row *r = &rows[k];
        printf("%11zu %6u %12.4f %14.4e %10.1f", r->n, r->steps, r->ms_step,
               rate(r->n, r->ms_step), FLOPS_PER_INTERACTION * rate(r->n, r->ms_step) * 1e-9);
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
    /* --sweep sizes: powers of two, the Dubinski table's 81,920, and a million bodies. */
    static const size_t sweep_cuda[] = {1024, 4096, 16384, 65536, 81920, 262144, 1048576};
    static const size_t sweep_cpu[] = {1024, 2048, 4096, 8192, 16384};
    const int device = gc_backend_is_device(backend);
    const size_t *ns = device ? sweep_cuda : sweep_cpu;
    int count = opt->sweep ? (device ? 7 : 5) : 1;
    struct bench_row rows[8];
    enum gc_status st = GC_OK;

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
    return st;
}

/* float64 reference force on body i (same formula, self-pair adds zero). */
static void ref_accel(const struct gc_bodies *b, size_t i, double eps2, double a[3])
{
    const double xi = b->pos[4 * i], yi = b->pos[4 * i + 1], zi = b->pos[4 * i + 2];
    a[0] = a[1] = a[2] = 0.0;
    for (size_t j = 0; j < b->n; j++) {
        const double dx = b->pos[4 * j] - xi, dy = b->pos[4 * j + 1] - yi,
                     dz = b->pos[4 * j + 2] - zi;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        const double s = b->pos[4 * j + 3] / (r2 * sqrt(r2));
        a[0] += dx * s;
        a[1] += dy * s;
        a[2] += dz * s;
    }
}

struct err_stats {
    double rms, max; /* norm-wise relative RMS, largest per-body relative error */
};

enum gc_status gc_bench_compare(const struct gc_options *opt, const struct gc_bodies *initial)
{
    struct gc_backend_options bo = {0};
    struct gc_backend *be[2] = {NULL, NULL};
    const char *names[2] = {"cuda", "cpu"};
    struct gc_bodies acc[2] = {{0}, {0}}, fin[2] = {{0}, {0}};
    struct err_stats ea[2] = {{0, 0}, {0, 0}};
    const size_t n = initial->n;
    const size_t rows = n < COMPARE_REF_ROWS ? n : COMPARE_REF_ROWS;
    const unsigned steps = opt->steps ? opt->steps : 10;
    const float eps2 = opt->params.eps * opt->params.eps;
    const struct gc_force_params fp = {.method = GC_FORCE_ALLPAIRS, .eps2 = eps2};
    double *ref = NULL, pos_rms = 0.0, pos_max = 0.0;
    enum gc_status st = GC_OK;

    bo.threads = opt->threads;
    bo.device = gc_cli_device(opt, 0);
    bo.no_interop = 1;
    for (int k = 0; k < 2 && st == GC_OK; k++) {
        st = gc_backend_create(names[k], &bo, &be[k]);
        if (st == GC_OK)
            st = gc_bodies_alloc(&acc[k], n);
        if (st == GC_OK)
            st = gc_bodies_alloc(&fin[k], n);
    }
    if (st != GC_OK) {
        gc_log_error("--compare needs both the cuda and the cpu backend (%s)",
                     gc_status_str(st));
        goto out;
    }
    ref = malloc(rows * 3 * sizeof *ref);
    if (!ref) {
        st = GC_ERR_NOMEM;
        gc_log_error("--compare: out of memory");
        goto out;
    }
    /* Forces of both backends against float64, on the same initial state. */
#pragma omp parallel for schedule(dynamic, 8)
    for (long r = 0; r < (long)rows; r++)
        ref_accel(initial, (size_t)r * n / rows, (double)eps2, &ref[3 * r]);
    for (int k = 0; k < 2 && st == GC_OK; k++) {
        double num = 0.0, den = 0.0;
        st = gc_backend_accelerations(be[k], initial, &fp, &acc[k]);
        for (size_t r = 0; r < rows && st == GC_OK; r++) {
            const size_t i = r * n / rows;
            double d2 = 0.0, a2 = 0.0;
            for (int c = 0; c < 3; c++) {
                const double d = (double)acc[k].vel[4 * i + c] - ref[3 * r + c];
                d2 += d * d;
                a2 += ref[3 * r + c] * ref[3 * r + c];
            }
            num += d2;
            den += a2;
            if (a2 > 0.0 && sqrt(d2 / a2) > ea[k].max)
                ea[k].max = sqrt(d2 / a2);
            if (a2 == 0.0 && d2 > 0.0)
                ea[k].max = INFINITY;
        }
        ea[k].rms = den > 0.0 ? sqrt(num / den) : (num > 0.0 ? INFINITY : 0.0);
    }
    /* The same K leapfrog steps on both; positions relative to the system's RMS radius. */
    for (int k = 0; k < 2 && st == GC_OK; k++) {
        struct gc_sim sim;
        st = gc_sim_init(&sim, be[k], NULL, initial, &opt->params);
        if (st == GC_OK)
            st = gc_sim_advance(&sim, (double)steps * opt->params.dt);
        if (st == GC_OK)
            st = gc_sim_download(&sim, &fin[k]);
        gc_sim_free(&sim);
    }
    if (st == GC_OK) {
        double c[3] = {0, 0, 0}, m = 0.0, r2 = 0.0, d2sum = 0.0, scale;
        for (size_t i = 0; i < n; i++) {
            m += fin[1].pos[4 * i + 3];
            for (int k = 0; k < 3; k++)
                c[k] += fin[1].pos[4 * i + 3] * fin[1].pos[4 * i + k];
        }
        for (int k = 0; k < 3; k++)
            c[k] /= m;
        for (size_t i = 0; i < n; i++) {
            double d2 = 0.0;
            for (int k = 0; k < 3; k++) {
                const double x = fin[1].pos[4 * i + k] - c[k];
                const double d = (double)fin[0].pos[4 * i + k] - fin[1].pos[4 * i + k];
                r2 += x * x;
                d2 += d * d;
            }
            d2sum += d2;
            if (sqrt(d2) > pos_max)
                pos_max = sqrt(d2);
            if (!isfinite(d2))
                pos_max = INFINITY;
        }
        scale = sqrt(r2 / (double)n);
        pos_rms = sqrt(d2sum / (double)n) / scale;
        pos_max /= scale;
        if (!isfinite(d2sum))
            pos_rms = INFINITY;
    }
    if (st == GC_OK) {
        printf("# compare: %zu bodies, eps %g, dt %g, %u steps; cuda on %s vs cpu on %s\n", n,
               opt->params.eps, opt->params.dt, steps, gc_backend_device_name(be[0]),
               gc_backend_device_name(be[1]));
        printf("# float64 force reference over %zu %s rows\n", rows,
               rows == n ? "(all)" : "(evenly sampled)");
        for (int k = 0; k < 2; k++)
            printf("accel %-4s vs float64: relative RMS %.3e, max per-body relative %.3e\n",
                   names[k], ea[k].rms, ea[k].max);
        printf("positions cuda vs cpu after %u steps: RMS %.3e, max %.3e (relative to the "
               "RMS radius)\n", steps, pos_rms, pos_max);
        printf("tolerances: accel relative RMS <= %.0e, position RMS <= %.0e\n",
               COMPARE_ACC_RMS_TOL, COMPARE_POS_RMS_TOL);
        if (!(ea[0].rms <= COMPARE_ACC_RMS_TOL) || !(ea[1].rms <= COMPARE_ACC_RMS_TOL) ||
            !(pos_rms <= COMPARE_POS_RMS_TOL)) {
            gc_log_error("compare: difference beyond tolerance (accel cuda %.3e, cpu %.3e, "
                         "positions %.3e)", ea[0].rms, ea[1].rms, pos_rms);
            st = GC_ERR_CUDA;
        } else {
            printf("compare: PASS\n");
        }
    }
out:
    free(ref);
    for (int k = 0; k < 2; k++) {
        gc_bodies_free(&acc[k]);
        gc_bodies_free(&fin[k]);
        gc_backend_destroy(be[k]);
    }
    return st;
}
