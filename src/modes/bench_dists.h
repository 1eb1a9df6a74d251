/* The bodies the tree's benchmark is measured on: built-in models as they are, and states reached by running one (the pair at its merger, a cold sphere at its densest). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BENCH_DISTS_H
#define GC_BENCH_DISTS_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A distribution: model `model` as built, or run with the tree (leapfrog, the model's
 * softening, step dt) to time t (> 0), or to the step at which its potential energy is
 * lowest (t < 0: the densest state of a collapse). A run is made at no more than
 * GC_BENCH_DIST_RUN_MAX bodies (a device) or GC_BENCH_DIST_RUN_MAX_HOST (the host), and a
 * larger N made from it by gc_upsample (each body split, parts spread by half the
 * softening). */
struct gc_bench_dist {
    const char *name;  /* as --distributions takes it */
    const char *model; /* gc_models_build's name */
    double t;          /* 0: as built; > 0: run to t; < 0: run to the densest state */
    float dt;          /* the run's leapfrog step */
    const char *what;  /* for the table's header */
};

#define GC_BENCH_DIST_RUN_MAX ((size_t)1 << 20)
#define GC_BENCH_DIST_RUN_MAX_HOST ((size_t)1 << 13)
/* The names --distributions takes ("all": each of them). */
#define GC_BENCH_DIST_NAMES "mw-m31,plummer-wide,hernquist,merger,collapse"

/* The distribution called name, or NULL. */
const struct gc_bench_dist *gc_bench_dist_find(const char *name);
/* n bodies of d from seed into out (empty on entry): built, and when d is a state of a run,
 * run on backend b (its simulation freed again before this returns) at n_run bodies (0: as
 * many as the backend runs them at, up to n), then split into n. ran: NULL, or where the
 * run's state is kept for the next call with the same d and seed (empty at first; the
 * caller frees it): a call that would run at the same size takes it instead. */
enum gc_status gc_bench_dist_build(const struct gc_bench_dist *d, size_t n, size_t n_run,
                                   uint64_t seed, struct gc_backend *b, struct gc_bodies *ran,
                                   struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
