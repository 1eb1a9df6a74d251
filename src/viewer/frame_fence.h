/* The frame pacer's fences in the viewer: GL's, or the backend's in frames where GL had no work. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_FRAME_FENCE_H
#define GC_FRAME_FENCE_H

#include "backend.h"
#include "pacer.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_frame_fence {
    void *handle;   /* GLsync or the backend's fence; NULL = slot free */
    int on_backend;
};

struct gc_frame_fences {
    struct gc_backend *backend; /* not owned */
    int gl_work;                /* set by the viewer each frame: 0 when GL queued nothing */
    struct gc_frame_fence slot[GC_PACER_MAX_DEPTH + 1];
};

/* gl_work starts at 1 (GL fences). Needs a current GL 3.2+ context when fences are made. */
void gc_frame_fences_init(struct gc_frame_fences *f, struct gc_backend *backend);
/* Pacer operations over f: a fence on the backend (when it has frame_fence) for a frame
 * with gl_work == 0, else a GL sync object. */
struct gc_pacer_ops gc_frame_fence_ops(struct gc_frame_fences *f);

#ifdef __cplusplus
}
#endif
#endif
