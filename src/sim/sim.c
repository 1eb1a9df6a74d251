/* The simulation: parameters, the integrator over the force layer, "advance to time t", and the same calls made by every rank. */
/* SPDX-License-Identifier: MIT */
#include "sim.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_state.h"
#include "diagnostics.h"
#include "log.h"
#include "render_buffer.h"
#include "stop.h"
#include "tree_formulas.h"

/* Only this file reads these fields: the viewer, headless mode, benchmarks and tests use the
 * functions of sim.h. */
struct gc_sim {
    struct gc_sim_params p;        /* current parameters */
    struct gc_backend *backend;    /* not owned: the caller creates and destroys it */
    struct gc_comm *comm;          /* not owned; gc_comm_single() for one process */
    struct gc_force force;         /* forces and the exchange between ranks */
    struct gc_integrator *integrator; /* owned */
    double time;                   /* simulated time the caller advanced to, N-body units */
    const struct gc_sim_restart *restart; /* not owned; NULL = the run starts at t = 0 */
    size_t n;                      /* bodies */
    int nested;                    /* > 0 inside a call every rank is making (collective) */
    struct gc_bodies view;         /* several ranks: every body gathered on rank 0 for export */
    /* optional (NULL: none): told between steps, as the integrator's poll is, how many steps
     * of the current advance are done; gc_sim_on_step sets it */
    void (*on_step)(void *ctx, const struct gc_sim *s, unsigned long done);
    void *on_step_ctx;
    int32_t *membership;           /* n: gc_sim_membership's answer; NULL until asked */
};

void gc_sim_params_default(struct gc_sim_params *p)
{
    memset(p, 0, sizeof *p);
    p->integrator = GC_DEFAULT_INTEGRATOR;
    p->force = "auto";
    p->theta = GC_TREE_DEFAULT_THETA;
    p->dt = GC_DEFAULT_DT;
    p->eps = GC_DEFAULT_EPS;
}

enum gc_status gc_sim_params_check(const struct gc_sim_params *p)
{
    const struct gc_integrator_iface *scheme =
        gc_integrator_find(p->integrator ? p->integrator : GC_DEFAULT_INTEGRATOR);
    int zero_eps;
    if (!scheme) {
        gc_log_error("unknown integrator '%s'; available: %s", p->integrator,
                     gc_integrator_available());
        return GC_ERR_INVALID;
    }
    zero_eps = gc_integrator_has(scheme, GC_INTEGRATOR_ZERO_SOFTENING);
    if (p->theta != 0.0f && !(p->theta >= GC_TREE_THETA_MIN && p->theta <= GC_TREE_THETA_MAX)) {
        gc_log_error("opening angle theta = %g is out of range (%g to %g)", p->theta,
                     GC_TREE_THETA_MIN, GC_TREE_THETA_MAX);
        return GC_ERR_INVALID;
    }
    if (!isfinite(p->dt) || p->dt == 0.0f || fabsf(p->dt) > GC_DT_MAX) {
        gc_log_error("time step dt = %g is out of range (non-zero, |dt| <= %g)", p->dt,
                     GC_DT_MAX);
        return GC_ERR_INVALID;
    }
    /* A scheme that includes the self-pair needs eps > 0: a body's pull on itself is
     * 0 * (1/0). The collisional schemes skip it and accept eps = 0. */
    if (!isfinite(p->eps) || p->eps > GC_EPS_MAX ||
        (zero_eps ? p->eps < 0.0f : p->eps < GC_EPS_MIN)) {
        gc_log_error("softening eps = %g is out of range (%g to %g%s)", p->eps,
                     zero_eps ? 0.0 : GC_EPS_MIN, GC_EPS_MAX,
                     zero_eps ? "" : "; 0 only with --integrator hermite4|hermite6");
        return GC_ERR_INVALID;
    }
    return GC_OK;
}

static struct gc_integrator_params integrator_params(const struct gc_sim_params *p)
{
    struct gc_integrator_params ip;
    ip.dt = p->dt;
    ip.eps = p->eps;
    ip.eta = p->eta;
    ip.dt_max = p->dt_max;
    ip.fixed_dt = p->fixed_dt;
    ip.precision = !p->precision || strcmp(p->precision, "auto") == 0 ? GC_PRECISION_AUTO
                   : strcmp(p->precision, "double") == 0       ? GC_PRECISION_DOUBLE
                                                               : GC_PRECISION_MIXED;
    /* "auto": close groups are regularised where nothing else would resolve them (no
     * softening) and the steps are the scheme's own */
    ip.regularize = (!p->regularize || strcmp(p->regularize, "auto") == 0) && p->eps == 0.0f &&
                    p->fixed_dt == 0.0;
    ip.ar_tol = p->ar_tol;
    ip.ar_radius = p->ar_radius;
    return ip;
}

