/* --steps / --t-end mode: integrate without a window, a table of conserved quantities on stdout. */
/* SPDX-License-Identifier: MIT */
#include "steps.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "diagnostics.h"
#include "initial.h"
#include "log.h"
#include "progress.h"
#include "sim.h"
#include "snapshots.h"
#include "stop.h"

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/* Galaxies show time in Myr (the Dubinski table's scaling); star clusters in Henon units. */
static double shown_time(const struct gc_options *o, const struct gc_sim *s)
{
    return o->units == GC_UNITS_GALAXY ? gc_sim_time_myr(s) : gc_sim_time(s);
}

/* wall: seconds spent advancing so far (no diagnostics or snapshot I/O); interactions:
 * pairs evaluated so far (active x N per block step, self-pairs counted) -- so that the
 * cost of any interval is the difference of two rows. */
static void print_row(const struct gc_options *o, const struct gc_sim *s,
                      const struct gc_diagnostics *d, double e0, double wall)
{
    struct gc_integrator_stats st;
    gc_sim_stats(s, &st);
    printf("%10llu %11.*f %19.12e %11.3e %11.3e %11.3e %11.3e %10.3f %12.6e\n",
           (unsigned long long)st.steps, o->units == GC_UNITS_GALAXY ? 2 : 5, shown_time(o, s),
           d->energy, (d->energy - e0) / fabs(e0), norm3(d->momentum),
           norm3(d->angular_momentum), norm3(d->com_vel), wall, st.interactions);
}

/* Under a row, with regularisation on: the groups and the hardest binary. */
static void print_groups(const struct gc_sim *s)
{
    struct gc_groups_report r;
    const size_t n = gc_sim_groups(s, &r, NULL);
    if (!(r.radius > 0.0))
        return;
    printf("#   groups %zu (%zu bodies), formed %llu, dissolved %llu", n, r.members,
           (unsigned long long)r.formed, (unsigned long long)r.dissolved);
    if (r.have_binary)
        printf("; hardest binary a %.6e e %.8f", r.a, r.e);
    printf("\n#   host time of the groups: %.3f s beside the force pass, %.3f s waiting for "
           "the backend, %.3f s after the blocks\n", r.s_beside, r.s_wait, r.s_after);
}

/* A collisional run (block steps) whose energy has moved by more than this fraction of
 * |E0| no longer answers anything; the log says so once, with the likely cure. */
#define ENERGY_WARN 1e-3

static void warn_energy(const struct gc_sim *s, double de, int *warned)
{
    struct gc_groups_report r;
    if (*warned || !(fabs(de) > ENERGY_WARN) ||
        !gc_integrator_has(gc_sim_scheme(s), GC_INTEGRATOR_BLOCK_STEPS))
        return;
    *warned = 1;
    gc_sim_groups(s, &r, NULL);
    if (!(r.radius > 0.0) && gc_sim_params(s)->eps == 0.0)
        gc_log_warn("the energy has moved by %.2e of |E0| at t = %.9g: without regularisation "
                    "the block steps cannot follow this system's hard binaries and close "
                    "encounters (run with --regularize auto)", fabs(de), gc_sim_time(s));
    else
        gc_log_warn("the energy has moved by %.2e of |E0| at t = %.9g: the block steps do not "
                    "follow this system (a smaller --eta%s may)", fabs(de), gc_sim_time(s),
                    r.radius > 0.0 ? " or --ar-tol" : "");
}

static void print_header(const struct gc_options *o, const struct gc_sim *s,
                         const struct gc_bodies *initial, const struct gc_diagnostics *d,
                         double t_end)
{
    const struct gc_integrator_iface *scheme = gc_sim_scheme(s);
    const struct gc_sim_params *p = gc_sim_params(s);
    const struct gc_backend *b = gc_sim_backend(s);
    printf("# %zu bodies, backend %s (%s)", initial->n, gc_backend_name(b),
           gc_backend_device_name(b));
    if (gc_sim_ranks(s) > 1)
        printf(" on each of %d ranks", gc_sim_ranks(s));
    printf(", integrator %s, eps %g, ", scheme->name, p->eps);
    if (gc_sim_force_method(s) == GC_FORCE_TREE)
        printf("force tree (theta %g), ", p->theta);
    if (gc_integrator_has(scheme, GC_INTEGRATOR_BLOCK_STEPS))
        printf("eta %g, dt_max %g, to t = %g\n", gc_sim_scheme_params(s)->eta,
               gc_sim_scheme_params(s)->dt_max, t_end);
    else
        printf("dt %g (%.3g Myr), %u steps\n", p->dt, p->dt * GC_MYR_PER_TIME_UNIT,
               o->steps ? o->steps : (unsigned)llround((t_end - gc_sim_time(s)) / p->dt));
    printf("# total mass %.10g, kinetic %.8e, potential %.8e%s, virial ratio 2K/|W| %.4f\n",
           d->mass, d->kinetic, d->potential,
           gc_sim_potential_exact(s) ? "" : " (the tree's, ~1e-5)",
           2.0 * d->kinetic / fabs(d->potential));
    {
        struct gc_groups_report r;
        gc_sim_groups(s, &r, NULL);
        if (r.radius > 0.0)
            printf("# regularisation radius %.6g (closer bodies form a group; --ar-radius)\n",
                   r.radius);
    }
    printf("# %8s %11s %19s %11s %11s %11s %11s %10s %12s\n", "step",
           o->units == GC_UNITS_GALAXY ? "time[Myr]" : "time", "energy", "dE/|E0|", "|P|",
           "|L|", "|v_com|", "wall[s]", "interactions");
}

