/* The values of options: numbers in their ranges, and the options whose values need more than a number (sizes, times, ratios, lengths, disks, camera). */
/* SPDX-License-Identifier: MIT */
#include "cli_values.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"
#include "log.h"
#include "units.h"

/* 1 and *out when s is a whole number in [lo, hi]; silent. */
int gc_cli_whole_in(const char *s, unsigned long long lo, unsigned long long hi,
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

int gc_cli_parse_whole(const char *opt, const char *s, unsigned long long lo,
                       unsigned long long hi, unsigned long long *out)
{
    if (gc_cli_whole_in(s, lo, hi, out))
        return 1;
    gc_log_error("%s expects a whole number from %llu to %llu, got '%s'", opt, lo, hi, s);
    return 0;
}

int gc_cli_parse_number(const char *opt, const char *s, double lo, double hi, double *out)
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
double gc_cli_float_bound(double b, int up)
{
    const float f = (float)b;
    return 0.5 * ((double)f + (double)nextafterf(f, up ? INFINITY : -INFINITY));
}

/* 1 when val is one of the '|'-separated words of choices. */
int gc_cli_is_choice(const char *choices, const char *val)
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
    if (!gc_cli_parse_whole(opt, val, 1, 1000, &u))
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
    if (!gc_cli_parse_number(opt, val, -40.0, 40.0, &ev))
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
    if (!gc_cli_parse_number(opt, val, 0.0, 1e12, &t))
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
    if (!gc_cli_parse_number(opt, val, 1e-7, GC_DT_MAX, &dt))
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
