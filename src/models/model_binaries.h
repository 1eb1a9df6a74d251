/* Built-in few-body and cluster models with hard binaries, for the regularisation of close groups. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_BINARIES_H
#define GC_MODEL_BINARIES_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Burrau's problem with each body a binary: the masses 3, 4, 5 at rest at (1, 3), (-2, -1),
 * (1, -1) become equal-mass pairs (1.5 + 1.5, 2 + 2, 2.5 + 2.5) on circular orbits of
 * semi-major axis GC_PYTHAGOREAN_BINARY_A about those points, in the plane of the triangle,
 * prograde, their separation vectors at 0, 120 and 240 degrees from the x axis. n must be 6. */
#define GC_PYTHAGOREAN_BINARY_A 0.02
enum gc_status gc_model_pythagorean_binaries_build(size_t n, struct gc_bodies *out);

/* A Plummer sphere (gc_model_plummer_build) of n equal-mass stars, GC_PRIMORDIAL_FRACTION
 * of them in binaries: n (1 - f/2) systems are sampled and every (2/f - 1)-th becomes a pair
 * of two stars (total mass 2/n) on a circular orbit of random orientation and phase, its
 * semi-major axis log-uniform in [GC_PRIMORDIAL_A_MIN, GC_PRIMORDIAL_A_MAX] times
 * GC_PRIMORDIAL_N / n: binding energies 5 to 50 times the mean kinetic energy of a star
 * (hard) at any n, as at the 1024 the range was set for. Deterministic per seed. */
#define GC_PRIMORDIAL_FRACTION 0.1
#define GC_PRIMORDIAL_A_MIN 5e-4
#define GC_PRIMORDIAL_A_MAX 2e-3
#define GC_PRIMORDIAL_N 1024.0
enum gc_status gc_model_plummer_binaries_build(size_t n, uint64_t seed, struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
