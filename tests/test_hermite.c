/* The Hermite schemes on one backend (argument: cpu, the default, or cuda): derivatives
 * against long double, convergence order on a Kepler orbit, block-step scheduler
 * invariants, energy and momentum of a Plummer sphere, the Pythagorean problem's outcome,
 * the errors of unsoftened collisions; on CUDA also the GPU against the CPU and the graph
 * loop against the host loop. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_hermite.h"
#include "check.h"
#include "diagnostics.h"
#include "hermite_formulas.h"
#include "model_binaries.h"
#include "model_cluster.h"
#include "sim.h"
#include "test_util.h"

static const double kTwoPi = 6.283185307179586;


/* The force pass's arithmetic under test (--precision): the CPU is double either way. */
static const char *precision = "double";

static struct gc_sim_params params(const char *integrator, double eps)
{
    struct gc_sim_params p;
    gc_sim_params_default(&p);
    p.integrator = integrator;
    p.precision = precision;
    /* The schemes themselves: close groups are regularisation's, tested in test_ar_*. */
    p.regularize = "off";
    p.eps = (float)eps;
    return p;
}

/* ---- derivatives against long double ---- */

/* a, jerk and snap of every body from the pair formulas, summed in long double. */
static void reference_derivs(const struct gc_bodies *b, long double eps2, long double *acc,
                             long double *jerk, long double *snap)
{
    const size_t n = b->n;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            long double A[3] = {0, 0, 0}, J[3] = {0, 0, 0}, S[3] = {0, 0, 0};
            for (size_t j = 0; j < n; j++) {
                long double r[3], v[3], a[3], r2 = eps2, rv = 0, vv = 0, ra = 0;
                if (j == i)
                    continue;
                for (int k = 0; k < 3; k++) {
                    r[k] = (long double)b->pos64[3 * j + k] - b->pos64[3 * i + k];
                    v[k] = (long double)b->vel64[3 * j + k] - b->vel64[3 * i + k];
                    a[k] = pass ? acc[3 * j + k] - acc[3 * i + k] : 0.0L;
                    r2 += r[k] * r[k];
                    rv += r[k] * v[k];
                    vv += v[k] * v[k];
                    ra += r[k] * a[k];
                }
                const long double mr3 = b->mass64[j] / (r2 * sqrtl(r2));
                const long double al = rv / r2, be = (vv + ra) / r2 + al * al;
                for (int k = 0; k < 3; k++) {
                    const long double ak = mr3 * r[k], jk = mr3 * v[k] - 3 * al * ak;
                    A[k] += ak;
                    J[k] += jk;
                    S[k] += mr3 * a[k] - 6 * al * jk - 3 * be * ak;
                }
            }
            for (int k = 0; k < 3; k++) {
                if (pass == 0) {
                    acc[3 * i + k] = A[k];
                    jerk[3 * i + k] = J[k];
                } else {
                    snap[3 * i + k] = S[k];
                }
            }
        }
}

static double rel_err(const double *x, const long double *ref, size_t n3)
{
    long double num = 0, den = 0;
    for (size_t k = 0; k < n3; k++) {
        num += (x[k] - ref[k]) * (x[k] - ref[k]);
        den += ref[k] * ref[k];
    }
    return (double)sqrtl(num / den);
}

