/* Stops a simulation at exact snapshot times and writes each snapshot through io/snapshot_hdf5. */
/* SPDX-License-Identifier: MIT */
#include "snapshots.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "clock.h"
#include "log.h"
#include "snapshot_hdf5.h"

/* Schemes with one shared step land only on multiples of it; the block-step schemes land on
 * any time, the bodies between their block times predicted to it (gc_sim_download). */
static int whole_steps(const struct gc_sim *sim)
{
    return !gc_integrator_has(gc_sim_scheme(sim), GC_INTEGRATOR_BLOCK_STEPS);
}

/* 1 when T is a whole number of steps dt. dt is a float (0.01 is 0.00999999977...), so T
 * matches when T / k rounds to that same float, or agrees with it to 1e-9. */
static int whole_multiple(double every, double dt)
{
    double k = floor(every / dt + 0.5);
    return k >= 1.0 && ((float)(every / k) == (float)dt || fabs(every / k - dt) <= 1e-9 * dt);
}

static enum gc_status check_dt(struct gc_snapshots *s, const struct gc_sim *sim)
{
    const double dt = fabs((double)gc_sim_params(sim)->dt);
    if (whole_multiple(s->every, dt))
        return GC_OK;
    gc_log_error("--snapshot-every %g is not a whole number of leapfrog steps of dt = %g "
                 "(%.6g steps): choose a multiple of dt", s->every, dt, s->every / dt);
    return GC_ERR_INVALID;
}

/* Writes snapshot s->next of the state the simulation is in, which should be time tk. */
static enum gc_status write_one(struct gc_snapshots *s, struct gc_sim *sim, double tk)
{
    char path[4096];
    const double t0 = gc_clock_seconds(), reached = gc_sim_time(sim);
    double when = tk;
    enum gc_status st;

    /* Leapfrog reaches k*T to within the rounding of dt to float (~1e-8 relative); a dt
     * changed in the viewer so that T is no longer whole steps lands up to dt/2 away. */
    if (fabs(reached - tk) > 1e-6 * fmax(fabs(tk), s->every)) {
        if (!s->warned)
            gc_log_warn("snapshot_%06lu: the simulation is at t = %.9g, not at the scheduled "
                        "t = %.9g (dt = %g no longer divides --snapshot-every %g): writing "
                        "the time reached", s->next, reached, tk,
                        fabs((double)gc_sim_params(sim)->dt), s->every);
        s->warned = 1;
        when = reached;
    }
    /* Fixed-width numbers sort by name in time order; one more digit would not. */
    if (s->next > GC_SNAPSHOT_LAST) {
        gc_log_error("snapshot_%06lu: a series holds at most %lu snapshots (their names sort "
                     "in time order): give a larger --snapshot-every", s->next,
                     (unsigned long)GC_SNAPSHOT_LAST + 1);
        return GC_ERR_INVALID;
    }
    if (snprintf(path, sizeof path, "%s/snapshot_%06lu.hdf5", s->dir, s->next) >=
        (int)sizeof path) {
        gc_log_error("--snapshot-dir %s: path too long", s->dir);
        return GC_ERR_INVALID;
    }
    st = gc_sim_download(sim, &s->scratch);
    s->run.index = (long long)s->next;
    {
        /* with the scheme's state where it keeps one beyond the bodies (none with
         * regularised groups: their internal motion is not in it), and their membership */
        struct gc_snapshot_run run = s->run;
        enum gc_status saved = st == GC_OK ? gc_sim_save(sim, &run.state) : GC_ERR_UNSUPPORTED;
        run.group_of = gc_sim_membership(sim);
        if (saved != GC_OK && saved != GC_ERR_UNSUPPORTED)
            st = saved;
        if (st == GC_OK)
            st = gc_snapshot_hdf5_write_run(path, &s->scratch, when, &run);
        if (saved == GC_OK)
            gc_state_free_host(&run.state);
    }
    s->write_s += gc_clock_seconds() - t0;
    if (st != GC_OK)
        return st;
    {
        struct stat sb;
        if (stat(path, &sb) == 0)
            s->bytes = (unsigned long long)sb.st_size;
    }
    if (strcmp(s->run.units, "galaxy") == 0)
        gc_log_info("wrote %s (t = %.9g, %.4g Myr)", path, when, when * GC_MYR_PER_TIME_UNIT);
    else
        gc_log_info("wrote %s (t = %.9g, Henon units)", path, when);
    s->next++;
    s->last_reached = reached;
    s->last_time = when;
    return GC_OK;
}

static enum gc_status make_dir(const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) == 0) {
        if (S_ISDIR(sb.st_mode))
            return GC_OK;
        gc_log_error("--snapshot-dir %s: exists and is not a folder", dir);
        return GC_ERR_IO;
    }
    if (mkdir(dir, 0777) != 0) {
        gc_log_error("--snapshot-dir %s: cannot create: %s", dir, strerror(errno));
        return GC_ERR_IO;
    }
    return GC_OK;
}

/* The settings each snapshot records: the ones the simulation runs with (defaults filled
 * in), and where its bodies came from. */