/* The force method for n bodies, resolved once ("auto" becomes a method's name, so that every
 * rank and every reset uses the same one); a scheme that needs exact forces gets all pairs. */
static enum gc_status choose_force(struct gc_sim *s, size_t n)
{
    const struct gc_integrator_iface *scheme = gc_integrator_find(s->p.integrator);
    enum gc_force_method m;
    const int automatic = !s->p.force || strcmp(s->p.force, "auto") == 0;
    enum gc_status st = gc_force_method_choose(s->p.force, n, s->backend, &m);
    if (st != GC_OK)
        return st;
    if (gc_integrator_has(scheme, GC_INTEGRATOR_EXACT_FORCES) && m != GC_FORCE_ALLPAIRS) {
        if (!automatic) {
            gc_log_error("--force %s approximates gravity; %s is a collisional scheme and "
                         "needs exact forces: use --force allpairs (or auto)", s->p.force,
                         scheme->name);
            return GC_ERR_INVALID;
        }
        m = GC_FORCE_ALLPAIRS;
    }
    s->p.force = gc_force_method_name(m);
    return GC_OK;
}

/* ---- several ranks: the calls every rank makes ----
 * Rank 0 runs the program (modes, window, files); every other rank runs gc_sim_follow, which
 * makes rank 0's calls on a simulation of its own, so that all ranks reach the same
 * collectives in the same order. Creating and freeing a simulation are announced by
 * gc_sim_create and gc_sim_destroy; every other call is a row of `calls` below, announced
 * and run by collective(): a new call is one row. With one rank nothing is announced. A
 * failure that left the ranks out of step marks comm->broken; main then ends the run
 * (gc_comm_abort). */

/* The parameters of a simulation as they travel between ranks (strings as arrays). */
struct wire_params {
    int32_t profile;
    double dt, eps, eta, dt_max, fixed_dt, theta; /* dt, eps and theta are floats, exact here */
    double ar_tol, ar_radius;
    char integrator[24];
    char force[24];      /* the method rank 0 chose (never "auto": every rank uses the same
                          * one, whatever its own backend would pick) */
    char precision[8];   /* "" = default */
    char regularize[8];  /* "" = default */
};

/* One call, broadcast whole (small, fixed size: one collective a call). */
struct call {
    int32_t op;          /* enum op */
    int32_t restart;     /* CREATE: 1 when the run continues from a snapshot (its recorded
                          * state stays on rank 0, which then rebuilds it like every rank) */
    double arg;          /* ADVANCE: time; SET_DT: dt; RELEASE: the signal that ended rank 0 */
    double restart_time; /* CREATE: a restart's time */
    struct wire_params params; /* CREATE */
};

/* What a call works on: rank 0's come from its caller; a follower's are its own. */
struct call_data {
    const struct gc_bodies *bodies; /* RESET: the bodies (a follower's: received) */
    struct gc_bodies *dst;          /* DOWNLOAD, MEASURE: where the state goes */
    struct gc_diagnostics *d;       /* MEASURE */
};

enum op { OP_CREATE = 1, OP_DESTROY, OP_RELEASE, OP_RESET, OP_ADVANCE, OP_SET_DT, OP_DOWNLOAD,
          OP_MEASURE, OP_END };

static enum gc_status run_reset(struct gc_sim *s, const struct call *c, struct call_data *a);
static enum gc_status run_advance(struct gc_sim *s, const struct call *c, struct call_data *a);
static enum gc_status run_set_dt(struct gc_sim *s, const struct call *c, struct call_data *a);
static enum gc_status run_download(struct gc_sim *s, const struct call *c, struct call_data *a);
static enum gc_status run_measure(struct gc_sim *s, const struct call *c, struct call_data *a);

/* The calls on a simulation that every rank makes. */
static const struct collective {
    const char *name;
    int bodies; /* 1: rank 0's bodies follow the call */
    enum gc_status (*run)(struct gc_sim *s, const struct call *c, struct call_data *a);
} calls[OP_END] = {
    [OP_RESET] = {"reset", 1, run_reset},
    [OP_ADVANCE] = {"advance", 0, run_advance},
    [OP_SET_DT] = {"set_dt", 0, run_set_dt},
    [OP_DOWNLOAD] = {"download", 0, run_download},
    [OP_MEASURE] = {"measure", 0, run_measure},
};

static enum gc_status broken(struct gc_comm *comm, enum gc_status st)
{
    if (st != GC_OK && comm->size > 1)
        comm->broken = 1;
    return st;
}

