/* Built-in galaxy models (placeholder until the generator lands: a rotating Plummer pair). */
/* SPDX-License-Identifier: MIT */
#include "model_galaxy.h"

#include <math.h>
#include <string.h>

#include "log.h"

/* xorshift64*: small, fast, and reproducible on every platform. */
static double rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

enum gc_status gc_model_galaxy_build(const char *name, size_t n, uint64_t seed,
                                     struct gc_bodies *out)
{
    uint64_t s = seed * 0x9E3779B97F4A7C15ULL + 1;
    int pair = strcmp(name, "single") != 0;
    enum gc_status st = gc_bodies_alloc(out, n);
    if (st != GC_OK)
        return st;
    for (size_t i = 0; i < n; i++) {
        int g = pair ? (int)(i % 2) : 0;
        double r = 2.0 * sqrt(rnd(&s)) + 0.05, phi = 6.283185307179586 * rnd(&s);
        double v = sqrt(1.0 * r * r / pow(r * r + 1.0, 1.5)) ;
        double cx = pair ? (g ? -10.0 : 10.0) : 0.0, cv = pair ? (g ? 0.3 : -0.3) : 0.0;
        out->pos[4 * i + 0] = (float)(cx + r * cos(phi));
        out->pos[4 * i + 1] = (float)(r * sin(phi));
        out->pos[4 * i + 2] = (float)(0.05 * (rnd(&s) - 0.5));
        out->pos[4 * i + 3] = (float)((pair ? 2.0 : 1.0) / (double)n);
        out->vel[4 * i + 0] = (float)(-v * sin(phi));
        out->vel[4 * i + 1] = (float)(cv + v * cos(phi));
        out->vel[4 * i + 2] = 0.0f;
        out->tag[i] = GC_TAG(g, GC_DISK);
    }
    return GC_OK;
}
