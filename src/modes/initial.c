/* Initial conditions from the options: read and thin a table, or generate a model; --save. */
/* SPDX-License-Identifier: MIT */
#include "initial.h"

#include <math.h>
#include <string.h>

#include "clock.h"
#include "encounter.h"
#include "io.h"
#include "log.h"
#include "models.h"
#include "snapshot_hdf5.h"
#include "scenario.h"
#include "table.h"
#include "thin.h"
#include "units.h"

/* Default body count of a built-in model: what each backend steps at interactive rates. */
static size_t default_model_n(const struct gc_model_info *m, const struct gc_backend *b)
{
    if (m->n_fixed)
        return m->n_fixed;
    return gc_backend_is_device(b) ? m->n_gpu : m->n_cpu;
}

/* Default body count of a data file with its halos on the CPU backend: every body on a GPU
 * (all 81,920 of the Dubinski table step well above display rate there), but on a
 * CPU the O(N^2) step must stay interactive: the built-in model's 8,192. Of the table that
 * is 3,276 disk, 1,640 bulge and 3,276 halo bodies, and the disks keep their size until
 * the first passage (half-mass radii 1.6 and 2.4 at t = 0, 1.7 and 2.4 at 270 Myr;
 * without the halos 6.5 and 8.2: docs/usage.md, "Choosing N", tools/measure_encounter). */
#define DATA_CPU_N 8192

static size_t default_data_n(const struct gc_options *o, const struct gc_backend *b,
                             const struct gc_bodies *all)
{
    if (o->n || !o->halo || gc_backend_is_device(b))
        return o->n; /* 0 = every eligible body */
    return gc_thin_eligible(all, 1) > DATA_CPU_N ? DATA_CPU_N : 0;
}

/* The settings a snapshot records become the run's where the command line did not give
 * them; given ones that differ are named (the run then is not the one it continues). */
static enum gc_status take_settings(struct gc_options *o, struct gc_snapshot_run *run,
                                    const char *path)
{
    const struct gc_integrator_iface *scheme;
    char differs[256] = "";
    size_t k = 0;
#define TAKE(opt, field, value, saved, fmt)                                                \
    do {                                                                                   \
        if (!gc_cli_given(o, opt))                                                         \
            field = value;                                                                 \
        else if ((field) != (value) && k < sizeof differs)                                 \
            k += (size_t)snprintf(differs + k, sizeof differs - k, "%s%s " fmt " (its run: " \
                                  fmt ")", k ? ", " : "", opt, field, saved);              \
    } while (0)
    if (!run->integrator[0]) {
        gc_log_info("%s: no run settings recorded (a file of another code?): the options' "
                    "defaults apply (integrator %s, eps %g)", path, o->params.integrator,
                    o->params.eps);
        return GC_OK;
    }
    scheme = gc_integrator_find(run->integrator);
    if (!scheme) {
        gc_log_error("%s: /Parameters Integrator '%s' is not one of %s", path, run->integrator,
                     gc_integrator_available());
        return GC_ERR_PARSE;
    }
    if (!gc_cli_given(o, "--integrator"))
        o->params.integrator = scheme->name;
    /* The command line could not tell these from the scheme the file names (cli.c). */
    if (!gc_integrator_has(gc_integrator_find(o->params.integrator), GC_INTEGRATOR_BLOCK_STEPS))
        for (int j = 0; j < 3; j++) {
            static const char *const block_only[3] = {"--precision", "--eta", "--dt-max"};
            if (gc_cli_given(o, block_only[j])) {
                gc_log_error("%s applies to the block-step schemes; %s's run uses %s, which has "
                             "one shared step", block_only[j], path, o->params.integrator);
                return GC_ERR_INVALID;
            }
        }
    else if (strcmp(o->params.integrator, scheme->name) != 0)
        k += (size_t)snprintf(differs + k, sizeof differs - k, "--integrator %s (its run: %s)",
                              o->params.integrator, scheme->name);
    /* what a file says is held to the command line's ranges */
    {
        static const char *const opt[] = {"--dt", "--eta", "--dt-max", "--theta"};
        const double v[] = {run->dt, run->eta, run->dt_max, run->theta};
        for (size_t q = 0; q < sizeof v / sizeof v[0]; q++)
            if (v[q] != 0.0 && !isnan(v[q]) && gc_cli_check_number(opt[q], v[q], path) != GC_OK)
                return GC_ERR_PARSE;
    }
    /* A value the file does not record (NaN) leaves the option's. */
    if (!isnan(run->eps))
        TAKE("--eps", o->params.eps, (float)run->eps, run->eps, "%g");
    if (run->dt > 0.0)
        TAKE("--dt", o->params.dt, (float)run->dt, run->dt, "%g");
    if (run->eta > 0.0)
        TAKE("--eta", o->params.eta, run->eta, run->eta, "%g");
    if (run->dt_max > 0.0)
        TAKE("--dt-max", o->params.dt_max, run->dt_max, run->dt_max, "%g");
    if (run->theta > 0.0)
        TAKE("--theta", o->params.theta, (float)run->theta, run->theta, "%g");
#undef TAKE
    if (run->force[0] && !gc_cli_given(o, "--force")) {
        const enum gc_force_method methods[] = {GC_FORCE_ALLPAIRS, GC_FORCE_TREE};
        const char *name = NULL;
        for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
            if (strcmp(run->force, gc_force_method_name(methods[i])) == 0)
                name = gc_force_method_name(methods[i]);
        if (!name) {
            gc_log_error("%s: /Parameters ForceMethod '%s' is not allpairs or tree", path,
                         run->force);
            return GC_ERR_PARSE;
        }
        o->params.force = name;
    }
    if (strcmp(run->units, "henon") == 0)
        o->units = GC_UNITS_HENON;
    else if (strcmp(run->units, "galaxy") == 0)
        o->units = GC_UNITS_GALAXY;
    if (differs[0])
        gc_log_warn("%s: told otherwise: %s; the run does not continue as the snapshot's "
                    "would have", path, differs);
    if (o->steps && gc_integrator_has(gc_integrator_find(o->params.integrator),
                                      GC_INTEGRATOR_BLOCK_STEPS)) {
        gc_log_error("--steps counts leapfrog steps; the snapshot's run uses %s, which has "
                     "individual steps: use --t-end T", o->params.integrator);
        return GC_ERR_INVALID;
    }
    return gc_sim_params_check(&o->params);
}