/* --profile: the force layer's phase times over the timed steps, per step, on rank 0 (its
 * exchange time includes waiting for the slowest rank). */
static void print_profile(const struct gc_sim *s, const struct gc_force_times *t0,
                          const struct gc_integrator_stats *s0, double elapsed)
{
    struct gc_force_times t1;
    struct gc_integrator_stats s1;
    double steps, force, exchange;
    gc_sim_profile(s, &t1);
    gc_sim_stats(s, &s1);
    steps = (double)(s1.steps - s0->steps);
    if (!(steps > 0.0))
        return;
    force = t1.force_s - t0->force_s;
    exchange = t1.exchange_s - t0->exchange_s;
    printf("# profile: ranks %d, steps %.0f, active %.6g, per step ms: force %.6g exchange %.6g "
           "rest %.6g total %.6g (rank 0; exchange through host memory, waiting for the slowest "
           "rank included)\n", gc_sim_ranks(s), steps,
           (double)(s1.body_steps - s0->body_steps) / steps, 1e3 * force / steps,
           1e3 * exchange / steps, 1e3 * (elapsed - force - exchange) / steps,
           1e3 * elapsed / steps);
}

/* Between table rows, on stderr (stdout keeps the table): on a terminal a line refreshed in
 * place; elsewhere, for rows far apart, a log line every PROGRESS_EVERY_S seconds. */
#define PROGRESS_EVERY_S 10.0

struct progress {
    struct gc_progress line;
    const struct gc_options *o;
    unsigned long long steps0; /* steps done before the run (a restart's) */
};

static void on_step(void *ctx, const struct gc_sim *s, unsigned long done)
{
    struct progress *p = ctx;
    struct gc_integrator_stats st;
    char when[64];
    double t = gc_sim_time(s);
    unsigned long long steps;
    if (!gc_progress_due(&p->line))
        return;
    gc_sim_stats(s, &st);
    /* The clock moves at the end of an advance: a shared step adds dt per step done (and
     * its count too); a block-step scheme counts its steps as it goes, and its time is
     * known at the last row only. */
    if (gc_integrator_has(gc_sim_scheme(s), GC_INTEGRATOR_BLOCK_STEPS)) {
        steps = st.steps - p->steps0;
        snprintf(when, sizeof when, "%.6g%s (at the last row)", shown_time(p->o, s),
                 p->o->units == GC_UNITS_GALAXY ? " Myr" : "");
    } else {
        steps = st.steps + done - p->steps0;
        t += (double)done * (double)gc_sim_params(s)->dt;
        snprintf(when, sizeof when, "%.6g%s",
                 p->o->units == GC_UNITS_GALAXY ? t * GC_MYR_PER_TIME_UNIT : t,
                 p->o->units == GC_UNITS_GALAXY ? " Myr" : "");
    }
    gc_progress_show(&p->line, steps, when);
}

/* st, or GC_ERR_INTERRUPTED when the run was stopped and the next call (next) succeeded:
 * after a stop request the state is still whole, so it is measured and reported. */
static enum gc_status stopped(enum gc_status st, enum gc_status next)
{
    return next != GC_OK ? next : st;
}

enum gc_status gc_steps_run(const struct gc_options *o, const struct gc_bodies *initial,
                            struct gc_backend *b, struct gc_comm *comm)
{
    struct gc_force_times prof0;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = o->params;
    struct gc_snapshots snaps = {0};
    struct gc_bodies scratch = {0};
    struct gc_diagnostics d;
    struct gc_integrator_stats s0, s1;
    /* A run that continues from a snapshot starts at its time: --t-end is on that clock,
     * --steps counts steps from there. */
    const struct gc_restart *restart = o->restart;
    const double t_start = restart ? restart->time : 0.0;
    const double t_end = o->t_end > 0.0 ? o->t_end : t_start + (double)o->steps * o->params.dt;
    const double span = t_end - t_start;
    /* Reports every X steps (--steps) or every X time units (--t-end); start and end only
     * without --report-every. */
    const double every = o->report_every > 0.0
                             ? (o->steps ? o->report_every * o->params.dt : o->report_every)
                             : span;
    const long nreports = (long)ceil(span / every - 1e-9);
    double e0, t0, elapsed = 0.0;
    int interrupted = 0, warned_energy = 0;
    struct progress prog;
    enum gc_status st;

