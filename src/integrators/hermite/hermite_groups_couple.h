/* The two-way coupling of the close groups and the bodies near them: exact member forces in place of the centre-of-mass point. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_COUPLE_H
#define GC_HERMITE_GROUPS_COUPLE_H

#include <stddef.h>
#include <stdint.h>

#include "hermite_groups_state.h"

struct gc_backend;

/* What the nu units (slots) feel of the groups coupled to them at tick t, beyond their
 * centres' points, added to acc and jerk (3 nu each); those groups are first advanced to t. */
enum gc_status gc_hermite_groups_couple(struct gc_hermite_groups *g, const int *units,
                                        size_t nu, int64_t t, double *acc, double *jerk);
/* Before the next block's correction: the groups near its bodies brought to its time, and
 * the block's bodies given the forces of those groups' members in place of their centres'
 * (and the centres the mean force on their members) through the backend's perturb slot; a
 * backend without it couples groups as points. */
enum gc_status gc_hermite_groups_couple_block(struct gc_hermite_groups *g,
                                              struct gc_backend *b);

#endif
