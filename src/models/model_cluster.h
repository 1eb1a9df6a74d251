/* Built-in spherical models in Henon-like units (G = M = 1): Plummer spheres, a Hernquist cusp, a cold uniform sphere, and Burrau's Pythagorean three-body problem. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_CLUSTER_H
#define GC_MODEL_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Plummer scale radius in Henon units (G = M = 1, E = -1/4, virial radius 1): 3 pi / 16. */
#define GC_PLUMMER_A 0.5890486225480862
/* Bodies beyond this fraction of the mass are not drawn (r < 22.8 a): the usual cut of
 * Aarseth, Henon & Wielen (1974), without which one body in a few thousand lands at 100 a. */
#define GC_PLUMMER_MASS_CUT 0.999

/* n equal-mass bodies (mass 1/n) of a Plummer sphere in Henon units, sampled as Aarseth,
 * Henon & Wielen (1974): radius from the cumulative mass, speed by rejection from
 * q^2 (1 - q^2)^(7/2) of the local escape speed, isotropic directions; then moved to the
 * centre-of-mass frame. The energy is -1/4 up to the sampling noise ~1/sqrt(n) (no rescaling:
 * it would need the O(n^2) potential at every n). Deterministic per seed, whatever the
 * thread count. out gets the double arrays too; every body is tagged GC_STAR. */
enum gc_status gc_model_plummer_build(size_t n, uint64_t seed, struct gc_bodies *out);

/* The spheres the tree is measured on, with far outskirts: drawn as the distribution is, with
 * no cut but the radius of this many scale radii (the usual GPU tree benchmark's Plummer
 * sphere: 1.5 N / 100^2 bodies lie beyond, so at a million bodies it reaches its edge). */
#define GC_WIDE_RADII 100.0
/* Hernquist scale radius: the untruncated sphere then has W = -1 / (6 a) = -1/2 and, in
 * equilibrium, E = W / 2 = -1/4: Henon units. */
#define GC_HERNQUIST_A (1.0 / 3.0)

/* The Plummer sphere of gc_model_plummer_build (same units, sampler and frame) out to
 * GC_WIDE_RADII scale radii instead of the 0.999 mass cut. */
enum gc_status gc_model_plummer_wide_build(size_t n, uint64_t seed, struct gc_bodies *out);

/* n equal-mass bodies of a Hernquist (1990) sphere, density M a / (2 pi r (r + a)^3), a cusp
 * at the centre, out to GC_WIDE_RADII scale radii (98% of its mass); velocities from the
 * isotropic Jeans dispersion. Centre-of-mass frame, tagged GC_STAR, deterministic per seed. */
enum gc_status gc_model_hernquist_build(size_t n, uint64_t seed, struct gc_bodies *out);

/* n equal-mass bodies uniform in the unit ball, at rest: the cold collapse (G = M = R = 1,
 * free fall in pi / (2 sqrt 2) = 1.11 time units). Centre-of-mass frame, tagged GC_STAR. */
enum gc_status gc_model_cold_sphere_build(size_t n, uint64_t seed, struct gc_bodies *out);

/* Burrau's problem: masses 3, 4 and 5 at rest at the corners of a 3-4-5 right triangle,
 * each opposite the side of its own length: (1, 3), (-2, -1), (1, -1) (Szebehely & Peters
 * 1967), centre of mass at the origin. n must be 3. */
enum gc_status gc_model_pythagorean_build(size_t n, struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
