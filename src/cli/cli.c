/* Parses and range-checks the command line into struct gc_options, and checks which options go together. */
/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_table.h"
#include "events.h"
#include "log.h"
#include "scenario.h"
#include "units.h"

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

/* A float field's bound b as a double: every value that rounds to the float bound is in
 * (0.05f is 0.0500000007, so "--theta 0.05", which becomes 0.05f, was refused). Halfway to
 * the next float outwards. */
static double float_bound(double b, int up)
{
    const float f = (float)b;
    return 0.5 * ((double)f + (double)nextafterf(f, up ? INFINITY : -INFINITY));
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
    /* a scene's "FILE:LINE: bodies" (lasting: it is in scene_text) */
    o->n_option = strcmp(opt, "-n") == 0 ? "-n" : opt[0] == '-' ? "--bodies" : opt;
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

/* The step's size: a negative one is refused with the way to run backwards. */
enum gc_status gc_cli_set_dt(struct gc_options *o, const char *opt, const char *val)
{
    double dt;
    char *end;
    if (strtod(val, &end) < 0.0 && end != val && *end == '\0') {
        gc_log_error("%s is the size of a step (> 0), got '%s': the window runs time "
                     "backwards with 'j' (docs/usage.md)", opt, val);
        return GC_ERR_INVALID;
    }
    if (!parse_number(opt, val, 1e-7, GC_DT_MAX, &dt))
        return GC_ERR_INVALID;
    o->params.dt = (float)dt;
    return GC_OK;
}

/* A time >= 0 or an event's name; the time's unit and bound wait for the model. */
enum gc_status gc_cli_set_start_at(struct gc_options *o, const char *opt, const char *val)
{
    enum gc_event_kind kind;
    int number;
    char *end;
    double t;
    if (gc_event_parse(val, &kind, &number)) {
        o->start_at = val;
        return GC_OK;
    }
    errno = 0;
    t = strtod(val, &end);
    if (end == val || *end != '\0' || errno || !isfinite(t) || t < 0.0) {
        gc_log_error("%s expects a time >= 0 (Myr since the start) or an event: "
                     "first-passage, second-passage, ..., passage-N, merger; got '%s'", opt,
                     val);
        return GC_ERR_INVALID;
    }
    o->start_at = val;
    return GC_OK;
}

/* ---- the encounter's values ---- */

/* A number that fills all of s (spaces around allowed); silent. */
static int number_in(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s)
        return 0;
    while (*end == ' ')
        end++;
    if (*end != '\0' || errno || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

/* The len characters at s as a string in buf (size bytes); 0 when they do not fit. */
static int part(char *buf, size_t size, const char *s, size_t len)
{
    if (len >= size)
        return 0;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return 1;
}

/* "1:10" or "0.1": the companion's mass over the primary's. */
enum gc_status gc_cli_set_mass_ratio(struct gc_options *o, const char *opt, const char *val)
{
    double q = NAN, a, b;
    const char *colon = strchr(val, ':');
    char head[64];
    if (colon) {
        if (part(head, sizeof head, val, (size_t)(colon - val)) && number_in(head, &a) &&
            number_in(colon + 1, &b) && a > 0.0 && b > 0.0)
            q = a / b;
    } else if (!number_in(val, &q)) {
        q = NAN;
    }
    if (!(q >= GC_ENCOUNTER_Q_MIN * (1.0 - 1e-12) && q <= GC_ENCOUNTER_Q_MAX)) {
        gc_log_error("%s expects the companion's mass to the primary's from 1:20 to 1:1 "
                     "(or 0.05 to 1), got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    o->enc_opt.mass_ratio = fmax(q, GC_ENCOUNTER_Q_MIN);
    return GC_OK;
}

/* A length "12kpc" (kpc) or "3.75" (N-body units, as --eps takes lengths) in [lo, hi] kpc;
 * 0 as well when zero_ok. Returns 1 and N-body units in *out, or logs and returns 0. */
static int parse_length(const char *opt, const char *val, double lo, double hi, int zero_ok,
                        double *out)
{
    const double u = GC_KPC_PER_LENGTH_UNIT;
    char num[64];
    size_t len = strlen(val);
    double v, kpc;
    int in_kpc = len > 3 && strcmp(val + len - 3, "kpc") == 0;
    if (in_kpc)
        len -= 3;
    if (part(num, sizeof num, val, len)) {
        if (number_in(num, &v)) {
            kpc = in_kpc ? v : v * u;
            if ((kpc >= lo && kpc <= hi) || (zero_ok && v == 0.0)) {
                *out = kpc / u;
                return 1;
            }
        }
    }
    gc_log_error("%s expects a distance from %g to %g kpc%s: a number with kpc (e.g. 12kpc) "
                 "or in N-body units of %g kpc (%g to %g), got '%s'", opt, lo, hi,
                 zero_ok ? " (or 0: the default)" : "", u, lo / u, hi / u, val);
    return 0;
}

enum gc_status gc_cli_set_pericentre(struct gc_options *o, const char *opt, const char *val)
{
    return parse_length(opt, val, GC_ENCOUNTER_RP_MIN_KPC, GC_ENCOUNTER_RP_MAX_KPC, 0,
                        &o->enc_opt.pericentre) ? GC_OK : GC_ERR_INVALID;
}

enum gc_status gc_cli_set_separation(struct gc_options *o, const char *opt, const char *val)
{
    if (strcmp(val, "auto") == 0) {
        o->enc_opt.separation = 0.0;
        return GC_OK;
    }
    return parse_length(opt, val, GC_ENCOUNTER_RP_MIN_KPC, GC_ENCOUNTER_SEP_MAX_KPC, 1,
                        &o->enc_opt.separation) ? GC_OK : GC_ERR_INVALID;
}

/* prograde | retrograde | polar | I,OMEGA (degrees) for --primary-disk or --companion-disk. */
enum gc_status gc_cli_set_disk(struct gc_options *o, const char *opt, const char *val)
{
    struct gc_encounter_disk d = {NAN, 0.0};
    const char *comma = strchr(val, ',');
    if (strcmp(val, "prograde") == 0) {
        d.incl = 0.0;
    } else if (strcmp(val, "retrograde") == 0) {
        d.incl = 180.0;
    } else if (strcmp(val, "polar") == 0) {
        d.incl = 90.0;
    } else if (comma) {
        char head[64];
        if (!part(head, sizeof head, val, (size_t)(comma - val)) || !number_in(head, &d.incl) ||
            !number_in(comma + 1, &d.omega) || !(d.omega >= -180.0 && d.omega <= 180.0))
            d.incl = NAN;
    }
    if (!(d.incl >= 0.0 && d.incl <= 180.0)) {
        gc_log_error("%s expects prograde, retrograde, polar or I,OMEGA in degrees (Toomre & "
                     "Toomre's inclination 0 to 180 and argument of pericentre -180 to 180), "
                     "got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    /* opt is "--companion-disk" as typed, or a scene's "FILE:LINE: companion-disk" */
    size_t lo = strlen(opt), lc = strlen("companion-disk");
    if (lo >= lc && strcmp(opt + lo - lc, "companion-disk") == 0)
        o->enc_opt.companion = d;
    else
        o->enc_opt.primary = d;
    return GC_OK;
}

/* AZ,EL,DIST[,X,Y,Z]: the eye's azimuth and elevation (degrees), distance and target. */
enum gc_status gc_cli_set_camera(struct gc_options *o, const char *opt, const char *val)
{
    double c[6] = {0, 0, 0, 0, 0, 0};
    int k = 0;
    const char *at = val;
    char num[64];
    while (k < 6) {
        const char *comma = strchr(at, ',');
        if (!part(num, sizeof num, at, comma ? (size_t)(comma - at) : strlen(at)) ||
            !number_in(num, &c[k]))
            break;
        k++;
        if (!comma) {
            at = NULL;
            break;
        }
        at = comma + 1;
    }
    if (at || (k != 3 && k != 6) || !(c[1] >= -89.0 && c[1] <= 89.0) ||
        !(c[2] > 0.0 && c[2] <= 1e6) || fabs(c[3]) > 1e6 || fabs(c[4]) > 1e6 ||
        fabs(c[5]) > 1e6) {
        gc_log_error("%s expects AZ,EL,DIST or AZ,EL,DIST,X,Y,Z: the eye's azimuth and "
                     "elevation in degrees (elevation -89 to 89), its distance (> 0) and the "
                     "point it looks at (N-body units), got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    memcpy(o->camera, c, sizeof c);
    o->camera_given = 1;
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
            if (typed[0] == '-')
                gc_log_error("unknown %s '%s'; available: %s", op->name + 2, val, op->choices);
            else
                gc_log_error("%s: unknown value '%s'; available: %s", typed, val, op->choices);
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
        if (!parse_number(typed, val, op->kind == GC_OPT_FLOAT ? float_bound(op->lo, 0) : op->lo,
                          op->kind == GC_OPT_FLOAT ? float_bound(op->hi, 1) : op->hi, &d))
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

const struct gc_cli_option *gc_cli_find(const char *name)
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

enum gc_status gc_cli_check_number(const char *name, double v, const char *from)
{
    const struct gc_cli_option *op = gc_cli_find(name);
    if (!op || (isfinite(v) && v >= op->lo && v <= op->hi))
        return GC_OK;
    gc_log_error("%s: %s %g is out of range (%s takes %g to %g)", from, name + 2, v, name, op->lo,
                 op->hi);
    return GC_ERR_INVALID;
}

int gc_cli_given(const struct gc_options *o, const char *name)
{
    const struct gc_cli_option *op = gc_cli_find(name);
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

enum gc_status gc_cli_apply(struct gc_options *o, const struct gc_cli_option *op,
                            const char *typed, const char *val)
{
    const size_t k = (size_t)(op - gc_cli_options);
    if (k < 128)
        o->given[k / 64] |= (uint64_t)1 << (k % 64);
    return apply(o, op, typed, val);
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
