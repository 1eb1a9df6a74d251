/* Time-stepping schemes behind one interface: each scheme is one file, chosen by name at run time. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INTEGRATOR_H
#define GC_INTEGRATOR_H

#include <stdint.h>

#include "force.h"
#include "hermite_groups.h"
#include "hermite_timeline.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The Hermite schemes' largest block step unless told otherwise: 1/8 time unit, a power of
 * two, so outputs at multiples of 1/8 are block times where every body is synchronised. */
#define GC_HERMITE_DEFAULT_DT_MAX 0.125

/* Settings every scheme reads what it needs from (N-body units, G = 1). */
struct gc_integrator_params {
    double dt;      /* leapfrog: the step; default GC_DEFAULT_DT */
    double eps;     /* Plummer softening length; 0 allowed for the Hermite schemes */
    double eta;     /* Hermite: accuracy parameter of the time-step criterion; 0 = default */
    double dt_max;  /* Hermite: largest block step, a physics setting (outputs between
                     * block times are predictions); 0 = default */
    double fixed_dt; /* Hermite: 0 = individual steps; > 0 = every step is this (a power-of-
                      * two fraction of dt_max): shared fixed steps, for convergence tests */
    int precision; /* Hermite force pass on the GPU: GC_PRECISION_AUTO (mixed where the
                    * scheme allows it), _MIXED or _DOUBLE (a backend without a mixed pass is
                    * double anyway) */
    int regularize;   /* Hermite: 1 = close groups by algorithmic regularisation (eps must be
                       * 0; hermite_groups.h); 0 = none (default) */
    double ar_tol;    /* regularisation: extrapolation tolerance; 0 = GC_AR_DEFAULT_TOL */
    double ar_radius; /* regularisation radius; 0 = derived from the bodies (hermite_groups.h) */
};

/* Counters the HUD, the benchmark and the tests read; a scheme fills what applies. */
struct gc_integrator_stats {
    uint64_t steps;        /* leapfrog steps, or Hermite block steps, since start */
    uint64_t body_steps;   /* sum over steps of the bodies advanced (active bodies) */
    uint64_t last_active;  /* bodies advanced by the latest step */
    double interactions;   /* pairwise force evaluations since start, all ranks */
};

enum { GC_PRECISION_AUTO, GC_PRECISION_MIXED, GC_PRECISION_DOUBLE };

struct gc_integrator;

/* Capability bits of a scheme (gc_integrator_iface.caps): what callers may ask of it. */
#define GC_INTEGRATOR_BLOCK_STEPS 1u   /* individual (block) time steps: no one dt to show or
                                        * change; outputs predict to any time */
#define GC_INTEGRATOR_ZERO_SOFTENING 2u /* eps = 0 allowed (self-pairs are skipped) */
#define GC_INTEGRATOR_DOUBLE_STATE 4u  /* state in double: downloads fill pos64/vel64 */
#define GC_INTEGRATOR_EXACT_FORCES 8u  /* needs forces exact to rounding (a collisional
                                        * scheme): all pairs, never an approximation */
#define GC_INTEGRATOR_DOUBLE_FORCES 16u /* needs every force term in double: its step
                                         * criterion takes the force's 4th and 5th
                                         * derivatives, where float terms leave only noise */

