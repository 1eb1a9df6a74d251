/* The simulation: parameters, the integrator over the force layer, and "advance to time t". */
/* SPDX-License-Identifier: MIT */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "stop.h"
#include "render_buffer.h"
#include "tree_formulas.h"
#include "sim_ranks.h"

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

/* The integrator's poll between steps (one process): progress, then a stop request. */
static int between_steps(void *ctx, unsigned long done)
{
    struct gc_sim *s = ctx;
    if (s->on_step)
        s->on_step(s->on_step_ctx, s, done);
    return gc_stop_requested() != 0;
}

void gc_sim_on_step(struct gc_sim *s, void (*fn)(void *ctx, const struct gc_sim *s,
                                                 unsigned long done), void *ctx)
{
    s->on_step = fn;
    s->on_step_ctx = ctx;
}

/* Why a recorded state cannot be taken as it is; NULL when it can. */
static const char *state_mismatch(const struct gc_sim *s, const struct gc_bodies *bodies)
{
    const struct gc_sim_restart *r = s->restart;
    const struct gc_integrator *in = s->integrator;
    if (r->nrecords != bodies->n)
        return "it holds another number of bodies (-n thinned them)";
    if (!r->integrator || strcmp(r->integrator, in->iface->name) != 0)
        return "it is another integrator's";
    if (r->eps != (double)s->p.eps || r->eta != in->p.eta || r->dt_max != in->p.dt_max)
        return "eps, eta or dt_max differ from the snapshot's";
    if (s->comm->size > 1)
        return "the run is over several ranks";
    if (!in->iface->resume || !gc_backend_hermite_has_state(s->backend))
        return "this backend cannot take it";
    return NULL;
}

/* The scheme's first state: fresh (start), or a snapshot's recorded one (resume). The
 * scheme's clock counts from s->t0: a restart's time, or for block steps the block time at
 * or before it that the recorded ticks are shifted by (a whole number of dt_max, so that
 * the commensurability of every step with its time is as it was). */
static enum gc_status begin_at(struct gc_sim *s, const struct gc_bodies *bodies)
{
    const struct gc_sim_restart *r = s->restart;
    struct gc_integrator *in = s->integrator;
    const int block = gc_integrator_has(in->iface, GC_INTEGRATOR_BLOCK_STEPS);
    const char *why = r && r->records ? state_mismatch(s, bodies) : NULL;
    struct gc_hermite_record *shifted;
    enum gc_status st;
    s->t0 = r ? r->time : 0.0;
    s->t0_ticks = 0;
    s->time = s->t0;
    if (!r || !r->records || why) {
        if (why && s->comm->rank == 0)
            gc_log_warn("the snapshot's %s state is not used (%s): rebuilt from its bodies, "
                        "so the run does not continue exactly", r->integrator ? r->integrator
                        : "integrator", why);
        return in->iface->start(in, bodies);
    }
    if (block) {
        const double q = floor(r->time / in->p.dt_max + 1e-9);
        s->t0 = q * in->p.dt_max;
        s->t0_ticks = (int64_t)q << GC_HERMITE_LEVELS;
    }
    shifted = malloc(bodies->n * sizeof *shifted);
    if (!shifted) {
        gc_log_error("out of memory for the integrator state of %zu bodies", bodies->n);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < bodies->n; i++) {
        shifted[i] = r->records[i];
        shifted[i].t -= s->t0_ticks;
    }
    st = in->iface->resume(in, bodies, shifted, r->time - s->t0);
    free(shifted);
    return st;
}

int gc_sim_has_state(const struct gc_sim *s)
{
    return s->live && s->integrator->iface->save && gc_backend_hermite_has_state(s->backend);
}

enum gc_status gc_sim_save_state(struct gc_sim *s, struct gc_hermite_record *all)
{
    enum gc_status st;
    if (!gc_sim_has_state(s))
        return GC_ERR_UNSUPPORTED;
    st = s->integrator->iface->save(s->integrator, all);
    for (size_t i = 0; st == GC_OK && i < s->n; i++)
        all[i].t += s->t0_ticks;
    return st;
}

/* Upload, split over ranks, start the scheme: the part shared by init and reset. */
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
    /* One process stops between steps when asked; over ranks, rank 0 decides at its next
     * call (gc_sim_advance), so that all ranks stop at the same step. */
    if (st == GC_OK && s->comm->size == 1) {
        s->integrator->poll = between_steps;
        s->integrator->poll_ctx = s;
    }
    /* Up to here each rank worked alone: a rank that failed (no memory on its device, say)
     * stops every rank here, together, with one message from rank 0. */
    st = gc_comm_agree(s->comm, st);
    if (st == GC_OK && s->p.profile)
        gc_force_set_profile(&s->force, 1);
    if (st == GC_OK)
        st = gc_sim_settle(s, begin_at(s, bodies));
    s->n = bodies->n;
    return st;
}

static void free_local(struct gc_sim *s)
{
    gc_integrator_destroy(s->integrator);
    s->integrator = NULL;
    gc_force_free(&s->force);
    gc_bodies_free(&s->view);
    free(s->membership);
    s->membership = NULL;
    s->live = 0;
}

enum gc_status gc_sim_init(struct gc_sim *s, struct gc_backend *backend, struct gc_comm *comm,
                           const struct gc_bodies *bodies, const struct gc_sim_params *p)
{
    return gc_sim_init_at(s, backend, comm, bodies, p, NULL);
}

