/* The state table's lookup. */
/* SPDX-License-Identifier: MIT */
#include "backend_state.h"

const struct gc_backend_state *gc_backend_state(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_STATE);
}
