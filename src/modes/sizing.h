/* Without a GPU: the body count and steps a frame that keep the window live on this machine, from steps timed at start. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SIZING_H
#define GC_SIZING_H

#include <stddef.h>

#include "backend.h"
#include "cli.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The window keeps this many frames a second, its steps taking at most this share of each
 * frame: without a GPU the picture is drawn by a software GL renderer on the same cores,
 * and its drawing takes more than half of a frame at the default window size. */
#define GC_SIZING_FPS 30.0
#define GC_SIZING_STEP_SHARE 0.3
/* Two steps a frame (10.8 Myr a second at 30 frames/s: the first passage, 270 Myr in, after
 * 25 s), or one (5.4 Myr/s, 50 s) where two would leave fewer than GC_SIZING_MIN_N bodies:
 * never fewer than that, however slow the machine (below it the tails are a few dozen
 * stars), never more than GC_SIZING_MAX_N. N is a multiple of GC_SIZING_ROUND. */
#define GC_SIZING_MIN_N 2048
#define GC_SIZING_MAX_N 1048576
#define GC_SIZING_ROUND 1024

/* What a step costs on this backend: all pairs grow as N^2, the tree as N log2 N. */
struct gc_sizing_costs {
    double pair_s;     /* all pairs: seconds a step per N^2 */
    double tree_s;     /* tree: seconds a step per N log2 N (0 = not timed) */
    size_t tree_above; /* the step takes the tree above this N: 0 = always, SIZE_MAX = never */
};

struct gc_sizing {
    size_t n;          /* bodies */
    unsigned steps;    /* steps a frame */
    double step_s;     /* predicted seconds of one step at n */
};

/* Predicted seconds of one step of n bodies. */
double gc_sizing_step_s(const struct gc_sizing_costs *c, size_t n);
/* The largest n (a multiple of GC_SIZING_ROUND in [GC_SIZING_MIN_N, GC_SIZING_MAX_N]) whose
 * steps fit the share of a frame, at two steps a frame or else one. */
void gc_sizing_choose(const struct gc_sizing_costs *c, struct gc_sizing *out);
/* Times a few steps of the built-in pair on backend (a few tenths of a second), with the
 * run's force method (o->params.force) and time step. */
enum gc_status gc_sizing_measure(const struct gc_options *o, struct gc_backend *backend,
                                 struct gc_sizing_costs *out);
/* 1 when the run is one to size: the window, no -n, galaxies with the leapfrog (a built-in
 * galaxy model or a table), no snapshot to continue, and no GPU asked for. */
int gc_sizing_wanted(const struct gc_options *o);
/* For such a run on a backend without a device: measures, sets o->n and (unless
 * --substeps was given) o->substeps, and says so in one line (with why the backend was
 * taken); on a device, only that backend line. Status: GC_OK unless the measuring failed. */
enum gc_status gc_sizing_apply(struct gc_options *o, struct gc_backend *backend);

#ifdef __cplusplus
}
#endif
#endif
