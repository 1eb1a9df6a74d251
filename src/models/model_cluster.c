/* Spherical models in Henon-like units: Plummer spheres (Aarseth, Henon & Wielen 1974), a Hernquist cusp, a cold uniform sphere, and the Pythagorean three-body problem. */
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

/* mass_cut: the fraction of the mass the radii are drawn from (the bodies beyond are not
 * drawn: the sphere inside the radius that holds that fraction, untruncated within it). */
static void plummer_body(struct rng *g, double mass_cut, double x[3], double v[3])
{
    const double a = GC_PLUMMER_A;
    /* Radius enclosing a uniform fraction m of the mass: m = r^3 / (r^2 + a^2)^(3/2). */
    const double m = mass_cut * uniform(g);
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

/* Fills out (n bodies, made) from body(), one random stream per chunk of CHUNK bodies. */
static enum gc_status spherical(size_t n, uint64_t seed, uint64_t stream, const char *what,
                                double param,
                                void (*body)(struct rng *, double, double *, double *),
                                struct gc_bodies *out)
{
    const long long nchunks = (long long)((n + CHUNK - 1) / CHUNK);
    enum gc_status st;
    if (n < 2) {
        gc_log_error("a %s needs at least 2 bodies, got %zu", what, n);
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
        rng_seed(&g, seed, stream, (uint64_t)c);
        for (size_t i = i0; i < i1; i++) {
            body(&g, param, &out->pos64[3 * i], &out->vel64[3 * i]);
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

enum gc_status gc_model_plummer_build(size_t n, uint64_t seed, struct gc_bodies *out)
{
    return spherical(n, seed, 0x91u /* Plummer */, "Plummer sphere", GC_PLUMMER_MASS_CUT,
                     plummer_body, out);
}

enum gc_status gc_model_plummer_wide_build(size_t n, uint64_t seed, struct gc_bodies *out)
{
    const double r = GC_WIDE_RADII;
    /* the mass inside r scale radii: r^3 / (r^2 + 1)^(3/2) */
    return spherical(n, seed, 0x92u, "Plummer sphere", pow(1.0 + 1.0 / (r * r), -1.5),
                     plummer_body, out);
}

/* Isotropic velocity dispersion squared of the untruncated Hernquist sphere at x = r / a
 * (G = M = 1; Hernquist 1990, eq. 10). log1p keeps the digits the difference needs far out
 * (at 100 a it cancels ~9 of 16). */
static double hernquist_sigma2(double x, double a)
{
    const double x1 = 1.0 + x;
    return (12.0 * x * x1 * x1 * x1 * log1p(1.0 / x) -
            x / x1 * (25.0 + x * (52.0 + x * (42.0 + 12.0 * x)))) / (12.0 * a);
}

/* A Hernquist body: radius from the cumulative mass M(<r) = r^2 / (r + a)^2 within
 * GC_WIDE_RADII scale radii; each velocity component Gaussian with the isotropic Jeans
 * dispersion (a local Maxwellian: near, not exactly in, equilibrium), redrawn until the
 * speed is below 0.95 of the local escape speed so that no body is unbound. */
static void hernquist_body(struct rng *g, double mass_cut, double x[3], double v[3])
{
    const double a = GC_HERNQUIST_A, s = sqrt(mass_cut * uniform(g));
    const double r = a * s / (1.0 - s), ve2 = 2.0 / (r + a);
    const double sigma = sqrt(fmax(hernquist_sigma2(r / a, a), 0.0));
    double v2;
    isotropic(g, r, x);
    do {
        v2 = 0.0;
        for (int k = 0; k < 3; k++) {
            v[k] = sigma * gaussian(g);
            v2 += v[k] * v[k];
        }
    } while (v2 > 0.95 * 0.95 * ve2);
}

enum gc_status gc_model_hernquist_build(size_t n, uint64_t seed, struct gc_bodies *out)
{
    const double r = GC_WIDE_RADII;
    /* the mass inside r scale radii: r^2 / (r + 1)^2 */
    return spherical(n, seed, 0x93u, "Hernquist sphere", r * r / ((r + 1.0) * (r + 1.0)),
                     hernquist_body, out);
}

/* A body of the cold sphere: uniform in the unit ball (radius from the cube root of a
 * uniform deviate), at rest. */
static void cold_body(struct rng *g, double unused, double x[3], double v[3])
{
    (void)unused;
    isotropic(g, cbrt(uniform(g)), x);
    v[0] = v[1] = v[2] = 0.0;
}

enum gc_status gc_model_cold_sphere_build(size_t n, uint64_t seed, struct gc_bodies *out)
{
    return spherical(n, seed, 0x94u, "cold sphere", 0.0, cold_body, out);
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
