/* --benchmark --force tree: ms per step and its phases, the walk's slowest groups, interactions, memory and the force error against float64, per N, opening angle or distribution; and the step time along a run. */
/* SPDX-License-Identifier: MIT */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_bench.h"
#include "backend_tree.h"
#include "bench_dists.h"
#include "bench_parts.h"
#include "log.h"
#include "models.h"
#include "sim.h"
#include "tree_formulas.h"
#include "units.h"

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
/* Rows of the float64 reference (evenly spaced bodies): 4,096, fewer from 2^21 bodies on so
 * that the host's double sums stay at ~2^33 pairs (a few seconds on a 16-core host; 512 rows
 * at 2^24). And the time each timed repeat runs for (device; the host's steps are timed one
 * by one). */
#define REF_ROWS 4096
#define REF_ROWS_MIN 512
#define REF_PAIRS 8589934592.0
#define REPEAT_TARGET_S 0.25
/* All pairs are timed beside the tree up to this N (beyond, an all-pairs step is too long
 * to repeat): the crossover that sets GC_FORCE_AUTO_TREE_N. */
#define ALLPAIRS_MAX_N ((size_t)1 << 20)

struct tree_row {
    const char *dist;          /* the distribution's name; NULL: the input's bodies */
    size_t n;
    float theta, eps;
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
    uint64_t stack_spills;     /* groups whose walk moved part of its stack out */
    double group_us[3];        /* a group's walk, microseconds: median, 99th percentile,
                                * longest (the last pass of the last repeat) */
    double ms_tail;            /* median of the walk's time after its last group was taken */
};

static void sim_params(const struct gc_options *opt, const char *force, float theta, float eps,
                       struct gc_sim_params *p)
{
    *p = opt->params;
    p->force = force;
    p->theta = theta;
    p->eps = eps;
}

