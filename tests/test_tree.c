/* The tree force method on the CPU backend: accuracy against a float64 direct sum, the hard cases, independence of the rank split, reversibility and energy. */
/* SPDX-License-Identifier: MIT */
/* "test_tree dubinski" runs the accuracy check on the Dubinski table with its halos
 * (skipped without the file); "test_tree cuda" runs every check on the CUDA backend and
 * compares its trees with the CPU's (skipped without a device); "test_tree isa NAME" runs the
 * error against theta, the hard cases and the potential with the CPU's loops for one
 * instruction set (skipped where the CPU lacks it); plain "test_tree" runs every check on the
 * CPU backend with its default loops. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_tree.h"
#include "bench_dists.h"
#include "check.h"
#include "diagnostics.h"
#include "io.h"
#include "models.h"
#include "sim.h"
#include "test_util.h"
#include "tree_formulas.h"

#define EPS 0.025f
/* The accuracy targets at the default opening angle (docs/physics.md, "The tree"): the
 * per-body relative error of the acceleration against the exact softened sum. */
#define MEDIAN_TOL 3e-4
#define P99_TOL 3e-3

static struct gc_force_params tree(float theta)
{
    struct gc_force_params fp = {.method = GC_FORCE_TREE, .eps2 = EPS * EPS, .theta = theta};
    return fp;
}

/* Exact softened acceleration on body i, in double, written here from the formula. */
static void direct(const struct gc_bodies *b, size_t i, double a[3])
{
    a[0] = a[1] = a[2] = 0.0;
    for (size_t j = 0; j < b->n; j++) {
        double d[3], r2 = (double)EPS * EPS;
        for (int k = 0; k < 3; k++) {
            d[k] = (double)b->pos[4 * j + k] - b->pos[4 * i + k];
            r2 += d[k] * d[k];
        }
        for (int k = 0; k < 3; k++)
            a[k] += b->pos[4 * j + 3] * d[k] / (r2 * sqrt(r2));
    }
}

static double total_mass(const struct gc_bodies *b)
{
    double m = 0.0;
    for (size_t i = 0; i < b->n; i++)
        m += b->pos[4 * i + 3];
    return m;
}

