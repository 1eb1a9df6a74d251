/* Built-in galaxy model: counts, masses, frame, sampled profiles, determinism, round trip. */
/* SPDX-License-Identifier: MIT */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diagnostics.h"
#include "table.h"
#include "log.h"
#include "model_galaxy.h"

/* Component masses of galaxy A (shared/data/README.md, block masses); B is A x 2.09505. */
static const double mass_a[3] = {0.817421, 0.430641, 10.215096};

static int same_bytes(const struct gc_bodies *a, const struct gc_bodies *b)
{
    return a->n == b->n && memcmp(a->pos, b->pos, 16 * a->n) == 0 &&
           memcmp(a->vel, b->vel, 16 * a->n) == 0 && memcmp(a->tag, b->tag, a->n) == 0;
}

static void test_counts(void)
{
    size_t c[6];
    /* Too few bodies, too many, unknown model: clear errors, nothing allocated. */
    struct gc_bodies b = {0};
    CHECK(gc_model_galaxy_build("mw-m31", 5, 1, &b) == GC_ERR_INVALID);
    CHECK(b.n == 0 && b.pos == NULL);
    CHECK(gc_model_galaxy_build("mw-m31", 0, 1, &b) == GC_ERR_INVALID);
    CHECK(gc_model_galaxy_build("single", 2, 1, &b) == GC_ERR_INVALID);
    CHECK(gc_model_galaxy_build("mw-m31", GC_MAX_BODIES + 1, 1, &b) == GC_ERR_INVALID);
    CHECK(gc_model_galaxy_build("mw-m31", (size_t)-1, 1, &b) == GC_ERR_INVALID);
    CHECK(gc_model_galaxy_build("andromeda", 100, 1, &b) == GC_ERR_INVALID);
    CHECK(b.n == 0 && b.pos == NULL);

    /* The Dubinski table's own layout comes back at its own N. */
    CHECK(gc_model_galaxy_counts("mw-m31", GC_DUBINSKI_ROWS, c) == GC_OK);
    for (int i = 0; i < 6; i++)
        CHECK(c[i] == gc_dubinski_blocks[i]);
    /* Every N from the minimum up: all bodies placed, at least one per component. */
    for (size_t n = 6; n < 2000; n++) {
        CHECK(gc_model_galaxy_counts("mw-m31", n, c) == GC_OK);
        size_t s = 0;
        for (int i = 0; i < 6; i++) {
            CHECK(c[i] >= 1);
            s += c[i];
        }
        CHECK(s == n);
    }
    for (size_t n = 3; n < 200; n++) {
        CHECK(gc_model_galaxy_counts("single", n, c) == GC_OK);
        CHECK(c[0] >= 1 && c[2] >= 1 && c[4] >= 1 && c[1] == 0 && c[3] == 0 && c[5] == 0);
        CHECK(c[0] + c[2] + c[4] == n);
    }
}

