/* Picks N bodies out of a larger set, keeping each component's share and total mass. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_THIN_H
#define GC_THIN_H

#include <stddef.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Selects n bodies from `all` into `out` (which must be empty).
 * Eligible bodies are disks and bulges, plus halos when include_halo is set; n == 0 means
 * every eligible body. Each (galaxy, component) group gets a share of n proportional to its
 * size (largest remainder, at least one body each), its bodies are taken evenly spaced in
 * their original order, and their masses are scaled so the group's total mass is unchanged.
 * Errors (logged): n larger than the eligible count, or smaller than the number of groups. */
enum gc_status gc_thin_select(const struct gc_bodies *all, size_t n, int include_halo,
                              struct gc_bodies *out);

/* Number of bodies gc_thin_select can choose from. */
size_t gc_thin_eligible(const struct gc_bodies *all, int include_halo);

#ifdef __cplusplus
}
#endif
#endif