/* Rank 0: sends the next call (and the bodies that go with it) to the other ranks. A
 * failure leaves the followers somewhere in it: the communicator is marked broken. */
static enum gc_status announce(struct gc_comm *comm, const struct call *c,
                               const struct gc_bodies *bodies)
{
    struct call copy = *c;
    enum gc_status st = gc_comm_bcast(comm, &copy, sizeof copy, 0);
    if (st == GC_OK && bodies) {
        /* Read-only on the root: only the receivers allocate. */
        struct gc_bodies b = *bodies;
        st = gc_comm_bcast_bodies(comm, &b, 0);
    }
    return broken(comm, st);
}

/* After a call that failed on this rank: the ranks stopped together when the failure was
 * agreed (an init agreement, an error the scheme's ranks shared, a stop request); otherwise
 * the others
 * may be waiting in a collective this rank will never reach, and the communicator is
 * marked broken, so main ends the run (gc_comm_abort). Returns st. */
static enum gc_status settle(struct gc_sim *s, enum gc_status st)
{
    const struct gc_integrator *in = s->integrator;
    /* a stop the ranks agreed on (between_steps) ends every rank's advance at one step */
    if (st == GC_OK || s->comm->size == 1 || (in && in->failed_together) ||
        (st == GC_ERR_INTERRUPTED && in && in->stopped))
        return st;
    return broken(s->comm, st);
}

/* Runs call c on this rank's simulation; on rank 0 of several (outside another collective
 * call) it is announced to the followers first. */
static enum gc_status collective(struct gc_sim *s, const struct call *c, struct call_data *a)
{
    const struct collective *k = &calls[c->op];
    enum gc_status st = GC_OK;
    if (s->comm->size > 1 && s->comm->rank == 0 && s->nested == 0)
        st = announce(s->comm, c, k->bodies ? a->bodies : NULL);
    if (st != GC_OK)
        return st;
    s->nested++;
    st = k->run(s, c, a);
    s->nested--;
    return settle(s, st);
}

/* ---- lifetime ---- */

/* The integrator's poll between steps: progress, then a stop request. Over several ranks
 * every rank asks at every step and they agree (the largest signal of any rank), so that all
 * stop at the same step, whichever rank was told. */
static int between_steps(void *ctx, unsigned long done)
{
    struct gc_sim *s = ctx;
    double sig = (double)gc_stop_requested();
    if (s->on_step)
        s->on_step(s->on_step_ctx, s, done);
    if (s->comm->size > 1) {
        if (gc_comm_allreduce(s->comm, &sig, 1, GC_COMM_MAX) != GC_OK)
            return 0; /* the step's exchange reports the failure */
        if (sig > 0.0 && !gc_stop_requested())
            gc_stop_request((int)sig);
    }
    return sig > 0.0;
}

void gc_sim_on_step(struct gc_sim *s, void (*fn)(void *ctx, const struct gc_sim *s,
                                                 unsigned long done), void *ctx)
{
    s->on_step = fn;
    s->on_step_ctx = ctx;
}

/* Why a recorded state cannot be taken as it is; NULL when it can (the scheme's restore
 * may still refuse it, saying why). */
static const char *state_mismatch(const struct gc_sim *s, const struct gc_bodies *bodies)
{
    const struct gc_sim_restart *r = s->restart;
    const struct gc_integrator *in = s->integrator;
    if (r->state->n != bodies->n)
        return "it holds another number of bodies (-n thinned them)";
    if (!r->integrator || strcmp(r->integrator, in->iface->name) != 0)
        return "it is another integrator's";
    if (r->eps != (double)s->p.eps || r->eta != in->p.eta || r->dt_max != in->p.dt_max)
        return "eps, eta or dt_max differ from the snapshot's";
    if (s->comm->size > 1)
        return "the run is over several ranks";
    if (!in->iface->restore)
        return "this integrator cannot take one";
    return NULL;
}

/* The scheme's first state: fresh (start), or a snapshot's recorded one (restore), from the
 * restart's time. */
static enum gc_status begin_at(struct gc_sim *s, const struct gc_bodies *bodies)
{
    const struct gc_sim_restart *r = s->restart;
    struct gc_integrator *in = s->integrator;
    const char *why = r && r->state ? state_mismatch(s, bodies) : NULL;
    const double t0 = r ? r->time : 0.0;
    enum gc_status st;
    s->time = t0;
    if (r && r->state && !why) {
        struct gc_state at = *r->state;
        at.time = t0;
        st = in->iface->restore(in, bodies, &at);
        if (st != GC_ERR_UNSUPPORTED)
            return st;
        why = "see above";
    }
    if (why && s->comm->rank == 0)
        gc_log_warn("the snapshot's %s state is not used (%s): rebuilt from its bodies, so the "
                    "run does not continue exactly", r->integrator ? r->integrator : "integrator",
                    why);
    return in->iface->start(in, bodies, t0);
}

