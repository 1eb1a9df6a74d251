/* Movie recording: RGBA frames in, an H.264 file out, encoded on a thread of its own (no GL here). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_RECORD_H
#define GC_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_recorder;

struct gc_record_params {
    const char *path;  /* output file; the container follows the extension (.mp4, .mkv, .mov) */
    int width, height; /* movie size in pixels; odd values are rounded down (H.264 4:2:0) */
    unsigned fps;      /* frames per second of the movie; frame k is shown at k / fps */
    int realtime;      /* 1 = drop a frame when the encoder is behind (the window must not
                          stall); 0 = wait, so every frame given is in the movie (--headless) */
    int crf;           /* x264 constant rate factor (quality, lower is better); 0 = 18 */
};

struct gc_record_stats {
    uint64_t frames;   /* frames written to the movie */
    uint64_t dropped;  /* frames given but not written (realtime only) */
    double seconds;    /* movie length: its last frame's time plus one frame, s */
};

/* 1 when this build can record (FFmpeg's libraries were found at build time). */
int gc_record_available(void);
/* Opens the file and starts the encoder thread. GC_ERR_UNSUPPORTED (logged, saying how to
 * get FFmpeg's libraries) in a build without them, and (logged, with the colour it got) when
 * this FFmpeg converts a test pattern of known colours to YUV wrongly; GC_ERR_IO when the
 * file cannot be made. */
enum gc_status gc_record_open(const struct gc_record_params *p, struct gc_recorder **out);
/* Queues one frame of w x h RGBA pixels (bottom row first when bottom_up = 1, as glReadPixels
 * gives them); the pixels are copied, so the caller may reuse its buffer at once. Frames of
 * another size are scaled to the movie's. Returns an error the encoder thread met earlier. */
enum gc_status gc_record_frame(struct gc_recorder *r, const uint8_t *rgba, int w, int h,
                               int bottom_up);
/* The same frame shown from time pts / fps of the movie on (it lasts until the next one's),
 * for a movie that keeps the pace of a clock (the window's); pts must grow from frame to
 * frame (GC_ERR_INVALID otherwise). gc_record_frame gives each frame the next pts. */
enum gc_status gc_record_frame_at(struct gc_recorder *r, const uint8_t *rgba, int w, int h,
                                  int bottom_up, int64_t pts);
/* Encodes what is queued, finishes the file and frees r (also after an error). stats may be
 * NULL. */
enum gc_status gc_record_close(struct gc_recorder *r, struct gc_record_stats *stats);

#ifdef __cplusplus
}
#endif
#endif
