/* The built-in models by name: what each is, its units and defaults, and one builder for all. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODELS_H
#define GC_MODELS_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The unit system of a body set, which decides how times are shown. */
enum gc_units {
    GC_UNITS_GALAXY = 0, /* the Dubinski table's N-body units: 1 time unit = 18 Myr */
    GC_UNITS_HENON       /* Henon units of a star cluster (G = M = 1, E = -1/4) */
};

struct gc_model_info {
    const char *name;        /* as given to --model */
    enum gc_units units;
    const char *integrator;  /* default scheme: leapfrog for galaxies, hermite4 for clusters */
    float eps;               /* default Plummer softening */
    size_t n_cpu, n_gpu;     /* default N on the CPU and CUDA backends (interactive rates) */
    size_t n_fixed;          /* the only N the model has (Pythagorean: 3); 0 = any */
    size_t n_min;            /* the fewest bodies it can be built with (one per component) */
};

/* The names --model accepts. */
#define GC_MODEL_NAMES                                                                     \
    "mw-m31|single|plummer|pythagorean|pythagorean-binaries|plummer-binaries|plummer-wide|"  \
    "hernquist|cold-sphere"

/* The model called name, or NULL. */
const struct gc_model_info *gc_models_find(const char *name);
/* Builds n bodies of the model called name from seed into out (empty on entry). */
enum gc_status gc_models_build(const char *name, size_t n, uint64_t seed, struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
