/* How one Hermite force pass lays out m active bodies against n sources over the grid's resident blocks (shared by hermite.cu and a CPU test). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_PLAN_H
#define GC_HERMITE_PLAN_H

#include "host_device.h"

/* Threads per block of every Hermite kernel, and the length of a shared-memory j tile. */
#define GC_HERMITE_HT 256
/* Slice counts tried: the largest that fits in w waves of the grid, w = 1 .. this. */
#define GC_HERMITE_MAX_WAVES 8
/* Active bodies a thread may take at once (each j record it loads serves all of them). */
#define GC_HERMITE_MAX_PER 2

/* ni active bodies per block, each served by q = HT/ni threads, or (ni > HT) each thread
 * serving per = ni / HT of them, bodies t, t + HT, ...; `groups` blocks of them cover m; the
 * j range is cut into `slices` of `tps` tiles. A unit = (group, slice). */
struct gc_hermite_plan {
    int ni, q, per, groups, slices, tps;
};

/* Rows of partial sums (one per unit and body of its group) the scratch holds. A plan
 * never needs more: its slice count s <= MAX_WAVES * grid / groups and m <= groups * ni <=
 * groups * MAX_PER * HT give s * m <= MAX_WAVES * grid * MAX_PER * HT; one slice needs
 * m <= n rows. */
GC_HD long long gc_hermite_part_rows(int n, int grid)
{
    const long long a =
        (long long)GC_HERMITE_MAX_WAVES * grid * GC_HERMITE_MAX_PER * GC_HERMITE_HT;
    const long long b = (long long)n + GC_HERMITE_HT;
    return a > b ? a : b;
}

/* Tile passes of the busiest block: units run in ceil(units / grid) waves of tps tiles. */
GC_HD int gc_hermite_plan_cost(int groups, int slices, int tps, int grid)
{
    const int units = groups * slices;
    return (units + grid - 1) / grid * tps;
}

/* The same m (and per) gives the same layout, so results repeat run to run. per (1 ..
 * MAX_PER): the bodies a thread takes once m fills blocks of per * HT. Small m: one group,
 * the j range split so that every resident block gets a slice (HiGPUs' Bfactor). Large m:
 * the slice count whose waves of units leave the fewest blocks idle, so that, say,
 * 157 groups on 264 resident blocks do not leave 40% of the chip idle for a whole pass.
 * 32-bit arithmetic and an early exit at the lower bound: every force pass and correction
 * computes this, and a small block step (m = 1) must not pay for the search. */
GC_HD struct gc_hermite_plan gc_hermite_plan_of(int m, int n, int grid, int per)
{
    struct gc_hermite_plan p;
    const int ntiles = (n + GC_HERMITE_HT - 1) / GC_HERMITE_HT;
    long long bound;
    int best;
    if (m < 1)
        m = 1;
    if (grid < 1)
        grid = 1;
    per = per < 1 ? 1 : per > GC_HERMITE_MAX_PER ? GC_HERMITE_MAX_PER : per;
    if (m < per * GC_HERMITE_HT)
        per = 1;
    if (m >= GC_HERMITE_HT) {
        p.ni = per * GC_HERMITE_HT;
        p.groups = (m + p.ni - 1) / p.ni;
    } else {
        p.ni = 1;
        while (p.ni < m)
            p.ni <<= 1;
        p.groups = 1;
    }
    p.per = per;
    p.q = p.ni >= GC_HERMITE_HT ? 1 : GC_HERMITE_HT / p.ni;
    p.slices = 1;
    p.tps = ntiles;
    best = gc_hermite_plan_cost(p.groups, 1, ntiles, grid);
    /* No block can do less than its share of groups * ntiles tile passes: best * grid >= it. */
    bound = (long long)p.groups * ntiles;
    for (int w = 1; w <= GC_HERMITE_MAX_WAVES && (long long)best * grid >= bound + grid; w++) {
        int s = w * grid / p.groups, tps, slices, c;
        s = s < 1 ? 1 : s > ntiles ? ntiles : s;
        tps = (ntiles + s - 1) / s;
        slices = (ntiles + tps - 1) / tps;
        c = gc_hermite_plan_cost(p.groups, slices, tps, grid);
        if (c < best) {
            best = c;
            p.slices = slices;
            p.tps = tps;
        }
    }
    return p;
}

#endif
