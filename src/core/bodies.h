/* Host-side body arrays (position+mass, velocity, galaxy/component tag) and their lifetime. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BODIES_H
#define GC_BODIES_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Component of a body, stored in the low two bits of its tag. GC_STAR is a star of a
 * cluster model (Plummer sphere, few-body problems): no galaxy structure. */
enum gc_component { GC_DISK = 0, GC_BULGE = 1, GC_HALO = 2, GC_STAR = 3 };

/* Galaxy A (the lighter one, "Milky Way") = 0, galaxy B ("Andromeda") = 1, in tag bit 2. */
#define GC_TAG(galaxy, component) ((uint8_t)(((galaxy) << 2) | (component)))
#define GC_TAG_GALAXY(tag) (((tag) >> 2) & 1u)
#define GC_TAG_COMPONENT(tag) ((tag) & 3u)

/* Largest body count any part of the program accepts: 64 Mi bodies is ~2.5 GiB of host
 * arrays, far past what all-pairs gravity can step interactively on any current GPU. */
#define GC_MAX_BODIES ((size_t)64 * 1024 * 1024)

struct gc_bodies {
    size_t n;      /* number of bodies */
    float *pos;    /* 4n floats: x, y, z, mass (float4 so GPU loads are 16-byte, coalesced) */
    float *vel;    /* 4n floats: vx, vy, vz, unused (same layout as pos for symmetric copies) */
    uint8_t *tag;  /* n tags: GC_TAG(galaxy, component), used for colouring only */
    /* Optional double-precision state, NULL unless gc_bodies_alloc_f64 was called: 3n
     * doubles each (x y z, vx vy vz) and 1n masses. When present they are the authoritative
     * values and pos/vel hold the same numbers rounded to float; the Hermite integrators keep
     * positions in double, so a snapshot or restart of such a run must not round them. */
    double *pos64; /* 3n doubles: x, y, z */
    double *vel64; /* 3n doubles: vx, vy, vz */
    double *mass64; /* n doubles */
};

/* Allocates zeroed arrays for n bodies (1 <= n <= GC_MAX_BODIES). On failure *b is empty. */
enum gc_status gc_bodies_alloc(struct gc_bodies *b, size_t n);
/* Adds the double-precision arrays to an allocated set, filled from the float ones. */
enum gc_status gc_bodies_alloc_f64(struct gc_bodies *b);
/* Rounds the double-precision arrays into pos/vel (after writing the doubles). */
void gc_bodies_sync_f32(struct gc_bodies *b);
/* Frees the arrays and zeroes the struct; safe on an empty or already freed struct. */
void gc_bodies_free(struct gc_bodies *b);
/* Deep copy of src into dst (dst must be empty), the double arrays too when src has them. */
enum gc_status gc_bodies_copy(struct gc_bodies *dst, const struct gc_bodies *src);

#ifdef __cplusplus
}
#endif
#endif