static void test_derivatives(struct gc_backend *be, const char *integrator, double eps,
                             double tol)
{
    struct gc_bodies b;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params(integrator, eps);
    const int six = strcmp(integrator, "hermite6") == 0;
    const size_t n = 200;
    double *a = malloc(3 * n * sizeof *a), *j = malloc(3 * n * sizeof *j),
           *s = malloc(3 * n * sizeof *s);
    long double *ra = malloc(3 * n * sizeof *ra), *rj = malloc(3 * n * sizeof *rj),
                *rs = malloc(3 * n * sizeof *rs);
    CHECK(gc_model_plummer_build(n, 17, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_backend_hermite_derivs(be, a, j, s) == GC_OK);
    reference_derivs(&b, (long double)p.eps * p.eps, ra, rj, rs);
    double ea = rel_err(a, ra, 3 * n), ej = rel_err(j, rj, 3 * n), es = rel_err(s, rs, 3 * n);
    printf("%s derivatives vs long double (eps %g, N %zu): acc %.2e, jerk %.2e, snap %.2e\n",
           integrator, eps, n, ea, ej, six ? es : 0.0);
    /* Double sums of ~200 terms: a few 1e-16 relative each; 1e-12 leaves room for the
     * cancellation in the jerk and snap but catches any wrong coefficient (~1e-1). The
     * mixed kernel: 1e-7 per term, 10x for the cancellation in the snap. */
    CHECK_LT(ea, tol);
    CHECK_LT(ej, tol);
    if (six) {
        CHECK_LT(es, 10 * tol);
        CHECK(es > 0.0);
    }
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    free(a), free(j), free(s), free(ra), free(rj), free(rs);
}

/* ---- convergence order on an eccentric Kepler orbit ---- */

/* Two bodies of mass 1/2 (G M = 1) on an e = 0.5, a = 1 orbit, started at pericentre,
 * unsoftened; relative position error after one period T = 2 pi with shared fixed steps
 * T / steps. */
static double kepler_error(struct gc_backend *be, const char *integrator, int steps)
{
    const double e = 0.5, rp = 1.0 - e, vp = sqrt((1.0 + e) / (1.0 - e));
    struct gc_bodies b, out = {0};
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params(integrator, 0.0);
    double err = INFINITY;
    gc_bodies_alloc(&b, 2);
    gc_bodies_alloc_f64(&b);
    b.mass64[0] = b.mass64[1] = 0.5;
    b.pos64[0] = -rp / 2;
    b.pos64[3] = rp / 2;
    b.vel64[1] = -vp / 2;
    b.vel64[4] = vp / 2;
    gc_bodies_sync_f32(&b);
    p.dt_max = kTwoPi / 8;
    p.fixed_dt = kTwoPi / steps;
    if (gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK && gc_sim_advance(sim, kTwoPi) == GC_OK &&
        gc_bodies_alloc(&out, 2) == GC_OK && gc_sim_download(sim, &out) == GC_OK) {
        double d2 = 0;
        for (int k = 0; k < 3; k++) {
            const double r = out.pos64[3 + k] - out.pos64[k], r0 = b.pos64[3 + k] - b.pos64[k];
            d2 += (r - r0) * (r - r0);
        }
        err = sqrt(d2);
    }
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&out);
    return err;
}

static void test_convergence(struct gc_backend *be, const char *integrator, int steps,
                             double expect)
{
    const double e1 = kepler_error(be, integrator, steps);
    const double e2 = kepler_error(be, integrator, 2 * steps);
    printf("convergence %s: error after one period %.3e (T/%d), %.3e (T/%d), ratio %.1f "
           "(order %g: %g)\n", integrator, e1, steps, e2, 2 * steps, e1 / e2,
           log2(expect), expect);
    /* Global error ~ dt^order: halving the step divides it by 2^order (16 or 64); 25% of
     * slack for the higher-order terms still present at these steps. A first-order slip
     * (a wrong coefficient) gives 2 to 8 and fails. */
    CHECK(e1 / e2 > 0.75 * expect && e1 / e2 < 1.25 * expect);
    CHECK(e2 > 0.0 && e1 < 1e-2); /* in the asymptotic range, not at rounding */
}

/* ---- block-step scheduler ---- */

/* Drives the primitives one block at a time (as integrator_hermite.c does) and checks after
 * every block: steps are powers of two, every body's time is a multiple of its step, exactly
 * the bodies with t_i + dt_i = t_next moved (to t_next), none skipped or moved twice, and a
 * step only halves (any number of times) or doubles once where the time is a multiple of
 * the doubled step. */