/* Upload, split over ranks, start the scheme: the part shared by create and reset. */
static enum gc_status start(struct gc_sim *s, const struct gc_bodies *bodies)
{
    struct gc_integrator_params ip = integrator_params(&s->p);
    enum gc_force_method method = GC_FORCE_ALLPAIRS;
    enum gc_status st = gc_force_method_choose(s->p.force, bodies->n, s->backend, &method);
    if (st == GC_OK)
        st = gc_backend_upload(s->backend, bodies);
    gc_integrator_destroy(s->integrator);
    s->integrator = NULL;
    gc_force_free(&s->force);
    if (st == GC_OK)
        st = gc_force_init(&s->force, s->backend, s->comm, bodies->n, method, s->p.theta);
    if (st == GC_OK)
        st = gc_integrator_create(s->p.integrator, &ip, &s->force, &s->integrator);
    if (st == GC_OK) {
        s->integrator->poll = between_steps;
        s->integrator->poll_ctx = s;
    }
    /* Up to here each rank worked alone: a rank that failed (no memory on its device, say)
     * stops every rank here, together, with one message from rank 0. */
    st = gc_comm_agree(s->comm, st);
    if (st == GC_OK && s->p.profile)
        gc_force_set_profile(&s->force, 1);
    if (st == GC_OK)
        st = settle(s, begin_at(s, bodies));
    s->n = bodies->n;
    return st;
}

static void to_wire(const struct gc_sim_params *p, struct wire_params *w)
{
    memset(w, 0, sizeof *w);
    w->profile = p->profile;
    w->dt = p->dt;
    w->eps = p->eps;
    w->eta = p->eta;
    w->dt_max = p->dt_max;
    w->fixed_dt = p->fixed_dt;
    w->theta = p->theta;
    w->ar_tol = p->ar_tol;
    w->ar_radius = p->ar_radius;
    snprintf(w->integrator, sizeof w->integrator, "%s", p->integrator);
    snprintf(w->force, sizeof w->force, "%s", p->force);
    snprintf(w->precision, sizeof w->precision, "%s", p->precision ? p->precision : "");
    snprintf(w->regularize, sizeof w->regularize, "%s", p->regularize ? p->regularize : "");
}

/* Points p's strings into w (which must outlive p). */
static void from_wire(struct wire_params *w, struct gc_sim_params *p)
{
    memset(p, 0, sizeof *p);
    w->integrator[sizeof w->integrator - 1] = w->force[sizeof w->force - 1] = '\0';
    w->precision[sizeof w->precision - 1] = w->regularize[sizeof w->regularize - 1] = '\0';
    p->integrator = w->integrator;
    p->force = w->force;
    p->precision = w->precision[0] ? w->precision : NULL;
    p->regularize = w->regularize[0] ? w->regularize : NULL;
    p->profile = w->profile;
    p->dt = (float)w->dt;
    p->eps = (float)w->eps;
    p->eta = w->eta;
    p->dt_max = w->dt_max;
    p->fixed_dt = w->fixed_dt;
    p->theta = (float)w->theta;
    p->ar_tol = w->ar_tol;
    p->ar_radius = w->ar_radius;
}

static void free_local(struct gc_sim *s)
{
    gc_integrator_destroy(s->integrator);
    gc_force_free(&s->force);
    gc_bodies_free(&s->view);
    free(s->membership);
    free(s);
}

enum gc_status gc_sim_create(struct gc_backend *backend, struct gc_comm *comm,
                             const struct gc_bodies *bodies, const struct gc_sim_params *p,
                             const struct gc_sim_restart *restart, struct gc_sim **out)
{
    struct gc_sim *s;
    enum gc_status st = gc_sim_params_check(p);
    *out = NULL;
    if (st != GC_OK)
        return st;
    s = calloc(1, sizeof *s);
    if (!s) {
        gc_log_error("out of memory for a simulation");
        return GC_ERR_NOMEM;
    }
    s->restart = restart;
    s->p = *p;
    if (!s->p.integrator)
        s->p.integrator = GC_DEFAULT_INTEGRATOR;
    if (s->p.theta == 0.0f)
        s->p.theta = GC_TREE_DEFAULT_THETA;
    s->backend = backend;
    s->comm = comm ? comm : gc_comm_single();
    st = choose_force(s, bodies->n);
    if (st == GC_OK && s->comm->size > 1 && s->comm->rank == 0) {
        struct call c = {.op = OP_CREATE, .restart = restart != NULL,
                         .restart_time = restart ? restart->time : 0.0};
        to_wire(&s->p, &c.params);
        st = announce(s->comm, &c, bodies);
    }
    if (st == GC_OK)
        st = start(s, bodies);
    if (st != GC_OK) {
        free_local(s);
        return st;
    }
    *out = s;
    return GC_OK;
}