static int by_value(const void *x, const void *y)
{
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

struct errors {
    double median, p99, max; /* per-body relative errors */
    double rms;              /* norm-wise: sqrt(sum |a - a_ref|^2 / sum |a_ref|^2) */
    int finite;
};

/* Relative errors of the accelerations acc (vel of the bodies gc_backend_accelerations
 * gave) against the direct sum, over `rows` evenly spaced bodies (all when rows >= n). */
static struct errors errors_of(const struct gc_bodies *b, const struct gc_bodies *acc, size_t rows)
{
    struct errors e = {0, 0, 0, 0, 1};
    double *r, num = 0.0, den = 0.0;
    if (rows > b->n)
        rows = b->n;
    r = malloc(rows * sizeof *r);
#pragma omp parallel for schedule(dynamic, 8)
    for (long q = 0; q < (long)rows; q++) {
        const size_t i = (size_t)q * b->n / rows;
        double a[3], d2 = 0.0, a2 = 0.0;
        direct(b, i, a);
        for (int k = 0; k < 3; k++) {
            const double d = acc->vel[4 * i + k] - a[k];
            d2 += d * d;
            a2 += a[k] * a[k];
        }
        r[q] = a2 > 0.0 ? sqrt(d2 / a2) : sqrt(d2);
#pragma omp atomic
        num += d2;
#pragma omp atomic
        den += a2;
    }
    e.rms = den > 0.0 ? sqrt(num / den) : sqrt(num);
    for (size_t q = 0; q < rows; q++)
        e.finite &= isfinite(r[q]);
    qsort(r, rows, sizeof *r, by_value);
    e.median = r[rows / 2];
    e.p99 = r[(rows * 99) / 100 < rows ? (rows * 99) / 100 : rows - 1];
    e.max = r[rows - 1];
    free(r);
    return e;
}

static struct errors tree_errors(struct gc_backend *be, const struct gc_bodies *b, float theta,
                                 size_t rows, const char *what)
{
    struct gc_bodies acc;
    struct gc_force_params fp = tree(theta);
    struct gc_tree_stats st;
    struct errors e = {0, 0, 0, 0, 0};
    CHECK(gc_bodies_alloc(&acc, b->n) == GC_OK);
    CHECK(gc_backend_accelerations(be, b, &fp, &acc) == GC_OK);
    CHECK(gc_backend_tree(be)->stats(be, &st) == GC_OK);
    e = errors_of(b, &acc, rows);
    printf("%-30s N %6zu theta %.2f: median %.2e, 99th %.2e, max %.2e, RMS %.2e; %.2f cells "
           "a body, %.0f cell + %.0f body + %.0f far-cell interactions a body\n",
           what, b->n, theta, e.median, e.p99, e.max, e.rms, (double)st.cells / (double)b->n,
           st.cell_interactions, st.body_interactions, st.mono_interactions);
    CHECK(st.valid && st.complete);
    /* Every body in exactly one leaf, and all the mass at the root: none lost. Groups of
     * at most GC_TREE_GROUP bodies, none empty. */
    CHECK(st.leaf_bodies == b->n);
    CHECK(st.groups >= (b->n + GC_TREE_GROUP - 1) / GC_TREE_GROUP && st.groups <= b->n);
    CHECK_NEAR(st.root_mass, total_mass(b), 1e-5 * total_mass(b));
    gc_bodies_free(&acc);
    return e;
}

/* Acceleration at x of the n bodies p (x, y, z, mass each), softened by eps2, in double. */
static void direct_sum(const float *p, int n, const double x[3], double eps2, double out[3])
{
    out[0] = out[1] = out[2] = 0.0;
    for (int i = 0; i < n; i++) {
        double r[3], r2 = eps2;
        for (int k = 0; k < 3; k++) {
            r[k] = p[4 * i + k] - x[k];
            r2 += r[k] * r[k];
        }
        for (int k = 0; k < 3; k++)
            out[k] += p[4 * i + 3] * r[k] / (r2 * sqrt(r2));
    }
}

/* |a - exact| / |exact|. */
static double rel_error(const float a[3], const double exact[3])
{
    double e = 0.0, norm = 0.0;
    for (int k = 0; k < 3; k++) {
        e += (a[k] - exact[k]) * (a[k] - exact[k]);
        norm += exact[k] * exact[k];
    }
    return sqrt(e / norm);
}

/* A group's local expansion (tree_formulas.h) against the cell's own formulas evaluated at
 * each body: its monopole part is a second-order Taylor expansion, so the difference falls
 * 8x each halving of the body's offset u from the expansion's centre (4x with a wrong
 * second derivative, 2x with a wrong first), and its potential 16x; the quadrupole part is
 * first order: 4x and 8x. Plain and softened (eps half the distance). */
static void test_local_formulas(void)
{
    float p[4 * 10], q6[6], nsoft, zero[6] = {0, 0, 0, 0, 0, 0};
    struct gc_tree_moments m;
    uint64_t s = 23;
    for (int i = 0; i < 10; i++) {
        for (int k = 0; k < 3; k++)
            p[4 * i + k] = (float)(urand(&s) - 0.5);
        p[4 * i + 3] = (float)(0.5 + urand(&s));
    }
    gc_tree_leaf_moments(p, 10, &m);
    for (int part = 0; part < 4; part++) {
        const int quad = part & 1;
        const float eps2 = part & 2 ? (quad ? 64.0f : 16.0f) : 0.0f, mass = quad ? 0.0f : m.m;
        /* 8 away; the quadrupole's expansion, smaller and less smooth, 16 */
        const double f = quad ? 2.0 : 1.0;
        const double g[3] = {m.com[0] + 5.6 * f, m.com[1] + 4.8 * f, m.com[2] - 3.2 * f};
        double prev = 0.0, prevp = 0.0;
        gc_tree_cell_terms(&m, eps2, q6, &nsoft);
        for (double u = 2.0; u >= 0.5; u *= 0.5) {
            const float dx = (float)(m.com[0] - g[0]), dy = (float)(m.com[1] - g[1]),
                        dz = (float)(m.com[2] - g[2]);
            const float uu[3] = {(float)(0.48 * u), (float)(0.6 * u), (float)(0.64 * u)};
            float L[GC_TREE_LOCAL_TERMS] = {0}, a[3] = {0, 0, 0}, ref[3] = {0, 0, 0};
            float phi = 0.0f, phiref = 0.0f;
            double e = 0.0, norm = 0.0, ep;
            gc_tree_local_add(dx, dy, dz, mass, quad ? q6 : zero, quad ? nsoft : 0.0f,
                              1.0f / sqrtf(dx * dx + dy * dy + dz * dz + eps2), L, 1);
            gc_tree_local_eval(L, uu[0], uu[1], uu[2], a, &phi);
            {
                const float ex = dx - uu[0], ey = dy - uu[1], ez = dz - uu[2];
                gc_tree_cell_force(ex, ey, ez, mass, quad ? q6 : zero, quad ? nsoft : 0.0f,
                                   1.0f / sqrtf(ex * ex + ey * ey + ez * ez + eps2), ref,
                                   &phiref);
            }
            for (int k = 0; k < 3; k++) {
                e += ((double)a[k] - ref[k]) * ((double)a[k] - ref[k]);
                norm += (double)ref[k] * ref[k];
            }
            e = sqrt(e / norm);
            ep = fabs((double)phi - phiref) / fabs((double)phiref);
            printf("local expansion, %s%s, |u| %.2f of %.0f: acceleration %.2e, potential %.2e\n",
                   quad ? "quadrupole" : "monopole", eps2 > 0.0f ? " (softened)" : "", u, 8 * f,
                   e, ep);
            if (prev > 0.0) {
                CHECK(prev / e > (quad ? 3.0 : 6.0) && prev / e < (quad ? 5.0 : 11.0));
                CHECK(prevp / ep > (quad ? 5.0 : 12.0) && prevp / ep < (quad ? 11.0 : 22.0));
            }
            prev = e;
            prevp = ep;
        }
    }
    /* A cell joins the expansion beyond GC_TREE_LOCAL_K / theta group radii, no nearer. */
    CHECK(gc_tree_local(16.0f * 4.0f * 1.01f, gc_tree_local_radius2(1.0f, 0.5f)));
    CHECK(!gc_tree_local(16.0f * 4.0f * 0.99f, gc_tree_local_radius2(1.0f, 0.5f)));
}

/* The formulas against a direct sum: a cell's monopole + quadrupole error falls as
 * (size / distance)^3 (8x a doubling of the distance), the monopole's alone as ^2 (4x): a
 * wrong quadrupole sign or factor would fall 4x. And the keys interleave the axes' bits. */
static void test_formulas(void)
{
    float p[4 * 10], zero[6] = {0, 0, 0, 0, 0, 0}, q6[6], nsoft;
    struct gc_tree_moments m;
    uint64_t s = 11;
    double prev = 0.0, prev0 = 0.0;
    for (int i = 0; i < 10; i++) {
        for (int k = 0; k < 3; k++)
            p[4 * i + k] = (float)(urand(&s) - 0.5);
        p[4 * i + 3] = (float)(0.5 + urand(&s));
    }
    gc_tree_leaf_moments(p, 10, &m);
    gc_tree_cell_terms(&m, 0.0f, q6, &nsoft);
    for (double d = 4.0; d <= 32.0; d *= 2.0) { /* beyond, float rounding (1e-7) rules */
        const double x[3] = {0.6 * d, 0.64 * d, -0.48 * d};
        double exact[3], e, e0;
        float a[3] = {0, 0, 0}, a0[3] = {0, 0, 0};
        const float dx = (float)(m.com[0] - x[0]), dy = (float)(m.com[1] - x[1]),
                    dz = (float)(m.com[2] - x[2]);
        const float rinv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz);
        direct_sum(p, 10, x, 0.0, exact);
        gc_tree_cell_force(dx, dy, dz, m.m, q6, nsoft, rinv, a, NULL);
        gc_tree_cell_force(dx, dy, dz, m.m, zero, 0.0f, rinv, a0, NULL);
        e = rel_error(a, exact);
        e0 = rel_error(a0, exact);
        printf("cell at distance %2.0f: quadrupole error %.2e, monopole %.2e\n", d, e, e0);
        if (prev > 0.0) {
            CHECK(prev / e > 6.0 && prev / e < 11.0);
            CHECK(prev0 / e0 > 3.5 && prev0 / e0 < 4.5);
        }
        prev = e;
        prev0 = e0;
    }
    /* Softened as the direct sum is, with eps half the distance: the expansion of the
     * softened sum stays third order (the error falls ~8x a doubling of d and eps); leaving
     * out its eps^2 s2 term makes it second order (~4x) and worse. */
    prev = prev0 = 0.0;
    for (double d = 4.0; d <= 32.0; d *= 2.0) {
        const double x[3] = {0.6 * d, 0.64 * d, -0.48 * d}, eps2 = 0.25 * d * d;
        double exact[3], e, e0;
        float a[3] = {0, 0, 0}, a0[3] = {0, 0, 0};
        const float dx = (float)(m.com[0] - x[0]), dy = (float)(m.com[1] - x[1]),
                    dz = (float)(m.com[2] - x[2]);
        const float rinv = 1.0f / sqrtf(dx * dx + dy * dy + dz * dz + (float)eps2);
        direct_sum(p, 10, x, eps2, exact);
        gc_tree_cell_terms(&m, (float)eps2, q6, &nsoft);
        gc_tree_cell_force(dx, dy, dz, m.m, q6, nsoft, rinv, a, NULL);
        gc_tree_cell_force(dx, dy, dz, m.m, q6, 0.0f, rinv, a0, NULL);
        e = rel_error(a, exact);
        e0 = rel_error(a0, exact);
        printf("cell at distance %2.0f, eps %4.1f: error %.2e, without the eps^2 s2 term %.2e\n",
               d, sqrt(eps2), e, e0);
        CHECK(e < 0.5 * e0);
        if (prev > 0.0) {
            CHECK(prev / e > 6.0 && prev / e < 11.0);
            CHECK(prev0 / e0 > 3.0 && prev0 / e0 < 5.0);
        }
        prev = e;
        prev0 = e0;
    }
    /* Groups among the children of a large cell: siblings share one while they fit in 32,
     * a larger cell is grouped below, a larger leaf is cut, and nothing packs across it. */
    {
        const int nb[] = {10, 10, 12, 1, 5, 40, 3, 33, 2, 32};
        const int leaf[] = {1, 1, 1, 1, 1, 0, 1, 1, 1, 0};
        const int want[] = {GC_TREE_GROUP_BEGINS, GC_TREE_GROUP_NONE, GC_TREE_GROUP_NONE,
                            GC_TREE_GROUP_BEGINS, GC_TREE_GROUP_NONE, GC_TREE_GROUP_NONE,
                            GC_TREE_GROUP_BEGINS, GC_TREE_GROUP_CUT, GC_TREE_GROUP_BEGINS,
                            GC_TREE_GROUP_BEGINS};
        const float lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
        struct gc_tree_pack g = {0};
        for (int k = 0; k < 10; k++)
            CHECK(gc_tree_group_step(&g, nb[k], leaf[k], lo, hi, 5, 0) == want[k]);
        g.fill = 0;
        CHECK(gc_tree_group_step(&g, GC_TREE_GROUP, 0, lo, hi, 5, 0) == GC_TREE_GROUP_BEGINS);
    }
    /* Packing cells 1, 2 and 3 beside a large cell D: pieces of one packing cell need no
     * test; a piece of cell 2 joins cell 1's group (their box stays clear of D's); cell 3's
     * piece lies beyond D, their common box would reach into it, so it begins a group of its
     * own. The open group's box is what the test grows. */
    {
        const float alo[3] = {0, 0, 0}, ahi[3] = {1, 1, 1}, a2lo[3] = {0, 0.2f, 0},
                    a2hi[3] = {0.8f, 1.2f, 1}, blo[3] = {4, 0, 0}, bhi[3] = {5, 1, 1},
                    clo[3] = {1.5f, 0, 0}, chi[3] = {2, 1, 1}, dlo[3] = {2.2f, 0.2f, 0.2f},
                    dhi[3] = {3.8f, 0.8f, 0.8f};
        struct gc_tree_pack g = {0};
        CHECK(!gc_tree_pack_reaches(&g, alo, ahi, dlo, dhi)); /* no open group */
        CHECK(!gc_tree_pack_crosses(&g, 10, 1));
        CHECK(gc_tree_group_step(&g, 10, 1, alo, ahi, 1, 0) == GC_TREE_GROUP_BEGINS);
        CHECK(!gc_tree_pack_crosses(&g, 5, 1));
        CHECK(gc_tree_group_step(&g, 5, 1, a2lo, a2hi, 1, 0) == GC_TREE_GROUP_NONE);
        CHECK(gc_tree_pack_crosses(&g, 5, 2) && !gc_tree_pack_crosses(&g, 40, 2));
        CHECK(!gc_tree_pack_reaches(&g, clo, chi, dlo, dhi));
        CHECK(gc_tree_group_step(&g, 5, 1, clo, chi, 2, 0) == GC_TREE_GROUP_NONE);
        CHECK(g.fill == 20 && g.lo[0] == 0.0f && g.hi[0] == 2.0f && g.hi[1] == 1.2f);
        CHECK(gc_tree_pack_crosses(&g, 5, 2)); /* the group spans cells now */
        CHECK(gc_tree_pack_reaches(&g, blo, bhi, dlo, dhi));
        CHECK(gc_tree_group_step(&g, 10, 1, blo, bhi, 3, 1) == GC_TREE_GROUP_BEGINS);
        CHECK(g.fill == 10 && g.lo[0] == 4.0f && !gc_tree_pack_crosses(&g, 10, 3));
    }
    /* x bits at 3i+2, y at 3i+1, z at 3i, bit 20 of each axis in the top digit. */
    CHECK(gc_tree_spread(1u) == 1u && gc_tree_spread(2u) == 8u);
    CHECK(gc_tree_spread(1u << 20) == (uint64_t)1 << 60);
    CHECK(gc_tree_spread(0x1fffffu) == 0x1249249249249249ull);
    CHECK(gc_tree_digit((uint64_t)5 << 60, 1) == 5 && gc_tree_digit(5u, GC_TREE_LEVELS) == 5);
    CHECK(gc_tree_split_level((uint64_t)1 << 60, 0) == 1);
    CHECK(gc_tree_split_level(3u, 2u) == GC_TREE_LEVELS);
    CHECK(gc_tree_split_level(42u, 42u) == GC_TREE_LEVELS + 1);
}