static void test_scheduler(struct gc_backend *be)
{
    const size_t n = 256;
    struct gc_bodies b;
    struct gc_hermite_config cfg = {4, 1.0 / 65536.0, 0.02, 0.01, 0.125, -1, 0};
    int64_t *t0 = malloc(n * sizeof *t0), *t1 = malloc(n * sizeof *t1);
    uint8_t *l0 = malloc(n), *l1 = malloc(n);
    const int64_t limit = GC_HERMITE_TICKS(0) * 2; /* t = 2 dt_max = 0.25 */
    long blocks = 0, bad = 0, halved = 0, doubled = 0;
    uint64_t moved_total = 0;
    struct gc_hermite_counters cnt;
    int due = 1;

    CHECK(gc_model_plummer_build(n, 5, &b) == GC_OK);
    CHECK(gc_backend_upload(be, &b) == GC_OK);
    CHECK(gc_backend_hermite_init(be, &cfg, &b) == GC_OK);
    CHECK(gc_backend_hermite_predict(be) == GC_OK);
    CHECK(gc_backend_hermite_force(be) == GC_OK);
    CHECK(gc_backend_hermite_begin(be) == GC_OK);
    for (;;) {
        int64_t t_next = INT64_MAX;
        size_t moved = 0;
        CHECK(gc_backend_hermite_schedule(be, t0, l0) == GC_OK);
        for (size_t i = 0; i < n; i++)
            if (t0[i] + GC_HERMITE_TICKS(l0[i]) < t_next)
                t_next = t0[i] + GC_HERMITE_TICKS(l0[i]);
        CHECK(gc_backend_hermite_select(be, limit, &due) == GC_OK);
        CHECK(due == (t_next <= limit));
        if (!due)
            break;
        CHECK(gc_backend_hermite_predict(be) == GC_OK);
        CHECK(gc_backend_hermite_force(be) == GC_OK);
        CHECK(gc_backend_hermite_correct(be) == GC_OK);
        CHECK(gc_backend_hermite_schedule(be, t1, l1) == GC_OK);
        blocks++;
        for (size_t i = 0; i < n; i++) {
            const int was_due = t0[i] + GC_HERMITE_TICKS(l0[i]) == t_next;
            if (l1[i] >= GC_HERMITE_LEVELS || t1[i] % GC_HERMITE_TICKS(l1[i]) != 0)
                bad++; /* not commensurate */
            if (was_due) {
                moved++;
                if (t1[i] != t_next || l1[i] + 1 < l0[i] ||
                    (l1[i] + 1 == l0[i] && t_next % GC_HERMITE_TICKS(l1[i]) != 0))
                    bad++; /* not advanced to the block time, or doubled illegally */
                halved += l1[i] > l0[i];
                doubled += l1[i] < l0[i];
            } else if (t1[i] != t0[i] || l1[i] != l0[i]) {
                bad++; /* advanced out of turn */
            }
        }
        moved_total += moved;
        CHECK(gc_backend_hermite_counters(be, &cnt) == GC_OK);
        CHECK(cnt.last_active == moved && moved > 0);
    }
    /* t = 2 dt_max is a multiple of every step: all bodies meet there. */
    CHECK(gc_backend_hermite_schedule(be, t1, l1) == GC_OK);
    for (size_t i = 0; i < n; i++)
        if (t1[i] != limit)
            bad++;
    CHECK(gc_backend_hermite_counters(be, &cnt) == GC_OK);
    printf("scheduler: %ld blocks, %llu body steps, %ld halvings, %ld doublings, %ld "
           "violations\n", blocks, (unsigned long long)moved_total, halved, doubled, bad);
    CHECK(bad == 0);
    CHECK(cnt.blocks == (uint64_t)blocks && cnt.body_steps == moved_total);
    CHECK(blocks > 10 && halved > 0 && doubled > 0); /* the rules were exercised */
    /* The level rule itself on hand-made cases (dt_max = 1): halve freely, double only where
     * commensurate, never beyond dt_max; a first step from any level. */
    CHECK(gc_hermite_new_level(3, 0.1, GC_HERMITE_TICKS(3), 1.0) == 4);
    CHECK(gc_hermite_new_level(3, 0.01, GC_HERMITE_TICKS(3), 1.0) == 7);
    CHECK(gc_hermite_new_level(3, 1.0, GC_HERMITE_TICKS(3), 1.0) == 3);  /* t odd multiple */
    CHECK(gc_hermite_new_level(3, 1.0, GC_HERMITE_TICKS(2), 1.0) == 2);  /* commensurate */
    CHECK(gc_hermite_new_level(0, 5.0, 0, 1.0) == 0);                    /* dt_max caps */
    CHECK(gc_hermite_new_level(-1, 0.3, 0, 1.0) == 2);                   /* first step 1/4 */
    CHECK(gc_hermite_new_level(5, 1e-20, 0, 1.0) == -1);                 /* below the finest */
    gc_bodies_free(&b);
    free(t0), free(t1), free(l0), free(l1);
}

/* ---- a Plummer sphere over one time unit ---- */

static void test_plummer(struct gc_backend *be, const char *integrator, double bound)
{
    struct gc_bodies b, cur = {0};
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params(integrator, 1.0 / 256.0);
    struct gc_diagnostics d0, d1;
    struct gc_integrator_stats st;
    double mv = 0, dp = 0, dx = 0;
    CHECK(gc_model_plummer_build(1024, 3, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_bodies_alloc(&cur, b.n) == GC_OK);
    CHECK(gc_sim_measure(sim, &cur, &d0) == GC_OK);
    /* Henon units: E = -1/4 up to sampling noise ~1/sqrt(N). */
    CHECK_NEAR(d0.energy, -0.25, 0.03);
    CHECK(gc_sim_advance(sim, 1.0) == GC_OK);
    CHECK(gc_sim_measure(sim, &cur, &d1) == GC_OK);
    gc_sim_stats(sim, &st);
    for (size_t i = 0; i < b.n; i++)
        mv += b.mass64[i] * sqrt(b.vel64[3 * i] * b.vel64[3 * i] +
                                 b.vel64[3 * i + 1] * b.vel64[3 * i + 1] +
                                 b.vel64[3 * i + 2] * b.vel64[3 * i + 2]);
    for (int k = 0; k < 3; k++) {
        dp = fmax(dp, fabs(d1.momentum[k] - d0.momentum[k]));
        dx = fmax(dx, fabs(d1.com[k] - d0.com[k]));
    }
    printf("plummer N=1024 %s t=0..1: %llu block steps, dE/|E0| = %.3e, |dP| = %.2e (scale "
           "%.2f), |d com| = %.2e\n", integrator, (unsigned long long)st.steps,
           (d1.energy - d0.energy) / fabs(d0.energy), dp, mv, dx);
    CHECK_LT(fabs(d1.energy - d0.energy) / fabs(d0.energy), bound);
    /* Individual steps break the exact pairwise cancellation only by the truncation error
     * of each body's own step, ~1e-8 of sum m|v| here; 1e-6 catches a missing or doubled
     * correction. */
    CHECK_LT(dp, 1e-6 * mv);
    CHECK_LT(dx, 1e-6);
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&cur);
}

