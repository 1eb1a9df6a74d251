/* The Hermite force pass's work layout (kernels/hermite_plan.h) against its specification: every active body and every j tile covered once, the partial-sum scratch never overrun, the same layout for the same inputs, and the fewest tile passes a brute-force search finds. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "check.h"
#include "hermite_plan.h"

#define HT GC_HERMITE_HT

/* Everything below is written from the header's and kernels/hermite.cu's comments and index
 * arithmetic; only gc_hermite_plan_of and gc_hermite_part_rows are the code under test. */

/* Tile passes of the busiest block: `units` = groups * slices run in ceil(units / grid)
 * waves, each unit streaming tps tiles (hermite_plan.h, "Tile passes of the busiest block"). */
static long long cost_model(long long groups, long long slices, long long tps, long long grid)
{
    return (groups * slices + grid - 1) / grid * tps;
}

/* Blocks of active bodies (hermite.cu's launch comment): m >= per * HT takes per bodies a
 * thread, per * HT a block; m >= HT one thread per body, HT bodies a block; a smaller m is
 * one block of the smallest power of two >= m bodies. */
static void groups_of(int m, int per, long long *ni, long long *groups)
{
    if (m >= per * HT) {
        *ni = (long long)per * HT;
        *groups = ((long long)m + *ni - 1) / *ni;
    } else if (m >= HT) {
        *ni = HT;
        *groups = ((long long)m + HT - 1) / HT;
    } else {
        long long p = 1;
        while (p < m)
            p *= 2;
        *ni = p;
        *groups = 1;
    }
}

/* Every split of ntiles tiles into s = 1 .. ntiles slices of ceil(ntiles / s) tiles, costed
 * with cost_model: the fewest tile passes of any split (*best_all), and of the splits the
 * header says it searches (*best_waves): one slice, or any number of slices whose units fit
 * in GC_HERMITE_MAX_WAVES waves of the grid ("Slice counts tried: the largest that fits in w
 * waves of the grid, w = 1 .. this"). A split whose last slices would be empty costs at least
 * as much as the same tps with those slices dropped, so counting it changes no minimum. */
static void brute_force(long long groups, long long ntiles, long long grid, long long *best_all,
                        long long *best_waves)
{
    *best_all = *best_waves = -1;
    for (long long s = 1; s <= ntiles; s++) {
        const long long tps = (ntiles + s - 1) / s, c = cost_model(groups, s, tps, grid);
        if (*best_all < 0 || c < *best_all)
            *best_all = c;
        if ((s == 1 || groups * s <= (long long)GC_HERMITE_MAX_WAVES * grid) &&
            (*best_waves < 0 || c < *best_waves))
            *best_waves = c;
    }
}

static double worst_vs_all = 1.0; /* largest planned cost / unrestricted brute-force minimum */
static int worst_m, worst_n, worst_grid;
static long long cases, below_waves; /* plans checked; how many a > MAX_WAVES split beats */

