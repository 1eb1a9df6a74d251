/* Pericentre passages and the merger found in the galaxies' measured separation, and the next passage of the point-mass (Kepler) orbit. */
/* SPDX-License-Identifier: MIT */
#include "events.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The initial bodies are measured from at most this many samples (as the viewer's track). */
#define INIT_SAMPLES 32768
/* A pericentre is a passage only when the nuclei came in from at least this many times
 * farther, and from farther by this share of the merger radius: the measured centres jitter
 * (medians of a few hundred bulge bodies at small N) and must not make passages of noise. */
#define PASSAGE_RATIO 1.5f
#define PASSAGE_RISE 0.5f

static const char *const ORDINAL[] = {"first", "second", "third", "fourth", "fifth"};
#define NORDINAL ((int)(sizeof ORDINAL / sizeof ORDINAL[0]))

void gc_events_init(struct gc_events *e, const struct gc_bodies *initial)
{
    struct gc_track t;
    memset(e, 0, sizeof *e);
    e->inside_since = -1.0;
    for (size_t i = 0; i < initial->n; i++)
        e->mass[GC_TAG_GALAXY(initial->tag[i])] += initial->pos[4 * i + 3];
    /* Two galaxies with disks: a cluster's stars (GC_STAR) have no nuclei to follow. */
    for (size_t i = 0; i < initial->n; i++)
        if (GC_TAG_COMPONENT(initial->tag[i]) == GC_STAR)
            return;
    if (gc_track_measure(initial, INIT_SAMPLES, &t) != GC_OK || t.galaxies != 2)
        return;
    e->pair = 1;
    e->merge_radius = (float)GC_EVENTS_MERGER_RADIUS * (t.half_mass[0] + t.half_mass[1]);
}

static void relative(const struct gc_track *tr, double d[3], double u[3])
{
    for (int k = 0; k < 3; k++) {
        d[k] = (double)tr->centre[1][k] - tr->centre[0][k];
        u[k] = (double)tr->vel[1][k] - tr->vel[0][k];
    }
}

/* Rate of change of the separation, from the centres' mean velocities. */
static float radial_velocity(const struct gc_track *tr)
{
    double d[3], u[3], r;
    relative(tr, d, u);
    r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    return r > 0.0 ? (float)((d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) / r) : 0.0f;
}

static int passages(const struct gc_events *e)
{
    int n = 0;
    for (int k = 0; k < e->count; k++)
        n += e->list[k].kind == GC_EVENT_PASSAGE;
    return n + e->pending;
}

static int add(struct gc_events *e, const struct gc_event *ev)
{
    if (e->count >= GC_EVENTS_MAX)
        return 0;
    e->list[e->count++] = *ev;
    return 1;
}

/* The separation's minimum between the latest measurement and this one (the radial velocity
 * went from < 0 to >= 0): a passage, unless it is the jitter of nuclei already together. */
static int pericentre(struct gc_events *e, double t, float sep, float vr)
{
    struct gc_event ev;
    const float f = e->vr_last / (e->vr_last - vr);
    ev.kind = GC_EVENT_PASSAGE;
    ev.t = e->t_last + (double)f * (t - e->t_last);
    ev.separation = fminf(e->sep_last, sep);
    if (e->sep_far < PASSAGE_RATIO * ev.separation ||
        e->sep_far - ev.separation < PASSAGE_RISE * e->merge_radius)
        return 0;
    e->sep_far = sep;
    if (e->pending)
        return 0; /* still inside the merger radius since the one held */
    ev.number = passages(e) + 1;
    if (ev.separation < e->merge_radius) {
        /* A passage if the nuclei part again, the merger's start if they stay together. */
        e->pending = 1;
        e->held = ev;
        return 0;
    }
    return add(e, &ev);
}

int gc_events_observe(struct gc_events *e, double t, const struct gc_track *tr)
{
    const float r = e->merge_radius;
    float sep, vr;
    int added = 0;
    if (!e->pair || tr->galaxies != 2 || e->merged || (e->seen && !(t > e->t_last)))
        return 0;
    sep = tr->separation;
    vr = radial_velocity(tr);
    if (!e->seen) {
        e->seen = 1;
        e->sep_far = e->sep_max = sep;
        e->inside_since = sep < r ? t : -1.0;
    } else {
        if (e->vr_last < 0.0f && vr >= 0.0f)
            added += pericentre(e, t, sep, vr);
        if (sep < r && e->inside_since < 0.0) {
            /* Came inside between the two measurements: where the separation crossed r. */
            double f = e->sep_last > sep ? (double)(e->sep_last - r) / (e->sep_last - sep) : 0.0;
            e->inside_since = e->t_last + f * (t - e->t_last);
        } else if (sep >= r) {
            e->inside_since = -1.0;
            if (e->pending)
                added += add(e, &e->held);
            e->pending = 0;
        }
        if (e->inside_since >= 0.0 && t - e->inside_since >= GC_EVENTS_MERGER_HOLD_T) {
            struct gc_event m = {GC_EVENT_MERGER, 1, e->inside_since, r};
            if (e->count > 0 && m.t < e->list[e->count - 1].t)
                m.t = e->list[e->count - 1].t;
            e->pending = 0;
            e->merged = 1;
            added += add(e, &m);
        }
    }
    e->sep_far = fmaxf(e->sep_far, sep);
    e->sep_max = fmaxf(e->sep_max, sep);
    e->t_last = t;
    e->sep_last = sep;
    e->vr_last = vr;
    return added;
}

