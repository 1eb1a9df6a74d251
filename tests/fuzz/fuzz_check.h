/* What every successful read must hand back, checked by the fuzz targets on each input. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_FUZZ_CHECK_H
#define GC_FUZZ_CHECK_H

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bodies.h"

/* A reader that says GC_OK must return 1..GC_MAX_BODIES bodies with finite float values,
 * masses > 0, valid tags and, with double arrays, floats that are those doubles rounded;
 * one that fails must return an empty set. Anything else aborts (a finding). */
static void fuzz_check_bodies(enum gc_status st, const struct gc_bodies *b)
{
    if (st != GC_OK) {
        if (b->n || b->pos || b->vel || b->tag || b->pos64)
            abort();
        return;
    }
    if (b->n < 1 || b->n > GC_MAX_BODIES || !b->pos || !b->vel || !b->tag)
        abort();
    for (size_t i = 0; i < b->n; i++) {
        for (int k = 0; k < 4; k++)
            if (!isfinite(b->pos[4 * i + k]) || !isfinite(b->vel[4 * i + k]))
                abort();
        if (!(b->pos[4 * i + 3] > 0.0f) || b->vel[4 * i + 3] != 0.0f)
            abort();
        if (b->tag[i] > GC_TAG(1, GC_STAR)) /* galaxy 0 or 1, any component */
            abort();
        if (b->pos64) {
            for (int k = 0; k < 3; k++)
                if ((float)b->pos64[3 * i + k] != b->pos[4 * i + k] ||
                    (float)b->vel64[3 * i + k] != b->vel[4 * i + k])
                    abort();
            if ((float)b->mass64[i] != b->pos[4 * i + 3])
                abort();
        }
    }
}

#endif
