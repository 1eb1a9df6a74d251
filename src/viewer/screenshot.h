/* PNG screenshots (libpng): file naming and writing an RGBA frame as an RGB image. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SCREENSHOT_H
#define GC_SCREENSHOT_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes w x h RGBA pixels (alpha dropped) to path as an 8-bit RGB PNG. bottom_up = 1 when
 * the first row is the bottom of the image (glReadPixels order). The file appears
 * atomically: it is written under a temporary name and renamed, so a script polling for it
 * never reads half a file. GC_ERR_IO names the path on failure. */
enum gc_status gc_screenshot_write_png(const char *path, int w, int h, const uint8_t *rgba,
                                       int bottom_up);
/* "dir/galaxy-YYYYMMDD-HHMMSS-mmm-NNNN.<ext>" from the local time and a sequence number
 * (so two shots in one millisecond still differ); ext "png" for screenshots, "mp4" for
 * movies. GC_ERR_INVALID when it does not fit. */
enum gc_status gc_screenshot_name(char *out, size_t size, const char *dir, unsigned seq,
                                  const char *ext);

#ifdef __cplusplus
}
#endif
#endif
