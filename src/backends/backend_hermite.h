/* The Hermite table of a backend: the block-step primitives in double precision that integrator_hermite.c orders, reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_HERMITE_H
#define GC_BACKEND_HERMITE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "hermite_timeline.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Settings of the Hermite block-step primitives (N-body units, G = 1). */
struct gc_hermite_config {
    int order;        /* 4 or 6 */
    double eps2;      /* Plummer softening squared; 0 allowed (self-pairs are skipped) */
    double eta;       /* accuracy parameter of the step criterion (Aarseth / generalised) */
    double eta_start; /* first steps: dt = eta_start |a| / |jerk| */
    double dt_max;    /* largest step (level 0); a tick is dt_max / 2^GC_HERMITE_LEVELS */
    int fixed_level;  /* -1: individual steps by the criterion; k >= 0: every body always
                       * steps dt_max / 2^k (shared fixed steps, for convergence tests) */
    int mixed;        /* 1: a force pass in mixed arithmetic where the backend has one
                       * (CUDA: positions differenced in double, the rest in float) */
};

/* Block-step counters the backend keeps (on the device for CUDA: no host round trip). */
struct gc_hermite_counters {
    uint64_t blocks;      /* block steps since init */
    uint64_t body_steps;  /* sum over block steps of the bodies advanced */
    uint64_t last_active; /* bodies advanced by the latest block step */
    int64_t t_last;       /* tick of the latest block step */
    int error;            /* 0, or GC_HERMITE_ERR_* of hermite_timeline.h (sticky until init) */
    int64_t error_i, error_j; /* bodies involved in the error */
    /* Block steps run by the backend's own device loop (CUDA graph; zeros elsewhere), each
     * timed from the end of the previous one on the device's clock: counts and nanoseconds
     * per bin k of 2^k <= bodies advanced < 2^(k+1). */
    uint64_t loop_steps[GC_HERMITE_TIME_BINS], loop_ns[GC_HERMITE_TIME_BINS];
};

/* The state (x, v, a, jerk, [snap, crackle], per-body time and level) is kept by the
 * backend. Slots are required unless marked optional. */
struct gc_backend_hermite {
    /* Creates the double state from `bodies` (pos64/vel64 when present) at tick 0 and marks
     * every body active at tick 0, so the next predict/force/begin give the first forces. */
    enum gc_status (*init)(struct gc_backend *b, const struct gc_hermite_config *cfg,
                           const struct gc_bodies *bodies);
    /* Start-up only: the forces just computed become the state's derivatives and each
     * body gets its first step (eta_start); called again for 6th order once snap is known. */
    enum gc_status (*begin)(struct gc_backend *b);
    /* Selects the next block: t_next = min_i (t_i + dt_i). If t_next <= t_limit (ticks) the
     * bodies due then become the active set, else nothing is due. *due (when non-NULL)
     * receives 1 or 0; with NULL the result stays on the backend (the repeat slot's loop
     * condition). */
    enum gc_status (*select)(struct gc_backend *b, int64_t t_limit, int *due);
    /* Predicts every body (as a source, j) to the block time. No-op when nothing is due. */
    enum gc_status (*predict)(struct gc_backend *b);
    /* Acceleration, jerk (and snap for 6th order) of the active bodies in the range against
     * all bodies at their predicted state. No-op when nothing is due. */
    enum gc_status (*force)(struct gc_backend *b);
    /* Corrects the active bodies in the range, gives them their next step and moves their
     * time to the block time; updates the counters. No-op when nothing is due. */
    enum gc_status (*correct)(struct gc_backend *b);
    /* Every body predicted to tick t into the arrays that export_positions and download read
     * (download then also fills pos64/vel64/mass64 when the destination has them, and vel.w
     * the time-step level); the state is not changed. */
    enum gc_status (*view)(struct gc_backend *b, int64_t t);
    enum gc_status (*counters)(struct gc_backend *b, struct gc_hermite_counters *out);
    /* Per-body tick of the last step and level (tests of the scheduler, colouring). */
    enum gc_status (*schedule)(struct gc_backend *b, int64_t *t, uint8_t *level);
    /* Per-body acceleration, jerk and (6th order, else zeros; may be NULL) snap of the
     * state, 3n doubles each (tests against a reference, GPU against CPU). */
    enum gc_status (*derivs)(struct gc_backend *b, double *acc, double *jerk, double *snap);
    /* optional (Hermite over several ranks; NULL = one rank only): the state of the bodies
     * of the latest block (corrected, or started by begin) that lie in the range, into dst
     * (room for every body of the block); *count receives how many. */
    enum gc_status (*pack)(struct gc_backend *b, struct gc_hermite_record *dst, size_t *count);
    /* optional, with pack: other ranks' records into this backend's state, so that every
     * rank holds every body's state and selects the same blocks. */
    enum gc_status (*unpack)(struct gc_backend *b, const struct gc_hermite_record *src,
                             size_t count);
    /* optional (NULL: no restartable state): every body's state into all (n records, in
     * body order), for snapshots a run can continue from exactly (unpack restores it). */
    enum gc_status (*state)(struct gc_backend *b, struct gc_hermite_record *all);
    /* optional: runs body(ctx) again and again while the latest select(.., NULL) found a
     * block due, with no host round trip (CUDA: the launches of one call of body are
     * recorded once into a graph with a device-side while loop). NULL = the caller loops. */
    enum gc_status (*repeat)(struct gc_backend *b, enum gc_status (*body)(void *ctx),
                             void *ctx);
    /* optional (NULL: regularised groups couple as point masses): after select and before
     * correct (or begin), additive acceleration and jerk (3 doubles each per body) for the
     * bodies idx[0..count), which that correction adds to what the force pass computed for
     * them and then forgets: the resolved members of a regularised group in place of its
     * centre-of-mass point. */
    enum gc_status (*perturb)(struct gc_backend *b, const int64_t *idx, const double *acc,
                              const double *jerk, size_t count);
};