/* ---- Burrau's problem ---- */

/* Szebehely & Peters (1967): the three bodies end with the lightest (mass 3) thrown out and
 * the two others (4 and 5) bound in a binary, by t ~ 60. */
static void test_pythagorean(struct gc_backend *be)
{
    struct gc_bodies b, out = {0};
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params("hermite6", 0.0);
    double r45[3], v45[3], c[3], u[3], e45, rr = 0, vr = 0, vv = 0, d0, d1, e3;
    struct gc_diagnostics e0, e1;
    /* The outcome is chaotic in the details: at the default eta 0.15 the CPU and the GPU
     * (whose fused multiply-adds round differently) part ways after the close approaches and
     * only the CPU ended in the textbook state by t = 70. At 0.03 the outcome is the
     * textbook one for either 6th-order step criterion (the generalised one alone, and with
     * its floor): body 3 leaves, 4 and 5 stay bound. */
    p.eta = 0.03;
    CHECK(gc_model_pythagorean_build(3, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_bodies_alloc(&out, 3) == GC_OK);
    CHECK(gc_sim_measure(sim, &out, &e0) == GC_OK);
    CHECK(gc_sim_advance(sim, 70.0) == GC_OK);
    CHECK(gc_sim_measure(sim, &out, &e1) == GC_OK);
    for (int k = 0; k < 3; k++) {
        r45[k] = out.pos64[6 + k] - out.pos64[3 + k];
        v45[k] = out.vel64[6 + k] - out.vel64[3 + k];
        c[k] = (4 * out.pos64[3 + k] + 5 * out.pos64[6 + k]) / 9.0;
        u[k] = (4 * out.vel64[3 + k] + 5 * out.vel64[6 + k]) / 9.0;
    }
    d0 = sqrt(r45[0] * r45[0] + r45[1] * r45[1] + r45[2] * r45[2]);
    e45 = 0.5 * (v45[0] * v45[0] + v45[1] * v45[1] + v45[2] * v45[2]) - 9.0 / d0;
    for (int k = 0; k < 3; k++) {
        rr += (out.pos64[k] - c[k]) * (out.pos64[k] - c[k]);
        vr += (out.pos64[k] - c[k]) * (out.vel64[k] - u[k]);
        vv += (out.vel64[k] - u[k]) * (out.vel64[k] - u[k]);
    }
    d1 = sqrt(rr);
    /* Body 3 against the binary as one mass of 9: unbound when its specific orbital energy
     * 1/2 v^2 - G (3 + 9) / r is positive. */
    e3 = 0.5 * vv - 12.0 / d1;
    printf("pythagorean at t = 70: binary 4-5 separation %.3f, specific energy %.3f; body 3 at "
           "%.2f moving %s, specific energy against the binary %.3f; dE/|E0| = %.2e\n", d0, e45,
           d1, vr > 0 ? "out" : "in", e3, (e1.energy - e0.energy) / fabs(e0.energy));
    CHECK(e45 < 0.0 && d0 < 1.5); /* 4 and 5 bound, close */
    CHECK(e3 > 0.0 && vr > 0.0);  /* 3 unbound and leaving */
    CHECK_LT(fabs(e1.energy - e0.energy), 1e-6 * fabs(e0.energy));
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&out);
}

/* ---- convergence on the Pythagorean problem ---- */

/* Relative energy error at t of the unsoftened Pythagorean problem run at eta (default
 * dt_max), against its exact initial energy -(3*4/5 + 3*5/4 + 4*5/3) = -769/60 (masses
 * 3, 4, 5 at rest at separations 5, 4, 3); -1 when the run stops with an error. */
static double pythagorean_error(struct gc_backend *be, const char *integrator, double eta,
                                double t)
{
    const double e0 = -769.0 / 60.0;
    struct gc_bodies b, out = {0};
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params(integrator, 0.0);
    struct gc_diagnostics d;
    double err = -1.0;
    p.eta = eta;
    CHECK(gc_model_pythagorean_build(3, &b) == GC_OK);
    if (gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK && gc_sim_advance(sim, t) == GC_OK &&
        gc_bodies_alloc(&out, 3) == GC_OK && gc_sim_measure(sim, &out, &d) == GC_OK)
        err = fabs(d.energy - e0) / fabs(e0);
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&out);
    return err;
}

