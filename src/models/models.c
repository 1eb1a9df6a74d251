/* The table of built-in models and the dispatch to their builders. */
/* SPDX-License-Identifier: MIT */
#include "models.h"

#include <string.h>

#include "log.h"
#include "model_binaries.h"
#include "model_cluster.h"
#include "model_galaxy.h"
#include "units.h"

/* Defaults: galaxies as before (GC_DEFAULT_EPS, leapfrog, 8192 / 65536 bodies); the Plummer
 * sphere as in the GPU Hermite benchmark of Portegies Zwart, Belleman & Geldof (2007),
 * softening 1/256; the Pythagorean problem unsoftened, as Burrau posed it. Fewest bodies:
 * one per component of each galaxy (disk, bulge, halo; model_galaxy.c), two for a cluster
 * (model_cluster.c). */
static const struct gc_model_info models[] = {
    {"mw-m31", GC_UNITS_GALAXY, "leapfrog", GC_DEFAULT_EPS, 8192, 65536, 0, 6},
    {"single", GC_UNITS_GALAXY, "leapfrog", GC_DEFAULT_EPS, 8192, 65536, 0, 3},
    {"plummer", GC_UNITS_HENON, "hermite4", 1.0f / 256.0f, 1024, 16384, 0, 2},
    {"pythagorean", GC_UNITS_HENON, "hermite4", 0.0f, 3, 3, 3, 3},
    /* the regularisation's test cases (model_binaries.h): unsoftened */
    {"pythagorean-binaries", GC_UNITS_HENON, "hermite4", 0.0f, 6, 6, 6, 6},
    {"plummer-binaries", GC_UNITS_HENON, "hermite4", 0.0f, 1024, 16384, 0, 4},
    /* the spheres the tree is measured on (model_cluster.h), stepped as galaxies are, with
     * the softening of the usual GPU tree benchmark */
    {"plummer-wide", GC_UNITS_HENON, "leapfrog", 0.05f, 8192, 65536, 0, 2},
    {"hernquist", GC_UNITS_HENON, "leapfrog", 0.05f, 8192, 65536, 0, 2},
    {"cold-sphere", GC_UNITS_HENON, "leapfrog", 0.05f, 8192, 65536, 0, 2},
};

const struct gc_model_info *gc_models_find(const char *name)
{
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        if (name && strcmp(name, models[k].name) == 0)
            return &models[k];
    return NULL;
}

enum gc_status gc_models_build(const char *name, size_t n, uint64_t seed, struct gc_bodies *out)
{
    const struct gc_model_info *m = gc_models_find(name);
    if (!m) {
        gc_log_error("unknown model '%s'; available: %s", name ? name : "", GC_MODEL_NAMES);
        return GC_ERR_INVALID;
    }
    if (strcmp(name, "plummer") == 0)
        return gc_model_plummer_build(n, seed, out);
    if (strcmp(name, "pythagorean") == 0)
        return gc_model_pythagorean_build(n, out);
    if (strcmp(name, "pythagorean-binaries") == 0)
        return gc_model_pythagorean_binaries_build(n, out);
    if (strcmp(name, "plummer-binaries") == 0)
        return gc_model_plummer_binaries_build(n, seed, out);
    if (strcmp(name, "plummer-wide") == 0)
        return gc_model_plummer_wide_build(n, seed, out);
    if (strcmp(name, "hernquist") == 0)
        return gc_model_hernquist_build(n, seed, out);
    if (strcmp(name, "cold-sphere") == 0)
        return gc_model_cold_sphere_build(n, seed, out);
    return gc_model_galaxy_build(name, n, seed, out);
}
