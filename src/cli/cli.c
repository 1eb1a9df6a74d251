/* Parses and range-checks the command line into struct gc_options, and checks which options go together. */
/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_options.h"
#include "cli_values.h"
#include "events.h"
#include "log.h"
#include "scenario.h"
#include "units.h"

/* ---- parsing ---- */

int gc_cli_device(const struct gc_options *o, int local_rank)
{
    return o->device >= 0 ? o->device : local_rank;
}

void gc_cli_defaults(struct gc_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = GC_MODE_VIEWER;
    o->program = GC_PROGRAM_GALAXY;
    o->model = GC_DEFAULT_MODEL;
    o->seed = 1;
    gc_sim_params_default(&o->params);
    /* Unset until the model is known (resolve_model_defaults). */
    o->params.integrator = NULL;
    o->params.eps = NAN;
    o->substeps = 0; /* auto in the window, 1 in --headless */
    o->backend = "auto";
    o->raster = "auto";
    o->device = -1; /* the local rank under mpirun, else 0 (gc_cli_device) */
    o->frames = 300;
    o->screenshot_dir = ".";
    o->snapshot_dir = ".";
    o->width = GC_DEFAULT_WIDTH;
    o->height = GC_DEFAULT_HEIGHT;
    o->repeats = 5;
    o->halo = 1;
    o->exposure = NAN;
    o->fps = GC_DEFAULT_FPS;
    o->title = GC_DEFAULT_TITLE;
}

/* Edit distance (insertions, deletions, substitutions) between a and b, up to 63 characters
 * each; longer strings count as far apart. */
static size_t distance(const char *a, const char *b)
{
    size_t row[64], la = strlen(a), lb = strlen(b);
    if (la >= 64 || lb >= 64)
        return 64;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            const size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[lb];
}

/* The listed option of program closest to the unknown name, when it is a likely typo (at
 * most 2 edits, fewer than a third of the name); NULL otherwise. */
static const char *nearest(const char *name, enum gc_program program)
{
    const char *best = NULL;
    size_t best_d = 3;
    for (size_t k = 0; k < gc_cli_noptions; k++) {
        const struct gc_cli_option *op = &gc_cli_options[k];
        size_t d;
        if (!op->help || !(op->programs & program))
            continue;
        d = distance(name, op->name);
        if (d < best_d && 3 * d < strlen(op->name)) {
            best_d = d;
            best = op->name;
        }
    }
    return best;
}

/* One argument (and its value, from "--opt=value" or the next argument): *i advances past
 * what was used. *modes counts the mode options seen. */
static enum gc_status parse_one(int argc, char **argv, int *i, enum gc_program program,
                                struct gc_options *o, int *modes)
{
    char name[64];
    const char *arg = argv[*i], *val = NULL, *eq = NULL;
    const struct gc_cli_option *op;

    if (strncmp(arg, "--", 2) == 0)
        eq = strchr(arg, '=');
    if (eq && (size_t)(eq - arg) < sizeof name) {
        memcpy(name, arg, (size_t)(eq - arg));
        name[eq - arg] = '\0';
        val = eq + 1;
        arg = name;
    }
    op = gc_cli_find(arg);
    if (!op && arg[0] != '-' && strspn(arg, "0123456789") == strlen(arg) && *arg) {
        /* "galaxy 100000": a bare number is the body count. */
        if (o->n_text) {
            gc_log_error("the number of bodies is given twice ('%s' and %s %s)", arg,
                         o->n_option, o->n_text);
            return GC_ERR_INVALID;
        }
        return gc_cli_set_bodies(o, "-n", arg);
    }
    if (!op || !(op->programs & program)) {
        if (arg[0] != '-')
            gc_log_error("unexpected argument '%s': a bare argument is the number of bodies "
                         "(galaxy 100000); options start with - (see --help)", argv[*i]);
        else if (op)
            gc_log_error("%s does not take option '%s' (see --help)", program_name(program),
                         arg);
        else if (nearest(arg, program))
            gc_log_error("unknown option '%s'; did you mean %s? (see --help)", argv[*i],
                         nearest(arg, program));
        else
            gc_log_error("unknown option '%s' (see --help)", argv[*i]);
        return GC_ERR_INVALID;
    }
    if (!op->metavar && val) {
        gc_log_error("option %s takes no value", arg);
        return GC_ERR_INVALID;
    }
    if (op->metavar && !val) {
        if (*i + 1 >= argc) {
            gc_log_error("option %s needs a value (see --help)", arg);
            return GC_ERR_INVALID;
        }
        val = argv[++*i];
    }
    if (op->kind == GC_OPT_MODE && op->mode != GC_MODE_HELP && op->mode != GC_MODE_VERSION &&
        op->mode != GC_MODE_MAN)
        ++*modes;
    if (!o->draw_option && (op->section == GC_SEC_WINDOW || strcmp(op->name, "--frames") == 0 ||
                            strcmp(op->name, "--substeps") == 0))
        o->draw_option = op->name;
    return gc_cli_apply(o, op, arg, val);
}