/* The targets at the default angle, and a smaller angle more accurate than a larger one. */
static void test_accuracy(struct gc_backend *be, const struct gc_bodies *b, size_t rows,
                          const char *what)
{
    struct errors d = tree_errors(be, b, GC_TREE_DEFAULT_THETA, rows, what);
    struct errors fine = tree_errors(be, b, 0.3f, rows, what);
    CHECK(d.finite && fine.finite);
    CHECK_LT(d.median, MEDIAN_TOL);
    CHECK_LT(d.p99, P99_TOL);
    CHECK_LT(fine.median, 0.5 * d.median);
    CHECK(d.median > 0.0); /* an approximation, not the direct sum under another name */
}

/* Cases that break naive trees: none may crash, hang, lose a body or give non-finite or
 * wrong forces. Each is checked against the direct sum, all bodies, norm-wise: in a line,
 * a ball or a cube of uniform density the net pull on the central bodies nearly cancels,
 * so their relative errors are large for any approximation and say nothing of the tree. */
#define HARD_RMS_TOL 3e-3
static void test_hard_cases(struct gc_backend *be)
{
    struct gc_bodies b;
    struct errors e;
    uint64_t s = 7;

    /* One body, two bodies, all at one point: small enough to be a single leaf, or (512 at
     * one point) keys all equal: one leaf of any size, summed directly, exactly. */
    for (int n = 1; n <= 2; n++) {
        CHECK(random_ball(&b, (size_t)n, 1.0, 0.0, 3) == 1);
        e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, n == 1 ? "one body" : "two bodies");
        CHECK(e.finite && e.max < 1e-6);
        gc_bodies_free(&b);
    }
    CHECK(random_ball(&b, 512, 1.0, 0.0, 4) == 1);
    for (size_t i = 0; i < b.n; i++)
        b.pos[4 * i] = b.pos[4 * i + 1] = b.pos[4 * i + 2] = 0.5f;
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "512 bodies at one point");
    CHECK(e.finite && e.max == 0.0); /* every pair at distance 0: exactly zero */
    gc_bodies_free(&b);

    /* Collinear bodies: the cube's other two axes are degenerate. */
    CHECK(random_ball(&b, 3000, 1.0, 0.0, 5) == 1);
    for (size_t i = 0; i < b.n; i++) {
        b.pos[4 * i] = (float)(2.0 * urand(&s) - 1.0);
        b.pos[4 * i + 1] = b.pos[4 * i + 2] = 0.25f;
    }
    /* Along a line every cell's error adds up in one direction, and the sums of the pulls
     * from either side cancel: 1e-2 at the default angle. It must fall as the angle does. */
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "3000 collinear bodies");
    CHECK(e.finite && e.rms < 0.05);
    e = tree_errors(be, &b, 0.15f, b.n, "3000 collinear bodies");
    CHECK(e.finite && e.rms < 1e-3);
    gc_bodies_free(&b);

    /* Every position twice: duplicated keys within a leaf and across cells. */
    CHECK(random_ball(&b, 4000, 1.0, 0.0, 6) == 1);
    for (size_t i = 1; i < b.n; i += 2)
        memcpy(&b.pos[4 * i], &b.pos[4 * (i - 1)], 3 * sizeof(float));
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "4000 bodies, positions twice");
    CHECK(e.finite && e.rms < HARD_RMS_TOL);
    gc_bodies_free(&b);

    /* One body 10^6 units away: a huge root cell, the cluster squeezed into a few keys at
     * the finest level (large leaves, summed directly). */
    CHECK(random_ball(&b, 5000, 1.0, 0.0, 8) == 1);
    b.pos[4 * 17] = 1.0e6f;
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "one body 1e6 away");
    CHECK(e.finite && e.rms < HARD_RMS_TOL);
    gc_bodies_free(&b);

    /* A ball with 1% of its bodies strewn out to 1000 radii: a root cell a thousand times
     * the cluster, the cluster deep down the tree, far bodies alone in cells of their own. */
    CHECK(random_ball(&b, 5000, 1.0, 0.0, 10) == 1);
    for (size_t i = 0; i < b.n; i += 100) {
        const float r = (float)pow(10.0, 1.0 + 2.0 * urand(&s));
        for (int k = 0; k < 3; k++)
            b.pos[4 * i + k] *= r;
    }
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "1% of bodies out to 1000 radii");
    CHECK(e.finite && e.rms < HARD_RMS_TOL);
    gc_bodies_free(&b);

    /* A cold uniform cube: cells all alike, many near the opening radius. */
    CHECK(gc_bodies_alloc(&b, 8000) == GC_OK);
    for (size_t i = 0; i < b.n; i++) {
        for (int k = 0; k < 3; k++)
            b.pos[4 * i + k] = (float)(2.0 * urand(&s) - 1.0);
        b.pos[4 * i + 3] = 1.0f / (float)b.n;
    }
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "8000 bodies, uniform cube");
    CHECK(e.finite && e.rms < HARD_RMS_TOL);
    gc_bodies_free(&b);

    /* A very concentrated Plummer core: most bodies within 1e-3 of the centre. */
    CHECK(gc_models_build("plummer", 8000, 9, &b) == GC_OK);
    for (size_t i = 0; i < 4 * b.n; i++)
        if (i % 4 != 3)
            b.pos[i] *= 1e-3f;
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "8000-body Plummer core 1e-3");
    CHECK(e.finite && e.rms < HARD_RMS_TOL);
    gc_bodies_free(&b);
}