/* Both orders over eta from the default down to well below where only rounding is left, to t = 1.5,
 * before the first close approach (from there on the double-precision rounding of that
 * encounter, ~1e-10, hides the truncation error). The step scales as sqrt(eta) in the 4th
 * order and as eta in the 6th, so the error should fall as eta^2 and eta^6: a factor 10
 * in eta gives 100 and 1e6, a factor 4 gives 16 and 4096. */
static void test_pythagorean_convergence(struct gc_backend *be)
{
    const double t = 1.5;
    const double h4[] = {1e-3, 1e-4, 1e-5};
    const double h6[] = {0.2, 0.05, 0.01, 0.001, 1e-4};
    double e4[3], e6[5];
    for (int k = 0; k < 3; k++) {
        e4[k] = pythagorean_error(be, "hermite4", h4[k], t);
        printf("pythagorean hermite4 eta %g: dE/|E0| at t = %g: %.3e\n", h4[k], t, e4[k]);
        CHECK(e4[k] >= 0.0); /* ran without an error */
    }
    for (int k = 0; k < 5; k++) {
        e6[k] = pythagorean_error(be, "hermite6", h6[k], t);
        printf("pythagorean hermite6 eta %g: dE/|E0| at t = %g: %.3e\n", h6[k], t, e6[k]);
        CHECK(e6[k] >= 0.0);
    }
    /* Measured orders; half an order of slack for the block steps' level changes. Errors
     * stay well above rounding (1e-15) where the order is taken. */
    CHECK(e4[2] > 1e-14 && e6[1] > 1e-14);
    CHECK(log10(e4[0] / e4[1]) > 1.5 && log10(e4[0] / e4[1]) < 2.5);
    CHECK(log10(e4[1] / e4[2]) > 1.5 && log10(e4[1] / e4[2]) < 2.5);
    CHECK(log(e6[0] / e6[1]) / log(4.0) > 5.5 && log(e6[0] / e6[1]) / log(4.0) < 6.5);
    /* Below that only rounding remains, summed over up to a few million steps (8e-14 at
     * 1e-4): a smaller step must not make it worse than that (the noise of an ill-determined
     * criterion drove the steps to the finest level, an error). */
    for (int k = 2; k < 5; k++)
        CHECK_LT(e6[k], 1e-12);
}

/* ---- unsoftened collisions ---- */

static void test_errors(struct gc_backend *be)
{
    struct gc_bodies b;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params("hermite4", 0.0);
    CHECK(random_ball(&b, 8, 1.0, 0.1, 3));
    gc_bodies_alloc_f64(&b);
    for (int k = 0; k < 3; k++) /* bodies 2 and 5 at the same place */
        b.pos64[3 * 5 + k] = b.pos64[3 * 2 + k];
    gc_bodies_sync_f32(&b);
    /* eps = 0: an infinite force is an error with a message, never a NaN state. */
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID);
    /* With softening the same bodies integrate. */
    p.eps = 0.01f;
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_sim_advance(sim, 0.125) == GC_OK);
    gc_sim_destroy(sim);
    /* Leapfrog still refuses eps = 0, and Hermite refuses a fixed step that is not dt_max
     * over a power of two. */
    p = params("leapfrog", 0.0);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID);
    p = params("hermite4", 0.01);
    p.fixed_dt = 0.03;
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID);
    gc_bodies_free(&b);
}

/* ---- the GPU against the CPU, the graph loop against the host loop ---- */

/* A backend seen without its device-side block-step loop: the same tables and context, but
 * a Hermite table whose repeat slot is NULL, so the integrator loops on the host (the path
 * of a driver without CUDA graphs), and, with drop_perturb, without its perturb slot too
 * (regularised groups then couple as points). It shares the real backend's context;
 * destroy that one. */
struct host_loop {
    struct gc_backend_iface iface; /* first: the wrapper's iface pointer leads back here */
    struct gc_backend_hermite hermite;
    const struct gc_backend_iface *real;
    struct gc_backend b;
};

static const void *host_loop_lookup(const struct gc_backend *b, int table)
{
    const struct host_loop *w = (const struct host_loop *)b->iface;
    return table == GC_TABLE_HERMITE ? &w->hermite : w->real->lookup(b, table);
}

static void host_loop_destroy(struct gc_backend *b)
{
    (void)b; /* the real backend owns the context */
}

static struct gc_backend *host_loop_wrap(struct host_loop *w, const struct gc_backend *real,
                                         int drop_perturb)
{
    w->real = real->iface;
    w->iface = *real->iface;
    w->iface.lookup = host_loop_lookup;
    w->iface.destroy = host_loop_destroy;
    w->hermite = *gc_backend_hermite(real);
    w->hermite.repeat = NULL;
    if (drop_perturb)
        w->hermite.perturb = NULL;
    w->b = *real;
    w->b.iface = &w->iface;
    return &w->b;
}

