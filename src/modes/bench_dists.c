/* The tree benchmark's distributions: models as built, and the states of short runs of them, at any N. */
/* SPDX-License-Identifier: MIT */
#include "bench_dists.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "diagnostics.h"
#include "log.h"
#include "models.h"
#include "progress.h"
#include "sim.h"
#include "upsample.h"

/* The pair at 1 Gyr (55.6 time units of 18 Myr), its nuclei merging (docs/model.md), at the
 * galaxies' own step. The cold sphere falls in pi / (2 sqrt 2) = 1.11; its step gives the
 * bounce, where bodies cross the softened core at ~6 length units a time unit, a few steps
 * a crossing. */
static const struct gc_bench_dist dists[] = {
    {"mw-m31", "mw-m31", 0.0, 0.0f, "the built-in pair at the start"},
    {"plummer-wide", "plummer-wide", 0.0, 0.0f, "Plummer sphere to 100 scale radii"},
    {"hernquist", "hernquist", 0.0, 0.0f, "Hernquist sphere (a cusp) to 100 scale radii"},
    {"merger", "mw-m31", 55.6, 0.01f, "the built-in pair at its merger (1 Gyr)"},
    {"collapse", "cold-sphere", -1.0, 0.005f, "cold uniform sphere at its densest"},
};
/* How far a collapse is run at most, in free-fall times of the unit sphere (G = M = 1:
 * pi / (2 sqrt 2)), looking for its densest step. */
#define COLLAPSE_MAX_T 3.0
#define FREE_FALL 1.1107207345395915
/* Time between progress lines of a run (N-body units). */
#define RUN_CHUNK 1.0

const struct gc_bench_dist *gc_bench_dist_find(const char *name)
{
    for (size_t k = 0; k < sizeof dists / sizeof dists[0]; k++)
        if (name && strcmp(name, dists[k].name) == 0)
            return &dists[k];
    return NULL;
}

/* The bodies of a run of d's model from `init` to its time or its densest step, into out. */
static enum gc_status run(const struct gc_bench_dist *d, const struct gc_bodies *init,
                          struct gc_backend *b, struct gc_bodies *out)
{
    const struct gc_model_info *m = gc_models_find(d->model);
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_bodies scratch = {0};
    struct gc_progress prog;
    struct gc_diagnostics diag;
    double lowest = INFINITY, at = 0.0; /* the lowest potential so far, and when */
    const double end = d->t > 0.0 ? d->t : COLLAPSE_MAX_T * FREE_FALL;
    unsigned long long done = 0, total = (unsigned long long)ceil(end / d->dt);
    enum gc_status st;
    gc_sim_params_default(&p);
    p.force = "tree";
    p.dt = d->dt;
    p.eps = m->eps;
    st = gc_sim_create(b, NULL, init, &p, NULL, &sim);
    if (st != GC_OK)
        return st;
    st = gc_bodies_alloc(&scratch, init->n);
    if (st == GC_OK)
        st = gc_bodies_alloc(out, init->n); /* floats only: what the run gives */
    if (st == GC_OK) {
        memcpy(out->pos, init->pos, 4 * init->n * sizeof *out->pos);
        memcpy(out->vel, init->vel, 4 * init->n * sizeof *out->vel);
        memcpy(out->tag, init->tag, init->n * sizeof *out->tag);
    }
    gc_progress_begin(&prog, "step", total, 10.0);
    /* A collapse is measured every step (its densest state is passed in a few steps); a
     * timed run goes in chunks, for the progress line. */
    while (st == GC_OK && gc_sim_time(sim) < end - 0.5 * d->dt) {
        const double to = d->t > 0.0 ? fmin(gc_sim_time(sim) + RUN_CHUNK, end)
                                     : gc_sim_time(sim) + d->dt;
        const double was = gc_sim_time(sim);
        st = gc_sim_advance(sim, to);
        done += (unsigned long long)llround((gc_sim_time(sim) - was) / d->dt);
        if (st == GC_OK && gc_progress_due(&prog)) {
            char when[64];
            snprintf(when, sizeof when, "%.2f (%s)", gc_sim_time(sim), d->name);
            gc_progress_show(&prog, done, when);
        }
        if (st != GC_OK || d->t > 0.0)
            continue;
        st = gc_sim_measure(sim, &scratch, &diag);
        if (st != GC_OK)
            break;
        if (diag.potential > lowest)
            break; /* past the densest step: out holds it */
        lowest = diag.potential;
        at = gc_sim_time(sim);
        memcpy(out->pos, scratch.pos, 4 * init->n * sizeof *out->pos);
        memcpy(out->vel, scratch.vel, 4 * init->n * sizeof *out->vel);
    }
    gc_progress_end(&prog);
    if (st == GC_OK && d->t > 0.0) {
        st = gc_sim_download(sim, out);
        at = gc_sim_time(sim);
    }
    if (st == GC_OK)
        gc_log_info("benchmark: %s: %zu bodies run to t = %.3f", d->name, init->n, at);
    gc_sim_destroy(sim);
    gc_bodies_free(&scratch);
    return st;
}

enum gc_status gc_bench_dist_build(const struct gc_bench_dist *d, size_t n, size_t n_run,
                                   uint64_t seed, struct gc_backend *b, struct gc_bodies *ran,
                                   struct gc_bodies *out)
{
    struct gc_bodies init = {0}, own = {0};
    struct gc_bodies *state = ran ? ran : &own;
    enum gc_status st = GC_OK;
    const struct gc_model_info *m = gc_models_find(d->model);
    if (d->t == 0.0)
        return gc_models_build(d->model, n, seed, out);
    if (n_run == 0)
        n_run = gc_backend_is_device(b) ? GC_BENCH_DIST_RUN_MAX : GC_BENCH_DIST_RUN_MAX_HOST;
    if (n_run > n)
        n_run = n;
    if (state->n != n_run) {
        gc_bodies_free(state);
        st = gc_models_build(d->model, n_run, seed, &init);
        if (st == GC_OK)
            st = run(d, &init, b, state);
        gc_bodies_free(&init);
    }
    if (st == GC_OK)
        st = n == n_run ? gc_bodies_copy(out, state)
                        : gc_upsample(state, n, 0.5 * (double)m->eps, seed, out);
    gc_bodies_free(&own);
    return st;
}
