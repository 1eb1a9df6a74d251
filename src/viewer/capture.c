/* Movie frames read back through a ring of pixel buffer objects and handed to the recorder. */
/* SPDX-License-Identifier: MIT */
#include "capture.h"

#include <GL/glew.h>
#include <math.h>
#include <string.h>

#include "log.h"

enum gc_status gc_capture_start(struct gc_capture *c, const struct gc_record_params *p)
{
    enum gc_status st;
    memset(c, 0, sizeof *c);
    st = gc_record_open(p, &c->rec);
    if (st != GC_OK)
        return st;
    c->t0 = -1.0;
    c->fps = p->fps;
    glGenBuffers(GC_CAPTURE_RING, c->pbo);
    return GC_OK;
}

/* Maps the oldest queued read and gives its pixels to the recorder. */
static enum gc_status hand_over(struct gc_capture *c)
{
    unsigned k = c->head;
    size_t bytes = (size_t)c->w[k] * (size_t)c->h[k] * 4;
    const uint8_t *px;
    enum gc_status st;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, c->pbo[k]);
    px = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)bytes, GL_MAP_READ_BIT);
    if (!px) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        gc_log_error("recording: cannot map a %dx%d frame read back from the GPU", c->w[k],
                     c->h[k]);
        return GC_ERR_GL;
    }
    st = gc_record_frame_at(c->rec, px, c->w[k], c->h[k], 1, c->pts[k]);
    glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    c->head = (c->head + 1) % GC_CAPTURE_RING;
    c->count--;
    return st;
}

/* Queues the read of a frame shown at movie frame pts. */
static enum gc_status capture(struct gc_capture *c, int w, int h, long long pts)
{
    size_t bytes = (size_t)w * (size_t)h * 4;
    unsigned k;
    if (!c->rec)
        return GC_OK;
    if (c->count == GC_CAPTURE_RING) {
        enum gc_status st = hand_over(c);
        if (st != GC_OK)
            return st;
    }
    if (bytes > c->cap) {
        /* A larger frame (full screen): hand over what is queued, then grow every buffer. */
        while (c->count > 0) {
            enum gc_status st = hand_over(c);
            if (st != GC_OK)
                return st;
        }
        for (int i = 0; i < GC_CAPTURE_RING; i++) {
            glBindBuffer(GL_PIXEL_PACK_BUFFER, c->pbo[i]);
            glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)bytes, NULL, GL_STREAM_READ);
        }
        c->cap = bytes;
    }
    k = (c->head + c->count) % GC_CAPTURE_RING;
    glBindBuffer(GL_PIXEL_PACK_BUFFER, c->pbo[k]);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, (void *)0);
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("recording: reading back a %dx%d frame failed", w, h);
        return GC_ERR_GL;
    }
    c->w[k] = w;
    c->h[k] = h;
    c->pts[k] = pts;
    c->next_pts = pts + 1;
    c->count++;
    c->frames++;
    /* Hand over the read of RING-1 frames ago now: its frame is finished. */
    if (c->count == GC_CAPTURE_RING)
        return hand_over(c);
    return GC_OK;
}

enum gc_status gc_capture_frame(struct gc_capture *c, int w, int h)
{
    return capture(c, w, h, c->next_pts);
}

enum gc_status gc_capture_frame_timed(struct gc_capture *c, int w, int h, double now_s)
{
    long long pts;
    if (!c->rec)
        return GC_OK;
    if (c->t0 < 0.0)
        c->t0 = now_s;
    pts = llround((now_s - c->t0) * (double)c->fps);
    return pts < c->next_pts ? GC_OK : capture(c, w, h, pts);
}

enum gc_status gc_capture_stop(struct gc_capture *c, struct gc_record_stats *stats)
{
    enum gc_status st = GC_OK;
    if (!c->rec)
        return GC_OK;
    while (c->count > 0 && st == GC_OK)
        st = hand_over(c);
    {
        enum gc_status st2 = gc_record_close(c->rec, stats);
        if (st == GC_OK)
            st = st2;
    }
    glDeleteBuffers(GC_CAPTURE_RING, c->pbo);
    memset(c, 0, sizeof *c);
    return st;
}
