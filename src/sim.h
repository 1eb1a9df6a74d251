/* Simulation state: parameters, simulated time and step count, and the backend that holds the bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SIM_H
#define GC_SIM_H

#include <stdint.h>

#include "backend.h"
#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Plummer softening of the Dubinski table's archive entry: eps = 0.025 (~80 pc). */
#define GC_DEFAULT_EPS 0.025f
/* The archive suggests dt = 0.1, but with eps = 0.025 that under-resolves orbits in the
 * bulges: measured on the Dubinski table (8192 bodies with halos, CPU backend, t = 0..40 =
 * 720 Myr) the relative energy error reached 7.7e-2 at dt = 0.1, 3.1e-2 at 0.05, 1.3e-3 at
 * 0.02 and 9e-5 at 0.01. dt = 0.01 (0.18 Myr) keeps it near 1e-4 (README, "Accuracy"). */
#define GC_DEFAULT_DT 0.01f
/* Usual physical scaling of the table (shared/data/README.md): dt = 0.1 is 1.8 Myr, so one
 * time unit is 18 Myr, one length unit 3.2 kpc. */
#define GC_MYR_PER_TIME_UNIT 18.0
#define GC_KPC_PER_LENGTH_UNIT 3.2

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
