/* Screen-space text and panels for the HUD and help overlay, from a built-in 5x7 bitmap font. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HUD_H
#define GC_HUD_H

#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Glyph cell in font pixels (5x7 glyph plus one pixel of spacing each way). */
#define GC_HUD_CELL_W 6
#define GC_HUD_CELL_H 9

struct gc_hud {
    unsigned program, vao, vbo, texture; /* GL objects, owned */
    int loc_viewport, loc_font;          /* uniform locations, looked up once */
    float *verts;                        /* quads queued since gc_hud_begin: 8 floats a vertex */
    size_t count, cap;                   /* vertices queued / allocated */
    float vp_w, vp_h;                    /* framebuffer size of the current batch, pixels */
    int scale;                           /* font pixel size in framebuffer pixels; default 2 */
};

/* Compiles shader_dir/text.{vert,frag} and uploads the font atlas. Needs a current context. */
enum gc_status gc_hud_init(struct gc_hud *h, const char *shader_dir);
/* Starts a batch for a framebuffer of w x h pixels, glyphs `scale` pixels per font pixel. */
void gc_hud_begin(struct gc_hud *h, int w, int h_px, int scale);
/* Queues a filled rectangle (pixels, origin top left), colour r, g, b, a in 0..1. */
void gc_hud_rect(struct gc_hud *h, float x, float y, float w, float hh, const float rgba[4]);
/* Queues one line of text with its top-left corner at (x, y); returns its width in pixels.
 * Lower case is drawn as upper case; characters the font lacks draw as '?'. */
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
