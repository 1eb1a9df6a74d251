/* Simulation parameters, clock and step bookkeeping around the integrator. */
/* SPDX-License-Identifier: MIT */
#include "sim.h"

#include <math.h>
#include <string.h>

#include "integrator_leapfrog.h"
#include "log.h"

void gc_sim_params_default(struct gc_sim_params *p)
{
    p->dt = GC_DEFAULT_DT;
    p->eps = GC_DEFAULT_EPS;
}

enum gc_status gc_sim_params_check(const struct gc_sim_params *p)
{
    if (!isfinite(p->dt) || p->dt == 0.0f || fabsf(p->dt) > GC_DT_MAX) {
        gc_log_error("time step dt = %g is out of range (non-zero, |dt| <= %g)", p->dt,
                     GC_DT_MAX);
        return GC_ERR_INVALID;
    }
    /* eps > 0 is required, not just advisable: a body's pull on itself is 0 * (1/0). */
    if (!isfinite(p->eps) || p->eps < GC_EPS_MIN || p->eps > GC_EPS_MAX) {
        gc_log_error("softening eps = %g is out of range (%g to %g)", p->eps, GC_EPS_MIN,
                     GC_EPS_MAX);
        return GC_ERR_INVALID;
    }
    return GC_OK;
}

enum gc_status gc_sim_init(struct gc_sim *s, struct gc_backend *backend,
                           const struct gc_bodies *bodies, const struct gc_sim_params *p)
{
    enum gc_status st = gc_sim_params_check(p);
    memset(s, 0, sizeof *s);
    if (st != GC_OK)
        return st;
    s->p = *p;
    s->backend = backend;
    return gc_sim_reset(s, bodies);
}

enum gc_status gc_sim_reset(struct gc_sim *s, const struct gc_bodies *bodies)
{
    enum gc_status st = gc_backend_upload(s->backend, bodies);
    if (st != GC_OK)
        return st;
    s->time = 0.0;
    s->steps = 0;
    return gc_backend_accel(s->backend, s->p.eps * s->p.eps);
}

enum gc_status gc_sim_step(struct gc_sim *s, unsigned k)
{
    enum gc_status st;
    if (k == 0)
        return GC_OK;
    st = gc_integrator_leapfrog_step(s->backend, s->p.dt, s->p.eps * s->p.eps, k);
    if (st != GC_OK)
        return st;
    s->steps += k;
    s->time += (double)s->p.dt * k;
    return GC_OK;
}

enum gc_status gc_sim_set_dt(struct gc_sim *s, float dt)
{
    struct gc_sim_params p = s->p;
    enum gc_status st;
    p.dt = dt;
    st = gc_sim_params_check(&p);
    if (st == GC_OK)
        s->p = p;
    return st;
}

double gc_sim_time_myr(const struct gc_sim *s)
{
    return s->time * GC_MYR_PER_TIME_UNIT;
}
