/* --benchmark --force tree: ms per step and its phases, interactions, memory and the force error against float64, per N or per opening angle. */
/* SPDX-License-Identifier: MIT */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_bench.h"
#include "backend_tree.h"
#include "bench_parts.h"
#include "log.h"
#include "models.h"
#include "sim.h"
#include "tree_formulas.h"

/* Floating-point operations counted per interaction: a body-body one as the all-pairs
 * convention counts it (20, GPU Gems 3), a body-cell one as gc_tree_cell_force does its work
 * (distance and its square 9, reciprocal root 1, the quadrupole's products 21, powers and
 * the radial factor 8, the sums 12: 51), each FMA two. */
#define FLOPS_BODY 20.0
#define FLOPS_CELL 51.0
/* A cell added to a group's local expansion (gc_tree_local_add: distance and root 10, the
 * quadrupole's products and D 21, powers and factors 23, the 19 sums ~117): once per group,
 * not per body. */
#define FLOPS_LOCAL 170.0
/* Rows of the float64 reference (evenly spaced bodies), and the time each timed repeat
 * runs for (device; the host's steps are timed one by one). */
#define REF_ROWS 4096
#define REPEAT_TARGET_S 0.25
/* All pairs are timed beside the tree up to this N (beyond, an all-pairs step is too long
 * to repeat): the crossover that sets GC_FORCE_AUTO_TREE_N. */
#define ALLPAIRS_MAX_N ((size_t)1 << 20)

struct tree_row {
    size_t n;
    float theta;
    unsigned steps;            /* steps per timed repeat */
    double ms_step;            /* median over repeats */
    double ms_sort, ms_build, ms_moments, ms_walk; /* medians of the phases */
    double cell_int, body_int, mono_int; /* interactions per body */
    double local;              /* cells of each body's group's local expansion */
    double cells;              /* cells per body */
    double group;              /* bodies per group */
    double bytes_per_body;     /* memory the tree holds, per body */
    double ms_allpairs;        /* one all-pairs step at this N; 0 = not timed */
    struct gc_bench_errors err;
    int complete;
    uint64_t local_full;       /* groups whose local list filled */
};

static void sim_params(const struct gc_options *opt, const char *force, float theta,
                       struct gc_sim_params *p)
{
    *p = opt->params;
    p->force = force;
    p->theta = theta;
}

/* Median ms of one all-pairs step at this N (the tree's reference point). */
static enum gc_status time_allpairs(const struct gc_options *opt, const struct gc_bodies *b,
                                    struct gc_backend *be, double *ms)
{
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    double t[3], t0 = 0.0;
    enum gc_status st;
    sim_params(opt, "allpairs", opt->params.theta, &p);
    st = gc_sim_create(be, NULL, b, &p, NULL, &sim);
    if (st != GC_OK)
        return st;
    st = gc_sim_advance(sim, p.dt); /* warm-up */
    for (int r = 0; r < 3 && st == GC_OK; r++) {
        st = gc_bench_timer_start(be, &t0);
        if (st == GC_OK)
            st = gc_sim_advance(sim, gc_sim_time(sim) + p.dt);
        if (st == GC_OK)
            st = gc_bench_timer_stop(be, t0, &t[r]);
    }
    if (st == GC_OK)
        *ms = gc_bench_median(t, 3);
    gc_sim_destroy(sim);
    return st;
}