    /* Hermite's dt_max is a physics setting, never fitted to the output times: a report or
     * snapshot between block times sees the bodies predicted to its time, so the trajectory
     * does not depend on how often it is looked at. */
    if (!(span > 0.0)) {
        gc_log_error("--t-end %g is not after the snapshot's time %.9g: the run would not move",
                     t_end, t_start);
        return GC_ERR_INVALID;
    }
    st = gc_sim_create(b, comm, initial, &p, restart ? &restart->sim : NULL, &sim);
    if (st != GC_OK)
        return st;
    st = gc_bodies_alloc(&scratch, initial->n);
    if (st == GC_OK)
        st = gc_snapshots_init(&snaps, o->snapshot_every, o->snapshot_dir, sim, initial, o);
    if (st != GC_OK)
        goto out;
    gc_snapshots_check_space(&snaps, t_end);
    st = gc_sim_measure(sim, &scratch, &d);
    if (st != GC_OK)
        goto out;
    e0 = d.energy;
    print_header(o, sim, initial, &d, t_end);
    print_row(o, sim, &d, e0, elapsed);
    fflush(stdout);
    gc_sim_stats(sim, &s0);
    prog.o = o;
    prog.steps0 = s0.steps;
    gc_progress_begin(&prog.line, gc_sim_scheme(sim)->step_noun,
                      gc_integrator_has(gc_sim_scheme(sim), GC_INTEGRATOR_BLOCK_STEPS)
                          ? 0
                          : (unsigned long long)llround(span / fabs((double)p.dt)),
                      PROGRESS_EVERY_S);
    gc_sim_on_step(sim, on_step, &prog);
    gc_sim_profile(sim, &prof0);
    /* The run begins: a step in progress is finished, not abandoned (its state is the
     * run's), and a stop is heard between steps. */
    gc_stop_startup(0);
    for (long k = 1; k <= nreports; k++) {
        const double t = k == nreports ? t_end : t_start + (double)k * every;
        double w0 = snaps.write_s;
        t0 = gc_clock_seconds();
        st = gc_snapshots_advance(&snaps, sim, t);
        if (st == GC_OK || st == GC_ERR_INTERRUPTED)
            st = stopped(st, gc_backend_sync(b));
        elapsed += gc_clock_seconds() - t0 - (snaps.write_s - w0); /* without snapshot I/O */
        if (st == GC_OK || st == GC_ERR_INTERRUPTED)
            st = stopped(st, gc_sim_measure(sim, &scratch, &d));
        gc_progress_pause(&prog.line);
        if (st == GC_ERR_INTERRUPTED) {
            /* The row of the state it stopped at, the summary, and where. */
            print_row(o, sim, &d, e0, elapsed);
            interrupted = 1;
            break;
        }
        if (st != GC_OK)
            goto out;
        if (!isfinite(d.energy)) {
            gc_log_error("energy became non-finite at t = %g: the run blew up (try a "
                         "smaller --dt or larger --eps)", gc_sim_time(sim));
            st = GC_ERR_INVALID;
            goto out;
        }
        print_row(o, sim, &d, e0, elapsed);
        print_groups(sim);
        fflush(stdout);
        warn_energy(sim, (d.energy - e0) / fabs(e0), &warned_energy);
    }
    gc_progress_end(&prog.line);
    gc_sim_stats(sim, &s1);
    {
        const struct gc_integrator_iface *scheme = gc_sim_scheme(sim);
        const int block = gc_integrator_has(scheme, GC_INTEGRATOR_BLOCK_STEPS);
        printf("# %llu %ss in %.3f s: %.2f %ss/s, %.3e interactions/s (%s)\n",
               (unsigned long long)(s1.steps - s0.steps), scheme->step_noun, elapsed,
               (double)(s1.steps - s0.steps) / elapsed, scheme->step_noun,
               (s1.interactions - s0.interactions) / elapsed,
               gc_sim_force_method(sim) == GC_FORCE_TREE
                   ? "tree: body-cell and body-body interactions counted in each pass"
               : block ? "active x N per block step, self-pairs counted"
                       : "N^2 per step, self-pairs counted");
    }
    if (p.profile)
        print_profile(sim, &prof0, &s0, elapsed);
    if (interrupted) {
        char last[4200];
        gc_snapshots_last(&snaps, last, sizeof last);
        printf("# stopped by %s at t = %.9g, before t = %g\n",
               gc_stop_name(gc_stop_requested()), gc_sim_time(sim), t_end);
        char myr[48] = "";
        if (o->units == GC_UNITS_GALAXY)
            snprintf(myr, sizeof myr, " (%.4g Myr)", gc_sim_time_myr(sim));
        gc_stop_told();
        gc_log_warn("stopped by %s at t = %.9g%s after %llu %ss, before t = %g; "
                    "last complete snapshot: %s", gc_stop_name(gc_stop_requested()),
                    gc_sim_time(sim), myr,
                    (unsigned long long)s1.steps, gc_sim_scheme(sim)->step_noun, t_end, last);
        st = GC_ERR_INTERRUPTED;
    }
out:
    gc_snapshots_free(&snaps);
    gc_bodies_free(&scratch);
    gc_sim_destroy(sim);
    return st;
}
