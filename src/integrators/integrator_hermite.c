/* Hermite 4th and 6th order with individual block time steps, the primitives called in the order the papers give them. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hermite_timeline.h"
#include "integrator.h"
#include "log.h"

/* Defaults. eta: measured on Plummer spheres (softening 1/256, t = 0..1) so that the
 * relative energy error stays below 1e-6: 0.02 did at N = 1024 (2.6e-8) but not at
 * N = 32768 and 65536 (1.1e-6, 1.3e-6: the close encounters at the softening
 * scale grow with N), hence 0.01 (docs/perf-log/hermite-gpu.md); tests/test_hermite.c
 * checks N = 1024. The 6th-order value is for the generalised criterion, whose steps scale
 * as eta, not sqrt(eta). eta_start: the customary 0.01 of |a|/|j| for the first step. */
#define DEFAULT_ETA4 0.01
#define DEFAULT_ETA6 0.15
#define DEFAULT_ETA_START 0.01

/* Both orders: individual block steps, softening 0 allowed, double state, exact forces (a
 * collisional run needs the close pairs exactly: never an approximate force method). */
#define HERMITE_CAPS                                                                       \
    (GC_INTEGRATOR_BLOCK_STEPS | GC_INTEGRATOR_ZERO_SOFTENING | GC_INTEGRATOR_DOUBLE_STATE | \
     GC_INTEGRATOR_EXACT_FORCES)

struct hermite {
    struct gc_hermite_config cfg;
    int64_t limit;       /* the latest tick the current advance may reach */
    int due;             /* host-driven loop: the latest select found a block */
    int on_backend;      /* the loop runs on the backend: selects pass due = NULL */
    double time;         /* the time the caller last advanced to */
    double start_passes; /* force passes over all bodies during start-up */
    unsigned long done;  /* block steps of the current advance (for the poll) */
    struct gc_hermite_groups *groups; /* regularised close groups; NULL = none */
};

static double tick(const struct hermite *h)
{
    return ldexp(h->cfg.dt_max, -GC_HERMITE_LEVELS);
}

/* The tick of time t, rounded down (a frame time between block times is not reached). */
static int64_t ticks_of(const struct hermite *h, double t)
{
    const double q = floor(t / tick(h) + 1e-6);
    return q >= 9.0e18 ? INT64_MAX / 2 : q <= 0.0 ? 0 : (int64_t)q;
}

/* One message for what the backend found wrong during the steps just taken. */
static enum gc_status check(struct gc_integrator *in)
{
    const struct hermite *h = in->ctx;
    struct gc_hermite_counters c;
    enum gc_status st = gc_force_hermite_counters(in->force, &c);
    const double t = (double)c.t_last * tick(h);
    if (st != GC_OK || !c.error)
        return st;
    switch (c.error) {
    case GC_HERMITE_ERR_COINCIDENT:
        gc_log_error("hermite: bodies %lld and %lld are at the same place at t = %.10g with "
                     "softening 0: their force is infinite (give --eps > 0)",
                     (long long)c.error_i, (long long)c.error_j, t);
        break;
    case GC_HERMITE_ERR_LEVELS:
        gc_log_error("hermite: body %lld needs a step below dt_max / 2^%d at t = %.10g: a "
                     "collision or a close encounter the block steps cannot resolve (give "
                     "--eps > 0)%s", (long long)c.error_i, GC_HERMITE_LEVELS, t,
                     h->groups ? "" : "; a hard binary or a close few-body encounter needs "
                     "--regularize auto (with --eps 0), which integrates such groups apart");
        break;
    default:
        gc_log_error("hermite: the state of body %lld became infinite or NaN at t = %.10g",
                     (long long)c.error_i, t);
        break;
    }
    return GC_ERR_INVALID;
}

/* Every body is due at t = 0 after hermite_init: its acceleration and jerk, then a first
 * step from them. The snap needs the other bodies' accelerations, so a second pass follows
 * once the first has found them: the 6th order needs it as state, and both orders take
 * the first step from it too (gc_hermite_criterion_start). */
