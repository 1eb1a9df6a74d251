/* The two-body problem solved in closed form: a relative orbit carried over a time interval. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_KEPLER_H
#define GC_KEPLER_H

#ifdef __cplusplus
extern "C" {
#endif

/* The relative position r0 and velocity v0 of two bodies of total mass mu (G = 1) carried
 * over dt (either sign) on their Kepler orbit, bound or not, into r and v (universal
 * variables with Stumpff functions, the universal anomaly found by Laguerre-Conway
 * iterations). Returns 0, or -1 when r0 is zero or the iteration does not converge (r, v
 * then hold r0, v0). */
int gc_kepler_drift(double mu, const double r0[3], const double v0[3], double dt, double r[3],
                    double v[3]);

#ifdef __cplusplus
}
#endif
#endif
