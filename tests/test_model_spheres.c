/* The spheres the tree is measured on (the wide Plummer sphere, the Hernquist cusp, the cold sphere) against their analytic profiles, and the split of a body set into more bodies. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "diagnostics.h"
#include "model_cluster.h"
#include "models.h"
#include "upsample.h"

#define N 20000

/* Where radii are measured from: the densest point, not the centre of mass. The models move
 * their bodies to the centre-of-mass frame, and a far tail moves that by its sampling noise
 * (a Hernquist sphere's by ~0.1 a at 20,000 bodies), which a cusp's profile would show. */
static double centre[3];

static double radius(const struct gc_bodies *b, size_t i)
{
    const float *x = b->pos + 4 * i;
    double r2 = 0.0;
    for (int k = 0; k < 3; k++)
        r2 += (x[k] - centre[k]) * (x[k] - centre[k]);
    return sqrt(r2);
}

/* The centre of b by shrinking spheres: the mean of the bodies within r of the last centre,
 * r shrinking from r0 by thirds while a few hundred bodies remain. */
static void find_centre(const struct gc_bodies *b, double r0)
{
    centre[0] = centre[1] = centre[2] = 0.0;
    for (double r = r0;; r /= 3.0) {
        double sum[3] = {0, 0, 0};
        size_t in = 0;
        for (size_t i = 0; i < b->n; i++)
            if (radius(b, i) < r) {
                in++;
                for (int k = 0; k < 3; k++)
                    sum[k] += b->pos[4 * i + k];
            }
        if (in < 300)
            break;
        for (int k = 0; k < 3; k++)
            centre[k] = sum[k] / (double)in;
    }
}

/* The fraction of the bodies inside r against the profile's (binomial noise: at most 4.5
 * standard deviations, a wrong profile is off by tens). */
static void check_inside(const struct gc_bodies *b, double r, double want, const char *what)
{
    size_t in = 0;
    double sd;
    for (size_t i = 0; i < b->n; i++)
        in += radius(b, i) < r;
    sd = sqrt(want * (1.0 - want) / (double)b->n);
    printf("%s: inside %.4g: %.5f of the bodies, the profile says %.5f (sd %.1e)\n", what, r,
           (double)in / (double)b->n, want, sd);
    CHECK(fabs((double)in / (double)b->n - want) < 4.5 * sd + 1.0 / (double)b->n);
}

static double total_mass(const struct gc_bodies *b)
{
    double m = 0.0;
    for (size_t i = 0; i < b->n; i++)
        m += b->pos[4 * i + 3];
    return m;
}

static double largest_radius(const struct gc_bodies *b)
{
    double r = 0.0;
    for (size_t i = 0; i < b->n; i++)
        r = fmax(r, radius(b, i));
    return r;
}

/* Plummer out to 100 scale radii: M(<r) = r^3 / (r^2 + a^2)^(3/2) over the mass inside
 * 100 a; bodies beyond the 0.999 mass cut of the plain sphere (38.7 a) that it lacks; E =
 * -1/4 to the sampling noise (W computed exactly over 4,000 bodies). */
static void test_plummer_wide(void)
{
    struct gc_bodies b;
    const double a = GC_PLUMMER_A, cut = pow(1.0 + 1e-4, -1.5);
    struct gc_diagnostics d;
    size_t beyond = 0;
    CHECK(gc_models_build("plummer-wide", N, 5, &b) == GC_OK);
    find_centre(&b, 10.0);
    for (double x = 0.5; x <= 50.0; x *= 10.0)
        check_inside(&b, x * a, pow(1.0 + 1.0 / (x * x), -1.5) / cut, "plummer-wide");
    for (size_t i = 0; i < b.n; i++)
        beyond += radius(&b, i) > 38.7 * a;
    printf("plummer-wide: largest radius %.1f a, %zu bodies beyond 38.7 a (the profile: "
           "%.1f)\n", largest_radius(&b) / a, beyond, N * (1.0 - 0.999 / cut));
    CHECK(largest_radius(&b) <= 1.01 * GC_WIDE_RADII * a);
    CHECK(beyond > 3 && beyond < 40);
    CHECK_NEAR(total_mass(&b), 1.0, 1e-4);
    gc_bodies_free(&b);
    CHECK(gc_models_build("plummer-wide", 4000, 6, &b) == GC_OK);
    gc_diagnostics_compute(&b, 1e-4, &d);
    printf("plummer-wide, 4000 bodies: E %.4f (Henon units: -0.25), |centre| %.1e\n", d.energy,
           sqrt(d.com[0] * d.com[0] + d.com[1] * d.com[1] + d.com[2] * d.com[2]));
    CHECK_NEAR(d.energy, -0.25, 0.02);
    CHECK_LT(fabs(d.com[0]) + fabs(d.com[1]) + fabs(d.com[2]), 1e-6);
    gc_bodies_free(&b);
}

