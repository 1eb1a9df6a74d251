/* Frames to the movie recorder: asynchronous readback through a ring of pixel buffer objects. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CAPTURE_H
#define GC_CAPTURE_H

#include <stddef.h>

#include "record.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads in flight: frame k is read into a buffer and handed to the recorder GC_CAPTURE_RING-1
 * frames later, when the GPU has long finished it (the frame pacer keeps at most two frames
 * in flight), so mapping it does not stall the frame loop. */
#define GC_CAPTURE_RING 3

struct gc_capture {
    struct gc_recorder *rec;        /* owned while recording; NULL = not recording */
    unsigned pbo[GC_CAPTURE_RING];  /* GL pixel buffers, owned */
    int w[GC_CAPTURE_RING], h[GC_CAPTURE_RING]; /* size of the read queued in each */
    size_t cap;                     /* bytes each buffer holds */
    unsigned head, count;           /* oldest queued read, reads queued */
    unsigned long long frames;      /* frames queued since the start */
    long long pts[GC_CAPTURE_RING]; /* when each queued read shows in the movie, frames */
    long long next_pts;             /* the next frame's, when not stamped by a clock */
    double t0;                      /* clock time of the first stamped frame, s; < 0 = none */
    unsigned fps;                   /* the movie's frame rate */
};

/* Starts recording into a new movie (gc_record_open with these params). */
enum gc_status gc_capture_start(struct gc_capture *c, const struct gc_record_params *p);
/* Queues a read of the w x h pixels of the current read framebuffer and hands the read of
 * GC_CAPTURE_RING-1 frames ago to the recorder: frame k of the movie (--headless). */
enum gc_status gc_capture_frame(struct gc_capture *c, int w, int h);
/* The same, the frame shown at clock time now_s (s) of the recording (the window): the movie
 * keeps the pace its viewer saw, whatever the frame rate. A frame that would show within the
 * same movie frame as the one before is not read. */
enum gc_status gc_capture_frame_timed(struct gc_capture *c, int w, int h, double now_s);
/* Hands every queued read to the recorder (waits for the GPU), finishes the movie and frees
 * the buffers. stats may be NULL. Safe when not recording. */
enum gc_status gc_capture_stop(struct gc_capture *c, struct gc_record_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
