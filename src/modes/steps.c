/* --steps mode: K leapfrog steps without a window, a table of conserved quantities on stdout. */
/* SPDX-License-Identifier: MIT */
#include "steps.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

#include "diagnostics.h"
#include "log.h"
#include "sim.h"
#include "snapshots.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double norm3(const double v[3])
{
    return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

static void print_row(const struct gc_sim *s, const struct gc_diagnostics *d, double e0)
{
    struct gc_integrator_stats st;
    gc_sim_stats(s, &st);
    printf("%10llu %11.2f %15.8e %11.3e %11.3e %11.3e %11.3e\n", (unsigned long long)st.steps,
           gc_sim_time_myr(s), d->energy, (d->energy - e0) / fabs(e0), norm3(d->momentum),
           norm3(d->angular_momentum), norm3(d->com_vel));
}

enum gc_status gc_steps_run(const struct gc_options *o, const struct gc_bodies *initial,
                            struct gc_backend *b)
{
    struct gc_sim sim;
    struct gc_snapshots snaps = {0};
    struct gc_bodies scratch = {0};
    struct gc_diagnostics d;
    double e0, t0, elapsed = 0.0;
    unsigned done = 0, every = o->report_every ? o->report_every : o->steps;
    enum gc_status st = gc_sim_init(&sim, b, NULL, initial, &o->params);
    if (st != GC_OK)
        return st;
    st = gc_bodies_alloc(&scratch, initial->n);
    if (st == GC_OK)
        st = gc_snapshots_init(&snaps, o->snapshot_every, o->snapshot_dir, &sim, initial);
    if (st != GC_OK)
        goto out;
    st = gc_diagnostics_measure(&sim, &scratch, &d);
    if (st != GC_OK)
        goto out;
    e0 = d.energy;
    printf("# %zu bodies, backend %s (%s), dt %g (%.3g Myr), eps %g, %u steps\n", initial->n,
           gc_backend_name(b), gc_backend_device_name(b), o->params.dt,
           o->params.dt * GC_MYR_PER_TIME_UNIT, o->params.eps, o->steps);
    printf("# total mass %.10g, kinetic %.8e, potential %.8e, virial ratio 2K/|W| %.4f\n",
           d.mass, d.kinetic, d.potential, 2.0 * d.kinetic / fabs(d.potential));
    printf("# %8s %11s %15s %11s %11s %11s %11s\n", "step", "time[Myr]", "energy", "dE/|E0|",
           "|P|", "|L|", "|v_com|");
    print_row(&sim, &d, e0);
    fflush(stdout);
    while (done < o->steps) {
        unsigned k = o->steps - done < every ? o->steps - done : every;
        double w0 = snaps.write_s;
        t0 = now_s();
        st = gc_snapshots_advance(&snaps, &sim, gc_sim_time(&sim) + (double)k * o->params.dt);
        if (st == GC_OK)
            st = gc_backend_sync(b);
        elapsed += now_s() - t0 - (snaps.write_s - w0); /* steps/s without snapshot I/O */
        if (st != GC_OK)
            goto out;
        done += k;
        st = gc_diagnostics_measure(&sim, &scratch, &d);
        if (st != GC_OK)
            goto out;
        if (!isfinite(d.energy)) {
            gc_log_error("energy became non-finite at t = %g: the run blew up (try a "
                         "smaller --dt or larger --eps)", gc_sim_time(&sim));
            st = GC_ERR_INVALID;
            goto out;
        }
        print_row(&sim, &d, e0);
        fflush(stdout);
    }
    {
        double n = (double)initial->n;
        printf("# %u steps in %.3f s: %.2f steps/s, %.3e interactions/s (N^2 per step, "
               "self-pairs counted)\n", o->steps, elapsed, o->steps / elapsed,
               n * n * o->steps / elapsed);
    }
out:
    gc_snapshots_free(&snaps);
    gc_bodies_free(&scratch);
    gc_sim_free(&sim);
    return st;
}
