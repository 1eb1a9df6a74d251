/* The window's size without a GPU: the body count and steps a frame chosen from step costs, the floor and cap, and costs measured on this machine with one thread and with all. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "cli.h"
#include "sizing.h"

#define BUDGET (GC_SIZING_STEP_SHARE / GC_SIZING_FPS)

/* A CPU like this one (its two cores: all pairs 9 ms at 8,192 bodies, the tree 6 ms at
 * 8,192 and 15 ms at 16,384): all pairs up to 8,192, the tree above. */
static struct gc_sizing_costs costs(double slower)
{
    struct gc_sizing_costs c;
    c.pair_s = slower * 1.35e-10;
    c.tree_s = slower * 4.7e-8;
    c.tree_above = 8192;
    return c;
}

static void check_choice(const struct gc_sizing_costs *c, struct gc_sizing *z, const char *what)
{
    gc_sizing_choose(c, z);
    printf("%-28s %7zu bodies, %u step%s a frame, a step %.2f ms\n", what, z->n, z->steps,
           z->steps == 1 ? "" : "s", 1e3 * z->step_s);
    CHECK(z->n >= GC_SIZING_MIN_N && z->n <= GC_SIZING_MAX_N);
    CHECK(z->n % GC_SIZING_ROUND == 0);
    CHECK(z->steps == 1 || z->steps == 2);
    /* The steps fit the frame's share (unless the floor forced more bodies), and one more
     * round of bodies would not have. */
    if (z->n > GC_SIZING_MIN_N)
        CHECK(z->steps * z->step_s <= BUDGET);
    if (z->n < GC_SIZING_MAX_N && z->n > GC_SIZING_MIN_N)
        CHECK(z->steps * gc_sizing_step_s(c, z->n + GC_SIZING_ROUND) > BUDGET);
}

/* Slower machines get fewer bodies, never fewer than the floor. */
static void test_choose(void)
{
    struct gc_sizing z, zs, zfloor, zcap;
    struct gc_sizing_costs c = costs(1.0), slow = costs(2.0), crawl = costs(1e6),
                           fly = costs(1e-9);
    check_choice(&c, &z, "this CPU");
    check_choice(&slow, &zs, "half as fast (--threads 1)");
    CHECK(zs.n < z.n);
    check_choice(&crawl, &zfloor, "a million times slower");
    CHECK(zfloor.n == GC_SIZING_MIN_N && zfloor.steps == 1);
    check_choice(&fly, &zcap, "a billion times faster");
    CHECK(zcap.n == GC_SIZING_MAX_N && zcap.steps == 2);
    /* Two steps a frame while they leave GC_SIZING_MIN_N bodies, else one. */
    CHECK(z.steps == 2 && zs.steps == 2);
    slow.pair_s *= 8.0;
    slow.tree_s *= 8.0;
    check_choice(&slow, &zs, "sixteen times slower");
    CHECK(zs.steps == 1 && zs.n == GC_SIZING_MIN_N);
    /* Above tree_above the tree's cost counts: all pairs alone would allow fewer bodies (on
     * a machine fast enough for the choice to be above tree_above). */
    c = costs(0.25);
    check_choice(&c, &z, "four times faster");
    CHECK(z.n > c.tree_above);
    c.tree_above = SIZE_MAX;
    check_choice(&c, &zs, "four times faster, all pairs only");
    CHECK(zs.n < z.n);
}

/* Measured here, with one thread and with all: sane costs and choices. Which of the two
 * gets more bodies is not checked: on a busy machine the second core may be someone
 * else's, and the choice from costs is what test_choose checks. */
static void test_measured(void)
{
    struct gc_options o;
    gc_cli_defaults(&o);
    o.params.integrator = "leapfrog";
    o.params.eps = 0.025f;
    for (int k = 0; k < 2; k++) {
        struct gc_backend_options bo = {0};
        struct gc_backend *be = NULL;
        struct gc_sizing_costs best = {INFINITY, INFINITY, 0}, c;
        struct gc_sizing z;
        bo.quiet = 1;
        bo.threads = k == 0 ? 1 : 0;
        CHECK(gc_backend_create("cpu", &bo, &be) == GC_OK);
        for (int r = 0; r < 3 && be; r++) {
            CHECK(gc_sizing_measure(&o, be, &c) == GC_OK);
            CHECK(c.pair_s > 0.0 && c.tree_s > 0.0 && c.tree_above == 8192);
            best.pair_s = fmin(best.pair_s, c.pair_s);
            best.tree_s = fmin(best.tree_s, c.tree_s);
            best.tree_above = c.tree_above;
        }
        check_choice(&best, &z, k == 0 ? "measured, 1 thread" : "measured, all threads");
        gc_backend_destroy(be);
    }
}

/* Which runs are sized: the window only, without -n, galaxies, the leapfrog, no GPU asked. */
static void test_wanted(void)
{
    struct gc_options o;
    gc_cli_defaults(&o);
    o.mode = GC_MODE_VIEWER;
    o.params.integrator = "leapfrog";
    CHECK(gc_sizing_wanted(&o));
    o.n = 4096;
    CHECK(!gc_sizing_wanted(&o));
    o.n = 0;
    o.backend = "cuda";
    CHECK(!gc_sizing_wanted(&o));
    o.backend = "cpu";
    CHECK(gc_sizing_wanted(&o));
    o.mode = GC_MODE_HEADLESS;
    CHECK(!gc_sizing_wanted(&o));
    o.mode = GC_MODE_VIEWER;
    o.data = "table.txt";
    CHECK(!gc_sizing_wanted(&o));
    o.data = NULL;
    o.params.integrator = "hermite4";
    CHECK(!gc_sizing_wanted(&o));
}

int main(void)
{
    test_choose();
    test_measured();
    test_wanted();
    return CHECK_DONE();
}
