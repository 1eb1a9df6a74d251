/* The algorithmic-regularisation integrator on its own: near-radial Kepler orbits (a free pair, and in a chain), the Kepler solver, groups and pairs under an external field, and (with an argument) the Pythagorean problem for tests/ar/pythagorean.py. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ar_chain.h"
#include "check.h"
#include "kepler.h"

#define PI 3.14159265358979323846

/* A binary of e = 0.999 (masses 0.5 and 0.6, a = 1) for 10,000 orbits, started at
 * apocentre. A free pair goes by Kepler's solution (ar_pair.c), so a and e must stay within
 * 1e-10 (the bound) and after exactly 10,000 periods the bodies must be back at
 * apocentre (phase within 1e-5 of the orbit). test_kepler_chain takes the same orbit
 * through the chain. */
/* The orbit of bodies 0 and 1 of g now: their separation dx and its elements a, e (x, v:
 * room for the group's state). */
static void pair_elements(struct gc_ar *g, const double *m, double *x, double *v,
                          double dx[3], double *a, double *e)
{
    double dv[3];
    gc_ar_state(g, x, v);
    for (int d = 0; d < 3; d++) {
        dx[d] = x[3 + d] - x[d];
        dv[d] = v[3 + d] - v[d];
    }
    gc_ar_kepler_elements(m[0], m[1], dx, dv, a, e);
}

