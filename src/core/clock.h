/* A monotonic clock for timing runs, frames and their parts. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CLOCK_H
#define GC_CLOCK_H

#ifdef __cplusplus
extern "C" {
#endif

/* Seconds on a monotonic clock (differences only: its origin is arbitrary). */
double gc_clock_seconds(void);

#ifdef __cplusplus
}
#endif

#endif
