/* The simulation: parameters, the integrator over the force layer, and "advance to time t". */
/* SPDX-License-Identifier: MIT */
#include "sim.h"

#include <math.h>
#include <string.h>

#include "log.h"

void gc_sim_params_default(struct gc_sim_params *p)
{
    memset(p, 0, sizeof *p);
    p->integrator = GC_DEFAULT_INTEGRATOR;
    p->dt = GC_DEFAULT_DT;
    p->eps = GC_DEFAULT_EPS;
}

static int is_leapfrog(const struct gc_sim_params *p)
{
    return !p->integrator || strcmp(p->integrator, "leapfrog") == 0;
}

enum gc_status gc_sim_params_check(const struct gc_sim_params *p)
{
    if (!isfinite(p->dt) || p->dt == 0.0f || fabsf(p->dt) > GC_DT_MAX) {
        gc_log_error("time step dt = %g is out of range (non-zero, |dt| <= %g)", p->dt,
                     GC_DT_MAX);
        return GC_ERR_INVALID;
    }
    /* Leapfrog needs eps > 0: a body's pull on itself is 0 * (1/0). The Hermite schemes
     * skip the self-pair and accept eps = 0 (a collisional run). */
    if (!isfinite(p->eps) || p->eps > GC_EPS_MAX ||
        (is_leapfrog(p) ? p->eps < GC_EPS_MIN : p->eps < 0.0f)) {
        gc_log_error("softening eps = %g is out of range (%g to %g%s)", p->eps,
                     is_leapfrog(p) ? GC_EPS_MIN : 0.0, GC_EPS_MAX,
                     is_leapfrog(p) ? "; 0 only with --integrator hermite4|hermite6" : "");
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
    return ip;
}

/* Upload, split over ranks, start the scheme: the part shared by init and reset. */
static enum gc_status start(struct gc_sim *s, const struct gc_bodies *bodies)
{
    struct gc_integrator_params ip = integrator_params(&s->p);
    enum gc_status st = gc_backend_upload(s->backend, bodies);
    gc_integrator_destroy(s->integrator);
    s->integrator = NULL;
    gc_force_free(&s->force);
    if (st == GC_OK)
        st = gc_force_init(&s->force, s->backend, s->comm, bodies->n);
    if (st == GC_OK)
        st = gc_integrator_create(s->p.integrator, &ip, &s->force, &s->integrator);
    if (st == GC_OK)
        st = s->integrator->iface->start(s->integrator, bodies);
    s->time = 0.0;
    s->n = bodies->n;
    return st;
}

enum gc_status gc_sim_init(struct gc_sim *s, struct gc_backend *backend, struct gc_comm *comm,
                           const struct gc_bodies *bodies, const struct gc_sim_params *p)
{
    enum gc_status st = gc_sim_params_check(p);
    memset(s, 0, sizeof *s);
    if (st != GC_OK)
        return st;
    s->p = *p;
    if (!s->p.integrator)
        s->p.integrator = GC_DEFAULT_INTEGRATOR;
    s->backend = backend;
    s->comm = comm ? comm : gc_comm_single();
    st = start(s, bodies);
    if (st != GC_OK)
        gc_sim_free(s);
    return st;
}

void gc_sim_free(struct gc_sim *s)
{
    gc_integrator_destroy(s->integrator);
    s->integrator = NULL;
    gc_force_free(&s->force);
}

enum gc_status gc_sim_reset(struct gc_sim *s, const struct gc_bodies *bodies)
{
    return start(s, bodies);
}

enum gc_status gc_sim_advance(struct gc_sim *s, double t)
{
    enum gc_status st;
    if (!isfinite(t)) {
        gc_log_error("cannot advance to t = %g", t);
        return GC_ERR_INVALID;
    }
    st = s->integrator->iface->advance(s->integrator, t);
    /* The clock shows the time asked for where the scheme lands on it; leapfrog rounds to
     * whole steps, so its own clock is the truth. */
    if (st == GC_OK)
        s->time = s->integrator->iface->predict ? t : s->integrator->iface->time(s->integrator);
    return st;
}

double gc_sim_frame_dt(const struct gc_sim *s)
{
    /* Hermite draws 1/8 of a largest block step per frame: smooth motion, and frame times
     * stay on the block-step grid's finer levels. */
    return s->integrator->iface->set_dt ? fabs((double)s->p.dt) : s->integrator->p.dt_max / 8.0;
}

enum gc_status gc_sim_set_dt(struct gc_sim *s, float dt)
{
    struct gc_sim_params p = s->p;
    enum gc_status st;
    if (!s->integrator->iface->set_dt) {
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
    return in->iface->predict ? in->iface->predict(in, s->time) : GC_OK;
}

enum gc_status gc_sim_export(struct gc_sim *s, struct gc_render_buffer *dst)
{
    enum gc_status st = synchronise_view(s);
    return st != GC_OK ? st : gc_backend_export_positions(s->backend, dst);
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

enum gc_status gc_sim_download(struct gc_sim *s, struct gc_bodies *dst)
{
    enum gc_status st = synchronise_view(s);
    /* A double-precision state comes back in double (dst owns the arrays it gains). */
    if (st == GC_OK && s->integrator->iface->double_state && !dst->pos64)
        st = gc_bodies_alloc_f64(dst);
    if (st == GC_OK)
        st = gc_backend_download(s->backend, dst);
    return st != GC_OK ? st : gather(s, dst);
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

double gc_sim_anchor_dt_max(double dt_max, double interval)
{
    double d = interval;
    if (!(interval > 0.0) || !isfinite(interval))
        return dt_max;
    while (d > dt_max)
        d *= 0.5;
    return d;
}

const char *gc_sim_integrator(const struct gc_sim *s)
{
    return s->integrator->iface->name;
}