static enum gc_status tree_row(const struct gc_options *opt, const struct gc_bodies *b,
                               struct gc_backend *be, float theta, const double *ref,
                               size_t rows, struct tree_row *row)
{
    const int repeats = opt->repeats > 0 ? (opt->repeats < 64 ? opt->repeats : 64) : 5;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_bodies acc = {0};
    struct gc_tree_stats ts;
    double t[64], ph[4][64], t0 = 0.0, first = 0.0;
    const struct gc_force_params fp = {.method = GC_FORCE_TREE,
                                       .eps2 = opt->params.eps * opt->params.eps,
                                       .theta = theta};
    enum gc_status st = gc_bodies_alloc(&acc, b->n);
    memset(row, 0, sizeof *row);
    row->n = b->n;
    row->theta = theta;
    /* Accuracy on the initial state, against the float64 reference. */
    if (st == GC_OK)
        st = gc_backend_accelerations(be, b, &fp, &acc);
    if (st == GC_OK)
        gc_bench_errors_of(&acc, ref, rows, &row->err);
    gc_bodies_free(&acc);
    sim_params(opt, "tree", theta, &p);
    if (st == GC_OK)
        st = gc_sim_create(be, NULL, b, &p, NULL, &sim);
    if (st != GC_OK)
        return st;
    st = gc_bench_timer_start(be, &t0);
    if (st == GC_OK)
        st = gc_sim_advance(sim, p.dt); /* warm-up, and the size of a repeat */
    if (st == GC_OK)
        st = gc_bench_timer_stop(be, t0, &first);
    row->steps = opt->steps ? opt->steps
                            : (unsigned)fmax(1.0, fmin(200.0, ceil(REPEAT_TARGET_S * 1e3 /
                                                                   fmax(first, 1e-3))));
    for (int r = 0; r < repeats && st == GC_OK; r++) {
        st = gc_bench_timer_start(be, &t0);
        if (st == GC_OK)
            st = gc_sim_advance(sim, gc_sim_time(sim) + row->steps * p.dt);
        if (st == GC_OK)
            st = gc_bench_timer_stop(be, t0, &t[r]);
        t[r] /= row->steps;
        /* The last pass's phases: the timer waited for it, so its figures are in. */
        if (st == GC_OK)
            st = gc_sim_tree_stats(sim, &ts);
        if (st == GC_OK && !ts.valid) {
            gc_log_error("benchmark: the tree measured no pass");
            st = GC_ERR_INVALID;
        }
        if (st == GC_OK) {
            ph[0][r] = ts.sort_ms;
            ph[1][r] = ts.build_ms;
            ph[2][r] = ts.moments_ms;
            ph[3][r] = ts.walk_ms;
            row->cell_int = ts.cell_interactions;
            row->body_int = ts.body_interactions;
            row->mono_int = ts.mono_interactions;
            row->local = ts.local_cells;
            row->cells = (double)ts.cells / (double)b->n;
            row->group = ts.groups ? (double)b->n / (double)ts.groups : 0.0;
            row->bytes_per_body = (double)ts.bytes / (double)b->n;
            row->complete = ts.complete;
            row->local_full = ts.local_full;
        }
    }
    if (st == GC_OK) {
        row->ms_step = gc_bench_median(t, repeats);
        row->ms_sort = gc_bench_median(ph[0], repeats);
        row->ms_build = gc_bench_median(ph[1], repeats);
        row->ms_moments = gc_bench_median(ph[2], repeats);
        row->ms_walk = gc_bench_median(ph[3], repeats);
    }
    gc_sim_destroy(sim);
    return st;
}

static double gflops(const struct tree_row *r)
{
    const double local = r->group > 0.0 ? FLOPS_LOCAL * r->local / r->group : 0.0;
    return (double)r->n *
           (FLOPS_CELL * r->cell_int + FLOPS_BODY * (r->body_int + r->mono_int) + local) /
           (r->ms_walk * 1e-3) * 1e-9;
}

static void print_rows(const struct gc_options *opt, struct gc_backend *b,
                       const struct tree_row *rows, int count)
{
    if (opt->json) {
        printf("{\n  \"backend\": \"%s\",\n  \"device\": \"%s\",\n  \"method\": \"tree\",\n",
               gc_backend_name(b), gc_backend_device_name(b));
        printf("  \"eps\": %g,\n  \"dt\": %g,\n  \"flops_cell\": %g,\n  \"flops_body\": %g,\n"
               "  \"results\": [\n", opt->params.eps, opt->params.dt, FLOPS_CELL, FLOPS_BODY);
        for (int k = 0; k < count; k++) {
            const struct tree_row *r = &rows[k];
            printf("    {\"n\": %zu, \"theta\": %.3f, \"steps\": %u, \"ms_per_step\": %.6g, "
                   "\"ms_sort\": %.6g, \"ms_build\": %.6g, \"ms_moments\": %.6g, "
                   "\"ms_walk\": %.6g, \"cells_per_body\": %.4g, \"bodies_per_group\": %.4g, "
                   "\"cell_interactions\": %.6g, "
                   "\"body_interactions\": %.6g, \"mono_interactions\": %.6g, "
                   "\"local_cells\": %.6g, \"walk_gflops\": %.6g, \"bytes_per_body\": "
                   "%.4g, \"error_median\": %.4g, \"error_p99\": %.4g, \"error_max\": %.4g, "
                   "\"error_rows\": %zu, \"ms_allpairs\": %.6g, \"complete\": %d}%s\n",
                   r->n, r->theta, r->steps, r->ms_step, r->ms_sort, r->ms_build,
                   r->ms_moments, r->ms_walk, r->cells, r->group, r->cell_int, r->body_int,
                   r->mono_int, r->local, gflops(r), r->bytes_per_body, r->err.median, r->err.p99,
                   r->err.max, r->err.rows,
                   r->ms_allpairs, r->complete, k + 1 < count ? "," : "");
        }
        printf("  ]\n}\n");
        return;
    }
    printf("# tree on %s (%s); eps %g; median of %d repeats after warm-up; phases of the "
           "step's tree pass; interactions per body (c: body-cell with the quadrupole, b: "
           "body-body, m: with a far cell's mass; loc: cells of the group's local expansion, "
           "once a group); walk GFLOP/s at %g flops a body-cell, %g a body-body or body-mass "
           "interaction and %g a local cell a group; error: per-body relative "
           "acceleration error against float64 over %zu rows; grp: bodies a group; B/body: "
           "memory the tree holds, beside the state\n", gc_backend_name(b),
           gc_backend_device_name(b), opt->params.eps, opt->repeats > 0 ? opt->repeats : 5,
           FLOPS_CELL, FLOPS_BODY, FLOPS_LOCAL, rows[0].err.rows);
    printf("# %9s %5s %8s %7s %7s %7s %7s %6s %5s %7s %7s %7s %6s %8s %6s %9s %9s %9s %10s "
           "%8s\n", "N", "theta", "ms/step", "sort", "build", "moments", "walk", "cells", "grp",
           "int/b c", "int/b b", "int/b m", "loc", "GFLOP/s", "B/body", "median", "99th", "max",
           "allpairs", "speedup");
    for (int k = 0; k < count; k++) {
        const struct tree_row *r = &rows[k];
        printf("%11zu %5.2f %8.3f %7.3f %7.3f %7.3f %7.3f %6.3f %5.1f %7.0f %7.0f %7.0f %6.0f "
               "%8.0f %6.0f %9.2e %9.2e %9.2e %10.3f %8.1f%s\n", r->n, r->theta, r->ms_step,
               r->ms_sort, r->ms_build, r->ms_moments, r->ms_walk, r->cells, r->group,
               r->cell_int, r->body_int, r->mono_int, r->local, gflops(r), r->bytes_per_body,
               r->err.median, r->err.p99, r->err.max,
               r->ms_allpairs, r->ms_allpairs > 0.0 ? r->ms_allpairs / r->ms_step : 0.0,
               r->complete ? "" : "  (cells summed directly: store or stack full)");
        if (r->local_full)
            printf("#   %llu groups' local lists filled: their further far cells went body by "
                   "body\n", (unsigned long long)r->local_full);
    }
    fflush(stdout);
}

