/* On-screen text in a build without FreeType: no font files; the HUD's built-in pixel font draws every text. */
/* SPDX-License-Identifier: MIT */
#include "font.h"

#include <string.h>

#include "log.h"

int gc_font_available(void)
{
    return 0;
}

enum gc_status gc_font_find(const char *given, const char *shader_dir, char *path, size_t size)
{
    (void)shader_dir;
    if (size)
        path[0] = '\0';
    if (given)
        gc_log_error("--font %s: this galaxy was built without FreeType (install libfreetype-dev "
                     "and rebuild); the built-in pixel font needs no --font", given);
    return given ? GC_ERR_UNSUPPORTED : GC_ERR_IO;
}

enum gc_status gc_font_open(const char *path, struct gc_font **out)
{
    (void)path;
    *out = NULL;
    return GC_ERR_UNSUPPORTED;
}

void gc_font_close(struct gc_font *f)
{
    (void)f;
}

int gc_font_px_for_line(const struct gc_font *f, float line_px)
{
    (void)f;
    return (int)line_px;
}

enum gc_status gc_font_rasterise(struct gc_font *f, int px, struct gc_font_atlas *a)
{
    (void)f;
    (void)px;
    memset(a, 0, sizeof *a);
    return GC_ERR_UNSUPPORTED;
}

void gc_font_atlas_free(struct gc_font_atlas *a)
{
    memset(a, 0, sizeof *a);
}
