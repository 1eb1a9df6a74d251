/* The run's time line: how far it has been computed, the encounter's events found on the way, going back to an earlier time (seek), and starting at a time or an event. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_TIMELINE_H
#define GC_TIMELINE_H

#include "bodies.h"
#include "events.h"
#include "keyframes.h"
#include "sim.h"
#include "snapshots.h"
#include "status.h"
#include "track.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_timeline {
    struct gc_events events;   /* found while the run went beyond its horizon */
    double start;              /* time the run starts at, N-body units (0, or a restart's) */
    double horizon;            /* furthest time computed so far */
    double next_sample;        /* next time beyond the horizon the galaxies are measured */
    struct gc_track track;     /* the latest measurement (valid when track_ok) */
    int track_ok;
    struct gc_bodies *scratch; /* download target, n bodies with the initial tags; not owned */
    int logged;                /* events already told in the log */
    struct gc_keyframes *keys; /* owned; NULL: going back starts over from the start */
    int off_pass;              /* 1 after running backwards: the state is not the first pass's
                                * (time symmetry holds to rounding only) until a keyframe is
                                * restored */
};

/* Starts the time line of a simulation just started from `initial` (its time is the start),
 * and measures the galaxies there. scratch: n bodies the timeline downloads into (their tags
 * are set from initial; the caller may use it between calls). */
enum gc_status gc_timeline_init(struct gc_timeline *tl, struct gc_sim *sim,
                                const struct gc_bodies *initial, struct gc_bodies *scratch);

/* Keeps keyframes from here on (keyframes.h), within `budget` bytes (0: a share of the free
 * memory), so that going back restores the nearest one instead of starting over.
 * GC_ERR_INVALID (logged) for a budget the memory cannot hold; where the run's state cannot
 * be kept (regularised close groups, several ranks) the log says so and going back starts
 * over, as without keyframes. */
enum gc_status gc_timeline_keep(struct gc_timeline *tl, struct gc_sim *sim, size_t budget);
void gc_timeline_free(struct gc_timeline *tl);
/* Changes dt (gc_sim_set_dt; through the keyframes, which keep one where it changes). */
enum gc_status gc_timeline_set_dt(struct gc_timeline *tl, struct gc_sim *sim, float dt);

/* Advances sim to time t, forwards or backwards (the leapfrog runs backwards with -dt; a
 * scheme without a single step cannot: GC_ERR_UNSUPPORTED, logged). Computed time is
 * retraced plainly; beyond the horizon the run goes through the snapshot schedule (snaps
 * may be NULL) and stops every GC_EVENTS_SAMPLE_T to measure the galaxies for events. A
 * time before the start is taken as the start. */
enum gc_status gc_timeline_advance(struct gc_timeline *tl, struct gc_sim *sim,
                                   struct gc_snapshots *snaps, double t);

/* Puts the simulation at time t of its run, computed without drawing: the one place that
 * knows how. It restores the latest keyframe at or before t and steps on (or, without
 * keyframes, starts again from the initial bodies), so the state at t is what the first pass
 * had there, to the bit. A t beyond the horizon is computed (events found on the way);
 * before the start, the start. */
enum gc_status gc_timeline_seek(struct gc_timeline *tl, struct gc_sim *sim,
                                struct gc_snapshots *snaps, const struct gc_bodies *initial,
                                double t);

/* How far the run has been computed, N-body units. */
double gc_timeline_horizon(const struct gc_timeline *tl);
/* The events found so far, in time order. */
const struct gc_events *gc_timeline_events(const struct gc_timeline *tl);

/* --start-at: `spec` is a time in Myr (galaxies) or in Henon units (star clusters), or an
 * event's name (gc_event_parse). Advances sim there before anything is drawn, showing a
 * progress line, and logs how long it took. An event is looked for as the run goes and the
 * run then goes back to it (gc_timeline_seek). Errors (logged, GC_ERR_INVALID): a time
 * before the run's start, an event for a set without two galaxies, an event that never
 * comes (the nuclei merged before it, the galaxies fly apart, or not within
 * GC_EVENTS_LAST_T). */
enum gc_status gc_timeline_start_at(struct gc_timeline *tl, struct gc_sim *sim,
                                    struct gc_snapshots *snaps, const struct gc_bodies *initial,
                                    const char *spec, int henon);

#ifdef __cplusplus
}
#endif
#endif
