/* Frame pacing without GL: fences from a simulated GPU that finishes frames slowly. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "pacer.h"

/* A pretend GPU: frame k's fence passes once `done` >= k. Each wait lets the GPU finish
 * one more frame only after `slow` timed-out waits, like a step slower than the wait's
 * timeout (a 1M-body all-pairs step on a GPU against a short wait). */
struct fake_gpu {
    uintptr_t issued;   /* fences made (fence k has the value k) */
    uintptr_t done;     /* frames finished */
    int slow;           /* timeouts before each completion */
    int timeouts_left;
    int fail_wait;      /* 1 = waits report failure */
    int live;           /* fences not yet released */
    int waits, timeouts;
};

static void *fence(void *ud)
{
    struct fake_gpu *g = ud;
    g->live++;
    return (void *)++g->issued;
}

static int wait_fence(void *ud, void *f, double timeout_s)
{
    struct fake_gpu *g = ud;
    (void)timeout_s;
    g->waits++;
    if (g->fail_wait)
        return -1;
    while (g->done < (uintptr_t)f) {
        if (g->timeouts_left > 0) {
            g->timeouts_left--;
            g->timeouts++;
            return 0;
        }
        g->done++;
        g->timeouts_left = g->slow;
    }
    return 1;
}

static void release(void *ud, void *f)
{
    struct fake_gpu *g = ud;
    (void)f;
    g->live--;
}

static void init(struct gc_pacer *p, struct fake_gpu *g, unsigned depth)
{
    struct gc_pacer_ops ops = {fence, wait_fence, release, g};
    memset(g, 0, sizeof *g);
    gc_pacer_init(p, &ops, depth);
}

/* The host queues frames as fast as it can: never more than `depth` may be in flight,
 * whatever the GPU's speed. Without a pacer, 60 frames of slow steps were all queued at
 * once, and a million bodies never finished on a GPU. */
static void test_bound(unsigned depth, int slow)
{
    struct gc_pacer p;
    struct fake_gpu g;
    init(&p, &g, depth);
    g.slow = slow;
    g.timeouts_left = slow;
    for (int f = 0; f < 60; f++) {
        CHECK(gc_pacer_begin_frame(&p) == GC_OK);
        /* the frame's GPU work would be queued here */
        CHECK_LT(p.count, (double)(depth ? depth : GC_PACER_DEFAULT_DEPTH));
        CHECK(gc_pacer_end_frame(&p) == GC_OK);
        CHECK(g.issued - g.done <= (depth ? depth : GC_PACER_DEFAULT_DEPTH));
    }
    CHECK(p.submitted == 60);
    CHECK(p.max_in_flight == (depth ? depth : GC_PACER_DEFAULT_DEPTH));
    CHECK(gc_pacer_drain(&p) == GC_OK);
    CHECK(p.count == 0 && p.retired == 60 && g.done == 60);
    CHECK(g.live == 0);
    if (slow)
        CHECK(g.timeouts > 0); /* slow frames were waited for, not given up on */
    gc_pacer_free(&p);
}

static void test_failures(void)
{
    struct gc_pacer p;
    struct fake_gpu g;
    /* A failing wait is an error, not a hang or a crash; the fence is still released. */
    init(&p, &g, 1);
    CHECK(gc_pacer_begin_frame(&p) == GC_OK);
    CHECK(gc_pacer_end_frame(&p) == GC_OK);
    g.fail_wait = 1;
    CHECK(gc_pacer_begin_frame(&p) == GC_ERR_GL);
    CHECK(g.live == 0);
    gc_pacer_free(&p);

    /* free releases fences without waiting. */
    init(&p, &g, 3);
    for (int f = 0; f < 3; f++)
        CHECK(gc_pacer_end_frame(&p) == GC_OK);
    CHECK(g.live == 3);
    gc_pacer_free(&p);
    CHECK(g.live == 0 && g.waits == 0);

    /* end_frame without begin_frame still keeps the ring bounded. */
    init(&p, &g, 2);
    for (int f = 0; f < 3 * GC_PACER_MAX_DEPTH; f++)
        CHECK(gc_pacer_end_frame(&p) == GC_OK);
    CHECK(p.count <= GC_PACER_MAX_DEPTH);
    CHECK(gc_pacer_drain(&p) == GC_OK);
    CHECK(g.live == 0);
    gc_pacer_free(&p);

    /* An out-of-range depth is clamped. */
    init(&p, &g, 1000);
    CHECK(p.depth == GC_PACER_MAX_DEPTH);
    gc_pacer_free(&p);
}

int main(void)
{
    test_bound(0, 0);
    test_bound(1, 0);
    test_bound(2, 3);
    test_bound(GC_PACER_MAX_DEPTH, 1);
    test_failures();
    return CHECK_DONE();
}