static enum gc_status start(struct gc_integrator *in, const struct gc_bodies *bodies)
{
    struct hermite *h = in->ctx;
    struct gc_force *f = in->force;
    struct gc_backend *b = f->backend;
    enum gc_status st = gc_backend_hermite_init(b, &h->cfg, bodies);
    const int passes = 2;
    h->time = 0.0;
    h->start_passes = 0.0;
    for (int p = 0; p < passes && st == GC_OK; p++) {
        st = gc_backend_hermite_predict(b);
        if (st == GC_OK)
            st = gc_force_hermite(f);
        if (st == GC_OK)
            st = gc_backend_hermite_begin(b);
        if (st == GC_OK)
            st = gc_force_hermite_share(f);
        h->start_passes += 1.0;
    }
    if (st == GC_OK)
        st = check(in);
    if (st == GC_OK && h->groups)
        st = gc_hermite_groups_start(h->groups, f, &h->cfg, bodies);
    return st;
}

/* One block step (Makino & Aarseth 1992; Nitadori & Makino 2008): the bodies with the
 * smallest t_i + dt_i are due; every body is predicted to that time, the due ones get
 * their acceleration, jerk (and snap) from the predictions, are corrected and get their
 * next step. When the loop runs on the backend these calls are recorded once and replayed
 * there, so this function must not branch on anything the device computes. */
static enum gc_status block_step(void *ctx)
{
    struct gc_integrator *in = ctx;
    struct hermite *h = in->ctx;
    struct gc_force *f = in->force;
    struct gc_backend *b = f->backend;
    enum gc_status st;
    /* A stop request ends the host-driven loop between block steps (a loop replayed on the
     * backend runs to its end). */
    if (!h->on_backend && in->poll && in->poll(in->poll_ctx, h->done++)) {
        in->stopped = 1;
        h->due = 0;
        return GC_OK;
    }
    st = gc_force_hermite_select(f, h->limit, h->on_backend ? NULL : &h->due);
    if (st != GC_OK || (!h->on_backend && !h->due))
        return st;
    /* The groups' part of the block (advancing the groups coupled to it, the members'
     * forces on its bodies) needs nothing of the force pass and is added in the correction:
     * issued after the force pass, it runs while an asynchronous backend computes. */
    st = gc_backend_hermite_predict(b);
    if (st == GC_OK)
        st = gc_force_hermite(f);
    if (st == GC_OK && h->groups)
        st = gc_hermite_groups_before_correct(h->groups, f);
    if (st == GC_OK)
        st = gc_backend_hermite_correct(b);
    if (st == GC_OK)
        st = gc_force_hermite_share(f);
    if (st == GC_OK && h->groups)
        st = gc_hermite_groups_block(h->groups, f, &h->cfg);
    return st;
}

/* Block steps while the next block time is <= t_end. Times that are multiples of dt_max are
 * block times of every body, so there the whole system is synchronised. */
static enum gc_status advance(struct gc_integrator *in, double t_end)
{
    struct hermite *h = in->ctx;
    enum gc_status st;
    h->limit = ticks_of(h, t_end);
    /* the groups are advanced on the host after every block: the loop stays here */
    h->on_backend = !h->groups && gc_force_loop_on_backend(in->force);
    h->due = 1;
    h->done = 0;
    in->stopped = 0;
    if (h->groups) {
        do
            st = block_step(in);
        while (st == GC_OK && h->due);
    } else {
        st = gc_force_repeat(in->force, block_step, in, &h->due);
    }
    if (st == GC_OK)
        st = check(in);
    if (st == GC_OK && in->stopped) {
        /* Stopped early: the clock is the latest block time reached. */
        struct gc_hermite_counters c;
        st = gc_force_hermite_counters(in->force, &c);
        if (st == GC_OK && (double)c.t_last * tick(h) > h->time)
            h->time = (double)c.t_last * tick(h);
        return st;
    }
    if (st == GC_OK && t_end > h->time)
        h->time = t_end;
    return st;
}

/* The backend's state of every body; its ticks are on this scheme's clock. */
static enum gc_status save(struct gc_integrator *in, struct gc_hermite_record *all)
{
    const struct hermite *h = in->ctx;
    if (h->groups && gc_hermite_groups_count(h->groups) > 0)
        return GC_ERR_UNSUPPORTED; /* the groups' internal state is not in the records */
    return gc_backend_hermite_state(in->force->backend, all);
}