struct gc_integrator_iface {
    const char *name;      /* "leapfrog", "hermite4", "hermite6" */
    unsigned caps;         /* GC_INTEGRATOR_* bits */
    const char *step_noun; /* what its counted steps are called: "step", "block step" */
    /* floating-point operations counted per pairwise interaction, for GFLOP/s: 20 for the
     * leapfrog's force (GPU Gems 3), 60 for Hermite 4 (Portegies Zwart et al. 2007), 94 for
     * Hermite 6 (the 60 plus the snap's 34, docs/perf-log/hermite-gpu.md) */
    double flops_per_interaction;
    /* The backend holds `bodies` (uploaded) at time 0: first forces, first steps. A scheme
     * with its own state on the backend (Hermite, in double) builds it from them. */
    enum gc_status (*start)(struct gc_integrator *in, const struct gc_bodies *bodies);
    /* Advances to t_end (>= now in the direction of time). A time the scheme cannot land on
     * exactly is not passed: leapfrog takes the whole steps that fit (rounded to the nearest),
     * Hermite block steps run while the next block time is <= t_end. */
    enum gc_status (*advance)(struct gc_integrator *in, double t_end);
    /* Time at which every body's state is known exactly (the last whole step or block
     * time that all bodies share). */
    double (*time)(const struct gc_integrator *in);
    /* optional: positions (and velocities) of all bodies predicted to time t into the
     * backend's export buffers, without changing the state; NULL = the state is always
     * synchronised, export it as it is */
    enum gc_status (*predict)(struct gc_integrator *in, double t);
    /* changes the step; NULL exactly for GC_INTEGRATOR_BLOCK_STEPS schemes (no single step) */
    enum gc_status (*set_dt)(struct gc_integrator *in, double dt);
    void (*stats)(const struct gc_integrator *in, struct gc_integrator_stats *out);
    void (*destroy)(struct gc_integrator *in);
    /* optional (NULL: the state is the bodies' positions and velocities, which a restart
     * reads from the snapshot): every body's state into all (n records, body order, ticks
     * on the scheme's own clock), for a snapshot a run can continue from exactly. */
    enum gc_status (*save)(struct gc_integrator *in, struct gc_hermite_record *all);
    /* optional, with save: starts from bodies and the state save gave (all: n records) at
     * time t of the scheme's clock, instead of start's fresh derivatives and first steps. */
    enum gc_status (*resume)(struct gc_integrator *in, const struct gc_bodies *bodies,
                             const struct gc_hermite_record *all, double t);
    /* optional (NULL: the backend's bodies are the physical ones): after a download at time
     * t of the scheme's clock, the bodies it integrates apart (regularised groups) put in
     * their slots with their own masses, positions and velocities. */
    enum gc_status (*physical)(struct gc_integrator *in, double t, struct gc_bodies *dst);
    /* optional (NULL: none): the regularised groups now (out may be NULL), for reports and
     * snapshots; returns how many there are. membership (n entries, may be NULL) receives
     * each body's group or -1. */
    size_t (*groups)(const struct gc_integrator *in, struct gc_hermite_groups_report *out,
                     int32_t *membership);
};

struct gc_integrator {
    const struct gc_integrator_iface *iface;
    void *ctx;                         /* the scheme's state */
    struct gc_force *force;            /* not owned: forces (and ranks) */
    struct gc_integrator_params p;
    /* optional (NULL: never called): called between steps with poll_ctx and the steps (or
     * block steps) done so far in the current advance; non-zero ends the advance early, at a
     * step the state is whole at (the leapfrog's closing half kick given), with `stopped`
     * set and time() saying where. Only for one process: ranks would stop apart. */
    int (*poll)(void *ctx, unsigned long done);
    void *poll_ctx;
    int stopped;                       /* the latest advance ended early on poll() */
};

/* Creates the scheme called `name` over `force`. Unknown names are an error that lists the
 * available ones. */
enum gc_status gc_integrator_create(const char *name, const struct gc_integrator_params *p,
                                    struct gc_force *force, struct gc_integrator **out);
void gc_integrator_destroy(struct gc_integrator *in);
/* Comma-separated names of the schemes in this build. */
const char *gc_integrator_available(void);
/* The table of the scheme called `name` (its name, capabilities, step noun), or NULL when
 * there is none: what callers ask before (or without) creating one. */
const struct gc_integrator_iface *gc_integrator_find(const char *name);
/* 1 when the scheme has every capability bit of `caps`. */
int gc_integrator_has(const struct gc_integrator_iface *scheme, unsigned caps);

/* The individual schemes (integrator_<name>.c): their tables and constructors, used by the
 * registry in integrator.c. */
extern const struct gc_integrator_iface gc_integrator_leapfrog;
extern const struct gc_integrator_iface gc_integrator_hermite4;
extern const struct gc_integrator_iface gc_integrator_hermite6;
enum gc_status gc_integrator_leapfrog_create(struct gc_integrator *in);
enum gc_status gc_integrator_hermite_create(struct gc_integrator *in, int order);

#ifdef __cplusplus
}
#endif
#endif