/* Integrator, softening and units the model implies where the options did not say. A data
 * file is galaxy-like unless stated otherwise. */
static void resolve_model_defaults(struct gc_options *o)
{
    const struct gc_model_info *m = o->data ? NULL : gc_models_find(o->model);
    o->units = m ? m->units : GC_UNITS_GALAXY;
    if (!o->params.integrator)
        o->params.integrator = m ? m->integrator : GC_DEFAULT_INTEGRATOR;
    if (isnan(o->params.eps))
        o->params.eps = m ? m->eps : GC_DEFAULT_EPS;
}

/* -n against the chosen model's range (one message with the real bounds), or 1 to the
 * cap for a data file, whose components are counted once it is read. */
static enum gc_status check_bodies(struct gc_options *o)
{
    const struct gc_model_info *m = o->data ? NULL : gc_models_find(o->model);
    const unsigned long long lo = m ? m->n_min : 1;
    const unsigned long long hi = m && m->n_fixed ? m->n_fixed : GC_MAX_BODIES;
    unsigned long long n;
    if (!o->n_text)
        return GC_OK;
    if (gc_cli_whole_in(o->n_text, lo, hi, &n)) {
        o->n = (size_t)n;
        return GC_OK;
    }
    if (!m)
        gc_log_error("%s expects a whole number from %llu to %llu, got '%s'", o->n_option, lo,
                     hi, o->n_text);
    else if (lo == hi)
        gc_log_error("%s: model %s has exactly %llu bodies, got '%s' (leave out %s)",
                     o->n_option, m->name, lo, o->n_text, o->n_option);
    else
        gc_log_error("%s expects a whole number from %llu to %llu for model %s, got '%s'",
                     o->n_option, lo, hi, m->name, o->n_text);
    return GC_ERR_INVALID;
}

/* The encounter of the built-in pair: the scenario's values (mw-m31's without one), then
 * each encounter option given; checked, so that a geometry that cannot start is refused
 * with its reason before anything runs. */
static enum gc_status resolve_encounter(struct gc_options *o)
{
    static const char *const opts[] = {"--mass-ratio", "--pericentre", "--eccentricity",
                                       "--separation", "--primary-disk", "--companion-disk"};
    const struct gc_scenario *sc = gc_scenario_find(o->scenario);
    struct gc_encounter *e = &o->encounter;
    const char *first = o->scenario ? "--scenario" : NULL;
    char why[320];
    if (sc)
        gc_scenario_encounter(sc, e);
    else
        gc_encounter_mw_m31(e);
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        if (!gc_cli_given(o, opts[k]))
            continue;
        first = first ? first : opts[k];
        e->legacy = 0;
        switch (k) {
        case 0: e->mass_ratio = o->enc_opt.mass_ratio; break;
        case 1: e->pericentre = o->enc_opt.pericentre; break;
        case 2: e->eccentricity = o->enc_opt.eccentricity; break;
        case 3: e->separation = o->enc_opt.separation; break;
        case 4: e->primary = o->enc_opt.primary; break;
        default: e->companion = o->enc_opt.companion; break;
        }
    }
    if (!first)
        return GC_OK;
    if (o->data || strcmp(o->model, GC_DEFAULT_MODEL) != 0) {
        gc_log_error("%s sets up the built-in galaxy pair (--model %s); it does not apply to "
                     "%s%s", first, GC_DEFAULT_MODEL, o->data ? "--data " : "--model ",
                     o->data ? o->data : o->model);
        return GC_ERR_INVALID;
    }
    if (gc_encounter_check(e, why, sizeof why) != GC_OK) {
        gc_log_error("this encounter cannot start: %s", why);
        return GC_ERR_INVALID;
    }
    if (sc && !gc_cli_given(o, "--title"))
        o->title = sc->title;
    return GC_OK;
}

