/* Conserved quantities of a body set (energy, momentum, angular momentum, centre of mass), in double. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_DIAGNOSTICS_H
#define GC_DIAGNOSTICS_H

#include "bodies.h"
#include "sim.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_diagnostics {
    double mass;                /* total mass */
    double kinetic;             /* K = sum m v^2 / 2 */
    double potential;           /* W = -sum_{i<j} m_i m_j / sqrt(r^2 + eps^2) */
    double energy;              /* K + W */
    double momentum[3];         /* P = sum m v */
    double angular_momentum[3]; /* L = sum m x cross v */
    double com[3];              /* centre of mass */
    double com_vel[3];          /* centre-of-mass velocity, P / mass */
};

/* Everything except the potential, O(N). */
void gc_diagnostics_kinematics(const struct gc_bodies *b, struct gc_diagnostics *d);
/* Softened potential energy in double precision, O(N^2) with OpenMP. eps > 0. */
double gc_diagnostics_potential(const struct gc_bodies *b, double eps);
/* All quantities for a host body set, potential included (O(N^2)). */
void gc_diagnostics_compute(const struct gc_bodies *b, double eps, struct gc_diagnostics *d);
/* All quantities for the current state of a simulation: downloads into `scratch` (allocated
 * with the simulation's body count) and takes the potential from the backend when it offers
 * one, else computes it on the host. Over several ranks each rank sums its own bodies and
 * every rank gets the totals (rank 0's call is announced to the others). */
enum gc_status gc_diagnostics_measure(struct gc_sim *s, struct gc_bodies *scratch,
                                      struct gc_diagnostics *d);

#ifdef __cplusplus
}
#endif
#endif
