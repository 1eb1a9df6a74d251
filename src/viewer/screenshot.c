/* PNG screenshots through libpng, written to a temporary name and renamed into place. */
/* SPDX-License-Identifier: MIT */
#include "screenshot.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

/* libpng reports errors by longjmp; keep everything the handler must free outside the
 * setjmp frame's locals (volatile) so it is still valid after the jump. */
static enum gc_status write_rows(FILE *f, int w, int h, const uint8_t *rgba, int bottom_up)
{
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    uint8_t *volatile row = NULL;
    if (!png || !info) {
        png_destroy_write_struct(&png, &info);
        return GC_ERR_NOMEM;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(row);
        return GC_ERR_IO;
    }
    row = malloc((size_t)w * 3);
    if (!row) {
        png_destroy_write_struct(&png, &info);
        return GC_ERR_NOMEM;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) {
        const uint8_t *src = rgba + (size_t)(bottom_up ? h - 1 - y : y) * (size_t)w * 4;
        for (int x = 0; x < w; x++) {
            row[3 * x + 0] = src[4 * x + 0];
            row[3 * x + 1] = src[4 * x + 1];
            row[3 * x + 2] = src[4 * x + 2];
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(row);
    return GC_OK;
}

enum gc_status gc_screenshot_write_png(const char *path, int w, int h, const uint8_t *rgba,
                                       int bottom_up)
{
    char tmp[4096];
    FILE *f;
    enum gc_status st;
    if (w <= 0 || h <= 0 || !rgba)
        return GC_ERR_INVALID;
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int)sizeof tmp) {
        gc_log_error("screenshot path too long: %s", path);
        return GC_ERR_INVALID;
    }
    f = fopen(tmp, "wb");
    if (!f) {
        gc_log_error("cannot write screenshot %s: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    st = write_rows(f, w, h, rgba, bottom_up);
    if (fclose(f) != 0 && st == GC_OK)
        st = GC_ERR_IO;
    if (st == GC_OK && rename(tmp, path) != 0)
        st = GC_ERR_IO;
    if (st != GC_OK) {
        remove(tmp);
        gc_log_error("writing screenshot %s failed: %s", path, gc_status_str(st));
    }
    return st;
}

enum gc_status gc_screenshot_name(char *out, size_t size, const char *dir, unsigned seq,
                                  const char *ext)
{
    struct timespec ts;
    struct tm tm;
    char stamp[32];
    clock_gettime(CLOCK_REALTIME, &ts);
    localtime_r(&ts.tv_sec, &tm);
    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
    if (snprintf(out, size, "%s/galaxy-%s-%03ld-%04u.%s", dir && *dir ? dir : ".", stamp,
                 ts.tv_nsec / 1000000L, seq, ext) >= (int)size) {
        gc_log_error("screenshot folder name too long: %s", dir);
        return GC_ERR_INVALID;
    }
    return GC_OK;
}
