/* The Hermite block-step timeline (levels, ticks), its error codes and the state ranks exchange: plain data for backends, kernels and the integrator. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_TIMELINE_H
#define GC_HERMITE_TIMELINE_H

#include <stdint.h>

/* Block time steps live on an integer timeline: level k has the step dt_max / 2^k, and
 * GC_HERMITE_LEVELS levels fit below dt_max, so a tick is dt_max / 2^GC_HERMITE_LEVELS and
 * every time and step is a whole number of ticks. Commensurability ("t_i is a multiple of
 * dt_i") is then an exact integer test, and times never drift by rounding. 40 levels reach
 * steps 1e-12 of dt_max; int64 ticks reach 8 million dt_max. */
#define GC_HERMITE_LEVELS 40
#define GC_HERMITE_TICKS(level) ((int64_t)1 << (GC_HERMITE_LEVELS - (level)))

/* Bins of the block-step timing by log2 of the bodies a block step advances. */
#define GC_HERMITE_TIME_BINS 32

/* What the backends record when a block step goes wrong (gc_hermite_counters.error). */
#define GC_HERMITE_ERR_COINCIDENT 1 /* two bodies at the same place with eps = 0 */
#define GC_HERMITE_ERR_LEVELS 2     /* a step below the finest level was needed */
#define GC_HERMITE_ERR_NONFINITE 3  /* a force or state became NaN or infinite */

/* One body's Hermite state as ranks exchange it after a block step: everything another
 * rank needs to predict the body as a source, to draw it, and to select the next block
 * exactly as this rank would. Plain data, the same on every rank and on the device. */
struct gc_hermite_record {
    int64_t i;        /* body index */
    int64_t t;        /* tick of the state */
    int64_t level;    /* step level: dt_max / 2^level */
    double x[3], v[3], a[3], j[3], s[3], c[3]; /* position ... crackle at tick t */
};

#endif