/* The backend's Hermite table; NULL when it has no Hermite support. */
const struct gc_backend_hermite *gc_backend_hermite(const struct gc_backend *b);

/* NULL-safe wrappers: GC_ERR_UNSUPPORTED (logged) when the backend lacks the table or slot. */
enum gc_status gc_backend_hermite_init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                                       const struct gc_bodies *bodies);
enum gc_status gc_backend_hermite_begin(struct gc_backend *b);
enum gc_status gc_backend_hermite_select(struct gc_backend *b, int64_t t_limit, int *due);
enum gc_status gc_backend_hermite_predict(struct gc_backend *b);
enum gc_status gc_backend_hermite_force(struct gc_backend *b);
enum gc_status gc_backend_hermite_correct(struct gc_backend *b);
enum gc_status gc_backend_hermite_view(struct gc_backend *b, int64_t t);
enum gc_status gc_backend_hermite_counters(struct gc_backend *b, struct gc_hermite_counters *out);
enum gc_status gc_backend_hermite_schedule(struct gc_backend *b, int64_t *t, uint8_t *level);
enum gc_status gc_backend_hermite_derivs(struct gc_backend *b, double *acc, double *jerk,
                                         double *snap);
/* GC_ERR_UNSUPPORTED (logged) when the backend cannot exchange Hermite state between ranks. */
enum gc_status gc_backend_hermite_pack(struct gc_backend *b, struct gc_hermite_record *dst,
                                       size_t *count);
enum gc_status gc_backend_hermite_unpack(struct gc_backend *b,
                                         const struct gc_hermite_record *src, size_t count);
/* Every body's state (n records); GC_ERR_UNSUPPORTED (not logged: callers then write a
 * snapshot without it) when the backend cannot give it. */
enum gc_status gc_backend_hermite_state(struct gc_backend *b, struct gc_hermite_record *all);
/* 1 when the backend can give every body's state and take it back (state and unpack). */
int gc_backend_hermite_has_state(const struct gc_backend *b);
/* 1 when the backend can give the latest block's records alone (pack). */
int gc_backend_hermite_has_pack(const struct gc_backend *b);
/* GC_ERR_UNSUPPORTED (not logged) without a perturb slot. */
enum gc_status gc_backend_hermite_perturb(struct gc_backend *b, const int64_t *idx,
                                          const double *acc, const double *jerk, size_t count);
/* 1 when the backend runs the block-step loop itself (a repeat slot). */
int gc_backend_hermite_has_repeat(const struct gc_backend *b);
/* Runs body(ctx) while a block is due, on the backend (body's selects must then pass
 * due = NULL). GC_ERR_UNSUPPORTED (logged) without a repeat slot. */
enum gc_status gc_backend_hermite_repeat(struct gc_backend *b, enum gc_status (*body)(void *ctx),
                                         void *ctx);

#ifdef __cplusplus
}
#endif
#endif
