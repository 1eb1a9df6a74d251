/* Frame pacing: at most `depth` frames queued on the GPU, each ended by a fence (GL-free core, fences through ops). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_PACER_H
#define GC_PACER_H

#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GC_PACER_MAX_DEPTH 8
#define GC_PACER_DEFAULT_DEPTH 2

/* How fences are made and awaited: GL sync objects or the backend's in the viewer (frame_fence.h), plain
 * counters in the tests. */
struct gc_pacer_ops {
    void *(*fence)(void *ud);            /* a fence after everything queued so far; NULL = failed */
    /* Waits until the fence has passed, at most timeout_s seconds: 1 passed, 0 timed out,
     * -1 failed. */
    int (*wait)(void *ud, void *fence, double timeout_s);
    void (*release)(void *ud, void *fence);
    void *ud;
};

struct gc_pacer {
    struct gc_pacer_ops ops;
    void *ring[GC_PACER_MAX_DEPTH];  /* fences of the frames in flight, oldest at `head` */
    unsigned depth;                  /* most frames in flight; default GC_PACER_DEFAULT_DEPTH */
    unsigned head, count;            /* ring position of the oldest, frames in flight now */
    unsigned max_in_flight;          /* most frames that were in flight at once */
    uint64_t submitted, retired;     /* frames ended / frames known finished */
    double wait_s;                   /* host time spent waiting for the GPU, seconds */
    int warned;                      /* a slow frame was reported (once) */
};

/* depth in [1, GC_PACER_MAX_DEPTH]; 0 = the default. */
void gc_pacer_init(struct gc_pacer *p, const struct gc_pacer_ops *ops, unsigned depth);
/* Call before queueing a frame's GPU work (simulation steps included): waits until fewer
 * than `depth` frames are in flight, so the host can never queue more than `depth` frames
 * ahead of the GPU. A frame that has not finished after 30 s is reported once and waited
 * for (a huge N takes that long per step); GC_ERR_GL when a wait fails. */
enum gc_status gc_pacer_begin_frame(struct gc_pacer *p);
/* Call after the frame's last GPU command: puts a fence behind it. */
enum gc_status gc_pacer_end_frame(struct gc_pacer *p);
/* Waits for every frame in flight (before reading results, or at the end). */
enum gc_status gc_pacer_drain(struct gc_pacer *p);
/* Releases the fences still held, without waiting. */
void gc_pacer_free(struct gc_pacer *p);

#ifdef __cplusplus
}
#endif
#endif