static void test_kepler(void)
{
    const double m[2] = {0.5, 0.6}, mu = 1.1, a0 = 1.0, e0 = 0.999;
    const double rap = a0 * (1.0 + e0), vap = sqrt(mu / a0 * (1.0 - e0) / (1.0 + e0));
    const double period = 2.0 * PI * sqrt(a0 * a0 * a0 / mu), orbits = 10000.0;
    double x[6] = {0, 0, 0, rap, 0, 0}, v[6] = {0, 0, 0, 0, vap, 0}, dx[3], a, e, e_in;
    struct gc_ar *g = NULL;
    struct gc_ar_stats s;
    CHECK(gc_ar_create(2, m, x, v, 0.0, 1e-12, &g) == GC_OK);
    if (!g)
        return;
    e_in = gc_ar_energy(g);
    CHECK(e_in < 0.0);
    CHECK(gc_ar_advance(g, orbits * period, NULL) == GC_OK);
    CHECK_NEAR(gc_ar_time(g), orbits * period, 1e-9);
    pair_elements(g, m, x, v, dx, &a, &e);
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

/* gc_kepler_drift against a fourth-order Runge-Kutta integration with a small fixed step
 * (sharing nothing with it), on an ellipse of e near 0.9 through its pericentre and on a
 * hyperbola; forward then back is the start; whole periods change nothing. */
static void rk4_kepler(double mu, double *s, double dt, int steps)
{
    double k[4][6], y[6];
    for (int i = 0; i < steps; i++) {
        for (int st = 0; st < 4; st++) {
            const double c = st == 0 ? 0.0 : st == 3 ? 1.0 : 0.5;
            double r;
            for (int d = 0; d < 6; d++)
                y[d] = s[d] + (st ? c * dt * k[st - 1][d] : 0.0);
            r = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
            for (int d = 0; d < 3; d++) {
                k[st][d] = y[3 + d];
                k[st][3 + d] = -mu * y[d] / (r * r * r);
            }
        }
        for (int d = 0; d < 6; d++)
            s[d] += dt / 6.0 * (k[0][d] + 2.0 * k[1][d] + 2.0 * k[2][d] + k[3][d]);
    }
}

static void test_kepler_drift(void)
{
    const double mu = 1.7;
    /* near the apocentre of an ellipse of e ~ 0.9; a hyperbola passing near 0.3 */
    const double ell[6] = {1.9, 0.0, 0.1, 0.0, sqrt(mu * 0.1 / 1.9), 0.0};
    const double hyp[6] = {-3.0, 0.3, 0.0, 2.0, 0.0, 0.1};
    const double *cases[2] = {ell, hyp};
    const double span[2] = {0.5 * 2.0 * PI / sqrt(mu) + 0.3, 2.5};
    double worst = 0.0;
    for (int c = 0; c < 2; c++) {
        double ref[6], r[3], v[3], back_r[3], back_v[3], err = 0.0, back = 0.0;
        memcpy(ref, cases[c], sizeof ref);
        rk4_kepler(mu, ref, span[c] / 400000.0, 400000);
        CHECK(gc_kepler_drift(mu, cases[c], cases[c] + 3, span[c], r, v) == 0);
        CHECK(gc_kepler_drift(mu, r, v, -span[c], back_r, back_v) == 0);
        for (int d = 0; d < 3; d++) {
            err = fmax(err, fmax(fabs(r[d] - ref[d]), fabs(v[d] - ref[3 + d]) / 10.0));
            back = fmax(back, fabs(back_r[d] - cases[c][d]) + fabs(back_v[d] - cases[c][3 + d]));
        }
        printf("kepler drift %s: |x - rk4| %.2e, forward and back %.2e\n",
               c ? "hyperbola" : "ellipse", err, back);
        CHECK(err <= 1e-9);
        CHECK(back <= 1e-12);
        worst = fmax(worst, err);
    }
    {
        /* whole periods are dropped before solving: 7.3 periods land where 0.3 do */
        const double r0 = sqrt(ell[0] * ell[0] + ell[2] * ell[2]);
        const double a = 1.0 / (2.0 / r0 - ell[4] * ell[4] / mu);
        const double period = 2.0 * PI * sqrt(a * a * a / mu);
        double r1[3], v1[3], r2[3], v2[3], d = 0.0;
        CHECK(gc_kepler_drift(mu, ell, ell + 3, 7.3 * period, r1, v1) == 0);
        CHECK(gc_kepler_drift(mu, ell, ell + 3, 0.3 * period, r2, v2) == 0);
        for (int k = 0; k < 3; k++)
            d = fmax(d, fabs(r1[k] - r2[k]) + fabs(v1[k] - v2[k]));
        printf("kepler drift: 7.3 periods against 0.3: %.2e\n", d);
        CHECK(d <= 1e-11);
    }
    {
        const double zero[3] = {0, 0, 0};
        double r[3], v[3];
        CHECK(gc_kepler_drift(mu, zero, ell + 3, 1.0, r, v) == -1);
    }
}

/* The same binary with a third body of 1e-6 at 1000 (its tide on the pair about 1e-15 of
 * the pair's pull), so the logarithmic-Hamiltonian leapfrog in chain coordinates carries
 * it: over 1,000 orbits a and e must stay within 1e-10 (the tolerance's ~1e-13 an orbit;
 * a step collapse or a wrong time transformation loses them at once) and the phase within
 * 1e-6. */
static void test_kepler_chain(void)
{
    const double m[3] = {0.5, 0.6, 1e-6}, mu = 1.1, a0 = 1.0, e0 = 0.999, orbits = 1000.0;
    const double rap = a0 * (1.0 + e0), vap = sqrt(mu / a0 * (1.0 - e0) / (1.0 + e0));
    const double period = 2.0 * PI * sqrt(a0 * a0 * a0 / mu), vfar = sqrt(mu / 1000.0);
    double x[9] = {0, 0, 0, rap, 0, 0, 0, 1000.0, 0}, v[9] = {0, 0, 0, 0, vap, 0, -vfar, 0, 0};
    double dx[3], a, e;
    struct gc_ar *g = NULL;
    struct gc_ar_stats st;
    CHECK(gc_ar_create(3, m, x, v, 0.0, 1e-12, &g) == GC_OK);
    if (!g)
        return;
    CHECK(gc_ar_advance(g, orbits * period, NULL) == GC_OK);
    pair_elements(g, m, x, v, dx, &a, &e);
    gc_ar_stats(g, &st);
    printf("kepler e = 0.999 in a chain, 1e3 orbits: da/a = %.2e, de/e = %.2e, phase %.2e; "
           "%llu kicks\n", fabs(a - a0) / a0, fabs(e - e0) / e0,
           fabs(dx[0] - rap) + fabs(dx[1]), (unsigned long long)st.evals);
    CHECK(fabs(a - a0) / a0 <= 1e-10);
    CHECK(fabs(e - e0) / e0 <= 1e-10);
    CHECK(fabs(dx[0] - rap) <= 1e-6 && fabs(dx[1]) <= 1e-6);
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
    double x[6] = {0, 0, 0, rap, 0, 0}, v[6] = {0, 0, 0, 0, vap, 0}, dx[3], a, e;
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
    pair_elements(g, m, x, v, dx, &a, &e);
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
    for (size_t i = 0; i < 3 * gc_ar_n(g); i++)
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

/* A pair (a = 1) in the same field, its relative orbit carried by Kepler's solution between
 * the field's kicks, stopped every 0.37 orbits as a Hermite run stops it: the same
 * invariants to 1e-11 over 200 orbits, and the field acted. With e = 0.9 and a field of
 * 0.5% of the pair's own pull at a (a step of 1/16 of the period let the energy with the
 * field drift to 8e-10); and with e = 0.3 in a weak field (5e-5), which must take fewer
 * than 600 kicks an orbit (the logarithmic-Hamiltonian leapfrog took 1104). */
static void perturbed_pair(double e0, double strength, double max_kicks)
{
    const double m[2] = {1.0, 0.8}, mu = 1.8, a0 = 1.0, orbits = 200.0;
    const double rap = a0 * (1.0 + e0), vap = sqrt(mu / a0 * (1.0 - e0) / (1.0 + e0));
    const double period = 2.0 * PI * sqrt(a0 * a0 * a0 / mu);
    double x[6] = {0, 0, 0, rap, 0, 0.1}, v[6] = {0, 0, 0, 0, vap, 0};
    struct tide td = {strength * mu};
    const struct gc_ar_perturb p = {tide_accel, &td};
    struct gc_ar *g = NULL;
    struct gc_ar_stats st;
    double en0, en1, drift_b, emin = INFINITY, emax = -INFINITY;
    CHECK(gc_ar_create(2, m, x, v, 0.0, 1e-12, &g) == GC_OK);
    if (!g)
        return;
    en0 = tide_energy(g, td.k);
    CHECK(fabs(en0) > 0.1);
    for (int k = 1; k <= (int)(orbits / 0.37) + 1; k++) {
        if (gc_ar_advance(g, fmin(0.37 * k, orbits) * period, &p) != GC_OK) {
            CHECK(0);
            break;
        }
        emin = fmin(emin, gc_ar_energy(g));
        emax = fmax(emax, gc_ar_energy(g));
    }
    en1 = tide_energy(g, td.k);
    drift_b = fabs(gc_ar_energy_carried(g) - gc_ar_energy(g)) / fabs(en0);
    gc_ar_stats(g, &st);
    printf("tidal field %g, a pair of e = %g: energy with the field %.2e, carried vs actual "
           "%.2e, internal energy swings %.2e; %.1f kicks an orbit\n", strength, e0,
           fabs(en1 / en0 - 1.0), drift_b, (emax - emin) / fabs(en0),
           (double)st.evals / orbits);
    CHECK(fabs(en1 / en0 - 1.0) <= 1e-11);
    CHECK(drift_b <= 1e-11);
    CHECK(emax - emin > 1e-2 * strength * fabs(en0)); /* the field really acted */
    CHECK((double)st.evals / orbits <= max_kicks);
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
    test_kepler_chain();
    test_kepler_drift();
    test_landings();
    test_perturbed();
    perturbed_pair(0.9, 5e-3, INFINITY);
    perturbed_pair(0.3, 5e-5, 600.0);
    test_errors();
    return check_failures ? 1 : 0;
}
