/* Keyframes: the run's whole state kept as it goes, within a memory budget, so that any earlier time is reached again by restoring the nearest keyframe before it and stepping on: the same bits as the first pass. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_KEYFRAMES_H
#define GC_KEYFRAMES_H

#include <stddef.h>

#include "sim.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The part of the free memory (the backend's: a GPU's own, else the host's) that keyframes
 * take when no budget is given: most of it stays for everything else. */
#define GC_KEYFRAMES_SHARE 0.5
/* Simulated time between keyframes at first (N-body units: 25 leapfrog steps of the galaxy
 * default); it doubles each time the budget is full and every other keyframe is dropped. */
#define GC_KEYFRAMES_FIRST_EVERY 0.25
/* The most keyframes kept, whatever the budget: with the interval doubling each time they
 * fill, more would only make jumps a few steps shorter. */
#define GC_KEYFRAMES_MAX 4096

struct gc_keyframes;

/* What the store holds now, for the timeline and the statistics. */
struct gc_keyframes_info {
    size_t count;       /* keyframes kept */
    size_t capacity;    /* keyframes the budget holds */
    size_t bytes_each;  /* memory one takes */
    size_t budget;      /* bytes for all of them */
    int on_device;      /* 1: in the backend's own memory (a GPU's) */
    double every;       /* simulated time between them now */
    double first, last; /* times of the first and the latest kept */
    double reached;     /* the latest time the run has been computed to (forward) */
};

/* A store for the simulation s, which must outlive it. budget: bytes for keyframes; 0 = a
 * share of the free memory (GC_KEYFRAMES_SHARE). The state at s's time now is the first
 * keyframe. GC_ERR_INVALID (logged, naming both) when budget is more than the memory free,
 * or too small for two keyframes; GC_ERR_UNSUPPORTED (not logged) when the run's state cannot
 * be kept (regularised groups, several ranks). */
enum gc_status gc_keyframes_create(struct gc_sim *s, size_t budget, struct gc_keyframes **out);
void gc_keyframes_destroy(struct gc_keyframes *k);
/* After the simulation advanced: when it went forward past the latest time computed, keeps
 * a keyframe at each multiple of `every` it reached (the state there: call it after every
 * advance of at most `every`, as a frame loop does), dropping every other one when the
 * budget is full. A change of dt since the latest keyframe keeps one now, so that dt is
 * constant between keyframes. Cheap when nothing is due. */
enum gc_status gc_keyframes_note(struct gc_keyframes *k);
/* Brings the simulation to time t, earlier or later than now: from the latest keyframe at or
 * before t, stepped on with the dt it was computed with (then the current dt is set again),
 * or from where the simulation is when that is on the way and still on the first pass. */
enum gc_status gc_keyframes_seek(struct gc_keyframes *k, double t);
/* Changes dt (gc_sim_set_dt) with a keyframe kept first, so that the steps between two
 * keyframes share one dt. A negative dt runs backwards: the states then reached are not the
 * first pass's (time symmetry holds to rounding only), so nothing is kept until the run
 * goes forward again, which first returns to the first pass (a seek to where it is). */
enum gc_status gc_keyframes_set_dt(struct gc_keyframes *k, float dt);
void gc_keyframes_info(const struct gc_keyframes *k, struct gc_keyframes_info *out);

#ifdef __cplusplus
}
#endif
#endif
