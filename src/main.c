/* Entry point: parses options, builds the initial bodies, wires a backend to the chosen mode. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "backend.h"
#include "bench.h"
#include "bodies.h"
#include "cli.h"
#include "diagnostics.h"
#include "table.h"
#include "log.h"
#include "model_galaxy.h"
#include "sim.h"
#include "thin.h"

#ifndef GC_VERSION
#define GC_VERSION "0.1.0"
#endif

/* Exit codes: 0 success, 1 failure while running, 2 bad command line or input. */
enum { EXIT_RUN = 1, EXIT_USAGE = 2 };

static int exit_code(enum gc_status st)
{
    switch (st) {
    case GC_OK: return 0;
    case GC_ERR_PARSE:
    case GC_ERR_INVALID: return EXIT_USAGE;
    default: return EXIT_RUN;
    }
}

/* Default body count of the built-in model: what each backend steps at interactive rates. */
static size_t default_model_n(const struct gc_backend *b)
{
    return (b && strcmp(gc_backend_name(b), "cuda") == 0) ? 65536 : 8192;
}

static enum gc_status build_bodies(const struct gc_options *o, const struct gc_backend *b,
                                   struct gc_bodies *out)
{
    enum gc_status st;
    if (o->data) {
        struct gc_bodies all;
        st = gc_table_read(o->data, &all);
        if (st != GC_OK)
            return st;
        st = gc_thin_select(&all, o->n, o->halo, out);
        gc_bodies_free(&all);
        return st;
    }
    return gc_model_galaxy_build(o->model, o->n ? o->n : default_model_n(b), o->seed, out);
}

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
    printf("%10llu %11.2f %15.8e %11.3e %11.3e %11.3e %11.3e\n", (unsigned long long)s->steps,
           gc_sim_time_myr(s), d->energy, (d->energy - e0) / fabs(e0), norm3(d->momentum),
           norm3(d->angular_momentum), norm3(d->com_vel));
}

/* --steps K: integrate without a window, print conserved quantities as a table on stdout. */
static enum gc_status run_steps(const struct gc_options *o, const struct gc_bodies *initial,
                                struct gc_backend *b)
{
    struct gc_sim sim;
    struct gc_bodies scratch;
    struct gc_diagnostics d;
    double e0, t0, elapsed = 0.0;
    unsigned done = 0, every = o->report_every ? o->report_every : o->steps;
    enum gc_status st = gc_sim_init(&sim, b, initial, &o->params);
    if (st != GC_OK)
        return st;
    st = gc_bodies_alloc(&scratch, initial->n);
    if (st != GC_OK)
        return st;
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
        t0 = now_s();
        st = gc_sim_step(&sim, k);
        if (st == GC_OK)
            st = gc_backend_sync(b);
        elapsed += now_s() - t0;
        if (st != GC_OK)
            goto out;
        done += k;
        st = gc_diagnostics_measure(&sim, &scratch, &d);
        if (st != GC_OK)
            goto out;
        if (!isfinite(d.energy)) {
            gc_log_error("energy became non-finite at step %llu: the run blew up (try a "
                         "smaller --dt or larger --eps)", (unsigned long long)sim.steps);
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
    gc_bodies_free(&scratch);
    return st;
}

int main(int argc, char **argv)
{
    struct gc_options o;
    struct gc_backend *backend = NULL;
    struct gc_bodies bodies = {0};
    enum gc_status st = gc_cli_parse(argc, argv, &o);

    if (st != GC_OK)
        return EXIT_USAGE;
    if (o.mode == GC_MODE_HELP) {
        gc_cli_usage(stdout, "galaxy");
        return 0;
    }
    if (o.mode == GC_MODE_VERSION) {
        printf("galaxy %s (backends: %s)\n", GC_VERSION, gc_backend_available());
        return 0;
    }
    if (o.quiet)
        gc_log_set_level(GC_LOG_ERROR);

    if (o.mode != GC_MODE_COMPARE) {
        struct gc_backend_options bo = {0};
        bo.threads = o.threads;
        bo.device = o.device;
        bo.no_interop = o.no_interop;
        st = gc_backend_create(o.backend, &bo, &backend);
        if (st != GC_OK)
            return exit_code(st);
    }
    st = build_bodies(&o, backend, &bodies);
    if (st == GC_OK && o.save) {
        st = gc_table_write(o.save, &bodies);
        if (st == GC_OK)
            gc_log_info("wrote %zu bodies to %s", bodies.n, o.save);
    }
    if (st == GC_OK) {
        switch (o.mode) {
        case GC_MODE_STEPS: st = run_steps(&o, &bodies, backend); break;
        case GC_MODE_BENCHMARK: st = gc_bench_run(&o, &bodies, backend); break;
        case GC_MODE_COMPARE: st = gc_bench_compare(&o, &bodies); break;
        case GC_MODE_HEADLESS: st = gc_app_run_headless(&o, &bodies, backend); break;
        case GC_MODE_VIEWER: st = gc_app_run(&argc, argv, &o, &bodies, backend); break;
        default: break;
        }
    }
    gc_backend_destroy(backend);
    gc_bodies_free(&bodies);
    return exit_code(st);
}
