/* Time-stepping schemes behind one interface: each scheme is one file, chosen by name at run time. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INTEGRATOR_H
#define GC_INTEGRATOR_H

#include <stdint.h>

#include "backend.h"
#include "force.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Settings every scheme reads what it needs from (N-body units, G = 1). */
struct gc_integrator_params {
    double dt;      /* leapfrog: the step; default GC_DEFAULT_DT */
    double eps;     /* Plummer softening length; 0 allowed for the Hermite schemes */
    double eta;     /* Hermite: accuracy parameter of the time-step criterion */
    double dt_max;  /* Hermite: largest block step; every output time is a multiple of it */
};

/* Counters the HUD, the benchmark and the tests read; a scheme fills what applies. */
struct gc_integrator_stats {
    uint64_t steps;        /* leapfrog steps, or Hermite block steps, since start */
    uint64_t body_steps;   /* sum over steps of the bodies advanced (active bodies) */
    uint64_t last_active;  /* bodies advanced by the latest step */
    double interactions;   /* pairwise force evaluations since start, all ranks */
};

struct gc_integrator;

struct gc_integrator_iface {
    const char *name; /* "leapfrog", "hermite4", "hermite6" */
    /* The backend holds the bodies at time 0: first forces, first steps. */
    enum gc_status (*start)(struct gc_integrator *in);
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
    /* optional: changes the step where the scheme has a single one (leapfrog); NULL = none */
    enum gc_status (*set_dt)(struct gc_integrator *in, double dt);
    void (*stats)(const struct gc_integrator *in, struct gc_integrator_stats *out);
    void (*destroy)(struct gc_integrator *in);
};

struct gc_integrator {
    const struct gc_integrator_iface *iface;
    void *ctx;                         /* the scheme's state */
    struct gc_force *force;            /* not owned: forces (and ranks) */
    struct gc_integrator_params p;
};

/* Creates the scheme called `name` over `force`. Unknown names are an error that lists the
 * available ones. */
enum gc_status gc_integrator_create(const char *name, const struct gc_integrator_params *p,
                                    struct gc_force *force, struct gc_integrator **out);
void gc_integrator_destroy(struct gc_integrator *in);
/* Comma-separated names of the schemes in this build. */
const char *gc_integrator_available(void);

/* Constructors of the individual schemes (used by gc_integrator_create). */
enum gc_status gc_integrator_leapfrog_create(struct gc_integrator *in);

#ifdef __cplusplus
}
#endif
#endif