/* Total and per-block mass exactly as specified; centre of mass and momentum zero. */
static void test_mass_and_frame(size_t n, const char *name)
{
    struct gc_bodies b;
    CHECK(gc_model_galaxy_build(name, n, 42, &b) == GC_OK);
    if (b.n != n)
        return;
    int pair = strcmp(name, "single") != 0;
    double bm[6] = {0}, want[6];
    for (int blk = 0; blk < 6; blk++)
        want[blk] = blk % 2 ? (pair ? mass_a[blk / 2] * GC_MODEL_B_MASS_SCALE : 0.0)
                            : mass_a[blk / 2];
    size_t c[6], at = 0;
    CHECK(gc_model_galaxy_counts(name, n, c) == GC_OK);
    for (int blk = 0; blk < 6; blk++)
        for (size_t j = 0; j < c[blk]; j++, at++) {
            bm[blk] += b.pos[4 * at + 3];
            CHECK(b.tag[at] == gc_layout_tags[blk]);
            /* equal masses within a component */
            CHECK(b.pos[4 * at + 3] == b.pos[4 * (at - j) + 3]);
        }
    double total = 0.0, want_total = 0.0;
    for (int blk = 0; blk < 6; blk++) {
        /* float masses summed in double: relative 1e-6 covers the float rounding of m */
        CHECK_NEAR(bm[blk], want[blk], 1e-6 * want[blk] + 1e-12);
        total += bm[blk];
        want_total += want[blk];
    }
    if (pair)
        CHECK_NEAR(want_total, 35.479014, 1e-4); /* the table's total mass, README */
    struct gc_diagnostics d;
    gc_diagnostics_kinematics(&b, &d);
    CHECK_NEAR(d.mass, want_total, 1e-6 * want_total);
    /* Positions reach ~40 and velocities ~3: float rounding of each subtracted coordinate
     * is ~2e-6 and ~2e-7, and averages down; these bounds are that rounding, not physics. */
    for (int k = 0; k < 3; k++) {
        CHECK_LT(fabs(d.com[k]), 1e-5);
        CHECK_LT(fabs(d.com_vel[k]), 1e-6);
    }
    gc_bodies_free(&b);
}