/* The run's block steps and final positions (3n doubles, caller frees); frees the run, its
 * initial bodies and the backend. */
static double *end_run(struct gc_sim *sim, struct gc_bodies *b, struct gc_backend *real,
                       uint64_t *blocks)
{
    const size_t n = b->n;
    struct gc_bodies out = {0};
    struct gc_integrator_stats st;
    double *x = malloc(3 * n * sizeof *x);
    gc_sim_stats(sim, &st);
    *blocks = st.steps;
    CHECK(x != NULL);
    CHECK(gc_bodies_alloc(&out, n) == GC_OK && gc_bodies_alloc_f64(&out) == GC_OK);
    CHECK(gc_sim_download(sim, &out) == GC_OK);
    memcpy(x, out.pos64, 3 * n * sizeof *x);
    gc_sim_destroy(sim);
    gc_bodies_free(b);
    gc_bodies_free(&out);
    gc_backend_destroy(real);
    return x;
}

/* The device loop's block-step timing: most block steps of a looped run timed (all but the
 * first of each launch of the loop), none of a host-driven one, each taking a plausible
 * time (1 us to 1 s). */
static void check_loop_timing(struct gc_backend *be, int looped)
{
    struct gc_hermite_counters c;
    uint64_t steps = 0, ns = 0;
    CHECK(gc_backend_hermite_counters(be, &c) == GC_OK);
    for (int k = 0; k < GC_HERMITE_TIME_BINS; k++) {
        steps += c.loop_steps[k];
        ns += c.loop_ns[k];
        CHECK(c.loop_steps[k] == 0 || c.loop_steps[k] <= c.blocks);
        CHECK(c.loop_steps[k] == 0 || (c.loop_ns[k] >= 1000 * c.loop_steps[k] &&
                                       c.loop_ns[k] <= 1000000000ull * c.loop_steps[k]));
    }
    if (looped) {
        CHECK(steps >= c.blocks / 2 && steps <= c.blocks);
        printf("device loop: %llu of %llu block steps timed, %.2f us each on average\n",
               (unsigned long long)steps, (unsigned long long)c.blocks,
               steps ? 1e-3 * (double)ns / (double)steps : 0.0);
    } else {
        CHECK(steps == 0);
    }
}

/* Plummer sphere of n bodies advanced to t on backend `name` (its block-step loop on the
 * host when host_loop); returns the positions (3n doubles, caller frees) and the block-step
 * count. */