/* The benchmark's distributions at a small N, within the targets at the default angle: the
 * spheres with far outskirts and a cusp as built, the cold sphere at its densest (run at 256
 * bodies, split into 4,096), and the pair's merger run, shortened: its full 1 Gyr takes 5,560
 * steps, too many for a test; the same code runs it and splits it the same way. In the
 * collapsed core the pulls on most bodies nearly cancel, so it is judged norm-wise, as the
 * hard cases are. */
static void test_distributions(struct gc_backend *be)
{
    struct gc_bodies b = {0}, ran = {0};
    struct gc_bench_dist merger = *gc_bench_dist_find("merger");
    struct errors e;
    const char *spheres[] = {"plummer-wide", "hernquist"};
    for (int k = 0; k < 2; k++) {
        CHECK(gc_bench_dist_build(gc_bench_dist_find(spheres[k]), 8192, 0, 3, be, NULL, &b) ==
              GC_OK);
        e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, 2000, spheres[k]);
        CHECK(e.finite);
        CHECK_LT(e.median, MEDIAN_TOL);
        CHECK_LT(e.p99, P99_TOL);
        gc_bodies_free(&b);
    }
    CHECK(gc_bench_dist_build(gc_bench_dist_find("collapse"), 4096, 256, 3, be, &ran, &b) ==
          GC_OK);
    CHECK(ran.n == 256 && b.n == 4096);
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, 2000, "collapse (256 split in 16)");
    CHECK(e.finite && e.rms < HARD_RMS_TOL);
    gc_bodies_free(&b);
    gc_bodies_free(&ran);
    merger.t = 0.5;
    CHECK(gc_bench_dist_build(&merger, 8192, 1024, 3, be, NULL, &b) == GC_OK);
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, 2000, "pair run to t = 0.5, split in 8");
    CHECK(e.finite);
    CHECK_LT(e.median, MEDIAN_TOL);
    CHECK_LT(e.p99, P99_TOL);
    gc_bodies_free(&b);
}

