/* Allocation and copying of host body arrays. */
/* SPDX-License-Identifier: MIT */
#include "bodies.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

enum gc_status gc_bodies_alloc(struct gc_bodies *b, size_t n)
{
    memset(b, 0, sizeof *b);
    if (n == 0 || n > GC_MAX_BODIES) {
        gc_log_error("body count %zu is out of range (1 to %zu)", n, GC_MAX_BODIES);
        return GC_ERR_INVALID;
    }
    b->pos = calloc(4 * n, sizeof *b->pos);
    b->vel = calloc(4 * n, sizeof *b->vel);
    b->tag = calloc(n, sizeof *b->tag);
    if (!b->pos || !b->vel || !b->tag) {
        gc_log_error("cannot allocate host memory for %zu bodies (%.1f MiB)", n,
                     (double)n * 33.0 / (1024.0 * 1024.0));
        gc_bodies_free(b);
        return GC_ERR_NOMEM;
    }
    b->n = n;
    return GC_OK;
}

void gc_bodies_free(struct gc_bodies *b)
{
    free(b->pos);
    free(b->vel);
    free(b->tag);
    memset(b, 0, sizeof *b);
}

enum gc_status gc_bodies_copy(struct gc_bodies *dst, const struct gc_bodies *src)
{
    enum gc_status s = gc_bodies_alloc(dst, src->n);
    if (s != GC_OK)
        return s;
    memcpy(dst->pos, src->pos, 4 * src->n * sizeof *src->pos);
    memcpy(dst->vel, src->vel, 4 * src->n * sizeof *src->vel);
    memcpy(dst->tag, src->tag, src->n * sizeof *src->tag);
    return GC_OK;
}
