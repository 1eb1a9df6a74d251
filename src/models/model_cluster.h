/* Built-in star-cluster models in Henon units: the Plummer sphere and Burrau's Pythagorean three-body problem. */
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

/* Burrau's problem: masses 3, 4 and 5 at rest at the corners of a 3-4-5 right triangle,
 * each opposite the side of its own length: (1, 3), (-2, -1), (1, -1) (Szebehely & Peters
 * 1967), centre of mass at the origin. n must be 3. */
enum gc_status gc_model_pythagorean_build(size_t n, struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
