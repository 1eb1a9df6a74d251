/* Groups made from the close bodies of a block. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_MERGE_H
#define GC_HERMITE_GROUPS_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "hermite_groups_state.h"

/* Bodies of the block (tick t) closer than the radius, joined transitively, become one
 * group with the members of any group among them; *changed set when any formed. */
enum gc_status gc_hermite_groups_merge(struct gc_hermite_groups *g, int64_t t, int *changed);

#endif