static enum gc_status describe_run(struct gc_snapshots *s, const struct gc_sim *sim,
                                   const struct gc_options *o)
{
    struct gc_snapshot_run *r = &s->run;
    const struct gc_integrator_iface *scheme = gc_sim_scheme(sim);
    const struct gc_integrator_params *ip = gc_sim_scheme_params(sim);
    const struct gc_sim_params *p = gc_sim_params(sim);
    const int block = gc_integrator_has(scheme, GC_INTEGRATOR_BLOCK_STEPS);
    snprintf(r->integrator, sizeof r->integrator, "%s", scheme->name);
    snprintf(r->force, sizeof r->force, "%s", gc_force_method_name(gc_sim_force_method(sim)));
    snprintf(r->model, sizeof r->model, "%s", o && o->data ? "data" : o ? o->model : "");
    snprintf(r->units, sizeof r->units, "%s",
             o && o->units == GC_UNITS_HENON ? "henon" : "galaxy");
    r->eps = p->eps;
    r->dt = p->dt;
    r->theta = p->theta;
    r->eta = block ? ip->eta : 0.0;
    r->dt_max = block ? ip->dt_max : 0.0;
    r->every = s->every;
    r->seed = o && !o->data ? o->seed : 0;
    return GC_OK;
}

enum gc_status gc_snapshots_init(struct gc_snapshots *s, double every, const char *dir,
                                 struct gc_sim *sim, const struct gc_bodies *initial,
                                 const struct gc_options *o)
{
    double k;
    enum gc_status st;
    memset(s, 0, sizeof *s);
    s->sign = 1.0;
    if (every == 0.0)
        return GC_OK;
    if (!isfinite(every) || every < 0.0) {
        gc_log_error("--snapshot-every %g must be a finite time > 0", every);
        return GC_ERR_INVALID;
    }
    s->every = every;
    s->dir = dir && *dir ? dir : ".";
    if (whole_steps(sim)) {
        st = check_dt(s, sim);
        if (st != GC_OK)
            return st;
        if (gc_sim_params(sim)->dt < 0.0f)
            s->sign = -1.0;
    }
    st = make_dir(s->dir);
    if (st == GC_OK)
        st = gc_bodies_alloc(&s->scratch, gc_sim_bodies(sim));
    if (st == GC_OK)
        st = describe_run(s, sim, o);
    /* A run that continues from t0 keeps its series' numbering: snapshot_k at k x T. */
    k = s->sign * gc_sim_time(sim) / every;
    s->next = k > 0.0 ? (unsigned long)ceil(k - 1e-9) : 0;
    s->first = s->next;
    s->last_reached = gc_sim_time(sim);
    if (st == GC_OK) {
        memcpy(s->scratch.tag, initial->tag, gc_sim_bodies(sim) * sizeof *initial->tag);
        if (fabs(k - (double)s->next) <= 1e-9 * fmax(1.0, k))
            st = write_one(s, sim, s->sign * (double)s->next * every);
    }
    if (st != GC_OK)
        gc_snapshots_free(s);
    return st;
}

enum gc_status gc_snapshots_advance(struct gc_snapshots *s, struct gc_sim *sim, double t)
{
    const double sg = s->sign;
    double slack, now;
    enum gc_status st;
    if (!(s->every > 0.0))
        return gc_sim_advance(sim, t);
    /* A leapfrog advance to t takes the whole steps nearest t: it reaches k*T when
     * k*T <= t + dt/2. Other schemes land on t itself. */
    slack = whole_steps(sim) ? 0.5 * fabs((double)gc_sim_params(sim)->dt) : 1e-12 * s->every;
    /* A run that went back and came again to where it was (the viewer's time line) lands
     * within rounding of it: that is not starting over. */
    if (sg * gc_sim_time(sim) < sg * s->last_reached - slack) {
        gc_log_info("the simulation started over: snapshots start again at snapshot_%06lu",
                    s->first);
        s->next = s->first;
        s->last_reached = gc_sim_time(sim);
    }
    for (;;) {
        const double tk = sg * (double)s->next * s->every;
        if (!(sg * tk <= sg * t + slack))
            break;
        st = gc_sim_advance(sim, tk);
        if (st == GC_OK)
            st = write_one(s, sim, tk);
        if (st != GC_OK)
            return st;
    }
    /* Never ask a scheme to go back: a snapshot at k*T may lie a hair past t. */
    now = gc_sim_time(sim);
    return gc_sim_advance(sim, sg * t < sg * now ? now : t);
}

void gc_snapshots_check_space(const struct gc_snapshots *s, double t_end)
{
    struct statvfs fs;
    double left, need, avail;
    if (!(s->every > 0.0) || !(t_end > 0.0) || s->bytes == 0 || statvfs(s->dir, &fs) != 0)
        return;
    left = floor(t_end / s->every + 1e-6) + 1.0 - (double)s->next;
    need = left * (double)s->bytes;
    avail = (double)fs.f_bavail * (double)fs.f_frsize;
    if (left > 0.0 && need > avail)
        gc_log_warn("--snapshot-dir %s: the run writes %.0f more snapshots of %.3g MB (%.3g MB "
                    "in all), but its disk has %.3g MB free: the run will stop with an error "
                    "when the disk is full", s->dir, left, 1e-6 * (double)s->bytes, 1e-6 * need,
                    1e-6 * avail);
}

int gc_snapshots_last(const struct gc_snapshots *s, char *buf, size_t cap)
{
    if (!(s->every > 0.0) || s->next == 0) {
        snprintf(buf, cap, "none");
        return 0;
    }
    snprintf(buf, cap, "%s/snapshot_%06lu.hdf5 (t = %.9g)", s->dir, s->next - 1, s->last_time);
    return 1;
}

void gc_snapshots_free(struct gc_snapshots *s)
{
    gc_bodies_free(&s->scratch);
    gc_snapshot_run_free(&s->run);
}
