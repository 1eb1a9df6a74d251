/* Kick-drift-kick leapfrog: second order, symplectic and time-reversible. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_state.h"
#include "integrator.h"
#include "log.h"

struct leapfrog {
    double t0;       /* the simulation's time at the start: 0, or where a run continues from */
    double time;     /* time of the current (synchronised) state, from t0 */
    uint64_t steps;  /* steps since start */
    uint64_t computed; /* steps computed by this scheme, whatever was restored */
};

static enum gc_status start(struct gc_integrator *in, const struct gc_bodies *bodies, double t)
{
    struct leapfrog *lf = in->ctx;
    (void)bodies; /* the backend already holds them in the float layout leapfrog uses */
    lf->t0 = t;
    lf->time = 0.0;
    lf->steps = 0;
    /* The kick-drift-kick step expects accelerations that match the positions on entry. */
    return gc_force_accel(in->force, (float)(in->p.eps * in->p.eps));
}

/* One step is K(dt/2) D(dt) A K(dt/2). The half kicks make the scheme symmetric in time
 * (so negating dt retraces the path) and keep velocities synchronised with positions at the
 * end of every step. Within a run of k steps the closing half kick of one step, the opening
 * half kick of the next and its drift are one pass over the bodies where the backend offers
 * it, but the two half kicks stay two roundings: merged into one kick of dt they would
 * round differently, and the state after a step would depend on how the run was split
 * into calls (on how often it is looked at: reports, snapshots, frames). */
static enum gc_status steps(struct gc_integrator *in, unsigned long *k)
{
    struct gc_backend *b = in->force->backend;
    const float dt = (float)in->p.dt, eps2 = (float)(in->p.eps * in->p.eps);
    enum gc_status st;
    unsigned long i;
    if (*k == 0)
        return GC_OK;
    st = gc_backend_kick_drift(b, 0.0f, 0.5f * dt, dt);
    if (st == GC_OK)
        st = gc_force_accel(in->force, eps2);
    for (i = 1; i < *k && st == GC_OK; i++) {
        /* A stop request ends the run after this step, its closing half kick given. */
        if (in->poll && in->poll(in->poll_ctx, i)) {
            in->stopped = 1;
            *k = i;
            break;
        }
        st = gc_backend_kick_drift(b, 0.5f * dt, 0.5f * dt, dt);
        if (st == GC_OK)
            st = gc_force_accel(in->force, eps2);
    }
    return st != GC_OK ? st : gc_backend_kick(b, 0.5f * dt);
}

/* The whole steps that bring the clock nearest to t_end; time counts steps of the current dt
 * (dt may change between calls, so the clock is a sum, not steps x dt). */
static enum gc_status advance(struct gc_integrator *in, double t)
{
    struct leapfrog *lf = in->ctx;
    const double t_end = t - lf->t0;
    const double want = floor((t_end - lf->time) / in->p.dt + 0.5);
    unsigned long k;
    enum gc_status st;
    in->stopped = 0;
    if (!(want >= 1.0))
        return GC_OK;
    k = (unsigned long)want;
    st = steps(in, &k);
    if (st == GC_OK) {
        lf->steps += (uint64_t)k;
        lf->computed += (uint64_t)k;
        lf->time += (double)k * in->p.dt;
    }
    return st;
}

static double time_of(const struct gc_integrator *in)
{
    const struct leapfrog *lf = in->ctx;
    return lf->t0 + lf->time;
}

/* Accelerations depend on positions only, so the scheme stays consistent when dt changes
 * between steps (each step is a complete K D K with its own dt). */
static enum gc_status set_dt(struct gc_integrator *in, double dt)
{
    in->p.dt = dt;
    return GC_OK;
}

static void stats(const struct gc_integrator *in, struct gc_integrator_stats *out)
{
    const struct leapfrog *lf = in->ctx;
    out->steps = lf->steps;
    out->computed = lf->computed;
    out->body_steps = lf->steps * (uint64_t)in->force->n;
    out->last_active = in->force->n;
    out->interactions = in->force->interactions;
}

/* The state is the backend's positions, velocities and accelerations (the next step's first
 * kick needs them as they were, not recomputed: a tree's forces may differ in their last
 * bits from one build of it to the next), kept in the backend's own memory; the bodies of a
 * snapshot are the rest of it, so in host memory there is nothing more to save. */
static enum gc_status save(struct gc_integrator *in, struct gc_state *st)
{
    const struct leapfrog *lf = in->ctx;
    struct gc_backend *b = in->force->backend;
    const struct gc_backend_state *table = gc_backend_state(b);
    enum gc_status e;
    if (st->memory != GC_STATE_BACKEND || !table || in->force->comm->size > 1)
        return GC_ERR_UNSUPPORTED;
    e = table->keep(b, &st->blob);
    if (e != GC_OK)
        return e;
    snprintf(st->scheme, sizeof st->scheme, "%s", in->iface->name);
    st->n = in->force->n;
    st->bytes = table->bytes(b);
    st->time = lf->t0 + lf->time;
    st->steps = lf->steps;
    st->nscalars = 0;
    e = gc_state_add_scalar(st, "StartTime", lf->t0);
    return e == GC_OK ? gc_state_add_scalar(st, "Elapsed", lf->time) : e;
}

static enum gc_status restore(struct gc_integrator *in, const struct gc_bodies *bodies,
                              const struct gc_state *st)
{
    struct leapfrog *lf = in->ctx;
    struct gc_backend *b = in->force->backend;
    const struct gc_backend_state *table = gc_backend_state(b);
    (void)bodies;
    if (st->memory != GC_STATE_BACKEND || !table || strcmp(st->scheme, in->iface->name) != 0 ||
        st->n != in->force->n || st->bytes != table->bytes(b) || st->nscalars != 2) {
        gc_log_warn("leapfrog: a state not kept by this run's backend cannot be restored");
        return GC_ERR_UNSUPPORTED;
    }
    lf->t0 = st->scalar[0].value;
    lf->time = st->scalar[1].value;
    lf->steps = st->steps;
    return table->restore(b, st->blob);
}

static void destroy(struct gc_integrator *in)
{
    free(in->ctx);
    in->ctx = NULL;
}

const struct gc_integrator_iface gc_integrator_leapfrog = {
    .name = "leapfrog",
    .caps = 0,
    .step_noun = "step",
    .flops_per_interaction = 20.0,
    .start = start,
    .advance = advance,
    .time = time_of,
    .predict = NULL, /* the state is synchronised after every step */
    .set_dt = set_dt,
    .stats = stats,
    .destroy = destroy,
    .save = save,
    .restore = restore,
};

enum gc_status gc_integrator_leapfrog_create(struct gc_integrator *in)
{
    if (!isfinite(in->p.dt) || in->p.dt == 0.0) {
        gc_log_error("leapfrog: dt = %g must be finite and non-zero", in->p.dt);
        return GC_ERR_INVALID;
    }
    if (!(in->p.eps > 0.0)) {
        gc_log_error("leapfrog: softening eps = %g must be > 0 (a body's pull on itself is "
                     "0 x 1/0 without it)", in->p.eps);
        return GC_ERR_INVALID;
    }
    in->ctx = calloc(1, sizeof(struct leapfrog));
    if (!in->ctx) {
        gc_log_error("leapfrog: out of memory");
        return GC_ERR_NOMEM;
    }
    in->iface = &gc_integrator_leapfrog;
    return GC_OK;
}
