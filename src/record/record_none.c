/* Movie recording in a build without FFmpeg's libraries: every call says how to get them. */
/* SPDX-License-Identifier: MIT */
#include "record.h"

#include "log.h"

int gc_record_available(void)
{
    return 0;
}

enum gc_status gc_record_open(const struct gc_record_params *p, struct gc_recorder **out)
{
    *out = NULL;
    gc_log_error("cannot record %s: this build has no movie recording. Install FFmpeg's "
                 "development libraries (Debian/Ubuntu: libavcodec-dev libavformat-dev "
                 "libswscale-dev libavutil-dev, or scripts/install-deps optional) and build "
                 "again (cmake finds them with pkg-config)", p && p->path ? p->path : "a movie");
    return GC_ERR_UNSUPPORTED;
}

enum gc_status gc_record_frame(struct gc_recorder *r, const uint8_t *rgba, int w, int h,
                               int bottom_up)
{
    (void)r;
    (void)rgba;
    (void)w;
    (void)h;
    (void)bottom_up;
    return GC_ERR_UNSUPPORTED;
}

enum gc_status gc_record_frame_at(struct gc_recorder *r, const uint8_t *rgba, int w, int h,
                                  int bottom_up, int64_t pts)
{
    (void)pts;
    return gc_record_frame(r, rgba, w, h, bottom_up);
}

enum gc_status gc_record_close(struct gc_recorder *r, struct gc_record_stats *stats)
{
    (void)r;
    if (stats) {
        stats->frames = stats->dropped = 0;
        stats->seconds = 0.0;
    }
    return GC_OK;
}
