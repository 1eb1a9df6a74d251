/* A close group split into its parts where they no longer couple strongly. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_SPLIT_H
#define GC_HERMITE_GROUPS_SPLIT_H

#include <stddef.h>
#include <stdint.h>

#include "hermite_groups_state.h"

/* gr (due at tick t) split into its parts, by friends of friends at twice the radius, when
 * there are several and each two of them escape each other or couple weakly (their
 * quadrupole energy, GC_GROUP_SPLIT_GAMMA): parts of one body become bodies again, larger
 * parts groups. */
enum gc_status gc_hermite_groups_split(struct gc_hermite_groups *g, struct group *gr, int64_t t);

#endif
