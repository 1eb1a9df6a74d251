/* Physics of the CPU backend and the leapfrog: float64 reference forces (also on the real
 * Dubinski table, as a part of its own), Kepler orbit, conservation laws and time reversibility. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "diagnostics.h"
#include "table.h"
#include "sim.h"
#include "test_util.h"
#include "thin.h"

static const double kTwoPi = 6.283185307179586;

/* a_i = sum_j m_j r_ij / (r_ij^2 + eps^2)^(3/2), entirely in double. */
static void reference_accel(const struct gc_bodies *b, double eps, double *a)
{
    for (size_t i = 0; i < b->n; i++) {
        double ax = 0, ay = 0, az = 0;
        for (size_t j = 0; j < b->n; j++) {
            double dx = (double)b->pos[4 * j] - b->pos[4 * i];
            double dy = (double)b->pos[4 * j + 1] - b->pos[4 * i + 1];
            double dz = (double)b->pos[4 * j + 2] - b->pos[4 * i + 2];
            double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
            double s = b->pos[4 * j + 3] / (r2 * sqrt(r2));
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        a[3 * i] = ax;
        a[3 * i + 1] = ay;
        a[3 * i + 2] = az;
    }
}

/* The backend's accelerations, through the interface's own primitives. */
static void backend_accel(struct gc_backend *be, const struct gc_bodies *b, float eps, double *a)
{
    struct gc_bodies out;
    gc_bodies_alloc(&out, b->n);
    CHECK(gc_backend_accelerations(be, b, ALLPAIRS(eps * eps),
                                   &out) == GC_OK);
    for (size_t i = 0; i < b->n; i++)
        for (int k = 0; k < 3; k++)
            a[3 * i + k] = out.vel[4 * i + k];
    gc_bodies_free(&out);
}

/* Relative RMS error ||a - ref|| / ||ref|| and worst per-body relative error. */
static void force_error(const struct gc_bodies *b, struct gc_backend *be, float eps,
                        double *rms, double *worst)
{
    size_t n = b->n;
    double *a = malloc(3 * n * sizeof *a), *ref = malloc(3 * n * sizeof *ref);
    double num = 0, den = 0;
    *worst = 0;
    backend_accel(be, b, eps, a);
    reference_accel(b, eps, ref);
    for (size_t i = 0; i < n; i++) {
        double e2 = 0, r2 = 0;
        for (int k = 0; k < 3; k++) {
            e2 += (a[3 * i + k] - ref[3 * i + k]) * (a[3 * i + k] - ref[3 * i + k]);
            r2 += ref[3 * i + k] * ref[3 * i + k];
        }
        num += e2;
        den += r2;
        if (r2 > 0 && sqrt(e2 / r2) > *worst)
            *worst = sqrt(e2 / r2);
    }
    *rms = sqrt(num / den);
    free(a);
    free(ref);
}

static void test_forces(struct gc_backend *be)
{
    struct gc_bodies b;
    double rms, worst;
    /* 3001 bodies: not a multiple of the j-block or any vector width. */
    CHECK(random_ball(&b, 3001, 2.0, 0.0, 11));
    force_error(&b, be, 0.025f, &rms, &worst);
    printf("forces, random ball N=3001: relative RMS error %.3g, worst body %.3g\n", rms, worst);
    /* float32 pair terms carry ~6e-8 rounding; the tolerance is 1e-5 */
    CHECK_LT(rms, 1e-5);
    CHECK_LT(worst, 1e-4);
    gc_bodies_free(&b);
}

/* The same on 4096 bodies of the real table (halos included): a clumpy, centrally
 * concentrated system, unlike the uniform ball. */
static void test_forces_dubinski(struct gc_backend *be, const char *path)
{
    struct gc_bodies all, b;
    double rms, worst;
    CHECK(gc_table_read(path, &all) == GC_OK);
    if (check_failures)
        return;
    CHECK(gc_thin_select(&all, 4096, 1, &b) == GC_OK);
    CHECK(b.n == 4096);
    if (check_failures) {
        gc_bodies_free(&all);
        return;
    }
    force_error(&b, be, 0.025f, &rms, &worst);
    printf("forces, Dubinski N=4096 with halos: relative RMS error %.3g, worst %.3g\n", rms,
           worst);
    CHECK_LT(rms, 1e-5);
    gc_bodies_free(&b);
    gc_bodies_free(&all);
}

/* Two bodies: the force must equal m r / (r^2 + eps^2)^(3/2) written out by hand. */
static void test_two_body_force(struct gc_backend *be)
{
    struct gc_bodies b;
    double a[6];
    const double eps = 0.1, m0 = 2.0, m1 = 0.5, d = 0.3;
    gc_bodies_alloc(&b, 2);
    b.pos[3] = (float)m0;
    b.pos[4] = (float)d;
    b.pos[7] = (float)m1;
    backend_accel(be, &b, (float)eps, a);
    {
        double f = 1.0 / pow(d * d + eps * eps, 1.5); /* = 1 / 0.1^1.5 / ... */
        CHECK_NEAR(a[0], m1 * d * f, 1e-6 * m1 * d * f);  /* body 0 pulled by m1 towards +x */
        CHECK_NEAR(a[3], -m0 * d * f, 1e-6 * m0 * d * f); /* body 1 pulled by m0 towards -x */
        CHECK(a[1] == 0 && a[2] == 0 && a[4] == 0 && a[5] == 0);
    }
    gc_bodies_free(&b);
}

/* Circular two-body orbit of the softened force: returns to its start after one period. */
static void test_kepler(struct gc_backend *be)
{
    struct gc_bodies b, out;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    const double m = 0.5, a = 1.0, eps = 0.01, M = 2 * m;
    /* relative motion: |r''| = M r / (r^2 + eps^2)^(3/2) = w^2 r on a circle of radius a */
    const double w = sqrt(M / pow(a * a + eps * eps, 1.5)), T = kTwoPi / w;
    const int steps = 2000;
    double maxdr = 0;
    gc_sim_params_default(&p);
    gc_bodies_alloc(&b, 2);
    gc_bodies_alloc(&out, 2);
    b.pos[0] = (float)(a / 2);
    b.pos[4] = (float)(-a / 2);
    b.pos[3] = b.pos[7] = (float)m;
    b.vel[1] = (float)(w * a / 2);
    b.vel[5] = (float)(-w * a / 2);
    p.dt = (float)(T / steps);
    p.eps = (float)eps;
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    for (int k = 0; k < 20; k++) {
        CHECK(gc_sim_advance(sim, gc_sim_time(sim) + (steps / 20) * (double)gc_sim_params(sim)->dt) ==
          GC_OK);
        CHECK(gc_sim_download(sim, &out) == GC_OK);
        double dx = out.pos[0] - out.pos[4], dy = out.pos[1] - out.pos[5];
        double dr = fabs(sqrt(dx * dx + dy * dy) - a);
        if (dr > maxdr)
            maxdr = dr;
    }
    /* (float)(T/steps)*steps differs from T by float rounding: compare at the time reached */
    {
        double t = gc_sim_time(sim), ang = w * t;
        double ex = a / 2 * cos(ang), ey = a / 2 * sin(ang);
        double err = hypot(out.pos[0] - ex, out.pos[1] - ey);
        double back = hypot(out.pos[0] - a / 2, out.pos[1]);
        printf("kepler: after one period (t = %.6f, T = %.6f) position error %.3g, distance to "
               "start %.3g, max radius error %.3g\n", t, T, err, back, maxdr);
        /* leapfrog phase error per orbit ~ (w dt)^2 * 2pi / 24 ~ 3e-6; float positions ~1e-7 */
        CHECK_LT(err, 1e-4);
        CHECK_LT(back, 1e-4);
        CHECK_LT(maxdr, 1e-4);
        {
            struct gc_integrator_stats st;
            gc_sim_stats(sim, &st);
            CHECK_NEAR(st.steps, steps, 0);
        }
    }
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&out);
}

