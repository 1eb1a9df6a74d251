/* Screen-space text and panels for the HUD, help and titles: real type (FreeType) where a font is found, else a built-in 5x7 pixel font. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HUD_H
#define GC_HUD_H

#include <stddef.h>

#include "font.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Glyph cell in font pixels (5x7 glyph plus one pixel of spacing each way). */
#define GC_HUD_CELL_W 6
#define GC_HUD_CELL_H 9

/* Pixel sizes of real type kept as textures at once: HUD, title and time, and a resize's. */
#define GC_HUD_SIZES 6

/* One pixel size of the font, uploaded. */
struct gc_hud_type {
    struct gc_font_atlas atlas;          /* glyph places and metrics (pixels freed once
                                          * uploaded); atlas.px 0 = slot unused */
    unsigned texture;                    /* the coverage, GL_R8, owned */
    unsigned long used;                  /* batch that last used it: the oldest goes first */
};

struct gc_hud {
    unsigned program, vao, vbo, texture; /* GL objects, owned (texture: the pixel font) */
    int loc_viewport, loc_font;          /* uniform locations, looked up once */
    float *verts;                        /* quads queued since gc_hud_begin: 8 floats a vertex */
    size_t count, cap;                   /* vertices queued / allocated */
    float vp_w, vp_h;                    /* framebuffer size of the current batch, pixels */
    float scale;                         /* text size: framebuffer pixels per pixel-font pixel
                                          * (a line is GC_HUD_CELL_H of them); default 2 */
    int pixel_scale;                     /* the pixel font's: scale rounded, at least 1 */
    struct gc_font *font;                /* real type; NULL = the pixel font draws */
    struct gc_hud_type types[GC_HUD_SIZES];
    struct gc_hud_type *type;            /* this batch's size; NULL = the pixel font */
    unsigned long batches;               /* batches begun */
};

/* Compiles shader_dir/text.{vert,frag}, uploads the pixel font and opens the font file:
 * `font_file` (--font; a failure is an error) or DejaVu Sans where found (else the pixel font,
 * said once in the log). Needs a current context. */
enum gc_status gc_hud_init(struct gc_hud *h, const char *shader_dir, const char *font_file);
/* Starts a batch for a framebuffer of w x h pixels, text `scale` framebuffer pixels per
 * pixel-font pixel (real type: a line GC_HUD_CELL_H * scale pixels tall, any scale; the
 * pixel font rounds it). */
void gc_hud_begin(struct gc_hud *h, int w, int h_px, float scale);
/* Queues a filled rectangle (pixels, origin top left), colour r, g, b, a in 0..1. */
void gc_hud_rect(struct gc_hud *h, float x, float y, float w, float hh, const float rgba[4]);
/* Queues a straight line from (x0, y0) to (x1, y1), `width` pixels wide. */
void gc_hud_line(struct gc_hud *h, float x0, float y0, float x1, float y1, float width,
                 const float rgba[4]);
/* Queues one line of UTF-8 text with its top-left corner at (x, y); returns its width in
 * pixels. The pixel font draws lower case as upper case; characters a font lacks draw as '?'. */
float gc_hud_text(struct gc_hud *h, float x, float y, const char *s, const float rgba[4]);
/* Width in pixels gc_hud_text would use for s at the current scale. */
float gc_hud_text_width(const struct gc_hud *h, const char *s);
/* Line height in pixels at the current scale. */
float gc_hud_line_height(const struct gc_hud *h);
/* Draws the batch with alpha blending over what is in the framebuffer. */
void gc_hud_end(struct gc_hud *h);
void gc_hud_destroy(struct gc_hud *h);

#ifdef __cplusplus
}
#endif
#endif
