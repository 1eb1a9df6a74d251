/* Before a run: how long a step will take on this backend (timed on a sample of the bodies) and whether the run fits in memory. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_PLAN_H
#define GC_PLAN_H

#include "backend.h"
#include "bodies.h"
#include "cli.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A step estimated to take longer than this is told about before the run (seconds). */
#define GC_PLAN_SLOW_STEP_S 10.0

struct gc_plan {
    double step_s;        /* estimated wall seconds of one step (leapfrog) or one force pass
                           * over every body (Hermite); 0 when not estimated (a small run) */
    double bytes_needed;  /* estimated memory the run still allocates on the host, bytes */
    double bytes_free;    /* memory available to the process (MemAvailable, RLIMIT_AS) */
    size_t n_one_second;  /* bodies whose step takes about 1 s here */
};

/* For a run of `bodies` with options o on backend (over `ranks` ranks): times a step of a
 * sample (up to a few thousand bodies, scaled as the force method's cost), estimates the
 * memory the run needs, and says so when a step will take longer than GC_PLAN_SLOW_STEP_S
 * (with what would make it faster: fewer bodies, the GPU, the tree). Refuses
 * (GC_ERR_NOMEM, logged) only a run that cannot fit in memory. out may be NULL. */
enum gc_status gc_plan_check(const struct gc_options *o, const struct gc_bodies *bodies,
                             struct gc_backend *backend, int ranks, struct gc_plan *out);

#ifdef __cplusplus
}
#endif
#endif