void gc_sim_destroy(struct gc_sim *s)
{
    if (!s)
        return;
    if (s->comm->size > 1 && s->comm->rank == 0) {
        const struct call c = {.op = OP_DESTROY};
        announce(s->comm, &c, NULL);
    }
    free_local(s);
}

/* ---- the calls ---- */

static enum gc_status run_reset(struct gc_sim *s, const struct call *c, struct call_data *a)
{
    (void)c;
    return start(s, a->bodies);
}

enum gc_status gc_sim_reset(struct gc_sim *s, const struct gc_bodies *bodies)
{
    const struct call c = {.op = OP_RESET};
    struct call_data a = {.bodies = bodies};
    return collective(s, &c, &a);
}

static enum gc_status run_advance(struct gc_sim *s, const struct call *c, struct call_data *a)
{
    struct gc_integrator *in = s->integrator;
    const double t = c->arg;
    enum gc_status st;
    (void)a;
    /* Over ranks a stop any rank was told of ends the run here too: an advance of one step
     * has no step between for the poll. */
    if (s->comm->size > 1 && between_steps(s, 0)) {
        in->stopped = 1;
        return GC_ERR_INTERRUPTED;
    }
    st = in->iface->advance(in, t);
    /* The clock shows the time asked for where the scheme lands on it; leapfrog rounds to
     * whole steps, so its own clock is the truth, and so is any scheme's that stopped
     * early on request. */
    if (st == GC_OK)
        s->time = in->iface->predict && !in->stopped ? t : in->iface->time(in);
    if (st == GC_OK && in->stopped)
        st = GC_ERR_INTERRUPTED;
    return st;
}

enum gc_status gc_sim_advance(struct gc_sim *s, double t)
{
    const struct call c = {.op = OP_ADVANCE, .arg = t};
    struct call_data a = {0};
    if (!isfinite(t)) {
        gc_log_error("cannot advance to t = %g", t);
        return GC_ERR_INVALID;
    }
    /* A stop request (stop.h) ends the run here, before the next call: on rank 0 (the
     * other ranks follow its calls) or in one process. */
    if (s->comm->rank == 0 && s->nested == 0 && gc_stop_requested())
        return GC_ERR_INTERRUPTED;
    return collective(s, &c, &a);
}

double gc_sim_frame_dt(const struct gc_sim *s)
{
    /* Block steps draw 1/8 of a largest block step per frame: smooth motion, and frame
     * times stay on the block-step grid's finer levels. */
    return gc_integrator_has(s->integrator->iface, GC_INTEGRATOR_BLOCK_STEPS)
               ? s->integrator->p.dt_max / 8.0
               : fabs((double)s->p.dt);
}

/* Every rank checks the same values and fails or succeeds alike. */
static enum gc_status run_set_dt(struct gc_sim *s, const struct call *c, struct call_data *a)
{
    struct gc_sim_params p = s->p;
    enum gc_status st;
    (void)a;
    if (gc_integrator_has(s->integrator->iface, GC_INTEGRATOR_BLOCK_STEPS)) {
        gc_log_error("integrator %s has no single time step to change",
                     s->integrator->iface->name);
        return GC_ERR_UNSUPPORTED;
    }
    p.dt = (float)c->arg;
    st = gc_sim_params_check(&p);
    if (st == GC_OK)
        st = s->integrator->iface->set_dt(s->integrator, p.dt);
    if (st == GC_OK)
        s->p = p;
    return st;
}

enum gc_status gc_sim_set_dt(struct gc_sim *s, float dt)
{
    const struct call c = {.op = OP_SET_DT, .arg = dt};
    struct call_data a = {0};
    return collective(s, &c, &a);
}

/* Schemes with individual times first predict every body to the simulation's time. */
static enum gc_status synchronise_view(struct gc_sim *s)
{
    struct gc_integrator *in = s->integrator;
    return in->iface->predict ? in->iface->predict(in, s->time) : GC_OK;
}

/* Rank 0 collects the parts of the other ranks: theirs are current only on them. */
static enum gc_status gather(struct gc_sim *s, struct gc_bodies *dst)
{
    struct gc_force *f = &s->force;
    enum gc_status st;
    if (s->comm->size == 1)
        return GC_OK;
    st = gc_comm_gatherv(s->comm, dst->pos, f->counts, f->displs, 4 * sizeof(float), 0);
    if (st == GC_OK)
        st = gc_comm_gatherv(s->comm, dst->vel, f->counts, f->displs, 4 * sizeof(float), 0);
    if (st == GC_OK && dst->pos64)
        st = gc_comm_gatherv(s->comm, dst->pos64, f->counts, f->displs, 3 * sizeof(double), 0);
    if (st == GC_OK && dst->vel64)
        st = gc_comm_gatherv(s->comm, dst->vel64, f->counts, f->displs, 3 * sizeof(double), 0);
    return st;
}

