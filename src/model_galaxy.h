/* Built-in galaxy models: a Milky Way/Andromeda-like colliding pair, or one isolated galaxy. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_GALAXY_H
#define GC_MODEL_GALAXY_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds `n` bodies of model `name` ("mw-m31" or "single") from `seed` into `out` (which
 * must be empty). Same name, n and seed give the same bytes. */
enum gc_status gc_model_galaxy_build(const char *name, size_t n, uint64_t seed,
                                     struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