/* Random cluster: momentum, angular momentum and energy conserved; reversible in time. */
static void test_conservation_and_reversibility(struct gc_backend *be)
{
    struct gc_bodies b, cur;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_diagnostics d0, d1;
    double mv = 0, mrv = 0, dP = 0, dL = 0, maxdx = 0;
    const unsigned steps = 400;

    gc_sim_params_default(&p);
    p.dt = 0.005f;
    p.eps = 0.05f;
    CHECK(random_ball(&b, 512, 1.0, 0.3, 99));
    for (size_t i = 0; i < b.n; i++) /* give the system net momentum: P0 != 0 */
        b.vel[4 * i] += 0.2f;
    gc_bodies_alloc(&cur, b.n);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_sim_measure(sim, &cur, &d0) == GC_OK);
    CHECK(d0.energy != 0.0 && fabs(d0.momentum[0]) > 0.1); /* never a vacuous check */
    for (size_t i = 0; i < b.n; i++) {
        double m = b.pos[4 * i + 3], v = hypot(hypot(b.vel[4 * i], b.vel[4 * i + 1]), b.vel[4 * i + 2]);
        double r = hypot(hypot(b.pos[4 * i], b.pos[4 * i + 1]), b.pos[4 * i + 2]);
        mv += m * v;
        mrv += m * r * v;
    }
    CHECK(gc_sim_advance(sim, gc_sim_time(sim) + (steps) * (double)gc_sim_params(sim)->dt) ==
          GC_OK);
    CHECK(gc_sim_measure(sim, &cur, &d1) == GC_OK);
    for (int k = 0; k < 3; k++) {
        dP = fmax(dP, fabs(d1.momentum[k] - d0.momentum[k]));
        dL = fmax(dL, fabs(d1.angular_momentum[k] - d0.angular_momentum[k]));
    }
    printf("conservation over %u steps: |dP| = %.3g (scale %.3g), |dL| = %.3g (scale %.3g), "
           "dE/|E0| = %.3g\n", steps, dP, mv, dL, mrv, (d1.energy - d0.energy) / fabs(d0.energy));
    /* Pairwise forces cancel exactly in real arithmetic, so only float rounding of the
     * summed accelerations (~1e-7 each, over 400 kicks) moves P and L. */
    CHECK_LT(dP, 1e-5 * mv);
    CHECK_LT(dL, 1e-5 * mrv);
    /* Second-order leapfrog at w dt ~ 0.02: energy error bounded, of order 1e-5 here. */
    CHECK_LT(fabs(d1.energy - d0.energy), 1e-3 * fabs(d0.energy));

    /* Time reversal: run backwards the same number of steps. */
    CHECK(gc_sim_set_dt(sim, -p.dt) == GC_OK);
    CHECK(gc_sim_advance(sim, gc_sim_time(sim) + (steps) * (double)gc_sim_params(sim)->dt) ==
          GC_OK);
    CHECK(gc_sim_download(sim, &cur) == GC_OK);
    for (size_t i = 0; i < b.n; i++)
        for (int k = 0; k < 3; k++)
            maxdx = fmax(maxdx, fabs(cur.pos[4 * i + k] - b.pos[4 * i + k]));
    printf("reversibility: max position difference after %u steps forward and back: %.3g\n",
           steps, maxdx);
    /* Exact in real arithmetic; float rounding (~1e-7 per step) grows slowly in 800 steps. */
    CHECK_LT(maxdx, 1e-4);
    CHECK_NEAR(gc_sim_time(sim), 0.0, 1e-6);
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&cur);
}