static enum gc_status run_download(struct gc_sim *s, const struct call *c, struct call_data *a)
{
    struct gc_bodies *dst = a->dst;
    enum gc_status st = synchronise_view(s);
    (void)c;
    /* A double-precision state comes back in double (dst owns the arrays it gains). */
    if (st == GC_OK && gc_integrator_has(s->integrator->iface, GC_INTEGRATOR_DOUBLE_STATE) &&
        !dst->pos64)
        st = gc_bodies_alloc_f64(dst);
    if (st == GC_OK)
        st = gc_backend_download(s->backend, dst);
    if (st == GC_OK && s->integrator->iface->physical)
        st = s->integrator->iface->physical(s->integrator, s->time, dst);
    return st != GC_OK ? st : gather(s, dst);
}

enum gc_status gc_sim_download(struct gc_sim *s, struct gc_bodies *dst)
{
    const struct call c = {.op = OP_DOWNLOAD};
    struct call_data a = {.dst = dst};
    return collective(s, &c, &a);
}

/* Energies and momenta: each rank sums its own bodies (the only ones whose velocities it
 * advances) and every rank gets the totals. */
static enum gc_status run_measure(struct gc_sim *s, const struct call *c, struct call_data *a)
{
    const struct gc_force *f = &s->force;
    const float eps = s->p.eps;
    struct gc_bodies *scratch = a->dst;
    struct gc_diagnostics *d = a->d;
    double v[GC_DIAGNOSTICS_SUMS], w;
    enum gc_status st = gc_sim_download(s, scratch);
    (void)c;
    if (st != GC_OK)
        return st;
    gc_diagnostics_sums(scratch, f->i0, f->i1, v);
    st = gc_comm_allreduce_sum(s->comm, v, GC_DIAGNOSTICS_SUMS);
    if (st != GC_OK)
        return st;
    gc_diagnostics_from_sums(v, d);
    /* with close groups the backend's potential sees each group as one point, and members
     * at 1e-4 of each other need double */
    if (gc_sim_groups(s, NULL, NULL) > 0 && scratch->pos64 && scratch->mass64) {
        w = gc_diagnostics_potential64_range(scratch, f->i0, f->i1);
        st = gc_comm_allreduce_sum(s->comm, &w, 1);
    } else {
        st = gc_force_potential(&s->force, eps * eps, &w);
    }
    if (st == GC_ERR_UNSUPPORTED) {
        w = gc_diagnostics_potential_range(scratch, f->i0, f->i1, eps);
        st = gc_comm_allreduce_sum(s->comm, &w, 1);
    }
    if (st != GC_OK)
        return st;
    d->potential = w;
    d->energy = d->kinetic + w;
    return GC_OK;
}

enum gc_status gc_sim_measure(struct gc_sim *s, struct gc_bodies *scratch,
                              struct gc_diagnostics *d)
{
    const struct call c = {.op = OP_MEASURE};
    struct call_data a = {.dst = scratch, .d = d};
    return collective(s, &c, &a);
}

enum gc_status gc_sim_save(struct gc_sim *s, struct gc_state *st)
{
    struct gc_integrator *in = s->integrator;
    memset(st, 0, sizeof *st);
    if (!in->iface->save)
        return GC_ERR_UNSUPPORTED;
    st->memory = GC_STATE_HOST;
    return in->iface->save(in, st);
}

/* ---- kept states (one process: the followers would have to keep theirs too) ---- */

enum gc_status gc_sim_keep(struct gc_sim *s, struct gc_state *st)
{
    struct gc_integrator *in = s->integrator;
    enum gc_status e;
    if (!in->iface->save || s->comm->size > 1)
        return GC_ERR_UNSUPPORTED;
    /* a blob kept before is reused where it lives; else the backend's memory first */
    if (!st->blob) {
        memset(st, 0, sizeof *st);
        st->memory = GC_STATE_BACKEND;
        e = in->iface->save(in, st);
        if (e != GC_ERR_UNSUPPORTED)
            return e;
        memset(st, 0, sizeof *st);
        st->memory = GC_STATE_HOST;
    } else if (st->memory == GC_STATE_HOST) {
        /* a host state is made anew (its scheme allocates it) */
        gc_state_free_host(st);
        st->memory = GC_STATE_HOST;
    }
    e = in->iface->save(in, st);
    /* the time the simulation shows, which a scheme with its own steps may be ahead of */
    if (e == GC_OK)
        st->time = s->time;
    return e;
}