/* A Plummer sphere with 1% of its bodies moved out to between 10 and 1000 scale radii (their
 * directions kept, radii even in log): a root cell ~10^5 times the core, leaves spanning
 * hundreds of radii, groups beside a core of 99% of the mass. */
static void test_far_outskirts(struct gc_backend *be)
{
    struct gc_bodies b;
    struct errors e;
    uint64_t s = 17;
    CHECK(gc_models_build("plummer", 10000, 11, &b) == GC_OK);
    for (size_t i = 0; i < b.n; i += 100) {
        const double r = 0.589 * 10.0 * pow(100.0, urand(&s));
        const double x = b.pos[4 * i], y = b.pos[4 * i + 1], z = b.pos[4 * i + 2];
        const double scale = r / sqrt(x * x + y * y + z * z);
        for (int k = 0; k < 3; k++)
            b.pos[4 * i + k] = (float)(b.pos[4 * i + k] * scale);
    }
    e = tree_errors(be, &b, GC_TREE_DEFAULT_THETA, b.n, "Plummer, 1% out to 1000 radii");
    CHECK(e.finite);
    CHECK_LT(e.median, MEDIAN_TOL);
    CHECK_LT(e.p99, P99_TOL);
    gc_bodies_free(&b);
}

/* The error against theta, on the sweep of --benchmark --force tree --theta-sweep: no worse
 * than the CPU tree's before its loops were vectorised. The reference figures were measured
 * with that scalar walk (main's at commit 9cc003a, groups packed clear of dense cells) on these
 * bodies and rows; the tree, its cells, groups and interactions are the same, so the
 * forces differ by the order of the float sums only, which moves these errors by ~0.3%
 * either way: 1% is allowed. */
