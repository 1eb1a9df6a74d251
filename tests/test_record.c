/* Movie recorder without GL: frames in, a file out, frame count and failure paths. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "record.h"

static const char *tmpdir(void)
{
    const char *t = getenv("GC_TEST_TMP");
    return t && *t ? t : "/tmp";
}

static long file_size(const char *path)
{
    struct stat s;
    return stat(path, &s) == 0 ? (long)s.st_size : -1;
}

/* A moving gradient, so the encoder has something to encode. */
static void fill(uint8_t *px, int w, int h, int frame)
{
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = &px[4 * (y * w + x)];
            p[0] = (uint8_t)(x * 4 + frame);
            p[1] = (uint8_t)(y * 4);
            p[2] = (uint8_t)(frame * 8);
            p[3] = 255;
        }
}

static void test_movie(int realtime)
{
    char path[4096];
    struct gc_record_params p;
    struct gc_recorder *r = NULL;
    struct gc_record_stats s;
    enum { W = 96, H = 64, FRAMES = 45 };
    uint8_t *px = malloc(W * H * 4), *big = malloc(2 * W * 2 * H * 4);
    CHECK(px && big);
    if (!px || !big)
        goto done;
    snprintf(path, sizeof path, "%s/test_record_%d.mp4", tmpdir(), realtime);
    remove(path);
    memset(&p, 0, sizeof p);
    p.path = path;
    p.width = W + 1; /* odd: rounded down for 4:2:0 */
    p.height = H;
    p.fps = 30;
    p.realtime = realtime;
    CHECK(gc_record_open(&p, &r) == GC_OK);
    if (!r)
        goto done;
    for (int f = 0; f < FRAMES; f++) {
        /* every tenth frame arrives at twice the size (a window made full screen): scaled */
        if (f % 10 == 9) {
            fill(big, 2 * W, 2 * H, f);
            CHECK(gc_record_frame(r, big, 2 * W, 2 * H, f & 1) == GC_OK);
        } else {
            fill(px, W, H, f);
            CHECK(gc_record_frame(r, px, W, H, f & 1) == GC_OK);
        }
    }
    CHECK(gc_record_frame(r, px, 0, H, 1) == GC_ERR_INVALID);
    CHECK(gc_record_close(r, &s) == GC_OK);
    /* Headless waits for the encoder, so every frame is in the movie; the window may drop
     * some when the encoder falls behind, but never loses count. */
    if (realtime)
        CHECK(s.frames + s.dropped == FRAMES);
    else
        CHECK(s.frames == FRAMES && s.dropped == 0);
    /* As long as its frames' times: the last one written ends it (a frame dropped before it
     * leaves the one before it on screen longer). */
    if (realtime)
        CHECK(s.seconds >= (double)s.frames / 30.0 - 1e-9 && s.seconds <= FRAMES / 30.0 + 1e-9);
    else
        CHECK_NEAR(s.seconds, (double)FRAMES / 30.0, 1e-9);
    CHECK(file_size(path) > 1000);
done:
    free(px);
    free(big);
}

/* Frames stamped by a clock (the window's): a frame every third movie frame lasts three;
 * the movie is as long as the clock ran, not as long as its frames count; a stamp that does
 * not grow is refused. */
static void test_stamped(void)
{
    char path[4096];
    struct gc_record_params p;
    struct gc_recorder *r = NULL;
    struct gc_record_stats s;
    enum { W = 64, H = 64 };
    uint8_t *px = malloc(W * H * 4);
    CHECK(px != NULL);
    if (!px)
        return;
    snprintf(path, sizeof path, "%s/test_record_stamped.mp4", tmpdir());
    memset(&p, 0, sizeof p);
    p.path = path;
    p.width = W;
    p.height = H;
    p.fps = 30;
    CHECK(gc_record_open(&p, &r) == GC_OK);
    if (r) {
        for (int f = 0; f < 10; f++) {
            fill(px, W, H, f);
            CHECK(gc_record_frame_at(r, px, W, H, 1, 3 * f) == GC_OK);
        }
        CHECK(gc_record_frame_at(r, px, W, H, 1, 27) == GC_ERR_INVALID);
        CHECK(gc_record_close(r, &s) == GC_OK);
        CHECK(s.frames == 10);
        CHECK_NEAR(s.seconds, 28.0 / 30.0, 1e-9);
        CHECK(file_size(path) > 500);
    }
    free(px);
}

static void test_failures(void)
{
    char path[4096];
    struct gc_record_params p;
    struct gc_recorder *r = (struct gc_recorder *)&p; /* must be reset to NULL on failure */
    memset(&p, 0, sizeof p);
    p.width = 64;
    p.height = 64;
    p.fps = 60;
    /* no file name */
    CHECK(gc_record_open(&p, &r) == GC_ERR_INVALID && r == NULL);
    /* a folder that does not exist */
    snprintf(path, sizeof path, "%s/no-such-folder/x.mp4", tmpdir());
    p.path = path;
    CHECK(gc_record_open(&p, &r) == GC_ERR_IO && r == NULL);
    /* a file name no container goes with */
    snprintf(path, sizeof path, "%s/movie.not-a-container", tmpdir());
    CHECK(gc_record_open(&p, &r) == GC_ERR_INVALID && r == NULL);
    /* too small, no frame rate */
    snprintf(path, sizeof path, "%s/x.mp4", tmpdir());
    p.width = 1;
    CHECK(gc_record_open(&p, &r) == GC_ERR_INVALID);
    p.width = 64;
    p.fps = 0;
    CHECK(gc_record_open(&p, &r) == GC_ERR_INVALID);
    /* closing nothing is fine */
    CHECK(gc_record_close(NULL, NULL) == GC_OK);
}

int main(void)
{
    if (!gc_record_available()) {
        struct gc_record_params p = {"x.mp4", 64, 64, 60, 0, 0};
        struct gc_recorder *r = NULL;
        /* A build without FFmpeg says so (and how to get it) instead of failing later. */
        CHECK(gc_record_open(&p, &r) == GC_ERR_UNSUPPORTED && r == NULL);
        printf("SKIP: built without FFmpeg's libraries\n");
        return check_failures ? 1 : CHECK_SKIP;
    }
    test_movie(0);
    test_movie(1);
    test_stamped();
    test_failures();
    return CHECK_DONE();
}
