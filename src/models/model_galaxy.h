/* Built-in galaxy models: a Milky Way/Andromeda-like colliding pair, or one isolated galaxy. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_GALAXY_H
#define GC_MODEL_GALAXY_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "model_galaxy_params.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Body counts per block in the loader's order (disk A, disk B, bulge A, bulge B, halo A,
 * halo B; gc_layout_tags) for model `name` and n bodies. Each galaxy gets half the bodies,
 * split 40% disk, 20% bulge, 40% halo (the Dubinski table's proportions), at least one per
 * component; "single" fills only galaxy A's blocks. GC_ERR_INVALID (logged) for an unknown
 * name, n below the number of components, or n above GC_MAX_BODIES. */
enum gc_status gc_model_galaxy_counts(const char *name, size_t n,
                                      size_t counts[6]);

/* Builds `n` bodies of model `name` ("mw-m31" or "single") from `seed` into `out` (which
 * must be empty). Same name, n and seed give the same bytes, whatever the thread count.
 * Bodies come in block order (gc_model_galaxy_counts); the result is in its centre-of-mass
 * frame (total momentum zero to float rounding). */
enum gc_status gc_model_galaxy_build(const char *name, size_t n, uint64_t seed,
                                     struct gc_bodies *out);

/* The mw-m31 pair's orbit and disks as placed by gc_model_galaxy_build: Andromeda's position
 * and velocity relative to the Milky Way (dr, dv) and the two disks' spin axes, in its
 * output frame (from tools/measure_dubinski.py). */
void gc_model_galaxy_pair_orbit(double dr[3], double dv[3], double spin_mw[3],
                                double spin_m31[3]);

#ifdef __cplusplus
}
#endif
#endif