static void test_theta_sweep(struct gc_backend *be)
{
    static const struct {
        float theta;
        double median, p99;
    } before[] = {{0.30f, 5.3788e-05, 2.2533e-04}, {0.40f, 1.4091e-04, 5.4949e-04},
                  {0.45f, 1.9604e-04, 7.4256e-04}, {0.50f, 2.6149e-04, 1.0238e-03},
                  {0.55f, 3.4928e-04, 1.3588e-03}, {0.60f, 4.5145e-04, 1.8720e-03},
                  {0.70f, 7.3968e-04, 3.3015e-03}, {0.80f, 9.8116e-04, 4.2192e-03},
                  {1.00f, 1.6225e-03, 9.7731e-03}};
    struct gc_bodies b;
    CHECK(gc_models_build("mw-m31", 16384, 1, &b) == GC_OK);
    for (size_t k = 0; k < sizeof before / sizeof before[0]; k++) {
        const struct errors e = tree_errors(be, &b, before[k].theta, 2000, "theta sweep");
        CHECK(e.finite);
        CHECK_LT(e.median, 1.01 * before[k].median);
        CHECK_LT(e.p99, 1.01 * before[k].p99);
        CHECK(e.median > 0.5 * before[k].median); /* the same approximation, not another */
    }
    gc_bodies_free(&b);
}

/* Ranks split the bodies, not the tree: the forces of any split are the same bits. */
static void test_ranges(struct gc_backend *be)
{
    struct gc_bodies b, whole, part;
    const struct gc_force_params fp = tree(GC_TREE_DEFAULT_THETA);
    const size_t cut[4] = {0, 3001, 7013, 10000};
    CHECK(gc_models_build("mw-m31", 10000, 2, &b) == GC_OK);
    CHECK(gc_bodies_alloc(&whole, b.n) == GC_OK && gc_bodies_alloc(&part, b.n) == GC_OK);
    CHECK(gc_backend_accelerations(be, &b, &fp, &whole) == GC_OK);
    memcpy(part.pos, b.pos, b.n * 4 * sizeof(float));
    memset(part.vel, 0, b.n * 4 * sizeof(float));
    CHECK(gc_backend_upload(be, &part) == GC_OK);
    for (int r = 0; r < 3; r++) {
        CHECK(gc_backend_set_range(be, cut[r], cut[r + 1]) == GC_OK);
        CHECK(gc_backend_accel(be, &fp) == GC_OK);
        CHECK(gc_backend_kick(be, 1.0f) == GC_OK); /* v = a for this range only */
    }
    CHECK(gc_backend_set_range(be, 0, b.n) == GC_OK);
    CHECK(gc_backend_download(be, &part) == GC_OK);
    CHECK(memcmp(whole.vel, part.vel, b.n * 4 * sizeof(float)) == 0);
    gc_bodies_free(&b);
    gc_bodies_free(&whole);
    gc_bodies_free(&part);
}

/* Tree forces depend on positions only and the tree is rebuilt the same way from the same
 * positions, so the leapfrog stays time-reversible: 100 steps forward, 100 back. */
static void test_reversible(struct gc_backend *be)
{
    struct gc_bodies b, end;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    double worst = 0.0;
    gc_sim_params_default(&p);
    p.force = "tree";
    CHECK(gc_models_build("mw-m31", 4000, 3, &b) == GC_OK);
    CHECK(gc_bodies_alloc(&end, b.n) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_sim_force_method(sim) == GC_FORCE_TREE);
    CHECK(gc_sim_advance(sim, 100 * 0.01) == GC_OK);
    CHECK(gc_sim_set_dt(sim, -0.01f) == GC_OK);
    CHECK(gc_sim_advance(sim, 0.0) == GC_OK);
    CHECK(gc_sim_download(sim, &end) == GC_OK);
    for (size_t i = 0; i < 4 * b.n; i++)
        if (i % 4 != 3)
            worst = fmax(worst, fabs((double)end.pos[i] - b.pos[i]));
    printf("tree leapfrog, 100 steps forward and back: largest position change %.2e\n", worst);
    CHECK_LT(worst, 1e-4); /* float rounding over 200 steps; a broken step moves ~1e-2 */
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&end);
}

