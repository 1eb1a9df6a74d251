/* The frame pacer's fences in the viewer: a GL sync object, or the backend's own fence when GL had no work in the frame. */
/* SPDX-License-Identifier: MIT */
/* GL and CUDA run in separate contexts that the GPU time-slices: a GL fence in a frame where
 * only CUDA worked still makes the GPU switch to GL's context to signal it, and each switch
 * in the middle of a force pass lengthens that pass (docs/perf-log/viewer-frame-pipeline.md). */
#include <GL/glew.h>

#include "frame_fence.h"

#include <string.h>

#include "backend_picture.h"

void gc_frame_fences_init(struct gc_frame_fences *f, struct gc_backend *backend)
{
    memset(f, 0, sizeof *f);
    f->backend = backend;
    f->gl_work = 1;
}

static void *fence(void *ud)
{
    struct gc_frame_fences *f = ud;
    for (int k = 0; k < GC_PACER_MAX_DEPTH + 1; k++) {
        struct gc_frame_fence *s = &f->slot[k];
        if (s->handle)
            continue;
        s->on_backend = !f->gl_work && gc_backend_picture_has_fence(f->backend);
        s->handle = s->on_backend ? gc_backend_picture_fence(f->backend)
                                  : (void *)glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
        return s->handle ? s : NULL;
    }
    return NULL;
}

static int wait(void *ud, void *fence, double timeout_s)
{
    struct gc_frame_fences *f = ud;
    struct gc_frame_fence *s = fence;
    GLenum r;
    if (s->on_backend)
        return gc_backend_picture_wait(f->backend, s->handle, timeout_s);
    /* FLUSH: the fence must reach the GPU or the wait could never end. */
    r = glClientWaitSync((GLsync)s->handle, GL_SYNC_FLUSH_COMMANDS_BIT,
                         (GLuint64)(timeout_s * 1e9));
    if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED)
        return 1;
    return r == GL_TIMEOUT_EXPIRED ? 0 : -1;
}

static void release(void *ud, void *fence)
{
    struct gc_frame_fences *f = ud;
    struct gc_frame_fence *s = fence;
    if (s->on_backend)
        gc_backend_picture_fence_release(f->backend, s->handle);
    else
        glDeleteSync((GLsync)s->handle);
    s->handle = NULL;
}

struct gc_pacer_ops gc_frame_fence_ops(struct gc_frame_fences *f)
{
    struct gc_pacer_ops ops = {fence, wait, release, f};
    return ops;
}