/* The state a snapshot recorded, restored as it was: no start-up passes (their fresh
 * derivatives and first steps differ from the run's), so the next block is the one the
 * run would have taken. */
static enum gc_status resume(struct gc_integrator *in, const struct gc_bodies *bodies,
                             const struct gc_hermite_record *all, double t)
{
    struct hermite *h = in->ctx;
    struct gc_backend *b = in->force->backend;
    enum gc_status st = gc_backend_hermite_init(b, &h->cfg, bodies);
    if (st == GC_OK)
        st = gc_backend_hermite_unpack(b, all, bodies->n);
    /* groups form again from the restored state, at the next blocks that bring bodies close */
    if (st == GC_OK && h->groups)
        st = gc_hermite_groups_start(h->groups, in->force, &h->cfg, bodies);
    h->time = t;
    h->start_passes = 0.0;
    return st;
}

static double time_of(const struct gc_integrator *in)
{
    return ((const struct hermite *)in->ctx)->time;
}

/* Drawing and diagnostics between block times see every body predicted to t (its own
 * Taylor series from its last step); the state is untouched. */
static enum gc_status predict(struct gc_integrator *in, double t)
{
    const struct hermite *h = in->ctx;
    const double q = floor(t / tick(h) + 0.5);
    return gc_backend_hermite_view(in->force->backend, q <= 0.0 ? 0 : (int64_t)q);
}

static void stats(const struct gc_integrator *in, struct gc_integrator_stats *out)
{
    const struct hermite *h = in->ctx;
    const double n = (double)in->force->n;
    struct gc_hermite_counters c;
    if (gc_backend_hermite_counters(in->force->backend, &c) != GC_OK)
        return;
    out->steps = c.blocks;
    out->body_steps = c.body_steps;
    if (h->groups) {
        uint64_t blocks, body_steps;
        gc_hermite_groups_counted(h->groups, &blocks, &body_steps);
        out->steps += blocks;
        out->body_steps += body_steps;
    }
    out->last_active = c.last_active;
    out->interactions = ((double)out->body_steps + h->start_passes * n) * n;
}

static enum gc_status physical(struct gc_integrator *in, double t, struct gc_bodies *dst)
{
    struct hermite *h = in->ctx;
    return h->groups ? gc_hermite_groups_physical(h->groups, t, dst) : GC_OK;
}

static size_t groups(const struct gc_integrator *in, struct gc_hermite_groups_report *out,
                     int32_t *membership)
{
    const struct hermite *h = in->ctx;
    if (!h->groups) {
        if (out)
            memset(out, 0, sizeof *out);
        for (size_t i = 0; membership && i < in->force->n; i++)
            membership[i] = -1;
        return 0;
    }
    if (out)
        gc_hermite_groups_report(h->groups, out);
    if (membership)
        gc_hermite_groups_membership(h->groups, membership);
    return gc_hermite_groups_count(h->groups);
}

static void destroy(struct gc_integrator *in)
{
    struct hermite *h = in->ctx;
    if (h)
        gc_hermite_groups_destroy(h->groups);
    free(in->ctx);
    in->ctx = NULL;
}

const struct gc_integrator_iface gc_integrator_hermite4 = {
    .name = "hermite4",
    .caps = HERMITE_CAPS,
    .step_noun = "block step",
    .flops_per_interaction = 60.0,
    .start = start,
    .advance = advance,
    .time = time_of,
    .predict = predict,
    .set_dt = NULL, /* individual steps: there is no one step to change */
    .stats = stats,
    .destroy = destroy,
    .save = save,
    .resume = resume,
    .physical = physical,
    .groups = groups,
};

const struct gc_integrator_iface gc_integrator_hermite6 = {
    .name = "hermite6",
    .caps = HERMITE_CAPS | GC_INTEGRATOR_DOUBLE_FORCES,
    .step_noun = "block step",
    .flops_per_interaction = 94.0,
    .start = start,
    .advance = advance,
    .time = time_of,
    .predict = predict,
    .set_dt = NULL,
    .stats = stats,
    .destroy = destroy,
    .save = save,
    .resume = resume,
    .physical = physical,
    .groups = groups,
};

