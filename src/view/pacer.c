/* Frame pacing: bounds the frames queued ahead of the GPU with one fence per frame (no GL here). */
/* SPDX-License-Identifier: MIT */
#include "pacer.h"

#include <string.h>

#include "clock.h"
#include "log.h"

/* A frame still running after this long is reported once (then waited for): even a 1M-body
 * all-pairs step on a GPU is far shorter, so only a hang or a huge N gets here. */
#define SLOW_FRAME_S 30.0

void gc_pacer_init(struct gc_pacer *p, const struct gc_pacer_ops *ops, unsigned depth)
{
    memset(p, 0, sizeof *p);
    p->ops = *ops;
    if (depth == 0)
        depth = GC_PACER_DEFAULT_DEPTH;
    p->depth = depth > GC_PACER_MAX_DEPTH ? GC_PACER_MAX_DEPTH : depth;
}

/* Waits for the oldest frame in flight and forgets its fence. */
static enum gc_status retire_oldest(struct gc_pacer *p)
{
    void *f = p->ring[p->head];
    double t0 = gc_clock_seconds();
    int r;
    while ((r = p->ops.wait(p->ops.ud, f, SLOW_FRAME_S)) == 0) {
        if (!p->warned) {
            gc_log_warn("frame %llu has been running on the GPU for %.0f s; still waiting",
                        (unsigned long long)p->retired + 1, gc_clock_seconds() - t0);
            p->warned = 1;
        }
    }
    p->wait_s += gc_clock_seconds() - t0;
    p->ops.release(p->ops.ud, f);
    p->ring[p->head] = NULL;
    p->head = (p->head + 1) % GC_PACER_MAX_DEPTH;
    p->count--;
    p->retired++;
    if (r < 0) {
        gc_log_error("waiting for frame %llu on the GPU failed",
                     (unsigned long long)p->retired);
        return GC_ERR_GL;
    }
    return GC_OK;
}

enum gc_status gc_pacer_begin_frame(struct gc_pacer *p)
{
    while (p->count >= p->depth) {
        enum gc_status st = retire_oldest(p);
        if (st != GC_OK)
            return st;
    }
    return GC_OK;
}

enum gc_status gc_pacer_end_frame(struct gc_pacer *p)
{
    void *f;
    if (p->count >= GC_PACER_MAX_DEPTH) {
        /* end without begin: keep the ring bounded all the same */
        enum gc_status st = retire_oldest(p);
        if (st != GC_OK)
            return st;
    }
    f = p->ops.fence(p->ops.ud);
    if (!f) {
        gc_log_error("cannot put a fence behind frame %llu",
                     (unsigned long long)p->submitted + 1);
        return GC_ERR_GL;
    }
    p->ring[(p->head + p->count) % GC_PACER_MAX_DEPTH] = f;
    p->count++;
    p->submitted++;
    if (p->count > p->max_in_flight)
        p->max_in_flight = p->count;
    return GC_OK;
}

enum gc_status gc_pacer_drain(struct gc_pacer *p)
{
    while (p->count > 0) {
        enum gc_status st = retire_oldest(p);
        if (st != GC_OK)
            return st;
    }
    return GC_OK;
}

void gc_pacer_free(struct gc_pacer *p)
{
    while (p->count > 0) {
        p->ops.release(p->ops.ud, p->ring[p->head]);
        p->ring[p->head] = NULL;
        p->head = (p->head + 1) % GC_PACER_MAX_DEPTH;
        p->count--;
    }
}