static int by_value(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* The walk's time a group in the backend's latest pass: median, 99th percentile, longest
 * (zeros where the backend does not time its groups). */
static enum gc_status group_times(struct gc_backend *be, size_t n, double out[3])
{
    const struct gc_backend_tree *t = gc_backend_tree(be);
    float *us;
    size_t count = 0;
    enum gc_status st;
    out[0] = out[1] = out[2] = 0.0;
    if (!t->group_times)
        return GC_OK;
    us = malloc((n ? n : 1) * sizeof *us);
    if (!us) {
        gc_log_error("benchmark: out of memory for %zu group times", n);
        return GC_ERR_NOMEM;
    }
    st = t->group_times(be, us, n, &count);
    if (st == GC_OK && count > 0) {
        count = count < n ? count : n;
        qsort(us, count, sizeof *us, by_value);
        out[0] = us[count / 2];
        out[1] = us[count * 99 / 100];
        out[2] = us[count - 1];
    }
    free(us);
    return st;
}

/* Median ms of one all-pairs step at this N (the tree's reference point). */
static enum gc_status time_allpairs(const struct gc_options *opt, const struct gc_bodies *b,
                                    struct gc_backend *be, double *ms)
{
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    double t[3], t0 = 0.0;
    enum gc_status st;
    sim_params(opt, "allpairs", opt->params.theta, opt->params.eps, &p);
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
                               struct gc_backend *be, float theta, float eps, const double *ref,
                               size_t rows, struct tree_row *row)
{
    const int repeats = opt->repeats > 0 ? (opt->repeats < 64 ? opt->repeats : 64) : 5;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_bodies acc = {0};
    struct gc_tree_stats ts;
    double t[64], ph[5][64], t0 = 0.0, first = 0.0;
    const struct gc_force_params fp = {.method = GC_FORCE_TREE, .eps2 = eps * eps,
                                       .theta = theta};
    enum gc_status st = gc_bodies_alloc(&acc, b->n);
    memset(row, 0, sizeof *row);
    row->n = b->n;
    row->theta = theta;
    row->eps = eps;
    /* Accuracy on the initial state, against the float64 reference. */
    if (st == GC_OK)
        st = gc_backend_accelerations(be, b, &fp, &acc);
    if (st == GC_OK)
        gc_bench_errors_of(&acc, ref, rows, &row->err);
    gc_bodies_free(&acc);
    sim_params(opt, "tree", theta, eps, &p);
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
            ph[4][r] = ts.tail_ms;
            row->cell_int = ts.cell_interactions;
            row->body_int = ts.body_interactions;
            row->mono_int = ts.mono_interactions;
            row->local = ts.local_cells;
            row->cells = (double)ts.cells / (double)b->n;
            row->group = ts.groups ? (double)b->n / (double)ts.groups : 0.0;
            row->bytes_per_body = (double)ts.bytes / (double)b->n;
            row->complete = ts.complete;
            row->local_full = ts.local_full;
            row->stack_spills = ts.stack_spills;
        }
    }
    if (st == GC_OK)
        st = group_times(be, b->n, row->group_us);
    if (st == GC_OK) {
        row->ms_step = gc_bench_median(t, repeats);
        row->ms_sort = gc_bench_median(ph[0], repeats);
        row->ms_build = gc_bench_median(ph[1], repeats);
        row->ms_moments = gc_bench_median(ph[2], repeats);
        row->ms_walk = gc_bench_median(ph[3], repeats);
        row->ms_tail = gc_bench_median(ph[4], repeats);
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

static void print_json(const struct gc_options *opt, struct gc_backend *b,
                       const struct tree_row *rows, int count)
{
    printf("{\n  \"backend\": \"%s\",\n  \"device\": \"%s\",\n  \"method\": \"tree\",\n",
           gc_backend_name(b), gc_backend_device_name(b));
    printf("  \"dt\": %g,\n  \"flops_cell\": %g,\n  \"flops_body\": %g,\n"
           "  \"results\": [\n", opt->params.dt, FLOPS_CELL, FLOPS_BODY);
    for (int k = 0; k < count; k++) {
        const struct tree_row *r = &rows[k];
        printf("    {\"distribution\": \"%s\", \"n\": %zu, \"theta\": %.3f, \"eps\": %g, "
               "\"steps\": %u, \"ms_per_step\": %.6g, "
               "\"ms_sort\": %.6g, \"ms_build\": %.6g, \"ms_moments\": %.6g, "
               "\"ms_walk\": %.6g, \"ms_walk_tail\": %.6g, \"group_us_median\": %.6g, "
               "\"group_us_p99\": %.6g, \"group_us_max\": %.6g, "
               "\"cells_per_body\": %.4g, \"bodies_per_group\": %.4g, "
               "\"cell_interactions\": %.6g, "
               "\"body_interactions\": %.6g, \"mono_interactions\": %.6g, "
               "\"local_cells\": %.6g, \"walk_gflops\": %.6g, \"bytes_per_body\": "
               "%.4g, \"error_median\": %.4g, \"error_p99\": %.4g, \"error_max\": %.4g, "
               "\"error_rows\": %zu, \"ms_allpairs\": %.6g, \"complete\": %d, "
               "\"local_full\": %llu, \"stack_spills\": %llu}%s\n",
               r->dist ? r->dist : "", r->n, r->theta, r->eps, r->steps, r->ms_step,
               r->ms_sort, r->ms_build, r->ms_moments, r->ms_walk, r->ms_tail,
               r->group_us[0], r->group_us[1], r->group_us[2], r->cells, r->group,
               r->cell_int, r->body_int, r->mono_int, r->local, gflops(r),
               r->bytes_per_body, r->err.median, r->err.p99, r->err.max, r->err.rows,
               r->ms_allpairs, r->complete, (unsigned long long)r->local_full,
               (unsigned long long)r->stack_spills, k + 1 < count ? "," : "");
    }
    printf("  ]\n}\n");
}

/* The text table's header, before its first row: rows follow as they are measured. */
static void print_header(const struct gc_options *opt, struct gc_backend *b)
{
    printf("# tree on %s (%s); median of %d repeats after warm-up; phases of the step's tree "
           "pass; walk per group: the time one group's walk took (median, 99th percentile, "
           "longest, microseconds) and the tail, the walk's time after its last group was "
           "taken; interactions per body (c: body-cell with the quadrupole, b: "
           "body-body, m: with a far cell's mass; loc: cells of the group's local expansion, "
           "once a group); walk GFLOP/s at %g flops a body-cell, %g a body-body or body-mass "
           "interaction and %g a local cell a group; error: per-body relative "
           "acceleration error against float64 over the rows given (evenly spaced bodies); "
           "grp: bodies a group; B/body: memory the tree holds, beside the state\n",
           gc_backend_name(b), gc_backend_device_name(b), opt->repeats > 0 ? opt->repeats : 5,
           FLOPS_CELL, FLOPS_BODY, FLOPS_LOCAL);
    printf("# %-12s %9s %5s %6s %8s %7s %7s %7s %7s %6s %7s %7s %6s %6s %5s %7s %7s %7s %6s "
           "%8s %6s %9s %9s %9s %5s %10s %8s\n", "bodies", "N", "theta", "eps", "ms/step",
           "sort", "build", "moments", "walk", "tail", "grp us", "p99", "max", "cells", "grp",
           "int/b c", "int/b b", "int/b m", "loc", "GFLOP/s", "B/body", "median", "99th", "max",
           "rows", "allpairs", "speedup");
    fflush(stdout);
}

static void print_row(const struct tree_row *r)
{
    printf("%-14s %9zu %5.2f %6.3g %8.3f %7.3f %7.3f %7.3f %7.3f %6.3f %7.1f %7.1f %6.0f "
           "%6.3f %5.1f %7.0f %7.0f %7.0f %6.0f %8.0f %6.0f %9.2e %9.2e %9.2e %5zu %10.3f "
           "%8.1f%s\n", r->dist ? r->dist : "input", r->n, r->theta, r->eps, r->ms_step,
           r->ms_sort, r->ms_build, r->ms_moments, r->ms_walk, r->ms_tail, r->group_us[0],
           r->group_us[1], r->group_us[2], r->cells, r->group, r->cell_int, r->body_int,
           r->mono_int, r->local, gflops(r), r->bytes_per_body, r->err.median, r->err.p99,
           r->err.max, r->err.rows, r->ms_allpairs,
           r->ms_allpairs > 0.0 ? r->ms_allpairs / r->ms_step : 0.0,
           r->complete ? "" : "  (cells summed directly: store or stack full)");
    if (r->local_full)
        printf("#   %llu groups' local lists filled: their further far cells went body by "
               "body\n", (unsigned long long)r->local_full);
    fflush(stdout);
}

/* The names of --distributions, one after the other: "all" is every one. Returns the next
 * distribution (NULL at the end, or with *st set on an unknown name). */
static const struct gc_bench_dist *next_dist(const char **list, enum gc_status *st)
{
    static const char *const all = GC_BENCH_DIST_NAMES;
    char name[64];
    size_t len;
    const struct gc_bench_dist *d;
    if (**list == '\0')
        return NULL;
    len = strcspn(*list, ",");
    if (len == 3 && strncmp(*list, "all", 3) == 0) {
        *list = *list + len + ((*list)[len] == ',');
        return NULL; /* the caller expands "all" */
    }
    snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), *list);
    d = gc_bench_dist_find(name);
    if (!d) {
        gc_log_error("--distributions: unknown distribution '%s'; available: %s, or all", name,
                     all);
        *st = GC_ERR_INVALID;
        return NULL;
    }
    *list = *list + len + ((*list)[len] == ',');
    return d;
}