enum gc_status gc_integrator_hermite_create(struct gc_integrator *in, int order)
{
    struct hermite *h;
    if (!gc_backend_hermite(in->force->backend)) {
        gc_log_error("backend %s has no Hermite block-step support",
                     gc_backend_name(in->force->backend));
        return GC_ERR_UNSUPPORTED;
    }
    if (in->p.eta == 0.0)
        in->p.eta = order == 6 ? DEFAULT_ETA6 : DEFAULT_ETA4;
    if (in->p.dt_max == 0.0)
        in->p.dt_max = GC_HERMITE_DEFAULT_DT_MAX;
    if (!(in->p.eps >= 0.0) || !(in->p.eta > 0.0) || !(in->p.dt_max > 0.0) ||
        !isfinite(in->p.dt_max)) {
        gc_log_error("hermite: eps = %g, eta = %g and dt_max = %g must be >= 0, > 0, > 0",
                     in->p.eps, in->p.eta, in->p.dt_max);
        return GC_ERR_INVALID;
    }
    h = calloc(1, sizeof *h);
    if (!h) {
        gc_log_error("hermite: out of memory");
        return GC_ERR_NOMEM;
    }
    h->cfg.order = order;
    h->cfg.eps2 = in->p.eps * in->p.eps;
    h->cfg.eta = in->p.eta;
    h->cfg.eta_start = DEFAULT_ETA_START;
    h->cfg.dt_max = in->p.dt_max;
    h->cfg.fixed_level = -1;
    if (order == 6 && in->p.precision == GC_PRECISION_MIXED) {
        gc_log_error("hermite6 needs double forces (--precision double, or leave it out): "
                     "its step criterion takes the force's 4th and 5th derivatives, and "
                     "float terms leave them as noise that collapses the steps");
        free(h);
        return GC_ERR_INVALID;
    }
    h->cfg.mixed = order == 4 && in->p.precision != GC_PRECISION_DOUBLE;
    if (in->p.fixed_dt > 0.0) {
        const double k = log2(in->p.dt_max / in->p.fixed_dt);
        if (fabs(k - floor(k + 0.5)) > 1e-9 || k < -0.5 || k > GC_HERMITE_LEVELS - 1) {
            gc_log_error("hermite: a fixed step %g must be dt_max = %g over a power of two",
                         in->p.fixed_dt, in->p.dt_max);
            free(h);
            return GC_ERR_INVALID;
        }
        h->cfg.fixed_level = (int)floor(k + 0.5);
    }
    if (in->p.regularize) {
        const struct gc_hermite_groups_config gcfg = {in->p.ar_tol, in->p.ar_radius};
        enum gc_status st;
        if (in->p.eps != 0.0 || in->p.fixed_dt > 0.0) {
            gc_log_error("hermite: regularisation needs --eps 0 and individual steps (got "
                         "eps = %g%s)", in->p.eps, in->p.fixed_dt > 0.0 ? ", a fixed step" : "");
            free(h);
            return GC_ERR_INVALID;
        }
        if (!(in->p.ar_tol >= 0.0 && in->p.ar_tol < 1e-3) || !(in->p.ar_radius >= 0.0) ||
            !isfinite(in->p.ar_radius)) {
            gc_log_error("hermite: --ar-tol %g must be in [0, 1e-3) and --ar-radius %g >= 0",
                         in->p.ar_tol, in->p.ar_radius);
            free(h);
            return GC_ERR_INVALID;
        }
        if (!gc_backend_hermite_has_state(in->force->backend)) {
            /* the groups are found and advanced on the host from every body's state */
            gc_log_warn("hermite: backend %s cannot hand its state to the host: close groups "
                        "are not regularised (as with --regularize off)",
                        gc_backend_name(in->force->backend));
            in->p.regularize = 0;
        }
        st = in->p.regularize ? gc_hermite_groups_create(&gcfg, in->force->n, &h->groups)
                              : GC_OK;
        if (st != GC_OK) {
            free(h);
            return st;
        }
    }
    in->ctx = h;
    in->iface = order == 6 ? &gc_integrator_hermite6 : &gc_integrator_hermite4;
    return GC_OK;
}
