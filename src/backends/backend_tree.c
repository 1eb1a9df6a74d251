/* The tree table's lookup. */
/* SPDX-License-Identifier: MIT */
#include "backend_tree.h"

const struct gc_backend_tree *gc_backend_tree(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_TREE);
}
