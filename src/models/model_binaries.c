/* Built-in models with hard binaries: the Pythagorean problem of binaries and a Plummer cluster with primordial binaries. */
/* SPDX-License-Identifier: MIT */
#include "model_binaries.h"

#include <math.h>

#include "log.h"
#include "model_cluster.h"
#include "rng.h"

#define PI 3.14159265358979323846

/* Slots i, i+1 of out: the pair of masses m/2 + m/2 around centre (x, v) on a circular orbit
 * of semi-major axis a; e1 is the direction of the separation, e2 that of the relative
 * velocity (both unit vectors, orthogonal). */
static void put_pair(struct gc_bodies *out, size_t i, double m, const double x[3],
                     const double v[3], double a, const double e1[3], const double e2[3])
{
    const double vrel = sqrt(m / a);
    for (int k = 0; k < 3; k++) {
        out->pos64[3 * i + k] = x[k] - 0.5 * a * e1[k];
        out->pos64[3 * (i + 1) + k] = x[k] + 0.5 * a * e1[k];
        out->vel64[3 * i + k] = v[k] - 0.5 * vrel * e2[k];
        out->vel64[3 * (i + 1) + k] = v[k] + 0.5 * vrel * e2[k];
    }
    out->mass64[i] = out->mass64[i + 1] = 0.5 * m;
    out->tag[i] = out->tag[i + 1] = GC_TAG(0, GC_STAR);
}

enum gc_status gc_model_pythagorean_binaries_build(size_t n, struct gc_bodies *out)
{
    struct gc_bodies three = {0};
    enum gc_status st;
    if (n != 6) {
        gc_log_error("the Pythagorean problem of binaries has 6 bodies, not %zu (leave out -n)",
                     n);
        return GC_ERR_INVALID;
    }
    st = gc_model_pythagorean_build(3, &three);
    if (st == GC_OK)
        st = gc_bodies_alloc(out, 6);
    if (st == GC_OK)
        st = gc_bodies_alloc_f64(out);
    for (size_t b = 0; st == GC_OK && b < 3; b++) {
        const double ph = 2.0 * PI * (double)b / 3.0;
        const double e1[3] = {cos(ph), sin(ph), 0.0}, e2[3] = {-sin(ph), cos(ph), 0.0};
        put_pair(out, 2 * b, three.mass64[b], &three.pos64[3 * b], &three.vel64[3 * b],
                 GC_PYTHAGOREAN_BINARY_A, e1, e2);
    }
    gc_bodies_free(&three);
    if (st != GC_OK) {
        gc_bodies_free(out);
        return st;
    }
    gc_bodies_sync_f32(out);
    return GC_OK;
}

/* A random unit vector, and a unit vector orthogonal to it at a random angle. */
static void random_frame(struct rng *g, double e1[3], double e2[3])
{
    const double z = 2.0 * uniform(g) - 1.0, ph = 2.0 * PI * uniform(g), s = sqrt(1.0 - z * z);
    const double psi = 2.0 * PI * uniform(g);
    double u[3], w[3], nu, nw;
    e1[0] = s * cos(ph);
    e1[1] = s * sin(ph);
    e1[2] = z;
    /* any vector not along e1, made orthogonal, then turned by psi about e1 */
    u[0] = fabs(e1[0]) < 0.9 ? 1.0 : 0.0;
    u[1] = fabs(e1[0]) < 0.9 ? 0.0 : 1.0;
    u[2] = 0.0;
    nu = u[0] * e1[0] + u[1] * e1[1];
    for (int k = 0; k < 3; k++)
        u[k] -= nu * e1[k];
    nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (int k = 0; k < 3; k++)
        u[k] /= nu;
    w[0] = e1[1] * u[2] - e1[2] * u[1];
    w[1] = e1[2] * u[0] - e1[0] * u[2];
    w[2] = e1[0] * u[1] - e1[1] * u[0];
    nw = 0.0;
    for (int k = 0; k < 3; k++) {
        e2[k] = cos(psi) * u[k] + sin(psi) * w[k];
        nw += e2[k] * e2[k];
    }
    for (int k = 0; k < 3; k++)
        e2[k] /= sqrt(nw);
}

enum gc_status gc_model_plummer_binaries_build(size_t n, uint64_t seed, struct gc_bodies *out)
{
    const size_t every = (size_t)floor(2.0 / GC_PRIMORDIAL_FRACTION - 1.0 + 0.5);
    size_t nsys, nbin, i = 0;
    struct gc_bodies sys = {0};
    struct rng g;
    enum gc_status st;
    if (n < 4) {
        gc_log_error("a Plummer sphere with binaries needs at least 4 bodies, got %zu", n);
        return GC_ERR_INVALID;
    }
    /* nsys systems of which nbin binaries: nsys + nbin = n */
    nbin = (size_t)floor(GC_PRIMORDIAL_FRACTION * (double)n / 2.0 + 0.5);
    nbin = nbin < 1 ? 1 : nbin;
    nsys = n - nbin;
    st = gc_model_plummer_build(nsys, seed, &sys);
    if (st == GC_OK)
        st = gc_bodies_alloc(out, n);
    if (st == GC_OK)
        st = gc_bodies_alloc_f64(out);
    rng_seed(&g, seed, 0xB1u /* binaries */, 0);
    for (size_t s = 0, made = 0; st == GC_OK && s < nsys; s++) {
        const double *x = &sys.pos64[3 * s], *v = &sys.vel64[3 * s];
        if (made < nbin && s % every == 0) {
            const double la = log(GC_PRIMORDIAL_A_MIN) +
                              uniform(&g) * (log(GC_PRIMORDIAL_A_MAX) - log(GC_PRIMORDIAL_A_MIN));
            double e1[3], e2[3];
            random_frame(&g, e1, e2);
            /* a ~ 1/n keeps the binding energy the same multiple of a star's kT */
            put_pair(out, i, 2.0 / (double)n, x, v, exp(la) * (GC_PRIMORDIAL_N / (double)n), e1,
                     e2);
            i += 2;
            made++;
        } else {
            for (int k = 0; k < 3; k++) {
                out->pos64[3 * i + k] = x[k];
                out->vel64[3 * i + k] = v[k];
            }
            out->mass64[i] = 1.0 / (double)n;
            out->tag[i++] = GC_TAG(0, GC_STAR);
        }
    }
    gc_bodies_free(&sys);
    if (st == GC_OK && i == n) { /* the heavier binaries moved the centre of mass */
        double mt = 0.0, cx[3] = {0, 0, 0}, cv[3] = {0, 0, 0};
        for (size_t b = 0; b < n; b++) {
            mt += out->mass64[b];
            for (int k = 0; k < 3; k++) {
                cx[k] += out->mass64[b] * out->pos64[3 * b + k];
                cv[k] += out->mass64[b] * out->vel64[3 * b + k];
            }
        }
        for (size_t b = 0; b < n; b++)
            for (int k = 0; k < 3; k++) {
                out->pos64[3 * b + k] -= cx[k] / mt;
                out->vel64[3 * b + k] -= cv[k] / mt;
            }
    }
    if (st != GC_OK || i != n) {
        gc_bodies_free(out);
        if (st == GC_OK)
            gc_log_error("plummer-binaries: %zu bodies made of %zu", i, n);
        return st != GC_OK ? st : GC_ERR_INVALID;
    }
    gc_bodies_sync_f32(out);
    return GC_OK;
}
