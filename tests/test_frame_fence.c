/* The viewer's frame fences: frames in which GL queued nothing are fenced on the backend, and every fence made is released. */
/* SPDX-License-Identifier: MIT */
/* No GL context here: only frames with gl_work = 0 are run (a GL fence needs a context;
 * the viewer tests run those). A fake backend stands for the CUDA one. */
#include <stdint.h>
#include <string.h>

#include "backend_picture.h"
#include "check.h"
#include "frame_fence.h"

struct fake {
    int made, waited, released, live;
    int fail_make, fail_wait;
    uintptr_t next;
};

static void *make(struct gc_backend *b)
{
    struct fake *f = b->ctx;
    if (f->fail_make)
        return NULL;
    f->made++;
    f->live++;
    return (void *)++f->next;
}

static int wait_for(struct gc_backend *b, void *fence, double timeout_s)
{
    struct fake *f = b->ctx;
    (void)timeout_s;
    f->waited++;
    return fence && !f->fail_wait ? 1 : -1;
}

static void release(struct gc_backend *b, void *fence)
{
    struct fake *f = b->ctx;
    if (fence)
        f->released++;
    f->live--;
}

static const struct gc_backend_picture picture = {
    .fence = make,
    .wait = wait_for,
    .fence_release = release,
};

static const void *lookup(const struct gc_backend *b, int table)
{
    (void)b;
    return table == GC_TABLE_PICTURE ? &picture : NULL;
}

static const struct gc_backend_iface iface = {.name = "fake", .lookup = lookup};

static int slots_free(const struct gc_frame_fences *ff)
{
    for (int k = 0; k < GC_PACER_MAX_DEPTH + 1; k++)
        if (ff->slot[k].handle)
            return 0;
    return 1;
}

int main(void)
{
    struct fake f;
    struct gc_backend b;
    struct gc_frame_fences ff;
    struct gc_pacer p;
    struct gc_pacer_ops ops;
    memset(&f, 0, sizeof f);
    memset(&b, 0, sizeof b);
    b.iface = &iface;
    b.ctx = &f;

    gc_frame_fences_init(&ff, &b);
    CHECK(ff.gl_work == 1); /* GL fences unless the viewer says GL idled */
    ops = gc_frame_fence_ops(&ff);
    gc_pacer_init(&p, &ops, 2);

    /* 50 frames without GL work: each fenced on the backend, at most 2 in flight. */
    for (int k = 0; k < 50; k++) {
        CHECK(gc_pacer_begin_frame(&p) == GC_OK);
        ff.gl_work = 0;
        CHECK(gc_pacer_end_frame(&p) == GC_OK);
        CHECK(f.live <= 2);
    }
    CHECK(gc_pacer_drain(&p) == GC_OK);
    CHECK(f.made == 50);
    CHECK(f.waited == 50);
    CHECK(f.released == 50);
    CHECK(f.live == 0);
    CHECK(p.max_in_flight == 2);
    CHECK(slots_free(&ff));

    /* A fence the backend cannot make fails the frame and leaves no slot taken. */
    f.fail_make = 1;
    CHECK(gc_pacer_end_frame(&p) != GC_OK);
    CHECK(slots_free(&ff));
    f.fail_make = 0;

    /* A failed wait is reported, and its fence still released. */
    f.fail_wait = 1;
    CHECK(gc_pacer_end_frame(&p) == GC_OK);
    CHECK(gc_pacer_drain(&p) != GC_OK);
    CHECK(f.live == 0);
    CHECK(slots_free(&ff));
    gc_pacer_free(&p);

    if (check_failures)
        fprintf(stderr, "test_frame_fence: %d check(s) failed\n", check_failures);
    else
        printf("test_frame_fence: backend fences for GL-free frames: ok\n");
    return check_failures ? 1 : 0;
}
