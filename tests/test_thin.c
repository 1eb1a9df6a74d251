/* Tests of thinning: component shares, mass, bulk motion and spacing preserved; bad N rejected. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "table.h"
#include "test_util.h"
#include "thin.h"

/* A synthetic table with the Dubinski block layout scaled down by `scale`; vel[3] holds the
 * original row index so the test can see which rows were chosen. */
static void synthetic(struct gc_bodies *b, size_t scale)
{
    size_t n = 0, i = 0;
    uint64_t s = 7;
    for (int k = 0; k < GC_LAYOUT_BLOCKS; k++)
        n += gc_dubinski_blocks[k] / scale;
    gc_bodies_alloc(b, n);
    for (int k = 0; k < GC_LAYOUT_BLOCKS; k++)
        for (size_t j = 0; j < gc_dubinski_blocks[k] / scale; j++, i++) {
            for (int c = 0; c < 3; c++) {
                b->pos[4 * i + c] = (float)(10.0 * urand(&s) - 5.0 + k);
                b->vel[4 * i + c] = (float)(urand(&s) - 0.5 + 0.1 * k);
            }
            b->pos[4 * i + 3] = (float)((1.0 + k) * (0.5 + urand(&s)) * 1e-3);
            b->vel[4 * i + 3] = (float)i;
            b->tag[i] = gc_layout_tags[k];
        }
}

struct group_stats {
    size_t count;
    double mass, mx[3], mv[3];
};

static void stats(const struct gc_bodies *b, struct group_stats g[8])
{
    memset(g, 0, 8 * sizeof *g);
    for (size_t i = 0; i < b->n; i++) {
        struct group_stats *s = &g[b->tag[i] & 7];
        double m = b->pos[4 * i + 3];
        s->count++;
        s->mass += m;
        for (int c = 0; c < 3; c++) {
            s->mx[c] += m * b->pos[4 * i + c];
            s->mv[c] += m * b->vel[4 * i + c];
        }
    }
}

static void check_thinned(const struct gc_bodies *all, size_t n, int halo)
{
    struct gc_bodies t;
    struct group_stats ga[8], gt[8];
    size_t eligible = gc_thin_eligible(all, halo);
    CHECK(gc_thin_select(all, n, halo, &t) == GC_OK);
    CHECK(t.n == (n ? n : eligible));
    stats(all, ga);
    stats(&t, gt);
    for (int g = 0; g < 8; g++) {
        int want = ga[g].count > 0 && (GC_TAG_COMPONENT(g) != GC_HALO || halo);
        if (!want) {
            CHECK(gt[g].count == 0);
            continue;
        }
        /* share within one body of the exact proportion */
        CHECK_NEAR(gt[g].count, (double)t.n * ga[g].count / eligible, 1.0 + 1e-9);
        CHECK_NEAR(gt[g].mass, ga[g].mass, 1e-5 * ga[g].mass);
        for (int c = 0; c < 3; c++) {
            CHECK_NEAR(gt[g].mx[c] / gt[g].mass, ga[g].mx[c] / ga[g].mass, 1e-4);
            CHECK_NEAR(gt[g].mv[c] / gt[g].mass, ga[g].mv[c] / ga[g].mass, 1e-5);
        }
    }
    /* evenly spaced: consecutive picks within a group are floor/ceil(size/take) apart */
    for (int g = 0; g < 8; g++) {
        double prev = -1.0, step;
        size_t first_row = (size_t)-1;
        if (!gt[g].count)
            continue;
        step = (double)ga[g].count / gt[g].count;
        for (size_t i = 0; i < t.n; i++) {
            if ((t.tag[i] & 7) != g)
                continue;
            if (prev >= 0.0) {
                double gap = t.vel[4 * i + 3] - prev;
                CHECK(gap >= floor(step) && gap <= ceil(step));
            } else {
                first_row = (size_t)t.vel[4 * i + 3];
            }
            prev = t.vel[4 * i + 3];
        }
        /* the group's first row is always taken */
        for (size_t i = 0; i < all->n; i++)
            if ((all->tag[i] & 7) == g) {
                CHECK(first_row == i);
                break;
            }
    }
    gc_bodies_free(&t);
}

static void test_synthetic(void)
{
    struct gc_bodies all, t;
    synthetic(&all, 16); /* 5120 rows: 1024 1024 512 512 1024 1024 */
    check_thinned(&all, 0, 0);
    check_thinned(&all, 0, 1);
    check_thinned(&all, 1000, 0);
    check_thinned(&all, 1000, 1);
    check_thinned(&all, 3071, 0);
    check_thinned(&all, 6, 1);
    check_thinned(&all, 4, 0);
    /* errors */
    CHECK(gc_thin_select(&all, 3073, 0, &t) == GC_ERR_INVALID); /* more than disk+bulge */
    CHECK(t.n == 0);
    CHECK(gc_thin_select(&all, 5121, 1, &t) == GC_ERR_INVALID);
    CHECK(gc_thin_select(&all, 3, 0, &t) == GC_ERR_INVALID); /* fewer than 4 components */
    CHECK(gc_thin_select(&all, 5, 1, &t) == GC_ERR_INVALID); /* fewer than 6 components */
    gc_bodies_free(&all);
}

static void test_real(const char *p)
{
    struct gc_bodies all, t;
    CHECK(gc_table_read(p, &all) == GC_OK);
    if (check_failures)
        return;
    CHECK(gc_thin_select(&all, 0, 0, &t) == GC_OK);
    CHECK(t.n == 49152); /* disk + bulge of both galaxies, as in the original viewer */
    gc_bodies_free(&t);
    CHECK(gc_thin_select(&all, 0, 1, &t) == GC_OK);
    CHECK(t.n == 81920);
    gc_bodies_free(&t);
    for (size_t i = 0; i < all.n; i++)
        all.vel[4 * i + 3] = (float)i; /* row index marker, as in synthetic() */
    check_thinned(&all, 8192, 1);
    check_thinned(&all, 8192, 0);
    gc_bodies_free(&all);
}

/* Usage: test_thin [dubinski]. With "dubinski", only the checks on the real table (their
 * own ctest test, skipped without the file); without, the synthetic ones. */
int main(int argc, char **argv)
{
    if (dubinski_part(argc, argv)) {
        const char *p = dubinski_path();
        if (!p)
            return dubinski_skip();
        test_real(p);
        return CHECK_DONE();
    }
    test_synthetic();
    return CHECK_DONE();
}