/* Energy over 300 steps of the galaxy pair with the tree, against all pairs: the largest
 * |dE/E| (measured every 10 steps, with the exact potential at this N) may not grow beyond
 * twice all pairs'. The leapfrog's own error oscillates; the envelope, not the last value,
 * is what the tree's force errors could make grow. */
static double drift(struct gc_backend *be, const struct gc_bodies *b, const char *force)
{
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_bodies scratch;
    struct gc_diagnostics d0, d1;
    double worst = 0.0;
    gc_sim_params_default(&p);
    p.force = force;
    CHECK(gc_bodies_alloc(&scratch, b->n) == GC_OK);
    CHECK(gc_sim_create(be, NULL, b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_sim_potential_exact(sim));
    CHECK(gc_sim_measure(sim, &scratch, &d0) == GC_OK);
    CHECK(d0.energy != 0.0);
    for (int k = 1; k <= 30; k++) {
        CHECK(gc_sim_advance(sim, k * 10 * 0.01) == GC_OK);
        CHECK(gc_sim_measure(sim, &scratch, &d1) == GC_OK);
        worst = fmax(worst, fabs((d1.energy - d0.energy) / d0.energy));
    }
    gc_sim_destroy(sim);
    gc_bodies_free(&scratch);
    return worst;
}

static void test_energy(struct gc_backend *be)
{
    struct gc_bodies b;
    double exact, approx;
    CHECK(gc_models_build("mw-m31", 6000, 4, &b) == GC_OK);
    exact = drift(be, &b, "allpairs");
    approx = drift(be, &b, "tree");
    printf("largest |dE/E| over 300 steps, 6000 bodies: all pairs %.2e, tree %.2e\n", exact,
           approx);
    CHECK(exact > 0.0);
    CHECK_LT(approx, 2.0 * exact);
    gc_bodies_free(&b);
}

/* The tree's potential energy against the exact one. */
static void test_potential(struct gc_backend *be)
{
    struct gc_bodies b;
    const struct gc_force_params fp = tree(GC_TREE_DEFAULT_THETA);
    double w, ref;
    CHECK(gc_models_build("mw-m31", 8000, 5, &b) == GC_OK);
    CHECK(gc_backend_upload(be, &b) == GC_OK);
    CHECK(gc_backend_potential(be, &fp, &w) == GC_OK);
    ref = gc_diagnostics_potential(&b, EPS);
    printf("potential, 8000 bodies: tree %.8f, exact %.8f, relative %.2e\n", w, ref,
           fabs(w - ref) / fabs(ref));
    CHECK(ref < 0.0);
    CHECK_LT(fabs(w - ref) / fabs(ref), 1e-4);
    gc_bodies_free(&b);
}

/* The same bodies' tree forces on the GPU and on the CPU backend: their tree figures into
 * *sg and *sc, the relative RMS of the GPU's forces against the CPU's returned. */
static double gpu_against_cpu(struct gc_backend *gpu, const char *model, size_t n, uint64_t seed,
                              float theta, struct gc_tree_stats *sg, struct gc_tree_stats *sc)
{
    struct gc_backend *cpu = NULL;
    struct gc_backend_options opt = {0};
    struct gc_bodies b, ag, ac;
    const struct gc_force_params fp = tree(theta);
    double num = 0.0, den = 0.0;
    opt.quiet = 1;
    CHECK(gc_backend_create("cpu", &opt, &cpu) == GC_OK);
    CHECK(gc_models_build(model, n, seed, &b) == GC_OK);
    CHECK(gc_bodies_alloc(&ag, b.n) == GC_OK && gc_bodies_alloc(&ac, b.n) == GC_OK);
    CHECK(gc_backend_accelerations(gpu, &b, &fp, &ag) == GC_OK);
    CHECK(gc_backend_accelerations(cpu, &b, &fp, &ac) == GC_OK);
    CHECK(gc_backend_sync(gpu) == GC_OK);
    CHECK(gc_backend_tree(gpu)->stats(gpu, sg) == GC_OK);
    CHECK(gc_backend_tree(cpu)->stats(cpu, sc) == GC_OK);
    for (size_t i = 0; i < b.n; i++)
        for (int k = 0; k < 3; k++) {
            const double d = (double)ag.vel[4 * i + k] - ac.vel[4 * i + k];
            num += d * d;
            den += (double)ac.vel[4 * i + k] * ac.vel[4 * i + k];
        }
    gc_bodies_free(&b);
    gc_bodies_free(&ag);
    gc_bodies_free(&ac);
    gc_backend_destroy(cpu);
    return sqrt(num / den);
}

/* The CUDA backend's tree against the CPU's: the same tree (cells, leaves, interactions) and
 * forces that differ by the rounding of the sums (and, where a fused multiply-add tips a
 * cell exactly at its opening radius, by that cell's approximation for a few bodies). */
static void test_gpu_vs_cpu(struct gc_backend *gpu)
{
    const size_t n = 65536;
    struct gc_tree_stats sg, sc;
    const double rms = gpu_against_cpu(gpu, "mw-m31", n, 7, GC_TREE_DEFAULT_THETA, &sg, &sc);
    printf("GPU vs CPU tree, N %zu: cells %llu vs %llu, leaves %llu vs %llu, groups %llu vs "
           "%llu, interactions a body %.1f vs %.1f (far cells %.1f vs %.1f); forces relative "
           "RMS %.2e\n", n, (unsigned long long)sg.cells, (unsigned long long)sc.cells,
           (unsigned long long)sg.leaves, (unsigned long long)sc.leaves,
           (unsigned long long)sg.groups, (unsigned long long)sc.groups,
           sg.cell_interactions + sg.body_interactions,
           sc.cell_interactions + sc.body_interactions, sg.mono_interactions,
           sc.mono_interactions, rms);
    printf("GPU vs CPU tree: local-expansion cells a body %.1f vs %.1f\n", sg.local_cells,
           sc.local_cells);
    CHECK(sg.valid && sc.valid && sg.complete);
    CHECK(sg.cells == sc.cells && sg.leaves == sc.leaves && sg.leaf_bodies == n);
    CHECK(sg.groups == sc.groups);
    CHECK_LT(fabs(sg.cell_interactions - sc.cell_interactions), 1e-3 * sc.cell_interactions);
    CHECK_LT(fabs(sg.body_interactions - sc.body_interactions), 1e-3 * sc.body_interactions);
    CHECK_LT(fabs(sg.mono_interactions - sc.mono_interactions), 1e-3 * sc.mono_interactions);
    CHECK(sc.local_cells > 0.0);
    CHECK_LT(fabs(sg.local_cells - sc.local_cells), 1e-3 * sc.local_cells);
    CHECK_LT(rms, 1e-4);
}

/* A walk whose stack fills (a Plummer sphere of 262,144 bodies at theta 0.3: ~16 groups, the
 * CPU's replay of the walk says) moves part of it to global memory and takes it back: every
 * cell is still met once. Against the CPU's tree, which has no such limit: the same body
 * interactions and accepted cells a body (quadrupole, mass or local expansion: a full local
 * list on the GPU sends a cell to the others), forces as the CPU's but for rounding, the few
 * cells a fused multiply-add tips and those expansions; and no cell summed directly. */
static void test_gpu_spill(struct gc_backend *gpu)
{
    struct gc_tree_stats sg, sc;
    const double rms = gpu_against_cpu(gpu, "plummer", 262144, 1, 0.3f, &sg, &sc);
    const double accepted_g = sg.cell_interactions + sg.mono_interactions + sg.local_cells;
    const double accepted_c = sc.cell_interactions + sc.mono_interactions + sc.local_cells;
    printf("stack spills, Plummer 262144 theta 0.3: %llu groups spilled; body interactions a "
           "body %.1f vs %.1f, accepted cells %.1f vs %.1f; forces relative RMS %.2e\n",
           (unsigned long long)sg.stack_spills, sg.body_interactions, sc.body_interactions,
           accepted_g, accepted_c, rms);
    CHECK(sg.valid && sg.complete && sg.stack_spills > 0);
    CHECK_LT(fabs(sg.body_interactions - sc.body_interactions), 1e-3 * sc.body_interactions);
    CHECK_LT(fabs(accepted_g - accepted_c), 1e-3 * accepted_c);
    /* A full local list sends cells body by body on the GPU that the CPU adds to its
     * expansion: ~1e-5 apart. A chunk of 480 cells lost or doubled in the ~16 spilling
     * groups moves their bodies' forces by percents: 1e-3 and more here. */
    CHECK_LT(rms, 3e-4);
}

int main(int argc, char **argv)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    struct gc_bodies b;
    const int cuda = argc > 1 && strcmp(argv[1], "cuda") == 0;
    const int isa = argc > 2 && strcmp(argv[1], "isa") == 0;
    enum gc_status st;
    opt.quiet = 1;
    opt.cpu_isa = isa ? argv[2] : NULL;
    st = gc_backend_create(cuda ? "cuda" : "cpu", &opt, &be);
    if (st != GC_OK) {
        if (cuda || (isa && st == GC_ERR_UNSUPPORTED)) {
            printf("SKIP: %s\n", cuda ? "no usable CUDA device"
                                      : "this CPU does not run these loops");
            return CHECK_SKIP;
        }
        CHECK(0);
        return CHECK_DONE();
    }
    printf("backend %s\n", gc_backend_device_name(be));
    if (isa) {
        test_theta_sweep(be);
        test_hard_cases(be);
        test_potential(be);
        gc_backend_destroy(be);
        return CHECK_DONE();
    }
    if (dubinski_part(argc, argv)) {
        struct gc_io_source src;
        if (!dubinski_path()) {
            gc_backend_destroy(be);
            return dubinski_skip();
        }
        CHECK(gc_io_read(dubinski_wanted(), &b, &src) == GC_OK);
        test_accuracy(be, &b, 4000, "Dubinski table with halos");
        gc_bodies_free(&b);
        gc_backend_destroy(be);
        return CHECK_DONE();
    }
    if (!cuda) {
        test_formulas();
        test_local_formulas();
    }
    CHECK(gc_models_build("mw-m31", 32768, 1, &b) == GC_OK);
    test_accuracy(be, &b, 4000, "built-in pair");
    gc_bodies_free(&b);
    test_hard_cases(be);
    test_far_outskirts(be);
    test_distributions(be);
    test_ranges(be);
    test_reversible(be);
    test_potential(be);
    test_energy(be);
    if (cuda) {
        test_gpu_vs_cpu(be);
        test_gpu_spill(be);
    }
    gc_backend_destroy(be);
    return CHECK_DONE();
}
