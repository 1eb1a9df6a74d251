/* Real type for on-screen text: a font file found, opened with FreeType and rasterised per pixel size into a coverage atlas (no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_FONT_H
#define GC_FONT_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The glyphs an atlas holds: printable ASCII (U+0020..U+007E), Latin-1 (U+00A0..U+00FF) and
 * a title's typographic punctuation (dashes, quotes, ellipsis, minus): enough for titles in
 * the languages of western Europe. */
#define GC_FONT_GLYPHS 199
#define GC_FONT_MIN_PX 4    /* smallest em size rasterised, pixels */
#define GC_FONT_MAX_PX 512  /* largest em size rasterised, pixels (an 8K frame's time line) */

struct gc_font; /* an open font file (a FreeType face); opaque */

struct gc_font_glyph {
    int x, y, w, h;   /* its coverage in the atlas, pixels; w = 0 for blank glyphs (space) */
    int left, top;    /* bitmap's offset from the pen: right of it, up from the baseline */
    float advance;    /* pen advance, pixels; < 0 = the font lacks the glyph */
};

/* One pixel size of one font: 8-bit coverage (0 = none, 255 = ink), row 0 at the top. */
struct gc_font_atlas {
    int px;                    /* em size, pixels */
    int w, h;                  /* atlas size, pixels */
    unsigned char *pixels;     /* w * h coverage bytes, owned */
    int ascender, line;        /* baseline below a line's top, and the line height, pixels */
    int solid_x, solid_y;      /* a 4x4 block of full coverage (for filled rectangles) */
    struct gc_font_glyph glyph[GC_FONT_GLYPHS];
};

/* 1 when this build has FreeType (otherwise every call below reports it unsupported). */
int gc_font_available(void);
/* The font file to use: `given` (--font) when not NULL, else DejaVu Sans from a fonts/ folder
 * beside shader_dir (a bundle without system fonts), else from the system's font folders.
 * GC_ERR_IO when none is found: with `given`, logged as an error; else the caller decides. */
enum gc_status gc_font_find(const char *given, const char *shader_dir, char *path, size_t size);
/* Opens a font file (logged error with the path on failure). */
enum gc_status gc_font_open(const char *path, struct gc_font **out);
void gc_font_close(struct gc_font *f);
/* The em size, pixels, whose line height (the font's own ascender to descender plus gap) is at
 * most line_px; clamped to GC_FONT_MIN_PX..GC_FONT_MAX_PX. */
int gc_font_px_for_line(const struct gc_font *f, float line_px);
/* Rasterises the glyph set at em size px (anti-aliased, light hinting) into *a. */
enum gc_status gc_font_rasterise(struct gc_font *f, int px, struct gc_font_atlas *a);
void gc_font_atlas_free(struct gc_font_atlas *a);
/* The code points of the last slots, after ASCII's 95 and Latin-1's 96. */
#define GC_FONT_PUNCTUATION {0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2026, 0x2212}

/* The atlas slot of Unicode code point cp, or -1 when the set lacks it. */
static inline int gc_font_slot(uint32_t cp)
{
    static const uint32_t punct[] = GC_FONT_PUNCTUATION;
    if (cp >= 0x20 && cp <= 0x7e)
        return (int)(cp - 0x20);
    if (cp >= 0xa0 && cp <= 0xff)
        return (int)(cp - 0xa0) + 95;
    for (int k = 0; k < (int)(sizeof punct / sizeof punct[0]); k++)
        if (punct[k] == cp)
            return 191 + k;
    return -1;
}

#ifdef __cplusplus
}
#endif
#endif