/* The distributions --distributions names, into out (at most cap); their count. */
static int parse_dists(const char *text, const struct gc_bench_dist **out, int cap,
                       enum gc_status *st)
{
    int count = 0;
    const char *list = text;
    *st = GC_OK;
    while (*list && *st == GC_OK && count < cap) {
        const char *before = list;
        const struct gc_bench_dist *d = next_dist(&list, st);
        if (d) {
            out[count++] = d;
        } else if (*st == GC_OK && list != before) { /* "all" */
            const char *names = GC_BENCH_DIST_NAMES;
            while (*names && count < cap)
                out[count++] = next_dist(&names, st);
        }
    }
    if (*st == GC_OK && count == 0) {
        gc_log_error("--distributions: no distribution named in '%s'", text);
        *st = GC_ERR_INVALID;
    }
    return count;
}

/* The step time along one run (--t-end): ms a step in windows of --report-every time units
 * (default a thirtieth of the run), the tree's walk and its tail in each window's last step,
 * and each window against the first. */
static enum gc_status curve(const struct gc_options *opt, const struct gc_bodies *bodies,
                            struct gc_backend *be)
{
    const double unit = opt->units == GC_UNITS_GALAXY ? GC_MYR_PER_TIME_UNIT : 1.0;
    const char *tname = opt->units == GC_UNITS_GALAXY ? "Myr" : "time";
    const double window = opt->report_every > 0.0 ? opt->report_every : opt->t_end / 30.0;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_tree_stats ts;
    double first = 0.0, worst = 0.0, worst_t = 0.0, t0 = 0.0;
    int windows = 0;
    enum gc_status st;
    sim_params(opt, "tree", opt->params.theta, opt->params.eps, &p);
    st = gc_sim_create(be, NULL, bodies, &p, NULL, &sim);
    if (st != GC_OK)
        return st;
    st = gc_sim_advance(sim, p.dt); /* warm-up, untimed */
    if (st == GC_OK && !opt->json)
        printf("# tree on %s (%s), %zu bodies, theta %.2f, eps %g, dt %g: the step time of a "
               "run to %g %s, in windows of %g %s (one timing each); walk, tail and "
               "interactions of each window's last step\n# %9s %9s %7s %9s %8s %7s %7s %9s\n",
               gc_backend_name(be), gc_backend_device_name(be), bodies->n, p.theta, p.eps,
               p.dt, opt->t_end * unit, tname, window * unit, tname, "from", "to", "steps",
               "ms/step", "vs first", "walk", "tail", "int/body");
    if (st == GC_OK && opt->json)
        printf("{\n  \"backend\": \"%s\",\n  \"device\": \"%s\",\n  \"n\": %zu,\n  \"theta\": "
               "%.3f,\n  \"eps\": %g,\n  \"dt\": %g,\n  \"time_unit\": \"%s\",\n  \"windows\": "
               "[\n", gc_backend_name(be), gc_backend_device_name(be), bodies->n, p.theta,
               p.eps, p.dt, tname);
    while (st == GC_OK && gc_sim_time(sim) < opt->t_end - 0.5 * p.dt) {
        const double from = gc_sim_time(sim), to = fmin(from + window, opt->t_end);
        double ms = 0.0, steps;
        st = gc_bench_timer_start(be, &t0);
        if (st == GC_OK)
            st = gc_sim_advance(sim, to);
        if (st == GC_OK)
            st = gc_bench_timer_stop(be, t0, &ms);
        if (st == GC_OK)
            st = gc_sim_tree_stats(sim, &ts);
        if (st != GC_OK)
            break;
        steps = fmax(1.0, round((gc_sim_time(sim) - from) / p.dt));
        ms /= steps;
        if (windows++ == 0)
            first = ms;
        if (ms > worst) {
            worst = ms;
            worst_t = from;
        }
        if (opt->json)
            printf("%s    {\"from\": %.6g, \"to\": %.6g, \"steps\": %.0f, \"ms_per_step\": "
                   "%.6g, \"ms_walk\": %.6g, \"ms_walk_tail\": %.6g, \"interactions\": %.6g}",
                   windows > 1 ? ",\n" : "", from * unit, gc_sim_time(sim) * unit, steps, ms,
                   ts.walk_ms, ts.tail_ms,
                   ts.cell_interactions + ts.body_interactions + ts.mono_interactions);
        else
            printf("%11.1f %9.1f %7.0f %9.3f %8.3f %7.3f %7.3f %9.0f\n", from * unit,
                   gc_sim_time(sim) * unit, steps, ms, ms / first, ts.walk_ms, ts.tail_ms,
                   ts.cell_interactions + ts.body_interactions + ts.mono_interactions);
        fflush(stdout);
    }
    if (st == GC_OK && opt->json)
        printf("\n  ],\n  \"slowest_vs_first\": %.4g\n}\n", first > 0.0 ? worst / first : 0.0);
    else if (st == GC_OK)
        printf("# slowest window (from %.1f %s) / first: %.3f\n", worst_t * unit, tname,
               first > 0.0 ? worst / first : 0.0);
    gc_sim_destroy(sim);
    return st;
}

