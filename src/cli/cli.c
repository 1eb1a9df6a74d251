/* Parses and range-checks the command line into struct gc_options, and checks which options go together. */
/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_table.h"
#include "log.h"

/* ---- values ---- */

/* 1 and *out when s is a whole number in [lo, hi]; silent. */
static int whole_in(const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out)
{
    char *end;
    unsigned long long v;
    while (*s == ' ')
        s++;
    if (*s == '-' || *s == '\0')
        return 0;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

static int parse_whole(const char *opt, const char *s, unsigned long long lo,
                       unsigned long long hi, unsigned long long *out)
{
    if (whole_in(s, lo, hi, out))
        return 1;
    gc_log_error("%s expects a whole number from %llu to %llu, got '%s'", opt, lo, hi, s);
    return 0;
}

static int parse_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno || !isfinite(v) || v < lo || v > hi) {
        gc_log_error("%s expects a number from %g to %g, got '%s'", opt, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* 1 when val is one of the '|'-separated words of choices. */
static int is_choice(const char *choices, const char *val)
{
    size_t len = strlen(val);
    for (const char *c = choices; *c;) {
        const char *e = strchr(c, '|');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == len && strncmp(c, val, n) == 0)
            return 1;
        c += n + (e ? 1 : 0);
    }
    return 0;
}

/* Kept as typed: its lower bound is the model's, which a later --model may choose. */
enum gc_status gc_cli_set_bodies(struct gc_options *o, const char *opt, const char *val)
{
    o->n_text = val;
    o->n_option = strcmp(opt, "-n") == 0 ? "-n" : "--bodies";
    return GC_OK;
}

enum gc_status gc_cli_set_substeps(struct gc_options *o, const char *opt, const char *val)
{
    unsigned long long u;
    if (strcmp(val, "auto") == 0) {
        o->substeps = 0;
        return GC_OK;
    }
    if (!parse_whole(opt, val, 1, 1000, &u))
        return GC_ERR_INVALID;
    o->substeps = (unsigned)u;
    return GC_OK;
}

enum gc_status gc_cli_set_exposure(struct gc_options *o, const char *opt, const char *val)
{
    double ev;
    if (strcmp(val, "auto") == 0) {
        o->exposure = NAN;
        return GC_OK;
    }
    if (!parse_number(opt, val, -40.0, 40.0, &ev))
        return GC_ERR_INVALID;
    o->exposure = ev;
    return GC_OK;
}

enum gc_status gc_cli_set_size(struct gc_options *o, const char *opt, const char *val)
{
    int w, h;
    char tail;
    if (sscanf(val, "%dx%d%c", &w, &h, &tail) != 2 || w < 64 || h < 64 || w > 16384 ||
        h > 16384) {
        gc_log_error("%s expects WIDTHxHEIGHT, each 64 to 16384, got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    o->width = w;
    o->height = h;
    return GC_OK;
}

/* 0 means "not given", so the parser takes any finite time > 0 (no smallest step). */
enum gc_status gc_cli_set_snapshot_every(struct gc_options *o, const char *opt, const char *val)
{
    double t;
    if (!parse_number(opt, val, 0.0, 1e12, &t))
        return GC_ERR_INVALID;
    if (!(t > 0.0)) {
        gc_log_error("%s expects a time > 0, got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    o->snapshot_every = t;
    return GC_OK;
}

/* Stores val (NULL for options without one) into the option's field; messages name the
 * option as the user typed it (`typed`). */
static enum gc_status apply(struct gc_options *o, const struct gc_cli_option *op, const char *typed,
                            const char *val)
{
    char *field = (char *)o + op->offset;
    unsigned long long u;
    double d;
    switch (op->kind) {
    case GC_OPT_FLAG: *(int *)field = 1; return GC_OK;
    case GC_OPT_MODE: o->mode = op->mode; return GC_OK;
    case GC_OPT_CUSTOM: return op->custom(o, typed, val);
    case GC_OPT_STRING:
        if (!*val) {
            gc_log_error("%s needs a non-empty value", typed);
            return GC_ERR_INVALID;
        }
        *(const char **)field = val;
        return GC_OK;
    case GC_OPT_CHOICE:
        if (!is_choice(op->choices, val)) {
            gc_log_error("unknown %s '%s'; available: %s", op->name + 2, val, op->choices);
            return GC_ERR_INVALID;
        }
        *(const char **)field = val;
        return GC_OK;
    case GC_OPT_U64:
        if (!parse_whole(typed, val, 0, ULLONG_MAX, &u))
            return GC_ERR_INVALID;
        *(uint64_t *)field = u;
        return GC_OK;
    case GC_OPT_UINT: case GC_OPT_INT: case GC_OPT_SIZE:
        if (!parse_whole(typed, val, (unsigned long long)op->lo, (unsigned long long)op->hi,
                         &u))
            return GC_ERR_INVALID;
        if (op->kind == GC_OPT_UINT)
            *(unsigned *)field = (unsigned)u;
        else if (op->kind == GC_OPT_INT)
            *(int *)field = (int)u;
        else
            *(size_t *)field = (size_t)u;
        return GC_OK;
    case GC_OPT_FLOAT: case GC_OPT_DOUBLE:
        if (!parse_number(typed, val, op->lo, op->hi, &d))
            return GC_ERR_INVALID;
        if (op->kind == GC_OPT_FLOAT)
            *(float *)field = (float)d;
        else
            *(double *)field = d;
        return GC_OK;
    }
    return GC_ERR_INVALID;
}

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

static const struct gc_cli_option *find(const char *name)
{
    for (size_t k = 0; k < gc_cli_noptions; k++)
        if (strcmp(name, gc_cli_options[k].name) == 0 ||
            (gc_cli_options[k].alias && strcmp(name, gc_cli_options[k].alias) == 0))
            return &gc_cli_options[k];
    return NULL;
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

int gc_cli_given(const struct gc_options *o, const char *name)
{
    const struct gc_cli_option *op = find(name);
    const size_t k = op ? (size_t)(op - gc_cli_options) : 128;
    return k < 128 && (o->given[k / 64] >> (k % 64) & 1);
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
    op = find(arg);
    if (!op || !(op->programs & program)) {
        if (arg[0] != '-')
            gc_log_error("unexpected argument '%s' (see --help)", argv[*i]);
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
    {
        const size_t k = (size_t)(op - gc_cli_options);
        if (k < 128)
            o->given[k / 64] |= (uint64_t)1 << (k % 64);
    }
    if (!o->draw_option && (op->section == GC_SEC_WINDOW || strcmp(op->name, "--frames") == 0 ||
                            strcmp(op->name, "--substeps") == 0))
        o->draw_option = op->name;
    return apply(o, op, arg, val);
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
    if (whole_in(o->n_text, lo, hi, &n)) {
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
    if (check_bodies(o) != GC_OK)
        return GC_ERR_INVALID;
    if (o->steps && o->t_end > 0.0) {
        gc_log_error("choose one of --steps (leapfrog steps) and --t-end (a time)");
        return GC_ERR_INVALID;
    }
    if ((o->steps || o->t_end > 0.0) && o->mode == GC_MODE_VIEWER)
        o->mode = GC_MODE_STEPS;
    if (o->program == GC_PROGRAM_BENCH && o->mode != GC_MODE_BENCHMARK &&
        o->mode != GC_MODE_COMPARE && o->mode != GC_MODE_STEPS) {
        gc_log_error("galaxy-bench runs --benchmark, --compare, --steps or --t-end (see --help)");
        return GC_ERR_INVALID;
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
    if (o->report_every > 0.0 && o->mode != GC_MODE_STEPS) {
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
    if ((o->json || o->sweep) && o->mode != GC_MODE_BENCHMARK) {
        gc_log_error("--json and --sweep only apply with --benchmark");
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
    return check_combinations(o, modes);
}
