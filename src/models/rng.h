/* Deterministic random numbers for the models: xoshiro256** seeded by splitmix64 (Blackman & Vigna 2018), one stream per (seed, block, chunk). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_RNG_H
#define GC_RNG_H

#include <math.h>
#include <stdint.h>

/* A stream per (seed, block, chunk) lets threads draw disjoint, reproducible sequences: the
 * same seed gives the same bodies whatever the thread count. */
struct rng {
    uint64_t s[4];
    double spare;   /* second Box-Muller deviate */
    int has_spare;
};

static inline uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *g, uint64_t seed, uint64_t block, uint64_t chunk)
{
    uint64_t x = seed;
    x = splitmix64(&x) ^ (block * 0xD1B54A32D192ED03ULL);
    x = splitmix64(&x) ^ (chunk * 0x8CB92BA72F3D8DD7ULL);
    for (int i = 0; i < 4; i++)
        g->s[i] = splitmix64(&x);
    g->has_spare = 0;
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *g)
{
    uint64_t *s = g->s;
    uint64_t r = rng_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl(s[3], 45);
    return r;
}

/* Uniform in the open interval (0, 1). */
static inline double uniform(struct rng *g)
{
    return ((double)(rng_next(g) >> 11) + 0.5) * (1.0 / 9007199254740992.0);
}

/* Standard normal deviates, two at a time (Box-Muller; the second kept for the next call). */
static inline double gaussian(struct rng *g)
{
    double r, a;
    if (g->has_spare) {
        g->has_spare = 0;
        return g->spare;
    }
    r = sqrt(-2.0 * log(uniform(g)));
    a = 6.283185307179586 * uniform(g);
    g->spare = r * sin(a);
    g->has_spare = 1;
    return r * cos(a);
}

#endif
