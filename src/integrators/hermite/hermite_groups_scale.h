/* The close groups' scales from the initial bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_SCALE_H
#define GC_HERMITE_GROUPS_SCALE_H

#include <stddef.h>
#include <stdint.h>

#include "hermite_groups_state.h"

/* At the start: the energy scale of the split criterion and, unless given, the
 * regularisation radius. */
enum gc_status gc_hermite_groups_scale(struct gc_hermite_groups *g);

#endif
