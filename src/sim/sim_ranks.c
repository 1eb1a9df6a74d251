/* Several ranks, one simulation: rank 0 announces each collective call, the other ranks follow it. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "diagnostics.h"
#include "log.h"
#include "sim_ranks.h"
#include "stop.h"

/* One announced call, broadcast whole (small, fixed size: one collective per call). */
struct command {
    int32_t op;         /* enum gc_sim_op */
    int32_t profile;    /* INIT: params.profile */
    double arg;         /* ADVANCE: time; SET_DT: dt */
    double dt, eps, eta, dt_max, fixed_dt, theta; /* INIT: the parameters (dt, eps and theta
                                                   * are floats, exact in double) */
    double restart_time; /* INIT: a restart's time (its recorded state stays on rank 0, which
                          * then rebuilds it like every rank: gc_sim_init_at) */
    int32_t restart;     /* INIT: 1 when the run continues from a snapshot */
    char precision[8];   /* INIT: params.precision ("" = default) */
    char regularize[8];  /* INIT: params.regularize ("" = default) */
    double ar_tol, ar_radius; /* INIT: the regularisation's settings */
    char integrator[24]; /* INIT: scheme name */
    char force[24];      /* INIT: the force method rank 0 chose (never "auto": every rank
                          * uses the same one, whatever its own backend would pick) */
};

int gc_sim_leads(const struct gc_sim *s)
{
    return s->comm && s->comm->size > 1 && s->comm->rank == 0 && s->nested == 0;
}

static enum gc_status broken(struct gc_comm *comm, enum gc_status st)
{
    if (st != GC_OK && comm->size > 1)
        comm->broken = 1;
    return st;
}

enum gc_status gc_sim_announce(struct gc_sim *s, enum gc_sim_op op, double arg,
                               const struct gc_bodies *bodies)
{
    struct command cmd;
    enum gc_status st;
    memset(&cmd, 0, sizeof cmd);
    cmd.op = (int32_t)op;
    cmd.arg = arg;
    if (op == GC_SIM_OP_INIT) {
        cmd.profile = s->p.profile;
        cmd.dt = s->p.dt;
        cmd.eps = s->p.eps;
        cmd.eta = s->p.eta;
        cmd.dt_max = s->p.dt_max;
        cmd.fixed_dt = s->p.fixed_dt;
        cmd.theta = s->p.theta;
        cmd.restart = s->restart != NULL;
        cmd.restart_time = s->restart ? s->restart->time : 0.0;
        snprintf(cmd.integrator, sizeof cmd.integrator, "%s", s->p.integrator);
        snprintf(cmd.force, sizeof cmd.force, "%s", s->p.force);
        snprintf(cmd.precision, sizeof cmd.precision, "%s",
                 s->p.precision ? s->p.precision : "");
        snprintf(cmd.regularize, sizeof cmd.regularize, "%s",
                 s->p.regularize ? s->p.regularize : "");
        cmd.ar_tol = s->p.ar_tol;
        cmd.ar_radius = s->p.ar_radius;
    }
    st = gc_comm_bcast(s->comm, &cmd, sizeof cmd, 0);
    if (st == GC_OK && (op == GC_SIM_OP_INIT || op == GC_SIM_OP_RESET)) {
        /* Read-only on the root: only the receivers allocate. */
        struct gc_bodies b = *bodies;
        st = gc_comm_bcast_bodies(s->comm, &b, 0);
    }
    return broken(s->comm, st);
}

enum gc_status gc_sim_settle(struct gc_sim *s, enum gc_status st)
{
    /* An error the scheme's ranks shared stopped every rank at the same step. */
    if (st == GC_OK || s->comm->size == 1 || (s->integrator && s->integrator->failed_together))
        return st;
    return broken(s->comm, st);
}

enum gc_status gc_sim_release(struct gc_comm *comm)
{
    struct command cmd;
    if (comm->size == 1 || comm->rank != 0 || comm->broken)
        return GC_OK;
    memset(&cmd, 0, sizeof cmd);
    cmd.op = GC_SIM_OP_STOP;
    /* Why the run ends: 0, or the signal that stopped rank 0, which every rank then exits
     * with. */
    cmd.arg = (double)gc_stop_requested();
    return broken(comm, gc_comm_bcast(comm, &cmd, sizeof cmd, 0));
}

/* The parameters and bodies of an INIT or RESET, as rank 0 sent them. */
static enum gc_status receive_bodies(struct gc_comm *comm, struct gc_bodies *b)
{
    memset(b, 0, sizeof *b);
    return broken(comm, gc_comm_bcast_bodies(comm, b, 0));
}

