/* The picture table's lookup and its NULL-checking wrappers. */
/* SPDX-License-Identifier: MIT */
#include "backend_picture.h"

const struct gc_backend_picture *gc_backend_picture(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_PICTURE);
}

int gc_backend_picture_can_draw(const struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->draw;
}

enum gc_status gc_backend_picture_draw(struct gc_backend *b, struct gc_picture_job *job)
{
    return gc_backend_picture_can_draw(b) ? gc_backend_picture(b)->draw(b, job)
                                          : GC_ERR_UNSUPPORTED;
}

enum gc_status gc_backend_picture_release(struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->release ? p->release(b) : GC_OK;
}

enum gc_status gc_backend_picture_detach(struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->detach ? p->detach(b) : GC_OK;
}

int gc_backend_picture_has_fence(const struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->fence && p->wait && p->fence_release;
}

void *gc_backend_picture_fence(struct gc_backend *b)
{
    return gc_backend_picture_has_fence(b) ? gc_backend_picture(b)->fence(b) : NULL;
}

int gc_backend_picture_wait(struct gc_backend *b, void *fence, double timeout_s)
{
    return gc_backend_picture_has_fence(b) ? gc_backend_picture(b)->wait(b, fence, timeout_s)
                                           : -1;
}

void gc_backend_picture_fence_release(struct gc_backend *b, void *fence)
{
    if (gc_backend_picture_has_fence(b))
        gc_backend_picture(b)->fence_release(b, fence);
}
