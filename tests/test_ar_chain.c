/* The algorithmic-regularisation integrator on its own: a near-radial Kepler orbit, a group under an external field, and (with an argument) the Pythagorean problem for tests/ar/pythagorean.py. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar_chain.h"
#include "check.h"

#define PI 3.14159265358979323846

/* A binary of e = 0.999 (masses 0.5 and 0.6, a = 1) for 10,000 orbits, started at
 * apocentre. The logarithmic-Hamiltonian leapfrog keeps a Kepler orbit's shape exactly up
 * to round-off, so a and e must stay within 1e-10 (the bound; a step collapse or
 * a wrong time transformation loses them at once), and after exactly 10,000 periods the
 * bodies must be back at apocentre: the time variable is right too (phase within 1e-5 of
 * the orbit, what 1e4 orbits of accumulated round-off and extrapolation error allow). */
static void test_kepler(void)
{
    const double m[2] = {0.5, 0.6}, mu = 1.1, a0 = 1.0, e0 = 0.999;
    const double rap = a0 * (1.0 + e0), vap = sqrt(mu / a0 * (1.0 - e0) / (1.0 + e0));
    const double period = 2.0 * PI * sqrt(a0 * a0 * a0 / mu), orbits = 10000.0;
    double x[6] = {0, 0, 0, rap, 0, 0}, v[6] = {0, 0, 0, 0, vap, 0}, dx[3], dv[3], a, e, e_in;
    struct gc_ar *g = NULL;
    struct gc_ar_stats s;
    CHECK(gc_ar_create(2, m, x, v, 0.0, 1e-12, &g) == GC_OK);
    if (!g)
        return;
    e_in = gc_ar_energy(g);
    CHECK(e_in < 0.0);
    CHECK(gc_ar_advance(g, orbits * period, NULL) == GC_OK);
    CHECK_NEAR(gc_ar_time(g), orbits * period, 1e-9);
    gc_ar_state(g, x, v);
    for (int d = 0; d < 3; d++) {
        dx[d] = x[3 + d] - x[d];
        dv[d] = v[3 + d] - v[d];
    }
    gc_ar_kepler_elements(m[0], m[1], dx, dv, &a, &e);
    gc_ar_stats(g, &s);
    printf("kepler e = 0.999, 1e4 orbits: da/a = %.2e, de/e = %.2e, dE/E = %.2e, phase %.2e; "
           "%llu steps, %llu rejected, %llu kicks\n", fabs(a - a0) / a0, fabs(e - e0) / e0,
           fabs(gc_ar_energy(g) / e_in - 1.0), fabs(dx[0] - rap) + fabs(dx[1]),
           (unsigned long long)s.steps, (unsigned long long)s.rejected,
           (unsigned long long)s.evals);
    CHECK(fabs(a - a0) / a0 <= 1e-10);
    CHECK(fabs(e - e0) / e0 <= 1e-10);
    CHECK(fabs(dx[0] - rap) <= 1e-5 && fabs(dx[1]) <= 1e-5);
    gc_ar_destroy(g);
}

/* The same orbit stopped at many times: every advance ends with a step on physical time
 * that lands on its end, including the pericentre passages (e = 0.999: the speed there is
 * 45 times the mean). 100 orbits in 137 stops each, at times that fall on every phase: the
 * stops land exactly, and a, e and the phase stay as in one long advance. */
static void test_landings(void)
{
    const double m[2] = {0.5, 0.6}, mu = 1.1, a0 = 1.0, e0 = 0.999;
    const double rap = a0 * (1.0 + e0), vap = sqrt(mu / a0 * (1.0 - e0) / (1.0 + e0));
    const double period = 2.0 * PI * sqrt(a0 * a0 * a0 / mu);
    const int stops = 137 * 100;
    double x[6] = {0, 0, 0, rap, 0, 0}, v[6] = {0, 0, 0, 0, vap, 0}, dx[3], dv[3], a, e;
    double worst_t = 0.0;
    struct gc_ar *g = NULL;
    CHECK(gc_ar_create(2, m, x, v, 0.0, 1e-12, &g) == GC_OK);
    if (!g)
        return;
    for (int k = 1; k <= stops; k++) {
        const double t = period * k / 137.0;
        if (gc_ar_advance(g, t, NULL) != GC_OK) {
            CHECK(0);
            break;
        }
        worst_t = fmax(worst_t, fabs(gc_ar_time(g) - t));
    }
    gc_ar_state(g, x, v);
    for (int d = 0; d < 3; d++) {
        dx[d] = x[3 + d] - x[d];
        dv[d] = v[3 + d] - v[d];
    }
    gc_ar_kepler_elements(m[0], m[1], dx, dv, &a, &e);
    printf("kepler e = 0.999, 100 orbits in %d stops: da/a = %.2e, de/e = %.2e, phase %.2e, "
           "largest |t - stop| %.1e\n", stops, fabs(a - a0) / a0, fabs(e - e0) / e0,
           fabs(dx[0] - rap) + fabs(dx[1]), worst_t);
    CHECK(worst_t == 0.0);
    CHECK(fabs(a - a0) / a0 <= 1e-10);
    CHECK(fabs(e - e0) / e0 <= 1e-10);
    CHECK(fabs(dx[0] - rap) <= 1e-6 && fabs(dx[1]) <= 1e-6);
    gc_ar_destroy(g);
}