/* The float64 reference's rows for n bodies (REF_ROWS). */
static size_t ref_rows(size_t n)
{
    const double budget = REF_PAIRS / (double)(n ? n : 1);
    const size_t rows = budget >= REF_ROWS ? REF_ROWS
                        : budget <= REF_ROWS_MIN ? REF_ROWS_MIN : (size_t)budget;
    return rows < n ? rows : n;
}

enum gc_status gc_bench_tree(const struct gc_options *opt, const struct gc_bodies *initial,
                             struct gc_backend *backend)
{
    /* --sweep: N from where all pairs still win to the 16M-body goal (a device), or to what
     * the host steps in seconds; with --distributions the sizes (a device).
     * --theta-sweep: the error and time against theta at one N. */
    static const size_t sweep_device[] = {65536,   131072,  262144,   524288,  1048576,
                                          2097152, 4194304, 8388608, 16777216};
    static const size_t sweep_dists[] = {1048576, 4194304, 16777216};
    static const size_t sweep_host[] = {8192, 16384, 32768, 65536, 131072};
    static const float thetas[] = {0.3f, 0.4f, 0.45f, 0.5f, 0.55f, 0.6f, 0.7f, 0.8f, 1.0f};
    enum { MAX_DISTS = 16 };
    const int device = gc_backend_is_device(backend);
    const struct gc_bench_dist *dists[MAX_DISTS] = {NULL}; /* none: the input's bodies */
    /* per distribution: its run's state (made once for every N of the sweep), its bodies
     * and their reference (made once for every theta) */
    struct gc_bodies ran[MAX_DISTS] = {{0}}, built[MAX_DISTS] = {{0}};
    double *ref[MAX_DISTS] = {NULL};
    const size_t *ns = device ? (opt->distributions ? sweep_dists : sweep_device) : sweep_host;
    const int per = opt->sweep ? (device ? (opt->distributions ? 3 : 9) : 5)
                    : opt->theta_sweep ? (int)(sizeof thetas / sizeof thetas[0]) : 1;
    struct tree_row *rows;
    enum gc_status st = GC_OK;
    int count = 1, nrows = 0;

