/* Simulation state: parameters, simulated time and step count, and the backend that holds the bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SIM_H
#define GC_SIM_H

#include <stdint.h>

#include "backend.h"
#include "bodies.h"
#include "status.h"
#include "units.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Accepted ranges, checked by gc_sim_params_check. */
#define GC_DT_MAX 10.0f
#define GC_EPS_MIN 1e-6f
#define GC_EPS_MAX 100.0f

struct gc_sim_params {
    float dt;   /* time step, N-body units; default GC_DEFAULT_DT; negative runs time backwards */
    float eps;  /* Plummer softening length, N-body units; default GC_DEFAULT_EPS */
};

struct gc_sim {
    struct gc_sim_params p;      /* current parameters */
    double time;                 /* simulated time, N-body units */
    uint64_t steps;              /* steps taken since the last reset */
    struct gc_backend *backend;  /* not owned: the caller creates and destroys it */
};

/* Fills params with the defaults above. */
void gc_sim_params_default(struct gc_sim_params *p);
/* GC_OK when dt is finite, non-zero and |dt| <= GC_DT_MAX, and eps is in
 * [GC_EPS_MIN, GC_EPS_MAX]; otherwise logs which value is wrong and returns GC_ERR_INVALID. */
enum gc_status gc_sim_params_check(const struct gc_sim_params *p);

/* Checks params, uploads bodies to the backend and computes the first accelerations, which
 * the kick-drift-kick step expects to be current on entry. */
enum gc_status gc_sim_init(struct gc_sim *s, struct gc_backend *backend,
                           const struct gc_bodies *bodies, const struct gc_sim_params *p);
/* Re-uploads bodies, zeroes time and step count. */
enum gc_status gc_sim_reset(struct gc_sim *s, const struct gc_bodies *bodies);
/* Advances k steps of dt. */
enum gc_status gc_sim_step(struct gc_sim *s, unsigned k);
/* Changes dt (checked); the leapfrog stays consistent because accelerations depend on x only. */
enum gc_status gc_sim_set_dt(struct gc_sim *s, float dt);
/* Simulated time in Myr (GC_MYR_PER_TIME_UNIT). */
double gc_sim_time_myr(const struct gc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
