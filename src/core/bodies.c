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

enum gc_status gc_bodies_alloc_f64(struct gc_bodies *b)
{
    const size_t n = b->n;
    if (b->pos64)
        return GC_OK;
    b->pos64 = malloc(3 * n * sizeof *b->pos64);
    b->vel64 = malloc(3 * n * sizeof *b->vel64);
    b->mass64 = malloc(n * sizeof *b->mass64);
    if (!b->pos64 || !b->vel64 || !b->mass64) {
        gc_log_error("cannot allocate double-precision arrays for %zu bodies", n);
        free(b->pos64);
        free(b->vel64);
        free(b->mass64);
        b->pos64 = b->vel64 = b->mass64 = NULL;
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            b->pos64[3 * i + k] = b->pos[4 * i + k];
            b->vel64[3 * i + k] = b->vel[4 * i + k];
        }
        b->mass64[i] = b->pos[4 * i + 3];
    }
    return GC_OK;
}

void gc_bodies_sync_f32(struct gc_bodies *b)
{
    if (!b->pos64)
        return;
    for (size_t i = 0; i < b->n; i++) {
        for (int k = 0; k < 3; k++) {
            b->pos[4 * i + k] = (float)b->pos64[3 * i + k];
            b->vel[4 * i + k] = (float)b->vel64[3 * i + k];
        }
        b->pos[4 * i + 3] = (float)b->mass64[i];
        b->vel[4 * i + 3] = 0.0f;
    }
}

void gc_bodies_free(struct gc_bodies *b)
{
    free(b->pos);
    free(b->vel);
    free(b->tag);
    free(b->pos64);
    free(b->vel64);
    free(b->mass64);
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
    if (src->pos64) {
        s = gc_bodies_alloc_f64(dst);
        if (s != GC_OK) {
            gc_bodies_free(dst);
            return s;
        }
        memcpy(dst->pos64, src->pos64, 3 * src->n * sizeof *src->pos64);
        memcpy(dst->vel64, src->vel64, 3 * src->n * sizeof *src->vel64);
        memcpy(dst->mass64, src->mass64, src->n * sizeof *src->mass64);
    }
    return GC_OK;
}