/* A table is in the Dubinski table's units (Myr shown) unless it holds a star cluster: a
 * table whose every body is a star (the cluster block of the layout header, which --save
 * writes for --model plummer and pythagorean) is in Henon units, as its model was. */
static int all_stars(const struct gc_bodies *b)
{
    for (size_t i = 0; i < b->n; i++)
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_STAR)
            return 0;
    return b->n > 0;
}

static enum gc_status build(struct gc_options *o, const struct gc_backend *b,
                            struct gc_bodies *out, struct gc_restart *restart)
{
    const struct gc_model_info *m;
    enum gc_status st;
    if (o->data) {
        struct gc_bodies all;
        struct gc_io_source src;
        struct gc_snapshot_run run;
        st = gc_io_read_run(o->data, &all, &src, restart ? &run : NULL);
        if (st == GC_OK && restart && src.format == GC_IO_HDF5)
            st = take_settings(o, &run, o->data);
        if (st != GC_OK) {
            if (restart)
                gc_snapshot_run_free(&run);
            gc_bodies_free(&all);
            return st;
        }
        /* A snapshot is a run's state: it continues from there (halos, double precision
         * and the integrator's state included); -n still thins it, over every component,
         * into new initial conditions at t = 0. */
        if (src.format == GC_IO_HDF5 && (o->n == 0 || o->n == all.n)) {
            if (restart) {
                restart->run = run;
                restart->run.state.time = src.time;
                restart->time = src.time;
                restart->sim.time = src.time;
                restart->sim.state = run.state.nfields ? &restart->run.state : NULL;
                restart->sim.integrator = restart->run.integrator;
                restart->sim.eps = isnan(run.eps) ? o->params.eps : run.eps;
                restart->sim.eta = run.eta;
                restart->sim.dt_max = run.dt_max;
                o->restart = restart;
                char myr[48] = "";
                if (o->units == GC_UNITS_GALAXY)
                    snprintf(myr, sizeof myr, " (%.4g Myr)", src.time * GC_MYR_PER_TIME_UNIT);
                gc_log_info("%s: snapshot of %zu bodies at t = %.9g%s: the run continues from "
                            "there (%s, eps %g%s)", o->data, all.n, src.time, myr,
                            o->params.integrator, o->params.eps,
                            run.state.nfields ? ", with its integrator state" : "");
            } else if (o->units == GC_UNITS_GALAXY) {
                gc_log_info("%s: snapshot of %zu bodies at t = %.9g (%.4g Myr)", o->data,
                            all.n, src.time, src.time * GC_MYR_PER_TIME_UNIT);
            } else {
                gc_log_info("%s: snapshot of %zu bodies at t = %.9g", o->data, all.n,
                            src.time);
            }
            *out = all;
            return GC_OK;
        }
        if (restart)
            gc_snapshot_run_free(&run);
        if (src.format != GC_IO_HDF5 && all_stars(&all))
            o->units = GC_UNITS_HENON;
        st = gc_thin_select(&all, default_data_n(o, b, &all), o->halo || src.format == GC_IO_HDF5,
                            out);
        gc_bodies_free(&all);
        return st;
    }
    m = gc_models_find(o->model);
    if (!m) {
        gc_log_error("unknown model '%s'; available: %s", o->model, GC_MODEL_NAMES);
        return GC_ERR_INVALID;
    }
    {
        const size_t n = o->n ? o->n : default_model_n(m, b);
        /* Millions of bodies take seconds to sample: said first, not after a silence. */
        if (n >= ((size_t)1 << 20))
            gc_log_info("building the %s model of %zu bodies", o->model, n);
        if (strcmp(o->model, GC_DEFAULT_MODEL) == 0 && !o->encounter.legacy)
            return gc_initial_encounter(o->scenario, &o->encounter, n, o->seed, out);
        return gc_models_build(o->model, n, o->seed, out);
    }
}