/* Hernquist: M(<r) = r^2 / (r + a)^2 over the mass inside 100 a; the Jeans velocities make
 * it nearly virialised, 2K / |W| ~ 1 (the cut and the Gaussian speeds move it a few %). */
static void test_hernquist(void)
{
    struct gc_bodies b;
    const double a = GC_HERNQUIST_A, cut = 1e4 / (101.0 * 101.0);
    struct gc_diagnostics d;
    CHECK(gc_models_build("hernquist", N, 5, &b) == GC_OK);
    find_centre(&b, 10.0);
    for (double x = 0.1; x <= 10.0; x *= 10.0)
        check_inside(&b, x * a, x * x / ((x + 1.0) * (x + 1.0)) / cut, "hernquist");
    CHECK(largest_radius(&b) <= 1.01 * GC_WIDE_RADII * a);
    CHECK_NEAR(total_mass(&b), 1.0, 1e-4);
    gc_bodies_free(&b);
    CHECK(gc_models_build("hernquist", 4000, 6, &b) == GC_OK);
    gc_diagnostics_compute(&b, 1e-3, &d);
    printf("hernquist, 4000 bodies: 2K/|W| = %.3f, E %.4f\n", 2.0 * d.kinetic / -d.potential,
           d.energy);
    CHECK_NEAR(2.0 * d.kinetic / -d.potential, 1.0, 0.1);
    CHECK(d.energy < 0.0);
    gc_bodies_free(&b);
}

/* The cold sphere: uniform (an eighth of the bodies inside half the radius), inside the unit
 * ball, at rest. */
static void test_cold_sphere(void)
{
    struct gc_bodies b;
    double v = 0.0;
    CHECK(gc_models_build("cold-sphere", N, 5, &b) == GC_OK);
    find_centre(&b, 0.0); /* the centre of mass: a uniform ball has no cusp */
    check_inside(&b, 0.5, 0.125, "cold-sphere");
    check_inside(&b, 0.9, 0.729, "cold-sphere");
    CHECK(largest_radius(&b) <= 1.01);
    for (size_t i = 0; i < b.n; i++)
        for (int k = 0; k < 3; k++)
            v = fmax(v, fabs(b.vel[4 * i + k]));
    CHECK(v == 0.0);
    gc_bodies_free(&b);
}

/* Splitting: n bodies, the mass kept, each part near its parent with its velocity and tag,
 * the same bytes for the same seed; a body set kept whole is unchanged; too few is refused. */
static void test_upsample(void)
{
    struct gc_bodies small, big, again, same;
    const double sigma = 0.01;
    double worst = 0.0, spread = 0.0;
    CHECK(gc_models_build("mw-m31", 1000, 2, &small) == GC_OK);
    CHECK(gc_upsample(&small, 4500, sigma, 9, &big) == GC_OK);
    CHECK(big.n == 4500);
    CHECK_NEAR(total_mass(&big), total_mass(&small), 1e-6 * total_mass(&small));
    for (size_t i = 0; i < big.n; i++) {
        const size_t p = i % small.n;
        for (int k = 0; k < 3; k++) {
            const double d = (double)big.pos[4 * i + k] - small.pos[4 * p + k];
            worst = fmax(worst, fabs(d));
            spread += d * d;
            CHECK(big.vel[4 * i + k] == small.vel[4 * p + k]);
        }
        CHECK(big.tag[i] == small.tag[p]);
    }
    spread = sqrt(spread / (3.0 * (double)big.n));
    printf("upsample 1000 -> 4500, sigma %g: offsets RMS %.4g, largest %.4g\n", sigma, spread,
           worst);
    CHECK(spread > 0.9 * sigma && spread < 1.1 * sigma && worst < 6.0 * sigma);
    CHECK(gc_upsample(&small, 4500, sigma, 9, &again) == GC_OK);
    CHECK(memcmp(big.pos, again.pos, 4 * big.n * sizeof *big.pos) == 0);
    CHECK(gc_upsample(&small, small.n, sigma, 9, &same) == GC_OK);
    CHECK(memcmp(same.pos, small.pos, 4 * small.n * sizeof *small.pos) == 0);
    gc_bodies_free(&same);
    CHECK(gc_upsample(&small, 999, sigma, 9, &same) == GC_ERR_INVALID);
    gc_bodies_free(&small);
    gc_bodies_free(&big);
    gc_bodies_free(&again);
}

int main(void)
{
    test_plummer_wide();
    test_hernquist();
    test_cold_sphere();
    test_upsample();
    return CHECK_DONE();
}