/* A static external field: a harmonic tide a = -k x about the centre of mass. The energy
 * T - U + sum m k x^2 / 2 is then conserved, and the scheme's carried energy -B must equal
 * T - U all along (it absorbs the field's work); both to 1e-11 over 200 orbits of a
 * three-body group (a tolerance 1e-12 gives errors near 1e-13 per orbit). A perturbation
 * hook that is ignored, or a work term of the wrong sign, fails by far more. */
struct tide {
    double k;
};

static void tide_accel(void *ctx, double t, size_t n, const double *x, double *acc)
{
    const struct tide *td = ctx;
    (void)t;
    for (size_t i = 0; i < 3 * n; i++)
        acc[i] -= td->k * x[i];
}

static double tide_energy(const struct gc_ar *g, double k)
{
    double x[9], v[9], phi = 0.0;
    const double *m = gc_ar_masses(g);
    gc_ar_state(g, x, v);
    for (int i = 0; i < 9; i++)
        phi += 0.5 * m[i / 3] * k * x[i] * x[i];
    return gc_ar_energy(g) + phi;
}

static void test_perturbed(void)
{
    const double m[3] = {1.0, 0.8, 0.01};
    double x[9] = {-0.4, 0, 0, 0.5, 0, 0, 3.0, 0.1, 0.2};
    double v[9] = {0, -0.6, 0.05, 0, 0.75, 0, 0, 0.55, 0.0};
    struct tide td = {0.02};
    const struct gc_ar_perturb p = {tide_accel, &td};
    struct gc_ar *g = NULL;
    double e0, e1, drift_b;
    CHECK(gc_ar_create(3, m, x, v, 0.0, 1e-12, &g) == GC_OK);
    if (!g)
        return;
    e0 = tide_energy(g, td.k);
    CHECK(fabs(e0) > 0.1);
    CHECK(gc_ar_advance(g, 200.0 * 2.0 * PI * sqrt(0.9 * 0.9 * 0.9 / 1.8), &p) == GC_OK);
    e1 = tide_energy(g, td.k);
    drift_b = fabs(gc_ar_energy_carried(g) - gc_ar_energy(g)) / fabs(e0);
    printf("tidal field, 3 bodies: energy with the field %.2e, carried vs actual %.2e\n",
           fabs(e1 / e0 - 1.0), drift_b);
    CHECK(fabs(e1 / e0 - 1.0) <= 1e-11);
    CHECK(drift_b <= 1e-11);
    /* the field really acted: the internal energy alone has changed */
    CHECK(fabs(gc_ar_energy(g) - (e0 - 0.0)) > 1e-6 * fabs(e0) ||
          fabs(e1 - gc_ar_energy(g)) > 1e-6 * fabs(e0));
    gc_ar_destroy(g);
}

/* Bad input: one body, a massless body, two bodies at one place. */
static void test_errors(void)
{
    const double m[2] = {1.0, 0.0}, m1[2] = {1.0, 1.0};
    const double x[6] = {0, 0, 0, 1, 0, 0}, same[6] = {0}, v[6] = {0};
    struct gc_ar *g = NULL;
    CHECK(gc_ar_create(1, m1, x, v, 0.0, 0.0, &g) == GC_ERR_INVALID && !g);
    CHECK(gc_ar_create(2, m, x, v, 0.0, 0.0, &g) == GC_ERR_INVALID && !g);
    CHECK(gc_ar_create(2, m1, same, v, 0.0, 0.0, &g) == GC_ERR_INVALID && !g);
}

/* The Pythagorean problem (masses 3, 4, 5 at rest on the 3-4-5 triangle) as one group to
 * t = 100, with the figures tests/ar/pythagorean.py compares with its own integration:
 * the time the distance of mass 3 from the centre of mass of 4 and 5 last rises through
 * 10 (sampled every 0.01, interpolated), the binary's energy and eccentricity at t = 100,
 * and the relative energy error. */
static int pythagorean(double tol)
{
    const double m[3] = {3, 4, 5};
    double x[9] = {1, 3, 0, -2, -1, 0, 1, -1, 0}, v[9] = {0}, prev = 0.0, t_esc = -1.0;
    struct gc_ar *g = NULL;
    double e0, dx[3], dv[3], a, e, eb;
    if (gc_ar_create(3, m, x, v, 0.0, tol, &g) != GC_OK)
        return 1;
    e0 = gc_ar_energy(g);
    for (int k = 1; k <= 10000; k++) {
        const double t = 0.01 * k;
        double r[3], d;
        if (gc_ar_advance(g, t, NULL) != GC_OK)
            return 1;
        gc_ar_state(g, x, v);
        for (int c = 0; c < 3; c++)
            r[c] = x[c] - (4.0 * x[3 + c] + 5.0 * x[6 + c]) / 9.0;
        d = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
        if (prev < 10.0 && d >= 10.0)
            t_esc = t - 0.01 * (d - 10.0) / (d - prev);
        prev = d;
    }
    for (int c = 0; c < 3; c++) {
        dx[c] = x[6 + c] - x[3 + c];
        dv[c] = v[6 + c] - v[3 + c];
    }
    gc_ar_kepler_elements(4.0, 5.0, dx, dv, &a, &e);
    eb = -4.0 * 5.0 / (2.0 * a);
    printf("t_esc %.10f\nE_bin %.12f\ne_bin %.12f\ndE %.3e\n", t_esc, eb, e,
           fabs(gc_ar_energy(g) / e0 - 1.0));
    gc_ar_destroy(g);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "pythagorean") == 0)
        return pythagorean(atof(argv[2]));
    test_kepler();
    test_landings();
    test_perturbed();
    test_errors();
    return check_failures ? 1 : 0;
}