static void check_one(int m, int n, int grid, int per)
{
    const struct gc_hermite_plan p = gc_hermite_plan_of(m, n, grid, per);
    const int failures_at_entry = check_failures;
    const long long ntiles = ((long long)n + HT - 1) / HT;
    long long ni, groups, cost, lower, best_all, best_waves;
    /* The brute force depends on (groups, n, grid) only: consecutive m share it. */
    static long long memo_groups = -1, memo_ntiles = -1, memo_grid = -1, memo_all, memo_waves;

    groups_of(m, per, &ni, &groups);
    cases++;

    /* Bodies: ni a power of two up to per * HT, q = HT / ni threads each below HT, else one
     * thread for ni / HT bodies, groups * ni >= m with no empty group, as the launch comment
     * lays them out. */
    CHECK(p.ni >= 1 && p.ni <= per * HT && (p.ni & (p.ni - 1)) == 0);
    CHECK(p.ni >= HT ? p.q == 1 && p.per == p.ni / HT : p.q == HT / p.ni && p.per == 1);
    CHECK(p.ni == ni && p.groups == groups);
    CHECK((long long)p.groups * p.ni >= m && (long long)(p.groups - 1) * p.ni < m);

    /* Tiles: slice sl streams tiles [sl * tps, min(sl * tps + tps, ntiles)) (h_force), so the
     * slices cover every tile exactly once when slices * tps >= ntiles, and the last slice
     * is not empty when (slices - 1) * tps < ntiles. */
    CHECK(p.slices >= 1 && p.tps >= 1);
    CHECK((long long)p.slices * p.tps >= ntiles);
    CHECK((long long)(p.slices - 1) * p.tps < ntiles);

    /* Scratch: h_force writes row sl * m + aidx for every slice sl < slices and active body
     * aidx < m, and h_correct reads the same rows, so a pass needs slices * m rows. */
    CHECK((long long)p.slices * m <= gc_hermite_part_rows(n, grid));

    /* The header's cost function is the model stated in its comment. */
    cost = cost_model(p.groups, p.slices, p.tps, grid);
    CHECK(gc_hermite_plan_cost(p.groups, p.slices, p.tps, grid) == cost);

    /* Cost: no block can do less than its share of groups * ntiles tile passes; the planner
     * never does worse than leaving the j range whole; and among the splits it promises to
     * search (one slice, or up to MAX_WAVES waves) none is cheaper. Its early exit fires only
     * at the lower bound, so it may not cost it anything. */
    lower = (groups * ntiles + grid - 1) / grid;
    CHECK(cost >= lower);
    CHECK(cost <= cost_model(groups, 1, ntiles, grid));
    if (groups != memo_groups || ntiles != memo_ntiles || grid != memo_grid) {
        brute_force(groups, ntiles, grid, &memo_all, &memo_waves);
        memo_groups = groups;
        memo_ntiles = ntiles;
        memo_grid = grid;
    }
    best_all = memo_all;
    best_waves = memo_waves;
    CHECK(best_all >= lower && best_waves >= best_all); /* the brute force itself */
    CHECK(cost == best_waves);
    if (cost > best_all)
        below_waves++;
    /* With work for 8 waves or more, at least 75% of the resident blocks stay busy
     * (docs/perf-log/hermite-gpu.md, "wave-aware slices"): the lower bound over the cost. */
    if (groups * ntiles >= 8LL * grid)
        CHECK((double)lower / (double)cost >= 0.75);
    if ((double)cost / (double)best_all > worst_vs_all) {
        worst_vs_all = (double)cost / (double)best_all;
        worst_m = m;
        worst_n = n;
        worst_grid = grid;
    }

    /* The same inputs give the same layout (results repeat run to run), also after another
     * layout was computed in between. */
    {
        const struct gc_hermite_plan other =
            gc_hermite_plan_of(m < n ? m + 1 : 1, n, grid + 1, 3 - per);
        const struct gc_hermite_plan again = gc_hermite_plan_of(m, n, grid, per);
        (void)other;
        CHECK(again.ni == p.ni && again.q == p.q && again.per == p.per &&
              again.groups == p.groups &&
              again.slices == p.slices && again.tps == p.tps);
    }
    if (check_failures != failures_at_entry)
        fprintf(stderr, "  at m = %d, n = %d, grid = %d, per %d: ni %d q %d groups %d slices %d "
                        "tps %d; cost %lld, brute force %lld (<= %d waves) %lld (any), lower "
                        "bound %lld\n",
                m, n, grid, per, p.ni, p.q, p.groups, p.slices, p.tps, cost, best_waves,
                GC_HERMITE_MAX_WAVES, best_all, lower);
}

int main(void)
{
    /* 1 to 8 blocks (degenerate grids), and resident-block counts of real chips at 2 blocks
     * per SM and more: 132 SMs (H100 SXM), 264, 456 (A100 at 4/SM), 528, plus odd ones. */
    static const int grids[] = {1, 2, 3, 8, 97, 132, 264, 456, 528};
    /* Tile edges (255, 256, 257), odd sizes, the Dubinski table (81,920), up to 1 Mi. */
    static const int ns[] = {1, 2, 7, 255, 256, 257, 1000, 4109, 65536, 81920, 262144, 1048576};
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            const int n = ns[k], grid = grids[g];
            for (int per = 1; per <= GC_HERMITE_MAX_PER; per++) {
                for (int m = 1; m <= n; m = m < 1024 ? m + 1 : m + 1 + m / 200)
                    check_one(m, n, grid, per);
                check_one(n, n, grid, per);
            }
        }
    }
    /* The case the header names: 157 groups on 264 resident blocks, N = 262,144. */
    check_one(157 * HT, 262144, 264, 1);
    printf("%lld layouts checked; %lld could be cheaper with more than %d waves of slices "
           "(worst %.3fx the unrestricted minimum, at m = %d, n = %d, grid = %d)\n",
           cases, below_waves, GC_HERMITE_MAX_WAVES, worst_vs_all, worst_m, worst_n, worst_grid);
    return CHECK_DONE();
}
