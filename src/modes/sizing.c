/* The window without a GPU, sized to the machine: a few steps timed at start, the body count and steps a frame chosen from them. */
/* SPDX-License-Identifier: MIT */
#include "sizing.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "force.h"
#include "log.h"
#include "models.h"
#include "tree_formulas.h"
#include "units.h"

/* The bodies timed: all pairs at the smaller N (N^2 grows fast), the tree at the larger
 * (its cost per body settles only beyond a few thousand). Each takes milliseconds. */
#define PROBE_PAIRS 4096
#define PROBE_TREE 16384
#define PROBE_STEPS 5

double gc_sizing_step_s(const struct gc_sizing_costs *c, size_t n)
{
    const double x = (double)n;
    if (n > c->tree_above && c->tree_s > 0.0)
        return c->tree_s * x * log2(x > 2.0 ? x : 2.0);
    return c->pair_s * x * x;
}

/* The largest multiple k of GC_SIZING_ROUND in [lo, hi] (in rounds) whose `steps` steps
 * fit the share of a frame, or lo - 1: within one force method the cost grows with N, so a
 * bisection finds it. */
static size_t fits(const struct gc_sizing_costs *c, unsigned steps, size_t lo, size_t hi)
{
    const double budget = GC_SIZING_STEP_SHARE / GC_SIZING_FPS;
    size_t a = lo - 1;
    while (a < hi) {
        const size_t mid = a + (hi - a + 1) / 2;
        if (steps * gc_sizing_step_s(c, mid * GC_SIZING_ROUND) <= budget)
            a = mid;
        else
            hi = mid - 1;
    }
    return a;
}

/* The largest N whose steps fit, 0 when none does. The cost jumps down where the tree takes
 * over (it does so where it is faster), so the tree's range is searched first. */
static size_t largest(const struct gc_sizing_costs *c, unsigned steps)
{
    const size_t top = GC_SIZING_MAX_N / GC_SIZING_ROUND;
    const size_t first_tree = c->tree_above >= GC_SIZING_MAX_N ? top + 1
                              : c->tree_above / GC_SIZING_ROUND + 1;
    size_t k = first_tree <= top ? fits(c, steps, first_tree, top) : first_tree - 1;
    if (k < first_tree)
        k = fits(c, steps, 1, first_tree - 1 < top ? first_tree - 1 : top);
    return k * GC_SIZING_ROUND;
}

void gc_sizing_choose(const struct gc_sizing_costs *c, struct gc_sizing *out)
{
    const size_t two = largest(c, 2), one = largest(c, 1);
    out->steps = two >= GC_SIZING_MIN_N ? 2 : 1;
    out->n = out->steps == 2 ? two : one;
    if (out->n < GC_SIZING_MIN_N)
        out->n = GC_SIZING_MIN_N;
    out->step_s = gc_sizing_step_s(c, out->n);
}

/* Median wall seconds of a step (force pass, kick, drift) of b with method m, after one
 * untimed pass: the window waits for the wall clock, whatever else the machine runs. */
static enum gc_status time_steps(struct gc_backend *be, const struct gc_bodies *b,
                                 enum gc_force_method m, const struct gc_options *o,
                                 double *s)
{
    const float theta = o->params.theta > 0.0f ? o->params.theta : GC_TREE_DEFAULT_THETA;
    const struct gc_force_params fp = {.method = m, .eps2 = o->params.eps * o->params.eps,
                                       .theta = theta};
    double t[PROBE_STEPS];
    enum gc_status st = gc_backend_upload(be, b);
    if (st == GC_OK)
        st = gc_backend_accel(be, &fp);
    for (int k = 0; k < PROBE_STEPS && st == GC_OK; k++) {
        const double t0 = gc_clock_seconds();
        st = gc_backend_accel(be, &fp);
        if (st == GC_OK)
            st = gc_backend_kick(be, o->params.dt);
        if (st == GC_OK)
            st = gc_backend_drift(be, o->params.dt);
        if (st == GC_OK)
            st = gc_backend_sync(be);
        t[k] = gc_clock_seconds() - t0;
    }
    if (st == GC_OK) {
        /* the median: a step that lost its core to another process counts as one of five */
        for (int i = 1; i < PROBE_STEPS; i++)
            for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
                const double x = t[j];
                t[j] = t[j - 1];
                t[j - 1] = x;
            }
        *s = t[PROBE_STEPS / 2];
    }
    return st;
}

