/* Makes N bodies from a smaller set: each body split into equal parts scattered about it. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_UPSAMPLE_H
#define GC_UPSAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* n bodies (n >= small->n) into out (which must be empty): body i of out is a part of body
 * i mod small->n, which splits into equal masses (its total kept), each moved from it by a
 * Gaussian offset of standard deviation sigma per axis (a body not split stays where it is)
 * and given its velocity and tag. Below
 * the softening (sigma about eps / 2) the parts feel one another as one body did: a state of
 * a run at small->n, seen at n bodies. Deterministic per seed, whatever the thread count. */
enum gc_status gc_upsample(const struct gc_bodies *small, size_t n, double sigma, uint64_t seed,
                           struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
