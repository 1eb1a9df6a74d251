/* Conserved quantities of a body set (energy, momentum, angular momentum, centre of mass), in double. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_DIAGNOSTICS_H
#define GC_DIAGNOSTICS_H

#include <stddef.h>

#include "bodies.h"
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
/* The parts for bodies split over ranks (each rank sums its own, the sums are added):
 * mass-weighted sums of bodies [i0, i1) in double (from the double-precision arrays when the
 * set has them), v = {mass, K, P[3], L[3], sum m x[3]}, and the quantities from such sums
 * (the potential left 0). */
#define GC_DIAGNOSTICS_SUMS 11
void gc_diagnostics_sums(const struct gc_bodies *b, size_t i0, size_t i1,
                         double v[GC_DIAGNOSTICS_SUMS]);
void gc_diagnostics_from_sums(const double v[GC_DIAGNOSTICS_SUMS], struct gc_diagnostics *d);
/* Softened potential of bodies [i0, i1) against all, in double on the host (pairs counted
 * once per i: halved); and without softening from pos64/mass64 (close groups: members at
 * 1e-4 of each other need double). */
double gc_diagnostics_potential_range(const struct gc_bodies *b, size_t i0, size_t i1,
                                      double eps);
double gc_diagnostics_potential64_range(const struct gc_bodies *b, size_t i0, size_t i1);

#ifdef __cplusplus
}
#endif
#endif