int gc_events_over(const struct gc_events *e, const struct gc_track *tr)
{
    double d[3], u[3], r, v2;
    if (e->merged)
        return 1;
    if (!e->pair || tr->galaxies != 2)
        return 0;
    relative(tr, d, u);
    r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    v2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    return radial_velocity(tr) > 0.0f && 0.5 * v2 - (e->mass[0] + e->mass[1]) / r > 0.0 &&
           tr->separation >= e->sep_max;
}

const struct gc_event *gc_events_find(const struct gc_events *e, enum gc_event_kind kind,
                                      int number)
{
    for (int k = 0; k < e->count; k++)
        if (e->list[k].kind == kind && e->list[k].number == number)
            return &e->list[k];
    return NULL;
}

const struct gc_event *gc_events_next(const struct gc_events *e, double t, double slack)
{
    for (int k = 0; k < e->count; k++)
        if (e->list[k].t > t + slack)
            return &e->list[k];
    return NULL;
}

const struct gc_event *gc_events_prev(const struct gc_events *e, double t, double slack)
{
    for (int k = e->count - 1; k >= 0; k--)
        if (e->list[k].t < t - slack)
            return &e->list[k];
    return NULL;
}

void gc_event_name(const struct gc_event *ev, char *buf, size_t cap)
{
    if (ev->kind == GC_EVENT_MERGER)
        snprintf(buf, cap, "merger");
    else if (ev->number >= 1 && ev->number <= NORDINAL)
        snprintf(buf, cap, "%s passage", ORDINAL[ev->number - 1]);
    else
        snprintf(buf, cap, "passage %d", ev->number);
}

int gc_event_parse(const char *s, enum gc_event_kind *kind, int *number)
{
    char tail;
    int n;
    if (strcmp(s, "merger") == 0 || strcmp(s, "coalescence") == 0) {
        *kind = GC_EVENT_MERGER;
        *number = 1;
        return 1;
    }
    for (int k = 0; k < NORDINAL; k++) {
        size_t len = strlen(ORDINAL[k]);
        if (strncmp(s, ORDINAL[k], len) == 0 && strcmp(s + len, "-passage") == 0) {
            *kind = GC_EVENT_PASSAGE;
            *number = k + 1;
            return 1;
        }
    }
    if (sscanf(s, "passage-%d%c", &n, &tail) == 1 && n >= 1 && n <= GC_EVENTS_MAX &&
        strspn(s + 8, "0123456789") == strlen(s + 8)) {
        *kind = GC_EVENT_PASSAGE;
        *number = n;
        return 1;
    }
    return 0;
}

double gc_kepler_time_to_pericentre(const double d[3], const double u[3], double m)
{
    const double r = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const double v2 = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    const double rv = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
    const double hx = d[1] * u[2] - d[2] * u[1], hy = d[2] * u[0] - d[0] * u[2],
                 hz = d[0] * u[1] - d[1] * u[0];
    const double h2 = hx * hx + hy * hy + hz * hz;
    const double energy = 0.5 * v2 - m / r;
    double e, a, n, mean;
    if (!(m > 0.0) || !(r > 0.0) || !(rv < 0.0))
        return -1.0; /* not approaching: the pericentre is behind */
    e = sqrt(fmax(0.0, 1.0 + 2.0 * energy * h2 / (m * m)));
    if (fabs(e - 1.0) < 1e-6) {
        /* Parabolic (Barker's equation): r = q (1 + D^2), D = tan(f/2) < 0 on the way in. */
        const double q = h2 / (2.0 * m), dd = -sqrt(fmax(0.0, r / q - 1.0));
        return -sqrt(2.0 * q * q * q / m) * (dd + dd * dd * dd / 3.0);
    }
    if (e < 1.0) {
        double ecc;
        a = -m / (2.0 * energy);
        n = sqrt(m / (a * a * a));
        ecc = atan2(rv / sqrt(m * a), 1.0 - r / a); /* e sin E, e cos E */
        mean = ecc - e * sin(ecc);                  /* in (-pi, 0) on the way in */
        return -mean / n;
    }
    a = m / (2.0 * energy);
    n = sqrt(m / (a * a * a));
    {
        const double hyp = asinh(rv / (e * sqrt(m * a))); /* e sinh H = r.v / sqrt(m a) */
        mean = e * sinh(hyp) - hyp;                        /* < 0 on the way in */
        return -mean / n;
    }
}

double gc_events_predict(const struct gc_events *e, const struct gc_track *tr)
{
    double d[3], u[3];
    if (!e->pair || e->merged || tr->galaxies != 2)
        return -1.0;
    relative(tr, d, u);
    return gc_kepler_time_to_pericentre(d, u, e->mass[0] + e->mass[1]);
}
