/* FreeType's side of on-screen text: finding the font file, opening it, rasterising a glyph atlas per pixel size. */
/* SPDX-License-Identifier: MIT */
#include "font.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H

#include "log.h"

struct gc_font {
    FT_Library lib;
    FT_Face face;
};

int gc_font_available(void)
{
    return 1;
}

static int readable(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

/* Where distributions put DejaVu Sans: Debian and Ubuntu (fonts-dejavu-core), Fedora, Arch. */
static const char *const system_fonts[] = {
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
};

enum gc_status gc_font_find(const char *given, const char *shader_dir, char *path, size_t size)
{
    if (given) {
        if (readable(given) && strlen(given) < size) {
            snprintf(path, size, "%s", given);
            return GC_OK;
        }
        gc_log_error("--font %s: cannot open the file", given);
        return GC_ERR_IO;
    }
    if (shader_dir && snprintf(path, size, "%s/../fonts/DejaVuSans.ttf", shader_dir) < (int)size &&
        readable(path))
        return GC_OK;
    for (size_t k = 0; k < sizeof system_fonts / sizeof system_fonts[0]; k++)
        if (readable(system_fonts[k]) && strlen(system_fonts[k]) < size) {
            snprintf(path, size, "%s", system_fonts[k]);
            return GC_OK;
        }
    return GC_ERR_IO;
}

enum gc_status gc_font_open(const char *path, struct gc_font **out)
{
    struct gc_font *f = calloc(1, sizeof *f);
    FT_Error err;
    *out = NULL;
    if (!f)
        return GC_ERR_NOMEM;
    err = FT_Init_FreeType(&f->lib);
    if (err) {
        gc_log_error("FreeType: cannot start (error %d)", err);
        free(f);
        return GC_ERR_UNSUPPORTED;
    }
    err = FT_New_Face(f->lib, path, 0, &f->face);
    if (err == 0 && !FT_IS_SCALABLE(f->face)) {
        FT_Done_Face(f->face);
        err = FT_Err_Invalid_File_Format;
    }
    if (err) {
        gc_log_error("%s: not a scalable font FreeType can read (error %d)", path, err);
        FT_Done_FreeType(f->lib);
        free(f);
        return GC_ERR_PARSE;
    }
    *out = f;
    return GC_OK;
}

void gc_font_close(struct gc_font *f)
{
    if (!f)
        return;
    FT_Done_Face(f->face);
    FT_Done_FreeType(f->lib);
    free(f);
}

int gc_font_px_for_line(const struct gc_font *f, float line_px)
{
    /* face->height: the font's own baseline-to-baseline distance, in font units. */
    double per_em = (double)f->face->height / (double)f->face->units_per_EM;
    double px = floor((double)line_px / (per_em > 0.5 ? per_em : 1.2));
    return (int)fmin(GC_FONT_MAX_PX, fmax(GC_FONT_MIN_PX, px));
}

/* The code point of atlas slot k (the inverse of gc_font_slot). */
static unsigned long slot_code(int k)
{
    static const uint32_t punct[] = GC_FONT_PUNCTUATION;
    return k < 95 ? 0x20ul + (unsigned long)k
                  : k < 191 ? 0xa0ul + (unsigned long)(k - 95) : (unsigned long)punct[k - 191];
}

/* Renders slot k's glyph into the face's glyph slot; 0 when the font lacks it. */
static int render(FT_Face face, int k)
{
    FT_UInt index = FT_Get_Char_Index(face, slot_code(k));
    if (index == 0 && slot_code(k) != ' ')
        return 0;
    /* Light hinting: vertical only, so shapes and spacing stay the designer's. */
    if (FT_Load_Glyph(face, index, FT_LOAD_TARGET_LIGHT) != 0 ||
        FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL) != 0)
        return 0;
    return face->glyph->bitmap.pixel_mode == FT_PIXEL_MODE_GRAY || face->glyph->bitmap.rows == 0;
}

/* Places each glyph on shelves of an atlas `w` pixels wide (1 pixel apart, so that filtering
 * never mixes neighbours); the height used. */
static int pack(FT_Face face, struct gc_font_atlas *a, int w)
{
    int x = 6, y = 1, shelf = 5; /* the solid block takes (1,1)-(5,5) */
    for (int k = 0; k < GC_FONT_GLYPHS; k++) {
        struct gc_font_glyph *g = &a->glyph[k];
        FT_GlyphSlot s = face->glyph;
        memset(g, 0, sizeof *g);
        g->advance = -1.0f;
        if (!render(face, k))
            continue;
        g->w = (int)s->bitmap.width;
        g->h = (int)s->bitmap.rows;
        g->left = s->bitmap_left;
        g->top = s->bitmap_top;
        g->advance = (float)s->advance.x / 64.0f;
        if (g->w > w - 2) /* wider than the atlas: drawn as blank (never at sane sizes) */
            g->w = g->h = 0;
        if (g->w == 0 || g->h == 0) {
            g->w = g->h = 0;
            continue;
        }
        if (x + g->w + 1 > w) {
            x = 1;
            y += shelf + 1;
            shelf = 0;
        }
        g->x = x;
        g->y = y;
        x += g->w + 1;
        shelf = g->h > shelf ? g->h : shelf;
    }
    return y + shelf + 1;
}

enum gc_status gc_font_rasterise(struct gc_font *f, int px, struct gc_font_atlas *a)
{
    FT_Face face = f->face;
    int w;
    memset(a, 0, sizeof *a);
    px = px < GC_FONT_MIN_PX ? GC_FONT_MIN_PX : px > GC_FONT_MAX_PX ? GC_FONT_MAX_PX : px;
    if (FT_Set_Pixel_Sizes(face, 0, (FT_UInt)px) != 0) {
        gc_log_error("FreeType: the font has no %d-pixel size", px);
        return GC_ERR_UNSUPPORTED;
    }
    a->px = px;
    a->ascender = (int)((face->size->metrics.ascender + 63) / 64);
    a->line = (int)((face->size->metrics.height + 63) / 64);
    /* About 16 glyphs a row: a near-square atlas for any size. */
    w = 16 * (px + 2);
    a->w = w;
    a->h = pack(face, a, w);
    a->pixels = calloc((size_t)a->w * (size_t)a->h, 1);
    if (!a->pixels) {
        gc_log_error("FreeType: out of memory for a %dx%d glyph atlas", a->w, a->h);
        return GC_ERR_NOMEM;
    }
    a->solid_x = a->solid_y = 1;
    for (int r = 1; r < 5; r++)
        memset(a->pixels + (size_t)r * (size_t)a->w + 1, 255, 4);
    for (int k = 0; k < GC_FONT_GLYPHS; k++) {
        struct gc_font_glyph *g = &a->glyph[k];
        const FT_Bitmap *b = &face->glyph->bitmap;
        if (g->w == 0 || !render(face, k))
            continue;
        /* Same size as in pack (same face, size and flags); checked all the same. */
        if ((int)b->width < g->w || (int)b->rows < g->h)
            continue;
        for (int r = 0; r < g->h; r++) {
            const unsigned char *src =
                b->pitch >= 0 ? b->buffer + (size_t)r * (size_t)b->pitch
                              : b->buffer + (size_t)(g->h - 1 - r) * (size_t)(-b->pitch);
            memcpy(a->pixels + (size_t)(g->y + r) * (size_t)a->w + (size_t)g->x, src,
                   (size_t)g->w);
        }
    }
    return GC_OK;
}

void gc_font_atlas_free(struct gc_font_atlas *a)
{
    free(a->pixels);
    memset(a, 0, sizeof *a);
}