enum gc_status gc_sim_init_at(struct gc_sim *s, struct gc_backend *backend, struct gc_comm *comm,
                              const struct gc_bodies *bodies, const struct gc_sim_params *p,
                              const struct gc_sim_restart *restart)
{
    enum gc_status st = gc_sim_params_check(p);
    memset(s, 0, sizeof *s);
    if (st != GC_OK)
        return st;
    s->restart = restart;
    s->p = *p;
    if (!s->p.integrator)
        s->p.integrator = GC_DEFAULT_INTEGRATOR;
    if (s->p.theta == 0.0f)
        s->p.theta = GC_TREE_DEFAULT_THETA;
    s->backend = backend;
    s->comm = comm ? comm : gc_comm_single();
    st = choose_force(s, bodies->n);
    if (st == GC_OK && gc_sim_leads(s))
        st = gc_sim_announce(s, GC_SIM_OP_INIT, 0.0, bodies);
    if (st == GC_OK)
        st = start(s, bodies);
    if (st != GC_OK)
        free_local(s);
    s->live = st == GC_OK;
    return st;
}

void gc_sim_free(struct gc_sim *s)
{
    if (s->live && gc_sim_leads(s))
        gc_sim_announce(s, GC_SIM_OP_FREE, 0.0, NULL);
    free_local(s);
}

enum gc_status gc_sim_reset(struct gc_sim *s, const struct gc_bodies *bodies)
{
    enum gc_status st = GC_OK;
    if (gc_sim_leads(s))
        st = gc_sim_announce(s, GC_SIM_OP_RESET, 0.0, bodies);
    return st != GC_OK ? st : start(s, bodies);
}

enum gc_status gc_sim_advance(struct gc_sim *s, double t)
{
    enum gc_status st = GC_OK;
    if (!isfinite(t)) {
        gc_log_error("cannot advance to t = %g", t);
        return GC_ERR_INVALID;
    }
    /* A stop request (stop.h) ends the run here, before the next call: on rank 0 (the
     * other ranks follow its calls) or in one process. */
    if (s->comm->rank == 0 && s->nested == 0 && gc_stop_requested())
        return GC_ERR_INTERRUPTED;
    if (gc_sim_leads(s))
        st = gc_sim_announce(s, GC_SIM_OP_ADVANCE, t, NULL);
    if (st == GC_OK)
        st = gc_sim_settle(s, s->integrator->iface->advance(s->integrator, t - s->t0));
    /* The clock shows the time asked for where the scheme lands on it; leapfrog rounds to
     * whole steps, so its own clock is the truth, and so is any scheme's that stopped
     * early on request. */
    if (st == GC_OK)
        s->time = s->integrator->iface->predict && !s->integrator->stopped
                      ? t
                      : s->t0 + s->integrator->iface->time(s->integrator);
    if (st == GC_OK && s->integrator->stopped)
        st = GC_ERR_INTERRUPTED;
    return st;
}

double gc_sim_frame_dt(const struct gc_sim *s)
{
    /* Block steps draw 1/8 of a largest block step per frame: smooth motion, and frame
     * times stay on the block-step grid's finer levels. */
    return gc_integrator_has(s->integrator->iface, GC_INTEGRATOR_BLOCK_STEPS)
               ? s->integrator->p.dt_max / 8.0
               : fabs((double)s->p.dt);
}

enum gc_status gc_sim_set_dt(struct gc_sim *s, float dt)
{
    struct gc_sim_params p = s->p;
    enum gc_status st;
    /* Every rank then checks the same values and fails or succeeds alike. */
    if (gc_sim_leads(s) && gc_sim_announce(s, GC_SIM_OP_SET_DT, dt, NULL) != GC_OK)
        return GC_ERR_IO;
    if (gc_integrator_has(s->integrator->iface, GC_INTEGRATOR_BLOCK_STEPS)) {
        gc_log_error("integrator %s has no single time step to change",
                     s->integrator->iface->name);
        return GC_ERR_UNSUPPORTED;
    }
    p.dt = dt;
    st = gc_sim_params_check(&p);
    if (st == GC_OK)
        st = s->integrator->iface->set_dt(s->integrator, dt);
    if (st == GC_OK)
        s->p = p;
    return st;
}

/* Schemes with individual times first predict every body to the simulation's time. */
static enum gc_status synchronise_view(struct gc_sim *s)
{
    struct gc_integrator *in = s->integrator;
    return in->iface->predict ? in->iface->predict(in, s->time - s->t0) : GC_OK;
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

static enum gc_status download(struct gc_sim *s, struct gc_bodies *dst)
{
    enum gc_status st = synchronise_view(s);
    /* A double-precision state comes back in double (dst owns the arrays it gains). */
    if (st == GC_OK && gc_integrator_has(s->integrator->iface, GC_INTEGRATOR_DOUBLE_STATE) &&
        !dst->pos64)
        st = gc_bodies_alloc_f64(dst);
    if (st == GC_OK)
        st = gc_backend_download(s->backend, dst);
    if (st == GC_OK && s->integrator->iface->physical)
        st = s->integrator->iface->physical(s->integrator, s->time - s->t0, dst);
    return st != GC_OK ? st : gather(s, dst);
}

enum gc_status gc_sim_download(struct gc_sim *s, struct gc_bodies *dst)
{
    if (gc_sim_leads(s) && gc_sim_announce(s, GC_SIM_OP_DOWNLOAD, 0.0, NULL) != GC_OK)
        return GC_ERR_IO;
    return gc_sim_settle(s, download(s, dst));
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

size_t gc_sim_groups(const struct gc_sim *s, struct gc_hermite_groups_report *out,
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
    struct gc_hermite_groups_report r;
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