/* The smallest N at which the run's --force takes the tree on this backend (force.h is the
 * one place that decides): 0 = always, SIZE_MAX = never. */
static enum gc_status tree_from(const struct gc_options *o, const struct gc_backend *be,
                                size_t *out)
{
    size_t lo = 1, hi = GC_SIZING_MAX_N;
    enum gc_force_method m;
    enum gc_status st = gc_force_method_choose(o->params.force, hi, be, &m);
    if (st != GC_OK || m != GC_FORCE_TREE) {
        *out = SIZE_MAX;
        return st;
    }
    while (lo < hi) {
        const size_t mid = lo + (hi - lo) / 2;
        st = gc_force_method_choose(o->params.force, mid, be, &m);
        if (st != GC_OK)
            return st;
        if (m == GC_FORCE_TREE)
            hi = mid;
        else
            lo = mid + 1;
    }
    *out = lo - 1;
    return GC_OK;
}

enum gc_status gc_sizing_measure(const struct gc_options *o, struct gc_backend *backend,
                                 struct gc_sizing_costs *out)
{
    struct gc_bodies b = {0};
    double s = 0.0;
    enum gc_status st = tree_from(o, backend, &out->tree_above);
    out->pair_s = out->tree_s = 0.0;
    if (st == GC_OK && out->tree_above > 0) {
        st = gc_models_build(GC_DEFAULT_MODEL, PROBE_PAIRS, o->seed, &b);
        if (st == GC_OK)
            st = time_steps(backend, &b, GC_FORCE_ALLPAIRS, o, &s);
        out->pair_s = s / ((double)PROBE_PAIRS * PROBE_PAIRS);
        gc_bodies_free(&b);
    }
    if (st == GC_OK && out->tree_above < GC_SIZING_MAX_N) {
        st = gc_models_build(GC_DEFAULT_MODEL, PROBE_TREE, o->seed, &b);
        if (st == GC_OK)
            st = time_steps(backend, &b, GC_FORCE_TREE, o, &s);
        out->tree_s = s / (PROBE_TREE * log2((double)PROBE_TREE));
        gc_bodies_free(&b);
    }
    return st;
}

int gc_sizing_wanted(const struct gc_options *o)
{
    const struct gc_model_info *m = gc_models_find(o->model);
    return o->mode == GC_MODE_VIEWER && !o->n && !o->data && m && !m->n_fixed &&
           o->units == GC_UNITS_GALAXY && o->params.integrator &&
           strcmp(o->params.integrator, "leapfrog") == 0 &&
           (!o->backend || strcmp(o->backend, "cuda") != 0);
}

enum gc_status gc_sizing_apply(struct gc_options *o, struct gc_backend *backend)
{
    struct gc_sizing_costs c;
    struct gc_sizing z;
    const double t0 = gc_clock_seconds();
    enum gc_status st;
    const int own_steps = !gc_cli_given(o, "--substeps");
    if (gc_backend_is_device(backend)) {
        gc_backend_say_choice(backend);
        return GC_OK;
    }
    st = gc_sizing_measure(o, backend, &c);
    if (st != GC_OK)
        return st;
    gc_sizing_choose(&c, &z);
    o->n = z.n;
    if (own_steps)
        o->substeps = z.steps;
    gc_log_info("sized for %s (%s): %zu bodies, %u step%s a frame (a step %.1f ms, %s), for "
                "%.0f frames/s and %.1f Myr a second; measured in %.2f s; -n and --substeps "
                "choose for yourself", gc_backend_device_name(backend),
                backend->chosen ? backend->chosen : "--backend cpu", z.n, o->substeps,
                o->substeps == 1 ? "" : "s", 1e3 * z.step_s,
                z.n > c.tree_above ? "tree" : "all pairs", GC_SIZING_FPS,
                GC_SIZING_FPS * o->substeps * o->params.dt * GC_MYR_PER_TIME_UNIT,
                gc_clock_seconds() - t0);
    return GC_OK;
}
