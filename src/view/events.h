/* The encounter's events (pericentre passages, the merger) detected from the galaxies' centres as a run goes, and the next passage predicted (no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_EVENTS_H
#define GC_EVENTS_H

#include <stddef.h>

#include "bodies.h"
#include "track.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_event_kind {
    GC_EVENT_PASSAGE = 0, /* a pericentre passage of the two nuclei */
    GC_EVENT_MERGER       /* the nuclei coalesced: they stay closer than the merger radius */
};

struct gc_event {
    enum gc_event_kind kind;
    int number;           /* passages: 1 for the first, 2 for the second...; merger: 1 */
    double t;             /* when, N-body time units */
    float separation;     /* of the nuclei then, N-body length units */
};

/* Events kept: passages beyond this many are not recorded (none of the encounters this
 * program builds has half as many before its nuclei merge). */
#define GC_EVENTS_MAX 16
/* Simulated time between two measurements of the galaxies, N-body units (4.5 Myr): at the
 * first passage of the built-in pair the nuclei move ~0.4 of their pericentre distance in
 * that time, and the passage's time is interpolated between two measurements. */
#define GC_EVENTS_SAMPLE_T 0.25
/* The nuclei have merged once they stay closer than GC_EVENTS_MERGER_RADIUS times the sum of
 * the two disks' initial half-mass radii for GC_EVENTS_MERGER_HOLD_T (90 Myr): longer than a
 * passage of the sinking nuclei takes to swing out and back, so a close passage after which
 * they part again is not taken for the merger. */
#define GC_EVENTS_MERGER_RADIUS 0.3
#define GC_EVENTS_MERGER_HOLD_T 5.0

/* The latest time events are looked for, and the furthest --start-at goes, N-body units
 * (18 Gyr): longer than any encounter this program builds takes to merge. */
#define GC_EVENTS_LAST_T 1000.0

struct gc_events {
    struct gc_event list[GC_EVENTS_MAX];
    int count;                /* events found, in time order */
    int pair;                 /* 1 = two galaxies to follow; 0 = nothing to detect */
    double mass[2];           /* each galaxy's total mass (halo included), for predictions */
    float merge_radius;       /* separation below which the nuclei may have merged */
    /* detection state */
    int seen;                 /* a measurement was taken */
    double t_last;            /* time of the latest measurement */
    float sep_last, vr_last;  /* separation and its rate of change then */
    float sep_far;            /* largest separation since the last passage (or the start) */
    float sep_max;            /* largest separation measured */
    int pending;              /* a pericentre inside the merger radius, not yet known to be a
                               * passage (the nuclei part again) or the merger */
    struct gc_event held;     /* that pericentre */
    double inside_since;      /* when the nuclei last came inside the merger radius; < 0 =
                               * they are outside */
    int merged;               /* the merger was found: no passage follows */
};

/* Starts detection for the bodies a run starts from (their galaxies' masses and sizes). A
 * set without two galaxies of stars (a star cluster, one galaxy) has nothing to detect:
 * pair = 0 and gc_events_observe does nothing. */
void gc_events_init(struct gc_events *e, const struct gc_bodies *initial);
/* One measurement of the galaxies at time t; measurements at or before the latest one are
 * ignored, so a run that goes back and forth over computed time adds nothing twice.
 * Returns the number of events it added (0, 1 or 2). */
int gc_events_observe(struct gc_events *e, double t, const struct gc_track *tr);
/* 1 when no further event can come: the nuclei merged, or they recede on an unbound
 * orbit (point masses of the galaxies' masses, beyond twice the largest separation seen).
 * `tr` is the latest measurement. */
int gc_events_over(const struct gc_events *e, const struct gc_track *tr);

/* The event of that kind and number, or NULL when not (yet) found. */
const struct gc_event *gc_events_find(const struct gc_events *e, enum gc_event_kind kind,
                                      int number);
/* The first event after t (strictly later than t + slack), the last one before t (earlier than
 * t - slack); NULL when none. */
const struct gc_event *gc_events_next(const struct gc_events *e, double t, double slack);
const struct gc_event *gc_events_prev(const struct gc_events *e, double t, double slack);
/* "first passage", "second passage", ..., "merger". */
void gc_event_name(const struct gc_event *ev, char *buf, size_t cap);
/* Reads an event's name as the command line gives it: "first-passage" ... "fifth-passage",
 * "passage-N", "merger" or "coalescence". 1 on success. */
int gc_event_parse(const char *s, enum gc_event_kind *kind, int *number);

/* Time until the next pericentre of two point masses of the galaxies' total masses at the
 * centres and mean velocities of `tr`, N-body units; -1 when they are not approaching each
 * other (the Kepler orbit has no pericentre ahead that the galaxies would keep to). */
double gc_events_predict(const struct gc_events *e, const struct gc_track *tr);
/* The same for a relative position d, velocity u and total mass m (a Kepler orbit). */
double gc_kepler_time_to_pericentre(const double d[3], const double u[3], double m);

#ifdef __cplusplus
}
#endif
#endif
