/* The Hermite force pass's work layout (kernels/hermite_plan.h) on the host: every active body and every j tile covered once, the partial-sum scratch never overrun, and the chip kept busy. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "check.h"
#include "hermite_plan.h"

#define HT GC_HERMITE_HT

/* The layout before the wave-aware slice count (2026-11-23 H100 tables): slices =
 * grid / groups. Kept here as the baseline the new one must never lose to. */
static struct gc_hermite_plan plan_before(int m, int n, int grid)
{
    struct gc_hermite_plan p;
    const int ntiles = (n + HT - 1) / HT;
    int s;
    if (m >= HT) {
        p.ni = HT;
        p.groups = (m + HT - 1) / HT;
    } else {
        p.ni = 1;
        while (p.ni < m)
            p.ni <<= 1;
        p.groups = 1;
    }
    p.q = HT / p.ni;
    s = grid / p.groups;
    s = s < 1 ? 1 : s > ntiles ? ntiles : s;
    p.tps = (ntiles + s - 1) / s;
    p.slices = (ntiles + p.tps - 1) / p.tps;
    return p;
}

/* The search as the H100 ran it on 2026-11-23 (BENCHMARKS.md, "wave-aware slices"): all 8
 * candidates in 64-bit arithmetic, capped by 16 waves of scratch rows. The header's faster
 * form must give the same layouts, so that run's figures stand for it. */
static struct gc_hermite_plan plan_measured(int m, int n, int grid)
{
    struct gc_hermite_plan p = plan_before(m, n, grid);
    const int ntiles = (n + HT - 1) / HT;
    const long long rows16 = 16LL * grid * HT, rown = (long long)n + HT;
    long long smax = (rows16 > rown ? rows16 : rown) / m, best;
    if (smax > ntiles)
        smax = ntiles;
    p.slices = 1;
    p.tps = ntiles;
    best = ((long long)p.groups + grid - 1) / grid * ntiles;
    for (int w = 1; w <= 8; w++) {
        long long s = (long long)w * grid / p.groups, c;
        int tps, slices;
        s = s < 1 ? 1 : s > smax ? smax : s;
        tps = (int)((ntiles + s - 1) / s);
        slices = (ntiles + tps - 1) / tps;
        c = ((long long)p.groups * slices + grid - 1) / grid * tps;
        if (c < best) {
            best = c;
            p.slices = slices;
            p.tps = tps;
        }
    }
    return p;
}

static int failures_at_entry;
static double worst_eff = 1.0;
static int worst_m, worst_n, worst_grid;

static void check_one(int m, int n, int grid)
{
    const struct gc_hermite_plan p = gc_hermite_plan_of(m, n, grid);
    const struct gc_hermite_plan b = plan_before(m, n, grid);
    const int ntiles = (n + HT - 1) / HT;
    const long long cost = gc_hermite_plan_cost(p.groups, p.slices, p.tps, grid);
    const long long cost_b = gc_hermite_plan_cost(b.groups, b.slices, b.tps, grid);
    const double ideal = (double)p.groups * ntiles / grid;

    failures_at_entry = check_failures;
    /* Bodies: q threads each, ni per block, groups blocks, no empty group. */
    CHECK(p.ni >= 1 && (p.ni & (p.ni - 1)) == 0 && p.ni * p.q == HT);
    CHECK((long long)p.groups * p.ni >= m && (long long)(p.groups - 1) * p.ni < m);
    CHECK(m >= HT || p.groups == 1);
    /* Tiles: slices of tps tiles cover the range, none empty. */
    CHECK(p.slices >= 1 && p.tps >= 1);
    CHECK((long long)p.slices * p.tps >= ntiles && (long long)(p.slices - 1) * p.tps < ntiles);
    /* Scratch: one row per active body and slice. */
    CHECK((long long)p.slices * m <= gc_hermite_part_rows(n, grid));
    /* Never slower than the layout it replaced, in tile passes of the busiest block. */
    CHECK(cost <= cost_b);
    /* With work for several waves, at least 75% of the resident blocks stay busy. */
    if ((long long)p.groups * ntiles >= 8LL * grid) {
        const double eff = ideal / (double)cost;
        CHECK(eff >= 0.75);
        if (eff < worst_eff) {
            worst_eff = eff;
            worst_m = m;
            worst_n = n;
            worst_grid = grid;
        }
    }
    /* The layout the device measured. */
    {
        const struct gc_hermite_plan d = plan_measured(m, n, grid);
        CHECK(d.ni == p.ni && d.groups == p.groups && d.slices == p.slices && d.tps == p.tps);
    }
    /* The same inputs give the same layout (results repeat run to run). */
    {
        const struct gc_hermite_plan again = gc_hermite_plan_of(m, n, grid);
        CHECK(again.ni == p.ni && again.groups == p.groups && again.slices == p.slices &&
              again.tps == p.tps);
    }
    if (check_failures != failures_at_entry)
        fprintf(stderr, "  at m = %d, n = %d, grid = %d: ni %d q %d groups %d slices %d tps %d "
                        "(before: slices %d tps %d)\n",
                m, n, grid, p.ni, p.q, p.groups, p.slices, p.tps, b.slices, b.tps);
}

int main(void)
{
    static const int grids[] = {1, 8, 132, 264, 456, 528};
    static const int ns[] = {1, 2, 7, 255, 256, 257, 1000, 4109, 65536, 81920, 262144, 1048576};
    double gain_sum = 0.0;
    int gain_count = 0;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            const int n = ns[k], grid = grids[g];
            for (int m = 1; m <= n; m = m < 1024 ? m + 1 : m + 1 + m / 200)
                check_one(m, n, grid);
            check_one(n, n, grid);
        }
    }
    /* The case that motivated it: the H100 (264 resident blocks), N = 262,144, every m. */
    for (int m = HT; m <= 262144; m += 61) {
        const struct gc_hermite_plan p = gc_hermite_plan_of(m, 262144, 264);
        const struct gc_hermite_plan b = plan_before(m, 262144, 264);
        gain_sum += (double)gc_hermite_plan_cost(b.groups, b.slices, b.tps, 264) /
                    (double)gc_hermite_plan_cost(p.groups, p.slices, p.tps, 264);
        gain_count++;
    }
    printf("worst busy fraction %.3f (m = %d, n = %d, grid = %d); N = 262144 on 264 blocks: "
           "%.3fx fewer tile passes than before, averaged over m\n",
           worst_eff, worst_m, worst_n, worst_grid, gain_sum / gain_count);
    CHECK(gain_sum / gain_count > 1.05);
    return check_failures ? 1 : 0;
}
