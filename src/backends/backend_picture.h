/* The picture table of a backend: what the viewer needs beyond the compute table (the picture drawn on the backend itself, GL buffers it holds, frame fences), reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_PICTURE_H
#define GC_BACKEND_PICTURE_H

#include "backend.h"
#include "picture_job.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Only the viewer calls these, with its GL context current. Slots are optional: NULL means
 * what each says. */
struct gc_backend_picture {
    /* Draws the state of the latest export_positions (made with device_picture) as the
     * picture `job` describes, into its GL object, and meters it. GC_ERR_UNSUPPORTED when it
     * cannot here (no interop): the viewer then draws with GL. NULL = never. */
    enum gc_status (*draw)(struct gc_backend *b, struct gc_picture_job *job);
    /* Gives GL back the object a picture drawn with keep_mapped still holds; the viewer
     * calls it before GL reads or draws over the picture. NULL = never kept. */
    enum gc_status (*release)(struct gc_backend *b);
    /* Forgets every GL object the backend registered (export_positions' buffers, the
     * picture's target); the viewer calls it before deleting them. NULL = never registers. */
    enum gc_status (*detach)(struct gc_backend *b);
    /* A fence behind the work queued last, for frame pacing when GL has no work in a frame
     * (a GL fence would make the GPU switch to GL's context just to signal it); NULL =
     * failed. wait: 1 passed, 0 not within timeout_s, -1 failed. All three or none. */
    void *(*fence)(struct gc_backend *b);
    int (*wait)(struct gc_backend *b, void *fence, double timeout_s);
    void (*fence_release)(struct gc_backend *b, void *fence);
};

/* The backend's picture table; NULL when it has none (the viewer then does all in GL). */
const struct gc_backend_picture *gc_backend_picture(const struct gc_backend *b);

/* NULL-safe wrappers. */
int gc_backend_picture_can_draw(const struct gc_backend *b);
/* GC_ERR_UNSUPPORTED when the backend cannot draw pictures. */
enum gc_status gc_backend_picture_draw(struct gc_backend *b, struct gc_picture_job *job);
/* GC_OK when there is nothing to give back or forget. */
enum gc_status gc_backend_picture_release(struct gc_backend *b);
enum gc_status gc_backend_picture_detach(struct gc_backend *b);
/* 1 when the backend has frame fences. */
int gc_backend_picture_has_fence(const struct gc_backend *b);
void *gc_backend_picture_fence(struct gc_backend *b);
int gc_backend_picture_wait(struct gc_backend *b, void *fence, double timeout_s);
void gc_backend_picture_fence_release(struct gc_backend *b, void *fence);

#ifdef __cplusplus
}
#endif
#endif
