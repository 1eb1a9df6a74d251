/* Time-stepping schemes behind one interface: each scheme is one file, chosen by name at run time. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INTEGRATOR_H
#define GC_INTEGRATOR_H

#include <stdint.h>

#include "force.h"
#include "state.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Settings every scheme reads what it needs from (N-body units, G = 1). */
struct gc_integrator_params {
    double dt;      /* leapfrog: the step; default GC_DEFAULT_DT */
    double eps;     /* Plummer softening length; 0 allowed for the Hermite schemes */
    double eta;     /* Hermite: accuracy parameter of the time-step criterion; 0 = default */
    double dt_max;  /* Hermite: largest block step, a physics setting (outputs between
                     * block times are predictions); 0 = default (1/8: outputs at multiples
                     * of 1/8 are then block times where every body is synchronised) */
    double fixed_dt; /* Hermite: 0 = individual steps; > 0 = every step is this (a power-of-
                      * two fraction of dt_max): shared fixed steps, for convergence tests */
    int precision; /* Hermite force pass on the GPU: GC_PRECISION_AUTO (mixed where the
                    * scheme allows it), _MIXED or _DOUBLE (a backend without a mixed pass is
                    * double anyway) */
    int regularize;   /* Hermite: 1 = close groups by algorithmic regularisation (eps must be
                       * 0); 0 = none (default) */
    double ar_tol;    /* regularisation: extrapolation tolerance; 0 = the scheme's default */
    double ar_radius; /* regularisation radius; 0 = derived from the bodies */
};

/* Close groups a scheme integrates apart from the rest (regularised binaries and few-body
 * encounters), for the report rows, the HUD and snapshots. */
struct gc_groups_report {
    size_t groups;          /* groups now */
    size_t members;         /* bodies in them */
    uint64_t formed;        /* groups formed since the start (absorptions included) */
    uint64_t dissolved;     /* groups split or dissolved since the start */
    int have_binary;        /* 1 when some pair in a group is bound: */
    double a, e;            /*   the most bound pair's semi-major axis, eccentricity */
    double radius;          /* the regularisation radius in use; 0 = the scheme has none */
    /* host seconds since the start: the groups' work before the correction (issued while
     * an asynchronous backend computes the force pass), waiting for the backend after it,
     * and the groups' work after the block (new states, advancing, splits and merges) */
    double s_beside, s_wait, s_after;
};

/* Counters the HUD, the benchmark and the tests read; a scheme fills what applies. */
struct gc_integrator_stats {
    uint64_t steps;        /* leapfrog steps, or Hermite block steps, since start (a restored
                            * state brings back its own count) */
    uint64_t computed;     /* steps computed since the scheme was made, restores or not: the
                            * work done (a jump back's replay included) */
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
    /* The backend holds `bodies` (uploaded) at time t: first forces, first steps. A scheme
     * with its own state on the backend (Hermite, in double) builds it from them. Times
     * below are the simulation's own (t counts from its start). */
    enum gc_status (*start)(struct gc_integrator *in, const struct gc_bodies *bodies, double t);
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
    /* optional (NULL: the state cannot be saved; a restart rebuilds it from the bodies):
     * the whole state at time() into st, described by its fields (state.h). st->memory says
     * where the caller wants it: GC_STATE_HOST (snapshots: st->blob NULL on entry, the
     * scheme allocates it with gc_state_alloc_host) or GC_STATE_BACKEND (keyframes: the
     * scheme returns GC_ERR_UNSUPPORTED where it cannot keep it in backend memory).
     * GC_ERR_UNSUPPORTED (not logged) while the state cannot be saved whole. */
    enum gc_status (*save)(struct gc_integrator *in, struct gc_state *st);
    /* optional, with save: continues from bodies and a state (one this scheme saved, or one
     * a file held, read by field name) instead of start's fresh derivatives and first steps;
     * the clock is set to st->time. GC_ERR_UNSUPPORTED (logged: why) when the state cannot
     * be taken as it is (fields missing, another number of bodies): the caller then starts
     * afresh. */
    enum gc_status (*restore)(struct gc_integrator *in, const struct gc_bodies *bodies,
                              const struct gc_state *st);
    /* optional (NULL: the backend's bodies are the physical ones): after a download at time
     * t, the bodies it integrates apart (regularised groups) put in their slots with their
     * own masses, positions and velocities. */
    enum gc_status (*physical)(struct gc_integrator *in, double t, struct gc_bodies *dst);
    /* optional (NULL: none): the close groups now (out may be NULL), for reports and
     * snapshots; returns how many there are. membership (n entries, may be NULL) receives
     * each body's group or -1. */
    size_t (*groups)(const struct gc_integrator *in, struct gc_groups_report *out,
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
    int failed_together;               /* the latest failure was found by every rank alike
                                        * (an error the ranks shared): they are still in
                                        * step, and the run can report it and end cleanly */
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
