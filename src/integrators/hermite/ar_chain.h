/* Algorithmic regularisation of a small group: logarithmic-Hamiltonian leapfrog in chain coordinates with Gragg-Bulirsch-Stoer extrapolation. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_AR_CHAIN_H
#define GC_AR_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The group's motion relative to its centre of mass (which stays at rest at the origin:
 * the mean of any external acceleration is removed), G = 1, no softening. The scheme is
 * the time-transformed leapfrog of Mikkola & Tanikawa (1999) and Preto & Tremaine (1999):
 * drifts advance time by ds / (T + B), kicks by ds / U, with B = -E carried as a variable
 * (it absorbs the work of the external force), which makes the leapfrog follow
 * Kepler orbits of any eccentricity without a step collapse. The relative vectors along a
 * chain of nearest neighbours are the variables (Mikkola & Aarseth 1993), so close pairs
 * keep their separations to full relative precision; the leapfrog is extrapolated to zero
 * step in h^2 (Gragg-Bulirsch-Stoer) until two successive estimates agree to `tol`. */

#define GC_AR_DEFAULT_TOL 1e-12 /* GBS relative tolerance: energy errors near 1e-13 per orbit */
#define GC_AR_MAX_BODIES 64     /* a group is few-body: the force is all pairs per substep */

/* optional external perturbation: adds to acc (3n) the acceleration at time t of each
 * member at x (3n, relative to the group's centre of mass); NULL = isolated group. */
struct gc_ar_perturb {
    void (*accel)(void *ctx, double t, size_t n, const double *x, double *acc);
    void *ctx;
};

struct gc_ar_stats {
    uint64_t steps;    /* accepted extrapolation steps */
    uint64_t rejected; /* steps retried with a smaller step */
    uint64_t evals;    /* force evaluations (kicks) */
};

struct gc_ar;

/* A group of n bodies (2 <= n <= GC_AR_MAX_BODIES) with masses m, positions x and
 * velocities v (3n, any frame: the centre of mass is taken out) at time t; tol <= 0 gives
 * GC_AR_DEFAULT_TOL. */
enum gc_status gc_ar_create(size_t n, const double *m, const double *x, const double *v,
                            double t, double tol, struct gc_ar **out);
void gc_ar_destroy(struct gc_ar *g);
/* Advances to exactly t_end (>= the group's time), under the perturbation p (may be NULL).
 * GC_ERR_INVALID (logged) when a step cannot converge or the state becomes non-finite. */
enum gc_status gc_ar_advance(struct gc_ar *g, double t_end, const struct gc_ar_perturb *p);
size_t gc_ar_n(const struct gc_ar *g);
double gc_ar_time(const struct gc_ar *g);
const double *gc_ar_masses(const struct gc_ar *g);
/* Positions and velocities (3n each, in the order the bodies were given) relative to the
 * centre of mass. */
void gc_ar_state(const struct gc_ar *g, double *x, double *v);
/* Internal energy T - U of the current state (no external potential). */
double gc_ar_energy(const struct gc_ar *g);
/* -B: the energy the integrator carries (T - U at the start plus the external work). */
double gc_ar_energy_carried(const struct gc_ar *g);
void gc_ar_stats(const struct gc_ar *g, struct gc_ar_stats *out);

/* Semi-major axis and eccentricity of the two-body orbit of masses m1, m2 at relative
 * position dx and velocity dv (a < 0: unbound). */
void gc_ar_kepler_elements(double m1, double m2, const double dx[3], const double dv[3],
                           double *a, double *e);

#ifdef __cplusplus
}
#endif
#endif