enum gc_status gc_sim_restore(struct gc_sim *s, const struct gc_state *st)
{
    struct gc_integrator *in = s->integrator;
    enum gc_status e;
    if (!in->iface->restore || s->comm->size > 1)
        return GC_ERR_UNSUPPORTED;
    /* the bodies' masses for a scheme that builds its state anew (Hermite) */
    if (!s->view.pos)
        e = gc_bodies_alloc(&s->view, s->n);
    else
        e = GC_OK;
    if (e == GC_OK && st->memory == GC_STATE_HOST)
        e = gc_sim_download(s, &s->view);
    if (e == GC_OK)
        e = in->iface->restore(in, &s->view, st);
    if (e == GC_OK)
        s->time = st->time;
    return e;
}

void gc_sim_release_state(struct gc_sim *s, struct gc_state *st)
{
    const struct gc_backend_state *table = gc_backend_state(s->backend);
    if (st->memory == GC_STATE_BACKEND && st->blob && table)
        table->release(s->backend, st->blob);
    else
        gc_state_free_host(st);
    memset(st, 0, sizeof *st);
}

/* Several ranks: a leapfrog rank holds every position but only its own velocities, so the
 * frame is gathered (a download: the followers take part) and handed over in host memory. */
static enum gc_status export_gathered(struct gc_sim *s, struct gc_render_buffer *dst)
{
    enum gc_status st = GC_OK;
    if (!dst->h_pos || dst->n < s->n) {
        gc_log_error("several ranks draw from host memory: the render buffer has no host "
                     "array for %zu bodies", s->n);
        return GC_ERR_INVALID;
    }
    if (!s->view.pos)
        st = gc_bodies_alloc(&s->view, s->n);
    if (st == GC_OK)
        st = gc_sim_download(s, &s->view);
    if (st != GC_OK)
        return st;
    memcpy(dst->h_pos, s->view.pos, 4 * s->n * sizeof *dst->h_pos);
    if (dst->h_vel)
        memcpy(dst->h_vel, s->view.vel, 4 * s->n * sizeof *dst->h_vel);
    dst->written_to_vbo = 0;
    return GC_OK;
}

enum gc_status gc_sim_export(struct gc_sim *s, struct gc_render_buffer *dst)
{
    enum gc_status st;
    if (s->comm->size > 1)
        return export_gathered(s, dst);
    st = synchronise_view(s);
    return st != GC_OK ? st : gc_backend_export_positions(s->backend, dst);
}

/* ---- the other ranks ---- */

enum gc_status gc_sim_release(struct gc_comm *comm)
{
    struct call c = {.op = OP_RELEASE};
    if (comm->size == 1 || comm->rank != 0 || comm->broken)
        return GC_OK;
    /* Why the run ends: 0, or the signal that stopped rank 0, which every rank then exits
     * with. */
    c.arg = (double)gc_stop_requested();
    return announce(comm, &c, NULL);
}

/* A follower's state between calls: its simulation and the host copy downloads fill. */
struct follower {
    struct gc_sim *sim;
    struct gc_bodies scratch;
    struct wire_params params;     /* what the simulation's parameters point into */
    struct gc_sim_restart restart; /* rank 0's restart time (no state), which sim points to */
};

static void follower_free(struct follower *fl)
{
    gc_sim_destroy(fl->sim);
    fl->sim = NULL;
    gc_bodies_free(&fl->scratch);
}

static enum gc_status follow_create(struct follower *fl, struct gc_backend *backend,
                                    struct gc_comm *comm, const struct call *c)
{
    struct gc_sim_params p;
    struct gc_bodies b;
    enum gc_status st;
    memset(&b, 0, sizeof b);
    st = broken(comm, gc_comm_bcast_bodies(comm, &b, 0));
    if (st != GC_OK)
        return st;
    follower_free(fl);
    fl->params = c->params;
    from_wire(&fl->params, &p);
    memset(&fl->restart, 0, sizeof fl->restart);
    fl->restart.time = c->restart_time;
    st = gc_sim_create(backend, comm, &b, &p, c->restart ? &fl->restart : NULL, &fl->sim);
    /* A follower that failed alone has marked the communicator broken; a failure all ranks
     * agreed on leaves it waiting for rank 0's next call. A local allocation failure below
     * is out of step: the next download would wait for it forever. */
    if (st == GC_OK)
        st = broken(comm, gc_bodies_alloc(&fl->scratch, b.n));
    gc_bodies_free(&b);
    return st;
}