    if (opt->t_end > 0.0)
        return curve(opt, initial, backend);
    if (opt->distributions)
        count = parse_dists(opt->distributions, dists, MAX_DISTS, &st);
    if (st != GC_OK)
        return st;
    rows = calloc((size_t)(count * per), sizeof *rows);
    if (!rows) {
        gc_log_error("benchmark: out of memory");
        return GC_ERR_NOMEM;
    }
    if (!opt->json)
        print_header(opt, backend);
    /* N (or theta) outside, the distributions inside: the smaller sizes come first */
    for (int k = 0; k < per && st == GC_OK; k++) {
        const float theta = opt->theta_sweep ? thetas[k] : opt->params.theta;
        for (int d = 0; d < count && st == GC_OK; d++) {
            const struct gc_bench_dist *dist = dists[d];
            const struct gc_model_info *m = dist ? gc_models_find(dist->model) : NULL;
            /* the bodies' own softening unless --eps says otherwise */
            const float eps = m && !gc_cli_given(opt, "--eps") ? m->eps : opt->params.eps;
            const size_t n = opt->sweep ? ns[k]
                             : opt->n ? opt->n
                             : m ? (device ? m->n_gpu : m->n_cpu) : initial->n;
            struct tree_row *row = &rows[nrows];
            const struct gc_bodies *b = dist || opt->sweep ? &built[d] : initial;
            if (k == 0 || opt->sweep) { /* new bodies */
                gc_bodies_free(&built[d]);
                free(ref[d]);
                ref[d] = NULL;
                if (dist)
                    st = gc_bench_dist_build(dist, n, 0, opt->seed, backend, &ran[d],
                                             &built[d]);
                else if (opt->sweep)
                    st = gc_models_build(opt->model, n, opt->seed, &built[d]);
                if (st == GC_OK) {
                    ref[d] = gc_bench_reference_rows(b, ref_rows(b->n), (double)eps * eps);
                    st = ref[d] ? GC_OK : GC_ERR_NOMEM;
                }
            }
            if (st == GC_OK)
                st = tree_row(opt, b, backend, theta, eps, ref[d], ref_rows(b->n), row);
            if (st != GC_OK)
                break;
            row->dist = dist ? dist->name : NULL;
            /* all pairs beside the input's bodies only: a distribution's rows are read
             * against one another */
            if (!dist && b->n <= ALLPAIRS_MAX_N && (k == 0 || opt->sweep))
                st = time_allpairs(opt, b, backend, &row->ms_allpairs);
            if (st == GC_OK && !opt->json)
                print_row(row);
            nrows++;
        }
    }
    if (st == GC_OK && opt->json)
        print_json(opt, backend, rows, nrows);
    free(rows);
    for (int d = 0; d < count; d++) {
        gc_bodies_free(&ran[d]);
        gc_bodies_free(&built[d]);
        free(ref[d]);
    }
    return st;
}
