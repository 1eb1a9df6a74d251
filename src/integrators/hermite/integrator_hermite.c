/* Hermite 4th and 6th order with individual block time steps, the primitives called in the order the papers give them. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_hermite.h"
#include "hermite_formulas.h"
#include "hermite_groups.h"
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
/* The largest block step: 1/8 time unit, a power of two, so outputs at multiples of 1/8 are
 * block times where every body is synchronised. */
#define DEFAULT_DT_MAX 0.125

/* Both orders: individual block steps, softening 0 allowed, double state, exact forces (a
 * collisional run needs the close pairs exactly: never an approximate force method). */
#define HERMITE_CAPS                                                                       \
    (GC_INTEGRATOR_BLOCK_STEPS | GC_INTEGRATOR_ZERO_SOFTENING | GC_INTEGRATOR_DOUBLE_STATE | \
     GC_INTEGRATOR_EXACT_FORCES)

/* Per rank, what it sends after a block step: its record count and its backend's error, so
 * that every rank stops together and reports the same error. */
struct rank_head {
    int64_t count;
    int64_t error, error_i, error_j; /* GC_HERMITE_ERR_* and the bodies involved; 0 = none */
};

struct hermite {
    struct gc_hermite_config cfg;
    double t0;           /* the simulation's time at tick 0: 0, or where a run continues
                          * from (for a restored state the block time at or before it) */
    int64_t t0_ticks;    /* t0 in ticks: ticks in states saved and restored count from t = 0 */
    int64_t limit;       /* the latest tick the current advance may reach */
    int due;             /* host-driven loop: the latest select found a block */
    int on_backend;      /* the loop runs on the backend: selects pass due = NULL */
    double time;         /* the time the caller last advanced to, from t0 */
    double start_passes; /* force passes over all bodies during start-up */
    unsigned long done;  /* block steps of the current advance (for the poll) */
    struct gc_hermite_groups *groups; /* regularised close groups; NULL = none */
    /* several ranks (allocated at the first exchange) */
    struct gc_hermite_record *rec;   /* n records: every rank's block, in rank order */
    struct rank_head *heads;         /* a head a rank */
    size_t *counts;                  /* records a rank */
    struct gc_hermite_counters shared_error; /* the first error of any rank (rank order) */
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

/* ---- over several ranks: every rank holds every body's state and selects the same blocks ---- */

static enum gc_status alloc_exchange(struct gc_integrator *in)
{
    struct hermite *h = in->ctx;
    const size_t n = in->force->n, size = (size_t)gc_force_ranks(in->force);
    if (h->rec)
        return GC_OK;
    h->rec = malloc((n ? n : 1) * sizeof *h->rec);
    h->heads = malloc(size * sizeof *h->heads);
    h->counts = malloc(size * sizeof *h->counts);
    if (!h->rec || !h->heads || !h->counts) {
        gc_log_error("hermite: out of memory for the exchange of %zu bodies between ranks", n);
        return GC_ERR_NOMEM;
    }
    return GC_OK;
}

/* After a correction (or the start-up): the new states of the bodies each rank advanced go
 * to every other rank, with each rank's error, so each holds the whole state and the same
 * schedule, and an error any rank's backend found reaches every rank. Two collectives:
 * every rank's head (record count and error), then the records themselves. */
static enum gc_status share(struct gc_integrator *in)
{
    struct hermite *h = in->ctx;
    struct gc_force *f = in->force;
    struct gc_backend *b = f->backend;
    const int size = gc_force_ranks(f), rank = f->comm->rank;
    struct gc_hermite_counters cnt;
    size_t mine = 0, total = 0, first = 0;
    enum gc_status st;
    if (size == 1)
        return GC_OK;
    /* An allocation failure here is local: the caller's failure path ends the run. */
    st = alloc_exchange(in);
    if (st == GC_OK)
        st = gc_backend_hermite_pack(b, h->rec, &mine);
    if (st == GC_OK)
        st = gc_backend_hermite_counters(b, &cnt);
    if (st != GC_OK)
        return st;
    h->heads[rank] = (struct rank_head){(int64_t)mine, cnt.error, cnt.error_i, cnt.error_j};
    st = gc_force_gather_one(f, h->heads, sizeof *h->heads);
    if (st != GC_OK)
        return st;
    for (int r = 0; r < size; r++) {
        h->counts[r] = (size_t)h->heads[r].count;
        total += h->counts[r];
        if (h->heads[r].error && !h->shared_error.error) {
            h->shared_error.error = (int)h->heads[r].error;
            h->shared_error.error_i = h->heads[r].error_i;
            h->shared_error.error_j = h->heads[r].error_j;
        }
    }
    if (total > f->n) {
        gc_log_error("hermite: ranks sent %zu records for %zu bodies", total, f->n);
        return GC_ERR_INVALID;
    }
    st = gc_force_gather_parts(f, h->rec, h->counts, sizeof *h->rec, &first);
    /* Every rank writes the others' records into its backend: its own are there. */
    if (st == GC_OK)
        st = gc_backend_hermite_unpack(b, h->rec, first);
    if (st == GC_OK)
        st = gc_backend_hermite_unpack(b, h->rec + first + mine, total - first - mine);
    return st;
}

/* The next block. Every rank holds the same schedule, so every rank finds the same block; a
 * rank whose backend has stopped on an error finds none, and then none runs anywhere, so
 * that no rank waits in an exchange the others never reach. */
static enum gc_status select_block(struct gc_integrator *in, int64_t t_limit, int *due)
{
    const struct hermite *h = in->ctx;
    enum gc_status st = gc_backend_hermite_select(in->force->backend, t_limit, due);
    if (st != GC_OK || gc_force_ranks(in->force) == 1)
        return st;
    *due = *due && !h->shared_error.error;
    return gc_force_all(in->force, due);
}

/* The backend's counters, with the first error of any rank in place of this rank's own
 * (every rank then reports the same one). */
static enum gc_status counters(struct gc_integrator *in, struct gc_hermite_counters *out)
{
    const struct hermite *h = in->ctx;
    enum gc_status st = gc_backend_hermite_counters(in->force->backend, out);
    if (st == GC_OK && h->shared_error.error) {
        out->error = h->shared_error.error;
        out->error_i = h->shared_error.error_i;
        out->error_j = h->shared_error.error_j;
    }
    return st;
}

/* One process on a backend that loops by itself (a repeat slot): the block-step loop runs
 * there with no host round trip, and selects pass due = NULL. */
static int loop_on_backend(const struct gc_integrator *in)
{
    return gc_force_ranks(in->force) == 1 && gc_backend_hermite_has_repeat(in->force->backend);
}

/* One message for what the backend found wrong during the steps just taken. */
static enum gc_status check(struct gc_integrator *in)
{
    const struct hermite *h = in->ctx;
    struct gc_hermite_counters c;
    enum gc_status st = counters(in, &c);
    const double t = h->t0 + (double)c.t_last * tick(h);
    if (st != GC_OK || !c.error)
        return st;
    in->failed_together = 1; /* every rank found the same error (share) */
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
static enum gc_status start(struct gc_integrator *in, const struct gc_bodies *bodies, double t)
{
    struct hermite *h = in->ctx;
    struct gc_force *f = in->force;
    struct gc_backend *b = f->backend;
    enum gc_status st = gc_backend_hermite_init(b, &h->cfg, bodies);
    const int passes = 2;
    h->t0 = t;
    h->t0_ticks = 0;
    h->time = 0.0;
    h->start_passes = 0.0;
    for (int p = 0; p < passes && st == GC_OK; p++) {
        st = gc_backend_hermite_predict(b);
        if (st == GC_OK)
            st = gc_force_pass(f, gc_backend_hermite_force);
        if (st == GC_OK)
            st = gc_backend_hermite_begin(b);
        if (st == GC_OK)
            st = share(in);
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
    st = select_block(in, h->limit, h->on_backend ? NULL : &h->due);
    if (st != GC_OK || (!h->on_backend && !h->due))
        return st;
    /* The groups' part of the block (advancing the groups coupled to it, the members'
     * forces on its bodies) needs nothing of the force pass and is added in the correction:
     * issued after the force pass, it runs while an asynchronous backend computes. */
    st = gc_backend_hermite_predict(b);
    if (st == GC_OK)
        st = gc_force_pass(f, gc_backend_hermite_force);
    if (st == GC_OK && h->groups)
        st = gc_hermite_groups_before_correct(h->groups, f);
    if (st == GC_OK)
        st = gc_backend_hermite_correct(b);
    if (st == GC_OK)
        st = share(in);
    if (st == GC_OK && h->groups)
        st = gc_hermite_groups_block(h->groups, f, &h->cfg);
    return st;
}

/* Block steps while the next block time is <= t_end. Times that are multiples of dt_max are
 * block times of every body, so there the whole system is synchronised. */
static enum gc_status advance(struct gc_integrator *in, double t)
{
    struct hermite *h = in->ctx;
    const double t_end = t - h->t0;
    enum gc_status st;
    h->limit = ticks_of(h, t_end);
    /* the groups are advanced on the host after every block: the loop stays here */
    h->on_backend = !h->groups && loop_on_backend(in);
    h->due = 1;
    h->done = 0;
    in->stopped = 0;
    if (h->on_backend) {
        st = gc_backend_hermite_repeat(in->force->backend, block_step, in);
    } else {
        do
            st = block_step(in);
        while (st == GC_OK && h->due);
    }
    if (st == GC_OK)
        st = check(in);
    if (st == GC_OK && in->stopped) {
        /* Stopped early: the clock is the latest block time reached. */
        struct gc_hermite_counters c;
        st = counters(in, &c);
        if (st == GC_OK && (double)c.t_last * tick(h) > h->time)
            h->time = (double)c.t_last * tick(h);
        return st;
    }
    if (st == GC_OK && t_end > h->time)
        h->time = t_end;
    return st;
}

/* The state, described: a gc_hermite_record a body (hermite_timeline.h), its time an
 * absolute tick (counted from t = 0) of TickSize = dt_max / 2^GC_HERMITE_LEVELS, as
 * snapshots keep it in /IntegratorState. The body index is its place in the blob. */
static enum gc_status describe(struct gc_state *st, const char *scheme, double tick_size)
{
    static const struct {
        const char *name;
        size_t offset;
    } vec[] = {{"Position", offsetof(struct gc_hermite_record, x)},
               {"Velocity", offsetof(struct gc_hermite_record, v)},
               {"Acceleration", offsetof(struct gc_hermite_record, a)},
               {"Jerk", offsetof(struct gc_hermite_record, j)},
               {"Snap", offsetof(struct gc_hermite_record, s)},
               {"Crackle", offsetof(struct gc_hermite_record, c)}};
    enum gc_status e = GC_OK;
    snprintf(st->scheme, sizeof st->scheme, "%s", scheme);
    st->record = sizeof(struct gc_hermite_record);
    st->nfields = 0;
    for (size_t k = 0; k < sizeof vec / sizeof vec[0] && e == GC_OK; k++)
        e = gc_state_add(st, vec[k].name, GC_STATE_F64, GC_STATE_F64, 3, vec[k].offset);
    if (e == GC_OK)
        e = gc_state_add(st, "Tick", GC_STATE_I64, GC_STATE_I64, 1,
                         offsetof(struct gc_hermite_record, t));
    if (e == GC_OK)
        e = gc_state_add(st, "Level", GC_STATE_I64, GC_STATE_U8, 1,
                         offsetof(struct gc_hermite_record, level));
    if (e == GC_OK)
        e = gc_state_add_scalar(st, "TickSize", tick_size);
    return e;
}

/* The backend's state of every body, its ticks made absolute. Only in host memory: a
 * backend keeps its Hermite state in its own layout. */
static enum gc_status save(struct gc_integrator *in, struct gc_state *st)
{
    const struct hermite *h = in->ctx;
    const size_t n = in->force->n;
    struct gc_hermite_record *all;
    enum gc_status e;
    if (st->memory != GC_STATE_HOST || !gc_backend_hermite_has_state(in->force->backend))
        return GC_ERR_UNSUPPORTED;
    if (h->groups && gc_hermite_groups_count(h->groups) > 0)
        return GC_ERR_UNSUPPORTED; /* the groups' internal state is not in the records */
    e = describe(st, in->iface->name, tick(h));
    if (e == GC_OK)
        e = gc_state_alloc_host(st, n);
    if (e != GC_OK)
        return e;
    all = st->blob;
    e = gc_backend_hermite_state(in->force->backend, all);
    for (size_t i = 0; e == GC_OK && i < n; i++)
        all[i].t += h->t0_ticks;
    st->time = h->t0 + h->time;
    if (e != GC_OK)
        gc_state_free_host(st);
    return e;
}

/* The records of st (any layout that has this scheme's fields: its own, or a file's), their
 * ticks shifted by -shift onto this run's clock, into rec; every value checked as the
 * command line's would be, and each body's time within the state's: at or before it
 * (ticks at its time), its next step after it. */
static enum gc_status unpack_state(const struct hermite *h, const struct gc_state *st,
                                   int64_t shift, struct gc_hermite_record *rec)
{
    static const char *const vec[6] = {"Position", "Velocity", "Acceleration", "Jerk", "Snap",
                                       "Crackle"};
    const struct gc_state_field *f[6], *ft, *fl;
    const char *where = "integrator state";
    /* the state's time in ticks, give or take its rounding */
    const double t_state = st->time / tick(h), lo = t_state * (1.0 - 1e-12) - 1.0,
                 hi = t_state * (1.0 + 1e-12) + 1.0;
    for (int k = 0; k < 6; k++)
        if (!(f[k] = gc_state_need(st, vec[k], GC_STATE_F64, 3, where)))
            return GC_ERR_UNSUPPORTED;
    ft = gc_state_need(st, "Tick", GC_STATE_I64, 1, where);
    fl = gc_state_need(st, "Level", GC_STATE_I64, 1, where);
    if (!ft || !fl)
        return GC_ERR_UNSUPPORTED;
    for (size_t i = 0; i < st->n; i++) {
        struct gc_hermite_record *r = &rec[i];
        int64_t t, level;
        memcpy(&t, gc_state_at(st, ft, i), sizeof t);
        memcpy(&level, gc_state_at(st, fl, i), sizeof level);
        r->i = (int64_t)i;
        for (int k = 0; k < 6; k++) {
            double *dst = k == 0 ? r->x : k == 1 ? r->v : k == 2 ? r->a : k == 3 ? r->j
                          : k == 4 ? r->s : r->c;
            memcpy(dst, gc_state_at(st, f[k], i), 3 * sizeof *dst);
            if (!isfinite(dst[0]) || !isfinite(dst[1]) || !isfinite(dst[2])) {
                gc_log_error("%s: body %zu: %s is not finite", where, i, vec[k]);
                return GC_ERR_INVALID;
            }
        }
        if (level < 0 || level >= GC_HERMITE_LEVELS || t < 0 ||
            !gc_hermite_on_grid(t, (int)level) || (double)t > hi ||
            (double)t + (double)GC_HERMITE_TICKS(level) <= lo) {
            gc_log_error("%s: body %zu: level %lld, tick %lld (expected a level below %d and "
                         "a tick >= 0 that is a multiple of the level's step, at or before "
                         "the state's time %.10g, tick %.0f, with its next step after it)",
                         where, i,
                         (long long)level, (long long)t, GC_HERMITE_LEVELS, st->time,
                         t_state);
            return GC_ERR_INVALID;
        }
        r->t = t - shift;
        r->level = level;
    }
    return GC_OK;
}

/* A saved state restored as it was: no start-up passes (their fresh derivatives and first
 * steps differ from the run's), so the next block is the one the run would have taken. The
 * clock counts from the block time at or before the state's, a whole number of dt_max
 * after 0, so that every step stays commensurate with its time. */
static enum gc_status restore(struct gc_integrator *in, const struct gc_bodies *bodies,
                              const struct gc_state *st)
{
    struct hermite *h = in->ctx;
    struct gc_backend *b = in->force->backend;
    const double q = floor(st->time / h->cfg.dt_max + 1e-9);
    struct gc_hermite_record *rec;
    enum gc_status e;
    if (st->memory != GC_STATE_HOST || st->n != bodies->n ||
        !gc_backend_hermite_has_state(b) || gc_force_ranks(in->force) > 1) {
        gc_log_warn("hermite: the state cannot be taken as it is (%s)",
                    st->n != bodies->n ? "another number of bodies"
                    : gc_force_ranks(in->force) > 1 ? "the run is over several ranks"
                                                    : "this backend cannot take it");
        return GC_ERR_UNSUPPORTED;
    }
    if (!(q >= 0.0 && q < 1e6)) {
        gc_log_error("integrator state: time %g is out of range", st->time);
        return GC_ERR_INVALID;
    }
    rec = malloc((bodies->n ? bodies->n : 1) * sizeof *rec);
    if (!rec) {
        gc_log_error("out of memory for the integrator state of %zu bodies", bodies->n);
        return GC_ERR_NOMEM;
    }
    h->t0 = q * h->cfg.dt_max;
    h->t0_ticks = (int64_t)q << GC_HERMITE_LEVELS;
    e = unpack_state(h, st, h->t0_ticks, rec);
    if (e == GC_OK)
        e = gc_backend_hermite_init(b, &h->cfg, bodies);
    if (e == GC_OK)
        e = gc_backend_hermite_unpack(b, rec, bodies->n);
    free(rec);
    /* groups form again from the restored state, at the next blocks that bring bodies close */
    if (e == GC_OK && h->groups)
        e = gc_hermite_groups_start(h->groups, in->force, &h->cfg, bodies);
    h->time = st->time - h->t0;
    h->start_passes = 0.0;
    return e;
}

static double time_of(const struct gc_integrator *in)
{
    const struct hermite *h = in->ctx;
    return h->t0 + h->time;
}

/* Drawing and diagnostics between block times see every body predicted to t (its own
 * Taylor series from its last step); the state is untouched. */
static enum gc_status predict(struct gc_integrator *in, double t)
{
    const struct hermite *h = in->ctx;
    const double q = floor((t - h->t0) / tick(h) + 0.5);
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
    out->computed = out->steps; /* its counters start over with a restored state */
    out->interactions = ((double)out->body_steps + h->start_passes * n) * n;
}

static enum gc_status physical(struct gc_integrator *in, double t, struct gc_bodies *dst)
{
    struct hermite *h = in->ctx;
    return h->groups ? gc_hermite_groups_physical(h->groups, t - h->t0, dst) : GC_OK;
}

static size_t groups(const struct gc_integrator *in, struct gc_groups_report *out,
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
    if (h) {
        gc_hermite_groups_destroy(h->groups);
        free(h->rec);
        free(h->heads);
        free(h->counts);
    }
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
    .restore = restore,
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
    .restore = restore,
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
        in->p.dt_max = DEFAULT_DT_MAX;
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
        st = in->p.regularize ? gc_hermite_groups_create(in->p.ar_tol, in->p.ar_radius,
                                                         in->force->n, &h->groups)
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