/* Backend potential slot against the float64 host potential. */
static void test_potential(struct gc_backend *be)
{
    struct gc_bodies b;
    double w_dev = 0, w_ref;
    CHECK(random_ball(&b, 2000, 1.5, 0.0, 5));
    CHECK(gc_backend_upload(be, &b) == GC_OK);
    CHECK(gc_backend_potential(be, ALLPAIRS(0.025f * 0.025f),
                               &w_dev) == GC_OK);
    w_ref = gc_diagnostics_potential(&b, 0.025f);
    CHECK(w_ref < 0);
    CHECK_NEAR(w_dev, w_ref, 1e-6 * fabs(w_ref));
    gc_bodies_free(&b);
}

static void test_errors(void)
{
    struct gc_backend *be = NULL;
    struct gc_sim *sim = NULL;
    struct gc_bodies b, wrong;
    struct gc_sim_params p;
    gc_sim_params_default(&p);
    p.dt = 0.0f;
    CHECK(gc_backend_create("warp-drive", NULL, &be) == GC_ERR_INVALID);
    CHECK(be == NULL);
    CHECK(gc_backend_create("cpu", NULL, &be) == GC_OK);
    random_ball(&b, 10, 1.0, 0.1, 1);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID); /* dt = 0 */
    p.dt = NAN;
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID);
    p.dt = 0.01f;
    p.eps = 0.0f; /* a body's pull on itself would be 0/0 */
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID);
    p.eps = 0.025f;
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_sim_set_dt(sim, 0.0f) == GC_ERR_INVALID);
    CHECK(gc_sim_params(sim)->dt == 0.01f); /* unchanged after a rejected value */
    gc_sim_destroy(sim);
    p.integrator = "verlet";
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID); /* unknown scheme */
    gc_bodies_alloc(&wrong, 11);
    CHECK(gc_backend_download(be, &wrong) == GC_ERR_INVALID); /* size mismatch */
    gc_bodies_free(&wrong);
    gc_bodies_free(&b);
    gc_backend_destroy(be);
    CHECK(gc_bodies_alloc(&b, 0) == GC_ERR_INVALID);
    CHECK(gc_bodies_alloc(&b, GC_MAX_BODIES + 1) == GC_ERR_INVALID);
}

/* Usage: test_physics [dubinski]. With "dubinski", only the checks on the real table (their
 * own ctest test, skipped without the file); without, everything else. */
int main(int argc, char **argv)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    opt.quiet = 1;
    if (dubinski_part(argc, argv)) {
        const char *p = dubinski_path();
        if (!p)
            return dubinski_skip();
        if (gc_backend_create("cpu", &opt, &be) != GC_OK)
            return 1;
        test_forces_dubinski(be, p);
        gc_backend_destroy(be);
        return CHECK_DONE();
    }
    if (gc_backend_create("cpu", &opt, &be) != GC_OK)
        return 1;
    test_forces(be);
    test_two_body_force(be);
    test_kepler(be);
    test_conservation_and_reversibility(be);
    test_potential(be);
    gc_backend_destroy(be);
    test_errors();
    return CHECK_DONE();
}
