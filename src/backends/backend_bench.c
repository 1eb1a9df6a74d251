/* The benchmark table's lookup. */
/* SPDX-License-Identifier: MIT */
#include "backend_bench.h"

const struct gc_backend_bench *gc_backend_bench(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_BENCH);
}