enum gc_status gc_bench_tree(const struct gc_options *opt, const struct gc_bodies *initial,
                             struct gc_backend *backend)
{
    /* --sweep: N from where all pairs still win to the 16M-body goal (a device), or to what
     * the host steps in seconds; --theta-sweep: the error and time against theta at one N. */
    static const size_t sweep_device[] = {65536,   131072,  262144,   524288,  1048576,
                                          2097152, 4194304, 8388608, 16777216};
    static const size_t sweep_host[] = {8192, 16384, 32768, 65536, 131072};
    static const float thetas[] = {0.3f, 0.4f, 0.45f, 0.5f, 0.55f, 0.6f, 0.7f, 0.8f, 1.0f};
    const int device = gc_backend_is_device(backend);
    const size_t *ns = device ? sweep_device : sweep_host;
    const int count = opt->sweep ? (device ? 9 : 5)
                      : opt->theta_sweep ? (int)(sizeof thetas / sizeof thetas[0]) : 1;
    struct tree_row rows[16];
    enum gc_status st = GC_OK;
    double *ref = NULL;
    const struct gc_bodies *b = initial;
    struct gc_bodies built = {0};

    for (int k = 0; k < count && st == GC_OK; k++) {
        const float theta = opt->theta_sweep ? thetas[k] : opt->params.theta;
        if (opt->sweep) {
            gc_bodies_free(&built);
            st = gc_models_build(opt->model, ns[k], opt->seed, &built);
            b = &built;
            free(ref);
            ref = NULL;
        }
        if (st == GC_OK && !ref) {
            const size_t nrows = b->n < REF_ROWS ? b->n : REF_ROWS;
            ref = gc_bench_reference_rows(b, nrows,
                                          (double)opt->params.eps * opt->params.eps);
            st = ref ? GC_OK : GC_ERR_NOMEM;
        }
        if (st == GC_OK)
            st = tree_row(opt, b, backend, theta, ref, b->n < REF_ROWS ? b->n : REF_ROWS,
                          &rows[k]);
        if (st == GC_OK && b->n <= ALLPAIRS_MAX_N && (k == 0 || opt->sweep))
            st = time_allpairs(opt, b, backend, &rows[k].ms_allpairs);
        if (st == GC_OK && !opt->json)
            gc_log_info("benchmark: tree N = %zu theta %.2f done (%.3f ms/step)", rows[k].n,
                        theta, rows[k].ms_step);
    }
    if (st == GC_OK)
        print_rows(opt, backend, rows, count);
    free(ref);
    gc_bodies_free(&built);
    return st;
}
