/* The block-step selection from levels alone (hermite_formulas.h: gc_hermite_due_level, gc_hermite_next_due, gc_hermite_on_grid) against the bodies' ticks: the same bodies due and the same next block time as a direct comparison of every t_i + dt_i, over a long random run of block steps. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "hermite_formulas.h"

/* The references below use only tick arithmetic (%, +, min); the functions under test are
 * the three of hermite_formulas.h. */

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Every level against the definition "due at tn iff its step divides tn". */
static void check_due_level(int64_t tn)
{
    const int lvl = gc_hermite_due_level(tn);
    for (int k = 0; k < GC_HERMITE_LEVELS; k++)
        if ((tn % GC_HERMITE_TICKS(k) == 0) != (k >= lvl)) {
            fprintf(stderr, "tn = %lld: level %d, due level %d\n", (long long)tn, k, lvl);
            CHECK(0);
            return;
        }
}

/* Every level against the definition "on the grid iff its step divides t". */
static void check_on_grid(int64_t t)
{
    for (int k = 0; k < GC_HERMITE_LEVELS; k++)
        if (gc_hermite_on_grid(t, k) != (t % GC_HERMITE_TICKS(k) == 0)) {
            fprintf(stderr, "t = %lld: level %d, on the grid %d\n", (long long)t, k,
                    gc_hermite_on_grid(t, k));
            CHECK(0);
            return;
        }
}

static void fixed_cases(void)
{
    const int64_t top = GC_HERMITE_TICKS(0);
    CHECK(gc_hermite_due_level(0) == 0);
    CHECK(gc_hermite_due_level(top) == 0);
    CHECK(gc_hermite_due_level(5 * top) == 0);
    CHECK(gc_hermite_due_level(top / 2) == 1);
    CHECK(gc_hermite_due_level(1) == GC_HERMITE_LEVELS); /* no level is due at an odd tick */
    CHECK(gc_hermite_due_level(3 * top + 2) == GC_HERMITE_LEVELS - 1);
    CHECK(gc_hermite_next_due(top / 2, 0) == top);
    CHECK(gc_hermite_next_due(top, 0) == 2 * top);
    CHECK(gc_hermite_next_due(5, GC_HERMITE_LEVELS - 1) == 6);
    CHECK(gc_hermite_on_grid(0, 0));
    CHECK(gc_hermite_on_grid(6, GC_HERMITE_LEVELS - 1));
    CHECK(!gc_hermite_on_grid(7, GC_HERMITE_LEVELS - 1));
    CHECK(!gc_hermite_on_grid(INT64_MAX / 4, 0)); /* a parked slot's tick */
    for (int r = 0; r < 100000; r++) {
        const int64_t t = (int64_t)(next_random() >> 20); /* up to ~4,000 dt_max */
        check_due_level(t);
        check_on_grid(t);
    }
    for (int k = 0; k < GC_HERMITE_LEVELS; k++) {
        const int64_t t = GC_HERMITE_TICKS(k) * (int64_t)(1 + next_random() % 1000);
        check_due_level(t);
        check_on_grid(t);
    }
}

#define NB 512

/* A run of block steps: each step the bodies due are found both ways, then moved to tn
 * with a new level by the timeline's rule (any finer one; one coarser where tn is a
 * multiple of the doubled step). */
static void random_run(int steps)
{
    int64_t t[NB];
    int level[NB];
    long mismatched_due = 0, mismatched_next = 0, off_grid = 0, checked = 0;
    for (int i = 0; i < NB; i++) {
        t[i] = 0;
        level[i] = 20 + (int)(next_random() % 20);
    }
    for (int s = 0; s < steps; s++) {
        int64_t tn = INT64_MAX, rest = INT64_MAX;
        int finest = -1, lvl;
        for (int i = 0; i < NB; i++)
            if (t[i] + GC_HERMITE_TICKS(level[i]) < tn)
                tn = t[i] + GC_HERMITE_TICKS(level[i]);
        lvl = gc_hermite_due_level(tn);
        for (int i = 0; i < NB; i++) {
            const int64_t next = t[i] + GC_HERMITE_TICKS(level[i]);
            const int due = next == tn;
            off_grid += !gc_hermite_on_grid(t[i], level[i]);
            mismatched_due += due != (level[i] >= lvl);
            if (!due) {
                mismatched_next += gc_hermite_next_due(tn, level[i]) != next;
                rest = next < rest ? next : rest;
                finest = level[i] > finest ? level[i] : finest;
            }
            checked++;
        }
        if (finest >= 0)
            mismatched_next += gc_hermite_next_due(tn, finest) != rest;
        for (int i = 0; i < NB; i++) {
            const int k = level[i];
            const uint64_t r = next_random() % 8;
            if (t[i] + GC_HERMITE_TICKS(k) != tn)
                continue;
            t[i] = tn;
            if (r < 3 && k > 0 && tn % GC_HERMITE_TICKS(k - 1) == 0)
                level[i] = k - 1;
            else if (r == 3 && k < GC_HERMITE_LEVELS - 1)
                level[i] = k + 1;
        }
    }
    printf("%d block steps, %ld body checks: %ld due mismatches, %ld next-tick mismatches, "
           "%ld off the grid\n",
           steps, checked, mismatched_due, mismatched_next, off_grid);
    CHECK(mismatched_due == 0);
    CHECK(mismatched_next == 0);
    CHECK(off_grid == 0);
    CHECK(checked == (long)steps * NB);
}

int main(void)
{
    fixed_cases();
    random_run(20000);
    return CHECK_DONE();
}
