/* Star-cluster models: Plummer sphere (Aarseth, Henon & Wielen 1974) and the Pythagorean three-body problem. */
/* SPDX-License-Identifier: MIT */
#include "model_cluster.h"

#include <math.h>
#include <stdlib.h>

#include "log.h"
#include "rng.h"
#include "stop.h"

#define PI 3.14159265358979323846
/* Bodies per random stream: each chunk draws from its own (seed, chunk) stream, so chunks
 * can be sampled by any thread and the result does not depend on the thread count. */
#define CHUNK 4096

static void isotropic(struct rng *g, double len, double out[3])
{
    const double z = 1.0 - 2.0 * uniform(g), phi = 2.0 * PI * uniform(g);
    const double s = sqrt(1.0 - z * z);
    out[0] = len * s * cos(phi);
    out[1] = len * s * sin(phi);
    out[2] = len * z;
}

static void plummer_body(struct rng *g, double x[3], double v[3])
{
    const double a = GC_PLUMMER_A;
    /* Radius enclosing a uniform fraction m of the mass: m = r^3 / (r^2 + a^2)^(3/2). */
    const double m = GC_PLUMMER_MASS_CUT * uniform(g);
    const double r = a / sqrt(pow(m, -2.0 / 3.0) - 1.0);
    /* Escape speed from the potential -1 / sqrt(r^2 + a^2) (G = M = 1). */
    const double ve = sqrt(2.0) * pow(r * r + a * a, -0.25);
    double q, y;
    /* von Neumann rejection from g(q) = q^2 (1 - q^2)^(7/2) <= 0.092 < 0.1. */
    do {
        q = uniform(g);
        y = 0.1 * uniform(g);
    } while (y > q * q * pow(1.0 - q * q, 3.5));
    isotropic(g, r, x);
    isotropic(g, q * ve, v);
}

/* Removes the centre of mass and its velocity (serial sums: thread-independent). */
static void to_com_frame(struct gc_bodies *b)
{
    double ms = 0.0, xs[3] = {0, 0, 0}, vs[3] = {0, 0, 0};
    for (size_t i = 0; i < b->n; i++) {
        ms += b->mass64[i];
        for (int k = 0; k < 3; k++) {
            xs[k] += b->mass64[i] * b->pos64[3 * i + k];
            vs[k] += b->mass64[i] * b->vel64[3 * i + k];
        }
    }
    for (size_t i = 0; i < b->n; i++)
        for (int k = 0; k < 3; k++) {
            b->pos64[3 * i + k] -= xs[k] / ms;
            b->vel64[3 * i + k] -= vs[k] / ms;
        }
}

static enum gc_status alloc(size_t n, struct gc_bodies *out)
{
    enum gc_status st = gc_bodies_alloc(out, n);
    if (st == GC_OK)
        st = gc_bodies_alloc_f64(out);
    if (st != GC_OK)
        gc_bodies_free(out);
    return st;
}

enum gc_status gc_model_plummer_build(size_t n, uint64_t seed, struct gc_bodies *out)
{
    const long long nchunks = (long long)((n + CHUNK - 1) / CHUNK);
    enum gc_status st;
    if (n < 2) {
        gc_log_error("a Plummer sphere needs at least 2 bodies, got %zu", n);
        return GC_ERR_INVALID;
    }
    st = alloc(n, out);
    if (st != GC_OK)
        return st;
#pragma omp parallel for schedule(dynamic, 1)
    for (long long c = 0; c < nchunks; c++) {
        struct rng g;
        const size_t i0 = (size_t)c * CHUNK, i1 = i0 + CHUNK < n ? i0 + CHUNK : n;
        if (gc_stop_cut()) /* a stop heard within a chunk (stop.h) */
            continue;
        rng_seed(&g, seed, 0x91u /* Plummer */, (uint64_t)c);
        for (size_t i = i0; i < i1; i++) {
            plummer_body(&g, &out->pos64[3 * i], &out->vel64[3 * i]);
            out->mass64[i] = 1.0 / (double)n;
            out->tag[i] = GC_TAG(0, GC_STAR);
        }
    }
    if (gc_stop_cut()) {
        gc_bodies_free(out);
        return GC_ERR_INTERRUPTED;
    }
    to_com_frame(out);
    gc_bodies_sync_f32(out);
    return GC_OK;
}

enum gc_status gc_model_pythagorean_build(size_t n, struct gc_bodies *out)
{
    static const double m[3] = {3.0, 4.0, 5.0};
    static const double x[3][2] = {{1.0, 3.0}, {-2.0, -1.0}, {1.0, -1.0}};
    enum gc_status st;
    if (n != 3) {
        gc_log_error("the Pythagorean problem has 3 bodies, not %zu (leave out -n)", n);
        return GC_ERR_INVALID;
    }
    st = alloc(3, out);
    if (st != GC_OK)
        return st;
    for (int i = 0; i < 3; i++) {
        out->pos64[3 * i + 0] = x[i][0];
        out->pos64[3 * i + 1] = x[i][1];
        out->pos64[3 * i + 2] = 0.0;
        for (int k = 0; k < 3; k++)
            out->vel64[3 * i + k] = 0.0;
        out->mass64[i] = m[i];
        out->tag[i] = GC_TAG(0, GC_STAR);
    }
    gc_bodies_sync_f32(out);
    return GC_OK;
}