/* One of rank 0's calls on the follower's simulation. */
static enum gc_status follow_call(struct follower *fl, struct gc_comm *comm,
                                  const struct call *c)
{
    const struct collective *k = &calls[c->op];
    struct gc_bodies b;
    struct gc_diagnostics d;
    struct call_data a = {.dst = &fl->scratch, .d = &d};
    enum gc_status st = GC_OK;
    memset(&b, 0, sizeof b);
    if (k->bodies) {
        st = broken(comm, gc_comm_bcast_bodies(comm, &b, 0));
        a.bodies = &b;
    }
    if (st == GC_OK)
        st = collective(fl->sim, c, &a);
    gc_bodies_free(&b);
    return st;
}

enum gc_status gc_sim_follow(struct gc_backend *backend, struct gc_comm *comm)
{
    struct follower fl;
    enum gc_status st = GC_OK;
    memset(&fl, 0, sizeof fl);
    for (;;) {
        struct call c;
        st = broken(comm, gc_comm_bcast(comm, &c, sizeof c, 0));
        if (st != GC_OK)
            break;
        if (c.op == OP_RELEASE) {
            if (c.arg > 0.0) {
                gc_stop_request((int)c.arg);
                st = GC_ERR_INTERRUPTED;
            }
            break;
        }
        if (c.op == OP_CREATE) {
            st = follow_create(&fl, backend, comm, &c);
        } else if (c.op == OP_DESTROY) {
            follower_free(&fl);
        } else if (c.op > OP_RELEASE && c.op < OP_END && fl.sim) {
            st = follow_call(&fl, comm, &c);
        } else {
            /* Rank 0 only makes these calls on a simulation it has: a follower without one
             * lost step earlier. */
            gc_log_error("rank %d: call %d from rank 0 %s", comm->rank, (int)c.op,
                         fl.sim ? "is unknown" : "without a simulation");
            st = broken(comm, GC_ERR_INVALID);
        }
        if (comm->broken)
            break;
        /* A failure every rank shared: rank 0 reports it; wait for its next call. */
        if (st != GC_OK) {
            char dropped[8];
            gc_log_take_held(dropped, sizeof dropped);
            st = GC_OK;
        }
    }
    follower_free(&fl);
    return st;
}

/* ---- accessors ---- */

double gc_sim_time(const struct gc_sim *s)
{
    return s->time;
}

double gc_sim_time_myr(const struct gc_sim *s)
{
    return s->time * GC_MYR_PER_TIME_UNIT;
}

void gc_sim_stats(const struct gc_sim *s, struct gc_integrator_stats *out)
{
    memset(out, 0, sizeof *out);
    s->integrator->iface->stats(s->integrator, out);
}

void gc_sim_profile(const struct gc_sim *s, struct gc_force_times *out)
{
    *out = s->force.times;
}

const struct gc_sim_params *gc_sim_params(const struct gc_sim *s)
{
    return &s->p;
}

size_t gc_sim_groups(const struct gc_sim *s, struct gc_groups_report *out,
                     int32_t *membership)
{
    const struct gc_integrator *in = s->integrator;
    if (!in || !in->iface->groups) {
        if (out)
            memset(out, 0, sizeof *out);
        for (size_t i = 0; membership && i < s->force.n; i++)
            membership[i] = -1;
        return 0;
    }
    return in->iface->groups(in, out, membership);
}

const int32_t *gc_sim_membership(struct gc_sim *s)
{
    struct gc_groups_report r;
    gc_sim_groups(s, &r, NULL);
    if (!(r.radius > 0.0))
        return NULL;
    if (!s->membership && !(s->membership = malloc(s->n * sizeof *s->membership)))
        return NULL;
    gc_sim_groups(s, NULL, s->membership);
    return s->membership;
}

const struct gc_integrator_iface *gc_sim_scheme(const struct gc_sim *s)
{
    return s->integrator->iface;
}

const struct gc_integrator_params *gc_sim_scheme_params(const struct gc_sim *s)
{
    return &s->integrator->p;
}

enum gc_force_method gc_sim_force_method(const struct gc_sim *s)
{
    return s->force.method;
}

int gc_sim_potential_exact(const struct gc_sim *s)
{
    return gc_force_potential_exact(&s->force);
}

enum gc_status gc_sim_tree_stats(struct gc_sim *s, struct gc_tree_stats *out)
{
    return gc_force_tree_stats(&s->force, out);
}

struct gc_backend *gc_sim_backend(const struct gc_sim *s)
{
    return s->backend;
}

int gc_sim_ranks(const struct gc_sim *s)
{
    return s->comm->size;
}

size_t gc_sim_bodies(const struct gc_sim *s)
{
    return s->n;
}