/* The mode's options, for messages. */
static const char *mode_words(enum gc_mode m)
{
    switch (m) {
    case GC_MODE_STEPS: return "--steps or --t-end";
    case GC_MODE_BENCHMARK: return "--benchmark";
    case GC_MODE_COMPARE: return "--compare";
    default: return "this mode";
    }
}

/* Options that only mean something together, and the mode --steps or --t-end implies. */
static enum gc_status check_combinations(struct gc_options *o, int modes)
{
    if (modes > 1) {
        gc_log_error("choose one of --headless, --benchmark and --compare");
        return GC_ERR_INVALID;
    }
    resolve_model_defaults(o);
    if (check_bodies(o) != GC_OK || resolve_encounter(o) != GC_OK)
        return GC_ERR_INVALID;
    if (o->steps && o->t_end > 0.0) {
        gc_log_error("choose one of --steps (leapfrog steps) and --t-end (a time)");
        return GC_ERR_INVALID;
    }
    if ((o->steps || o->t_end > 0.0) && o->mode == GC_MODE_VIEWER)
        o->mode = GC_MODE_STEPS;
    /* Options that would be accepted and do nothing are refused, naming what they need. */
    if ((o->steps || o->t_end > 0.0) && o->mode == GC_MODE_HEADLESS) {
        gc_log_error("%s runs steps without drawing (a table on stdout); --headless draws "
                     "--frames K: choose one", o->steps ? "--steps" : "--t-end");
        return GC_ERR_INVALID;
    }
    if (gc_cli_given(o, "--repeats") && o->mode != GC_MODE_BENCHMARK) {
        gc_log_error("--repeats only applies with --benchmark");
        return GC_ERR_INVALID;
    }
    if (o->data && (gc_cli_given(o, "--model") || gc_cli_given(o, "--seed"))) {
        gc_log_error("%s builds a model; --data reads the bodies from a file: give one of them",
                     gc_cli_given(o, "--model") ? "--model" : "--seed");
        return GC_ERR_INVALID;
    }
    if (o->mode == GC_MODE_HEADLESS && o->screenshot_after > o->frames) {
        gc_log_error("--screenshot-after %u is beyond the run's %u frame%s (--frames)",
                     o->screenshot_after, o->frames, o->frames == 1 ? "" : "s");
        return GC_ERR_INVALID;
    }
    if (o->program == GC_PROGRAM_BENCH && o->mode != GC_MODE_BENCHMARK &&
        o->mode != GC_MODE_COMPARE && o->mode != GC_MODE_STEPS) {
        gc_log_error("galaxy-bench runs --benchmark, --compare, --steps or --t-end (see --help)");
        return GC_ERR_INVALID;
    }
    /* (A snapshot given to --data may name a block-step scheme itself: its run decides.) */
    if (!gc_integrator_has(gc_integrator_find(o->params.integrator), GC_INTEGRATOR_BLOCK_STEPS) &&
        (!o->data || gc_cli_given(o, "--integrator")))
        for (int k = 0; k < 3; k++) {
            static const char *const block_only[3] = {"--precision", "--eta", "--dt-max"};
            if (gc_cli_given(o, block_only[k])) {
                gc_log_error("%s applies to the block-step schemes (--integrator hermite4 or "
                             "hermite6); %s has one shared step", block_only[k],
                             o->params.integrator);
                return GC_ERR_INVALID;
            }
        }
    if (o->params.precision && strcmp(o->params.precision, "mixed") == 0 &&
        gc_integrator_has(gc_integrator_find(o->params.integrator),
                          GC_INTEGRATOR_DOUBLE_FORCES)) {
        gc_log_error("--precision mixed: %s needs double forces (its step criterion takes the "
                     "force's 4th and 5th derivatives, which float terms leave as noise); use "
                     "--precision double or auto", o->params.integrator);
        return GC_ERR_INVALID;
    }
    if (o->params.force && strcmp(o->params.force, "auto") != 0 &&
        strcmp(o->params.force, "allpairs") != 0 &&
        gc_integrator_has(gc_integrator_find(o->params.integrator), GC_INTEGRATOR_EXACT_FORCES)) {
        gc_log_error("--force %s approximates gravity; %s is a collisional scheme and needs "
                     "exact forces: use --force allpairs (or auto)", o->params.force,
                     o->params.integrator);
        return GC_ERR_INVALID;
    }
    if (o->params.profile && o->mode != GC_MODE_STEPS) {
        gc_log_error("--profile only applies with --steps or --t-end");
        return GC_ERR_INVALID;
    }
    if (o->report_every > 0.0 && o->mode != GC_MODE_STEPS &&
        !(o->mode == GC_MODE_BENCHMARK && o->t_end > 0.0)) {
        gc_log_error("--report-every only applies with --steps or --t-end");
        return GC_ERR_INVALID;
    }
    if (o->mode == GC_MODE_STEPS && o->steps && o->report_every > 0.0 &&
        o->report_every != floor(o->report_every)) {
        gc_log_error("--report-every counts steps with --steps: a whole number, got %g",
                     o->report_every);
        return GC_ERR_INVALID;
    }
    if (o->mode == GC_MODE_STEPS && o->steps &&
        gc_integrator_has(gc_integrator_find(o->params.integrator), GC_INTEGRATOR_BLOCK_STEPS)) {
        gc_log_error("--steps counts leapfrog steps; %s has individual steps: use --t-end T",
                     o->params.integrator);
        return GC_ERR_INVALID;
    }
    if (o->follow && (o->mode != GC_MODE_HEADLESS || o->tour)) {
        gc_log_error("--follow applies with --headless, without --tour (the tour moves the "
                     "camera itself; in the window, '3' follows the stars)");
        return GC_ERR_INVALID;
    }
    if (o->screenshot && o->mode != GC_MODE_HEADLESS) {
        gc_log_error("--screenshot only applies with --headless (the window uses "
                     "--screenshot-after or the 's' key)");
        return GC_ERR_INVALID;
    }
    if (o->theta_sweep && (o->mode != GC_MODE_BENCHMARK || !o->params.force ||
                           strcmp(o->params.force, "tree") != 0 || o->sweep)) {
        gc_log_error("--theta-sweep applies with --benchmark --force tree (and not with "
                     "--sweep)");
        return GC_ERR_INVALID;
    }
    if ((o->distributions || o->t_end > 0.0) && o->mode == GC_MODE_BENCHMARK &&
        (!o->params.force || strcmp(o->params.force, "tree") != 0)) {
        gc_log_error("%s with --benchmark measures the tree: add --force tree",
                     o->distributions ? "--distributions" : "--t-end");
        return GC_ERR_INVALID;
    }
    if (o->distributions && o->mode != GC_MODE_BENCHMARK) {
        gc_log_error("--distributions applies with --benchmark --force tree");
        return GC_ERR_INVALID;
    }
    if (o->distributions && (o->data || gc_cli_given(o, "--model"))) {
        gc_log_error("--distributions makes its own bodies: leave out %s",
                     o->data ? "--data" : "--model");
        return GC_ERR_INVALID;
    }
    if (o->mode == GC_MODE_BENCHMARK && o->t_end > 0.0 &&
        (o->distributions || o->sweep || o->theta_sweep)) {
        gc_log_error("--t-end with --benchmark times one run's steps: it goes with neither "
                     "--distributions, --sweep nor --theta-sweep");
        return GC_ERR_INVALID;
    }
    if ((o->json || o->sweep) && o->mode != GC_MODE_BENCHMARK) {
        gc_log_error("--json and --sweep only apply with --benchmark");
        return GC_ERR_INVALID;
    }
    if (o->sweep && o->data) {
        gc_log_error("--sweep times the built-in model at each size (-n gives the largest); "
                     "it does not read --data");
        return GC_ERR_INVALID;
    }
    if (o->snapshot_every > 0.0 && (o->mode == GC_MODE_BENCHMARK || o->mode == GC_MODE_COMPARE)) {
        gc_log_error("--snapshot-every applies to --steps, --headless and the window, not to "
                     "--benchmark or --compare");
        return GC_ERR_INVALID;
    }
    if (strcmp(o->snapshot_dir, ".") != 0 && !(o->snapshot_every > 0.0)) {
        gc_log_error("--snapshot-dir only applies with --snapshot-every");
        return GC_ERR_INVALID;
    }
    if ((o->halo_given || o->no_halo) && !o->data) {
        gc_log_error("%s selects bodies of a data file; it needs --data (the built-in "
                     "model always has live halos)", o->no_halo ? "--no-halo" : "--halo");
        return GC_ERR_INVALID;
    }
    if (o->halo_given && o->no_halo) {
        gc_log_error("--halo and --no-halo contradict each other");
        return GC_ERR_INVALID;
    }
    if (o->no_halo)
        o->halo = 0;
    if (o->record && o->mode != GC_MODE_VIEWER && o->mode != GC_MODE_HEADLESS) {
        gc_log_error("--record records the window or --headless frames");
        return GC_ERR_INVALID;
    }
    /* Accepted and ignored, --raster cuda with --steps looked like a run that drew. */
    if (o->draw_option && o->mode != GC_MODE_VIEWER && o->mode != GC_MODE_HEADLESS) {
        gc_log_error("%s applies to drawn frames (the window or --headless), not to %s",
                     o->draw_option, mode_words(o->mode));
        return GC_ERR_INVALID;
    }
    if (o->start_at && strtod(o->start_at, NULL) >
                           (o->units == GC_UNITS_HENON ? 1.0 : GC_MYR_PER_TIME_UNIT) *
                               GC_EVENTS_LAST_T) {
        gc_log_error("--start-at %s is beyond the furthest a run goes before it is drawn "
                     "(%g %s)", o->start_at,
                     (o->units == GC_UNITS_HENON ? 1.0 : GC_MYR_PER_TIME_UNIT) * GC_EVENTS_LAST_T,
                     o->units == GC_UNITS_HENON ? "Henon units" : "Myr");
        return GC_ERR_INVALID;
    }
    return gc_sim_params_check(&o->params);
}

enum gc_status gc_cli_parse(int argc, char **argv, enum gc_program program,
                            struct gc_options *o)
{
    int modes = 0;
    gc_cli_defaults(o);
    o->program = program;
    for (int i = 1; i < argc; i++) {
        enum gc_status st = parse_one(argc, argv, &i, program, o, &modes);
        if (st != GC_OK)
            return st;
        /* --help, --version and --help-man win over anything after them, even a bad option. */
        if (o->mode == GC_MODE_HELP || o->mode == GC_MODE_VERSION || o->mode == GC_MODE_MAN)
            return GC_OK;
    }
    /* A scene fills in what the command line did not say. */
    if (o->scene) {
        enum gc_status st = gc_scene_load(o->scene, o);
        if (st != GC_OK)
            return st;
    }
    return check_combinations(o, modes);
}