/* A follower's state between calls: its simulation and the host copy downloads fill. */
struct follower {
    struct gc_sim sim;
    struct gc_bodies scratch;
    char integrator[24];  /* the scheme's name, which sim.p.integrator points to */
    char force[24];       /* the force method's name, which sim.p.force points to */
    char precision[8];    /* the Hermite force arithmetic's name ("" = default) */
    char regularize[8];   /* the close groups' setting ("" = default) */
    struct gc_sim_restart restart; /* rank 0's restart time (no records), which sim points to */
};

static void follower_free(struct follower *fl)
{
    gc_sim_free(&fl->sim);
    gc_bodies_free(&fl->scratch);
}

static enum gc_status follow_init(struct follower *fl, struct gc_backend *backend,
                                  struct gc_comm *comm, const struct command *cmd)
{
    struct gc_sim_params p;
    struct gc_bodies b;
    enum gc_status st = receive_bodies(comm, &b);
    if (st != GC_OK)
        return st;
    follower_free(fl);
    memcpy(fl->integrator, cmd->integrator, sizeof fl->integrator);
    fl->integrator[sizeof fl->integrator - 1] = '\0';
    memcpy(fl->force, cmd->force, sizeof fl->force);
    fl->force[sizeof fl->force - 1] = '\0';
    memset(&p, 0, sizeof p);
    p.integrator = fl->integrator;
    p.force = fl->force;
    p.dt = (float)cmd->dt;
    p.eps = (float)cmd->eps;
    p.eta = cmd->eta;
    p.dt_max = cmd->dt_max;
    p.fixed_dt = cmd->fixed_dt;
    memcpy(fl->precision, cmd->precision, sizeof fl->precision);
    fl->precision[sizeof fl->precision - 1] = '\0';
    p.precision = fl->precision[0] ? fl->precision : NULL;
    memcpy(fl->regularize, cmd->regularize, sizeof fl->regularize);
    fl->regularize[sizeof fl->regularize - 1] = '\0';
    p.regularize = fl->regularize[0] ? fl->regularize : NULL;
    p.ar_tol = cmd->ar_tol;
    p.ar_radius = cmd->ar_radius;
    p.theta = (float)cmd->theta;
    p.profile = cmd->profile;
    memset(&fl->restart, 0, sizeof fl->restart);
    fl->restart.time = cmd->restart_time;
    st = gc_sim_init_at(&fl->sim, backend, comm, &b, &p, cmd->restart ? &fl->restart : NULL);
    /* A follower that failed alone has marked the communicator broken; a failure all ranks
     * agreed on leaves it waiting for rank 0's next call. A local allocation failure below
     * is out of step: the next download would wait for it forever. */
    if (st == GC_OK)
        st = broken(comm, gc_bodies_alloc(&fl->scratch, b.n));
    gc_bodies_free(&b);
    return st;
}

enum gc_status gc_sim_follow(struct gc_backend *backend, struct gc_comm *comm)
{
    struct follower fl;
    enum gc_status st = GC_OK;
    memset(&fl, 0, sizeof fl);
    for (;;) {
        struct command cmd;
        struct gc_bodies b;
        struct gc_diagnostics d;
        st = broken(comm, gc_comm_bcast(comm, &cmd, sizeof cmd, 0));
        if (st != GC_OK)
            break;
        if (cmd.op == GC_SIM_OP_STOP) {
            if (cmd.arg > 0.0) {
                gc_stop_request((int)cmd.arg);
                st = GC_ERR_INTERRUPTED;
            }
            break;
        }
        if (cmd.op != GC_SIM_OP_INIT && !fl.sim.live) {
            /* Rank 0 only calls these on a simulation it has: a follower without one lost
             * step earlier. */
            gc_log_error("rank %d: call %d from rank 0 without a simulation", comm->rank,
                         cmd.op);
            st = broken(comm, GC_ERR_INVALID);
            break;
        }
        switch ((enum gc_sim_op)cmd.op) {
        case GC_SIM_OP_INIT: st = follow_init(&fl, backend, comm, &cmd); break;
        case GC_SIM_OP_RESET:
            st = receive_bodies(comm, &b);
            if (st == GC_OK)
                st = gc_sim_reset(&fl.sim, &b);
            gc_bodies_free(&b);
            break;
        case GC_SIM_OP_ADVANCE: st = gc_sim_advance(&fl.sim, cmd.arg); break;
        case GC_SIM_OP_SET_DT: st = gc_sim_set_dt(&fl.sim, (float)cmd.arg); break;
        case GC_SIM_OP_DOWNLOAD: st = gc_sim_download(&fl.sim, &fl.scratch); break;
        case GC_SIM_OP_MEASURE: st = gc_diagnostics_measure(&fl.sim, &fl.scratch, &d); break;
        case GC_SIM_OP_FREE: follower_free(&fl); break;
        default:
            gc_log_error("rank %d: unknown call %d from rank 0", comm->rank, cmd.op);
            st = broken(comm, GC_ERR_INVALID);
            break;
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