static double *advance_plummer(const char *name, const char *integrator, size_t n, double t,
                               int host_loop, uint64_t *blocks, double *seconds)
{
    struct gc_backend *real = NULL, *be;
    struct gc_backend_options opt = {0};
    struct gc_bodies b;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params(integrator, 1.0 / 256.0);
    struct host_loop wrap;
    double t0;
    opt.quiet = 1;
    CHECK(gc_backend_create(name, &opt, &real) == GC_OK);
    be = host_loop ? host_loop_wrap(&wrap, real, 0) : real;
    CHECK(gc_backend_hermite_has_repeat(be) == (!host_loop && gc_backend_hermite_has_repeat(real)));
    CHECK(gc_model_plummer_build(n, 11, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    t0 = test_now();
    CHECK(gc_sim_advance(sim, t) == GC_OK);
    CHECK(gc_backend_sync(be) == GC_OK);
    *seconds = test_now() - t0;
    check_loop_timing(real, !host_loop && gc_backend_hermite_has_repeat(real));
    return end_run(sim, &b, real, blocks);
}

/* A scheme that needs double forces refuses to start with the mixed pass. */
static void test_refused(struct gc_backend *be, const char *integrator)
{
    struct gc_bodies b;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params(integrator, 0.01);
    CHECK(gc_model_plummer_build(64, 17, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_ERR_INVALID);
    printf("%s with the %s force pass: refused, as it should be\n", integrator, precision);
    gc_bodies_free(&b);
}

static void test_gpu_vs_cpu(const char *integrator)
{
    const size_t n = 4096;
    const double t = 0.25;
    uint64_t bc, bg, bh;
    double sc, sg, sh, dmax = 0.0;
    double *xc = advance_plummer("cpu", integrator, n, t, 0, &bc, &sc);
    double *xg = advance_plummer("cuda", integrator, n, t, 0, &bg, &sg);
    double *xh = advance_plummer("cuda", integrator, n, t, 1, &bh, &sh);
    for (size_t k = 0; k < 3 * n; k++)
        dmax = fmax(dmax, fabs(xg[k] - xc[k]));
    printf("%s GPU vs CPU, Plummer N=%zu t=0..%g: block steps %llu vs %llu, max |dx| "
           "%.2e; CPU %.2f s, GPU graph loop %.3f s, host loop %.3f s\n", integrator, n, t,
           (unsigned long long)bg, (unsigned long long)bc, dmax, sc, sg, sh);
    /* Same kernels, same launch shapes: the graph replay must give the host loop's bits. */
    CHECK(bg == bh && memcmp(xg, xh, 3 * n * sizeof *xg) == 0);
    if (strcmp(precision, "mixed") != 0) {
        /* Double on both sides: the same criterion values up to rounding, so the same
         * schedule to within a few level choices that sit on a power of two. */
        CHECK(llabs((long long)bg - (long long)bc) <= (long long)(bc / 1000 + 2));
        /* Positions ~1 (Henon units): over t = 0.25 rounding-level differences grow to
         * ~1e-9 in the chaotic core. */
        CHECK_LT(dmax, 1e-7);
    } else {
        /* Float terms (~1e-7 of each force) move a step criterion across a power of two
         * more often: the block steps agree within 1%; the positions within 1e-5, the
         * float rounding of the forces (1e-7) integrated over t = 0.25 and grown by the
         * core's close passages. */
        CHECK(llabs((long long)bg - (long long)bc) <= (long long)(bc / 100 + 2));
        CHECK_LT(dmax, 1e-5);
    }
    free(xc), free(xg), free(xh);
}

/* A Plummer cluster with primordial binaries (hermite4, eps 0, groups regularised) advanced
 * to t on backend `name`, with or without its perturb slot; returns the positions. */
static double *advance_binaries(const char *name, int drop_perturb, size_t n, double t,
                                uint64_t *blocks)
{
    struct gc_backend *real = NULL, *be;
    struct gc_backend_options opt = {0};
    struct gc_bodies b;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = params("hermite4", 0.0);
    struct host_loop wrap;
    p.regularize = "auto";
    opt.quiet = 1;
    CHECK(gc_backend_create(name, &opt, &real) == GC_OK);
    be = drop_perturb ? host_loop_wrap(&wrap, real, 1) : real;
    CHECK(gc_model_plummer_binaries_build(n, 5, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_sim_advance(sim, t) == GC_OK);
    return end_run(sim, &b, real, blocks);
}

/* Regularised groups on the GPU: through the perturb slot a group's members act on the
 * bodies near it, and feel them, as on the CPU. The GPU run must end where the CPU run
 * ends, far nearer than the same GPU run without the slot (the groups as points): the
 * control shows the comparison sees the coupling at all. */
static void test_groups_gpu_vs_cpu(void)
{
    const size_t n = 1024;
    const double t = 0.0625;
    uint64_t bc, bg, bp;
    double dg = 0.0, dp = 0.0;
    double *xc = advance_binaries("cpu", 0, n, t, &bc);
    double *xg = advance_binaries("cuda", 0, n, t, &bg);
    double *xp = advance_binaries("cuda", 1, n, t, &bp);
    for (size_t k = 0; k < 3 * n; k++) {
        dg = fmax(dg, fabs(xg[k] - xc[k]));
        dp = fmax(dp, fabs(xp[k] - xc[k]));
    }
    printf("groups GPU vs CPU, Plummer with binaries N=%zu t=0..%g: block steps %llu vs %llu, "
           "max |dx| %.2e; as points (no perturb slot): %llu block steps, max |dx| %.2e\n",
           n, t, (unsigned long long)bg, (unsigned long long)bc, dg, (unsigned long long)bp,
           dp);
    if (strcmp(precision, "mixed") != 0) {
        /* Double on both sides, the same groups code on the host: rounding-level
         * differences, grown by the binaries' orbits (~50 of the hardest in this time). */
        CHECK_LT(dg, 1e-8);
        CHECK_LT(100.0 * dg, dp);
        CHECK(llabs((long long)bg - (long long)bc) <= (long long)(bc / 1000 + 2));
    } else {
        /* Float terms with eps = 0. A body's pair with itself must vanish exactly: when it
         * did not, the run stopped at its first block steps (a step below the floor), which
         * advance_binaries' CHECK catches. The float terms' ~1e-7 grows through the
         * unsoftened encounters of single stars to ~2e-3 over this time (measured on the GPU:
         * 1.7e-3, as points 5.1e-3), as large as the coupling's own effect, so here the
         * positions are only held to the cluster's scale and the steps to 1%. */
        CHECK_LT(dg, 1e-2);
        CHECK(llabs((long long)bg - (long long)bc) <= (long long)(bc / 100 + 2));
    }
    free(xc), free(xg), free(xp);
}

/* A run continued from its saved state (what a snapshot restart does: the state slot gives
 * every body's record, the new run takes them) is the run itself, to the bit, on `name`. */
static void test_restart(const char *name)
{
    const size_t n = 1024;
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    struct gc_bodies b, mid = {0}, endA = {0}, endB = {0};
    struct gc_sim *a = NULL, *c = NULL;
    struct gc_sim_params p = params("hermite4", 1.0 / 256.0);
    struct gc_state saved;
    opt.quiet = 1;
    CHECK(gc_backend_create(name, &opt, &be) == GC_OK);
    CHECK(gc_model_plummer_build(n, 11, &b) == GC_OK);
    CHECK(gc_bodies_alloc(&mid, n) == GC_OK && gc_bodies_alloc_f64(&mid) == GC_OK);
    CHECK(gc_bodies_alloc(&endA, n) == GC_OK && gc_bodies_alloc_f64(&endA) == GC_OK);
    CHECK(gc_bodies_alloc(&endB, n) == GC_OK && gc_bodies_alloc_f64(&endB) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &a) == GC_OK);
    CHECK(gc_sim_advance(a, 0.3) == GC_OK);
    CHECK(gc_sim_save(a, &saved) == GC_OK);
    CHECK(saved.n == n && gc_state_find(&saved, "Tick") && gc_state_find(&saved, "Jerk"));
    CHECK(gc_sim_download(a, &mid) == GC_OK);
    const struct gc_sim_restart r = {0.3, &saved, gc_sim_scheme(a)->name, p.eps,
                                     gc_sim_scheme_params(a)->eta,
                                     gc_sim_scheme_params(a)->dt_max};
    CHECK(gc_sim_advance(a, 0.6) == GC_OK);
    CHECK(gc_sim_download(a, &endA) == GC_OK);
    gc_sim_destroy(a);
    CHECK(gc_sim_create(be, NULL, &mid, &p, &r, &c) == GC_OK);
    CHECK(gc_sim_advance(c, 0.6) == GC_OK);
    CHECK(gc_sim_download(c, &endB) == GC_OK);
    gc_sim_destroy(c);
    const int same = memcmp(endA.pos64, endB.pos64, 3 * n * sizeof(double)) == 0 &&
                     memcmp(endA.vel64, endB.vel64, 3 * n * sizeof(double)) == 0;
    printf("%s: hermite4 Plummer N=%zu to t = 0.6, continued from its state at t = 0.3: %s\n",
           name, n, same ? "the same bits" : "DIFFERENT");
    CHECK(same);
    gc_state_free_host(&saved);
    gc_bodies_free(&b);
    gc_bodies_free(&mid);
    gc_bodies_free(&endA);
    gc_bodies_free(&endB);
    gc_backend_destroy(be);
}

int main(int argc, char **argv)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    const char *name = argc > 1 ? argv[1] : "cpu";
    const int cuda = strcmp(name, "cuda") == 0;
    int mixed;
    precision = argc > 2 ? argv[2] : "double";
    mixed = strcmp(precision, "mixed") == 0;
    if (!mixed && strcmp(precision, "double") != 0) {
        fprintf(stderr, "usage: test_hermite [cpu|cuda] [double|mixed]\n");
        return 2;
    }
    opt.quiet = 1;
    if (gc_backend_create(name, &opt, &be) != GC_OK) {
        if (cuda) {
            printf("SKIPPED: no usable CUDA device\n");
            return CHECK_SKIP;
        }
        return 1;
    }
    printf("backend %s, %s force pass\n", gc_backend_device_name(be), precision);
    if (mixed) {
        /* Float terms: ~1e-7 relative each, over 200 terms of both signs. */
        test_derivatives(be, "hermite4", 0.01, 2e-6);
        test_derivatives(be, "hermite4", 0.0, 2e-6);
        test_plummer(be, "hermite4", 1e-6);
        /* hermite6 refuses the mixed pass, and auto gives it double forces. */
        test_refused(be, "hermite6");
        precision = "auto";
        test_derivatives(be, "hermite6", 0.01, 1e-12);
        precision = "mixed";
        gc_backend_destroy(be);
        if (cuda) {
            test_gpu_vs_cpu("hermite4");
            test_groups_gpu_vs_cpu();
        }
        return CHECK_DONE();
    }
    /* Tolerance: double sums on both backends. */
    test_derivatives(be, "hermite4", 0.01, 1e-12);
    test_derivatives(be, "hermite4", 0.0, 1e-12);
    test_derivatives(be, "hermite6", 0.01, 1e-12);
    test_derivatives(be, "hermite6", 0.0, 1e-12);
    test_convergence(be, "hermite4", 256, 16.0);
    test_convergence(be, "hermite6", 128, 64.0);
    test_scheduler(be);
    test_plummer(be, "hermite4", 1e-6);
    test_plummer(be, "hermite6", 1e-6);
    test_pythagorean(be);
    test_pythagorean_convergence(be);
    test_errors(be);
    gc_backend_destroy(be);
    if (cuda) {
        test_gpu_vs_cpu("hermite4");
        test_gpu_vs_cpu("hermite6");
        test_groups_gpu_vs_cpu();
    }
    test_restart(name);
    return CHECK_DONE();
}
