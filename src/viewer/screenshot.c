/* PNG screenshots through libpng, written where outfile.h says (a .part renamed into place, or a device). */
/* SPDX-License-Identifier: MIT */
#include "screenshot.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"
#include "outfile.h"

/* libpng reports errors by longjmp; keep everything the handler must free outside the
 * setjmp frame's locals (volatile) so it is still valid after the jump. */
/* libpng's own handler prints its message too; the caller reports the failure once, with
 * the system's reason. */
static void png_failed(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void png_quiet(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

static enum gc_status write_rows(FILE *f, int w, int h, const uint8_t *rgba, int bottom_up)
{
    png_structp png =
        png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_failed, png_quiet);
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
    struct gc_outfile out;
    FILE *f;
    enum gc_status st;
    if (w <= 0 || h <= 0 || !rgba)
        return GC_ERR_INVALID;
    /* Whole or not at all under its name; a device or pipe written as it is (outfile.h). */
    st = gc_outfile_begin(&out, path);
    f = st == GC_OK ? gc_outfile_open_file(&out, &st) : NULL;
    if (!f)
        return st;
    errno = 0;
    st = write_rows(f, w, h, rgba, bottom_up);
    if (st != GC_OK)
        gc_log_error("%s: writing the screenshot failed: %s", path,
                     st == GC_ERR_IO ? strerror(errno ? errno : EIO) : gc_status_str(st));
    return gc_outfile_end_file(&out, f, st == GC_OK) != GC_OK && st == GC_OK ? GC_ERR_IO : st;
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