/* Quantile radius of a component: fraction f of its mass inside (bisection). */
static double quantile(const struct gc_model_galaxy_params *p, enum gc_component c, double f)
{
    double lo = 0.0, hi = 100.0;
    for (int i = 0; i < 100; i++) {
        double mid = 0.5 * (lo + hi);
        if (gc_model_galaxy_mass_fraction(p, c, mid) < f)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sampled radial profiles against the analytic ones: counts in 10 bins of equal expected
 * mass (the binned density) each within 5 binomial sigma (a false alarm ~1e-6 per bin);
 * the largest gap between the sampled and analytic cumulative mass (Kolmogorov-Smirnov)
 * below 1.95 / sqrt(n), its 0.1% critical value, which catches a scale radius off by 5%;
 * plus the disk's sech^2 vertical profile and the disk's spin. */
static void test_profiles(void)
{
    const size_t n = 200000;
    struct gc_bodies b;
    CHECK(gc_model_galaxy_build("single", n, 3, &b) == GC_OK);
    if (b.n != n)
        return;
    struct gc_model_galaxy_params p;
    gc_model_galaxy_params_mw(&p);
    size_t c[6];
    CHECK(gc_model_galaxy_counts("single", n, c) == GC_OK);
    size_t first = 0;
    for (int comp = 0; comp < 3; comp++) {
        size_t nc = c[2 * comp], cnt[10] = {0}, zin = 0;
        double edge[11];
        edge[0] = 0.0;
        for (int k = 1; k < 10; k++)
            edge[k] = quantile(&p, (enum gc_component)comp, 0.1 * k);
        edge[10] = INFINITY;
        double lz = 0.0;
        double *rs = malloc(nc * sizeof *rs);
        CHECK(rs != NULL);
        if (!rs)
            return;
        /* Radii about the component's own centre: the whole sample was shifted to its
         * centre of mass, which random halo bodies put ~0.03 from the galaxy's centre. */
        double c0[3] = {0.0, 0.0, 0.0};
        for (size_t j = first; j < first + nc; j++)
            for (int k = 0; k < 3; k++)
                c0[k] += b.pos[4 * j + k] / (double)nc;
        for (size_t j = first; j < first + nc; j++) {
            const double x[3] = {b.pos[4 * j] - c0[0], b.pos[4 * j + 1] - c0[1],
                                 b.pos[4 * j + 2] - c0[2]};
            double r = comp == GC_DISK ? sqrt(x[0] * x[0] + x[1] * x[1])
                                       : sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
            rs[j - first] = r;
            int k = 0;
            while (r >= edge[k + 1])
                k++;
            cnt[k]++;
            if (comp == GC_DISK) {
                /* half the mass of a sech^2(z/z0) layer lies within z0 atanh(1/2) */
                zin += fabs(x[2]) < p.disk_z0 * atanh(0.5);
                lz += x[0] * b.vel[4 * j + 1] - x[1] * b.vel[4 * j];
            }
        }
        qsort(rs, nc, sizeof *rs, cmp_double);
        double ks = 0.0;
        for (size_t j = 0; j < nc; j++) {
            double f = gc_model_galaxy_mass_fraction(&p, (enum gc_component)comp, rs[j]);
            ks = fmax(ks, fmax(fabs(f - (double)j / (double)nc),
                               fabs(f - (double)(j + 1) / (double)nc)));
        }
        free(rs);
        printf("component %d: %zu bodies, KS distance %.5f (bound %.5f)\n", comp, nc, ks,
               1.95 / sqrt((double)nc));
        CHECK_LT(ks, 1.95 / sqrt((double)nc));
        double sd = sqrt((double)nc * 0.1 * 0.9);
        for (int k = 0; k < 10; k++)
            CHECK_NEAR((double)cnt[k], 0.1 * (double)nc, 5.0 * sd);
        if (comp == GC_DISK) {
            CHECK_NEAR((double)zin, 0.5 * (double)nc, 5.0 * sqrt(0.25 * (double)nc));
            CHECK(lz > 0.0); /* "single" spins about +z */
        }
        /* nothing outside the truncation radius */
        double rt = comp == GC_DISK ? p.disk_rmax : comp == GC_BULGE ? p.bulge_rt : p.halo_rt;
        CHECK(gc_model_galaxy_mass_fraction(&p, (enum gc_component)comp, rt) == 1.0);
        first += nc;
    }
    gc_bodies_free(&b);
}

/* Same seed -> same bytes, whatever the thread count; another seed -> other bytes. */
static void test_determinism(void)
{
    const size_t n = 50001; /* odd, and several random-number chunks per block */
    struct gc_bodies a, b, c;
    omp_set_num_threads(1);
    CHECK(gc_model_galaxy_build("mw-m31", n, 1234, &a) == GC_OK);
    omp_set_num_threads(3);
    CHECK(gc_model_galaxy_build("mw-m31", n, 1234, &b) == GC_OK);
    CHECK(gc_model_galaxy_build("mw-m31", n, 1235, &c) == GC_OK);
    CHECK(same_bytes(&a, &b));
    CHECK(!same_bytes(&a, &c));
    gc_bodies_free(&a);
    gc_bodies_free(&b);
    gc_bodies_free(&c);
    /* The smallest pair works and is deterministic too. */
    CHECK(gc_model_galaxy_build("mw-m31", 6, 9, &a) == GC_OK);
    CHECK(gc_model_galaxy_build("mw-m31", 6, 9, &b) == GC_OK);
    CHECK(same_bytes(&a, &b));
    gc_bodies_free(&a);
    gc_bodies_free(&b);
}

/* --save format: what is written reads back with the same values and tags. */
static void test_round_trip(void)
{
    const char *dir = getenv("GC_TEST_TMP");
    char path[1024];
    snprintf(path, sizeof path, "%s/model_round_trip.tab", dir ? dir : ".");
    struct gc_bodies a, b;
    CHECK(gc_model_galaxy_build("mw-m31", 1000, 5, &a) == GC_OK);
    CHECK(gc_table_write(path, &a) == GC_OK);
    CHECK(gc_table_read(path, &b) == GC_OK);
    CHECK(same_bytes(&a, &b));
    remove(path);
    gc_bodies_free(&a);
    gc_bodies_free(&b);
}

int main(void)
{
    gc_log_set_level(GC_LOG_ERROR);
    test_counts();
    test_mass_and_frame(6, "mw-m31");
    test_mass_and_frame(7, "mw-m31");
    test_mass_and_frame(3, "single");
    test_mass_and_frame(81920, "mw-m31");
    test_mass_and_frame(100003, "single");
    test_profiles();
    test_determinism();
    test_round_trip();
    return CHECK_DONE();
}