enum gc_status gc_initial_encounter(const char *scenario, const struct gc_encounter *e,
                                    size_t n, uint64_t seed, struct gc_bodies *out)
{
    const double kpc = GC_KPC_PER_LENGTH_UNIT;
    const struct gc_scenario *sc = gc_scenario_find(scenario);
    double t0 = gc_clock_seconds(), sep = gc_encounter_separation(e);
    struct gc_encounter base;
    enum gc_status st = gc_encounter_build(e, n, seed, out);
    if (st != GC_OK)
        return st;
    if (sc)
        gc_scenario_encounter(sc, &base);
    else
        gc_encounter_mw_m31(&base);
    gc_log_info("encounter %s%s: mass ratio 1:%.3g, pericentre %.3g kpc, eccentricity %.3g, "
                "disks (i, omega) (%.0f, %.0f) and (%.0f, %.0f), %.3g kpc apart at the start: "
                "Keplerian pericentre at %.0f Myr; %zu bodies built in %.2f s",
                sc ? sc->name : "mw-m31", gc_encounter_same(e, &base) ? "" : " (changed)",
                1.0 / e->mass_ratio, e->pericentre * kpc, e->eccentricity, e->primary.incl,
                e->primary.omega, e->companion.incl, e->companion.omega, sep * kpc,
                gc_encounter_time_to_pericentre(e) * GC_MYR_PER_TIME_UNIT, n,
                gc_clock_seconds() - t0);
    return GC_OK;
}

void gc_restart_free(struct gc_restart *r)
{
    if (r)
        gc_snapshot_run_free(&r->run);
}

enum gc_status gc_initial_bodies(const struct gc_options *o, const struct gc_backend *backend,
                                 struct gc_bodies *out)
{
    /* Without a restart nothing in o changes. */
    struct gc_options copy = *o;
    return gc_initial_run(&copy, backend, out, NULL);
}

enum gc_status gc_initial_run(struct gc_options *o, const struct gc_backend *backend,
                              struct gc_bodies *out, struct gc_restart *restart)
{
    enum gc_status st;
    if (restart)
        memset(restart, 0, sizeof *restart);
    o->restart = NULL;
    st = build(o, backend, out, restart);
    if (st == GC_OK && o->save_scene) {
        struct gc_scene sc;
        gc_scene_from_options(o, out->n, &sc);
        st = gc_scene_write(o->save_scene, &sc);
    }
    if (st == GC_OK && o->save) {
        st = gc_table_write(o->save, out);
        if (st == GC_OK)
            gc_log_info("wrote %zu bodies to %s", out->n, o->save);
    }
    if (st != GC_OK) {
        gc_bodies_free(out);
        gc_restart_free(restart);
        o->restart = NULL;
    }
    return st;
}
