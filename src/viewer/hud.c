/* HUD text as quads: real type from a font file (font.h) where one is found, else a 5x7 pixel font drawn by hand for this project. */
/* SPDX-License-Identifier: MIT */
#include "hud.h"

#include <GL/glew.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "shader.h"

/* Glyphs for ASCII 32..95, drawn for this project: seven rows a glyph, one byte a row, bit 4 =
 * leftmost of five columns. Index 64 is a solid block used for panel backgrounds, 65 is '|'. */
#define FIRST_CHAR 32
#define GLYPHS 66
#define SOLID 64
#define BAR 65
static const unsigned char font[GLYPHS][7] = {
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}, /* space */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x04}, /* ! */
    {0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00}, /* " */
    {0x0a, 0x0a, 0x1f, 0x0a, 0x1f, 0x0a, 0x0a}, /* # */
    {0x04, 0x0f, 0x14, 0x0e, 0x05, 0x1e, 0x04}, /* $ */
    {0x18, 0x19, 0x02, 0x04, 0x08, 0x13, 0x03}, /* % */
    {0x0c, 0x12, 0x14, 0x08, 0x15, 0x12, 0x0d}, /* & */
    {0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00}, /* ' */
    {0x02, 0x04, 0x08, 0x08, 0x08, 0x04, 0x02}, /* ( */
    {0x08, 0x04, 0x02, 0x02, 0x02, 0x04, 0x08}, /* ) */
    {0x00, 0x04, 0x15, 0x0e, 0x15, 0x04, 0x00}, /* * */
    {0x00, 0x04, 0x04, 0x1f, 0x04, 0x04, 0x00}, /* + */
    {0x00, 0x00, 0x00, 0x00, 0x0c, 0x04, 0x08}, /* , */
    {0x00, 0x00, 0x00, 0x1f, 0x00, 0x00, 0x00}, /* - */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x0c, 0x0c}, /* . */
    {0x00, 0x01, 0x02, 0x04, 0x08, 0x10, 0x00}, /* / */
    {0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e}, /* 0 */
    {0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* 1 */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f}, /* 2 */
    {0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e}, /* 3 */
    {0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02}, /* 4 */
    {0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e}, /* 5 */
    {0x06, 0x08, 0x10, 0x1e, 0x11, 0x11, 0x0e}, /* 6 */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}, /* 7 */
    {0x0e, 0x11, 0x11, 0x0e, 0x11, 0x11, 0x0e}, /* 8 */
    {0x0e, 0x11, 0x11, 0x0f, 0x01, 0x02, 0x0c}, /* 9 */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x0c, 0x00}, /* : */
    {0x00, 0x0c, 0x0c, 0x00, 0x0c, 0x04, 0x08}, /* ; */
    {0x02, 0x04, 0x08, 0x10, 0x08, 0x04, 0x02}, /* < */
    {0x00, 0x00, 0x1f, 0x00, 0x1f, 0x00, 0x00}, /* = */
    {0x08, 0x04, 0x02, 0x01, 0x02, 0x04, 0x08}, /* > */
    {0x0e, 0x11, 0x01, 0x02, 0x04, 0x00, 0x04}, /* ? */
    {0x0e, 0x11, 0x01, 0x0d, 0x15, 0x15, 0x0e}, /* @ */
    {0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* A */
    {0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e}, /* B */
    {0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e}, /* C */
    {0x1c, 0x12, 0x11, 0x11, 0x11, 0x12, 0x1c}, /* D */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f}, /* E */
    {0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x10}, /* F */
    {0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f}, /* G */
    {0x11, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11}, /* H */
    {0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e}, /* I */
    {0x07, 0x02, 0x02, 0x02, 0x02, 0x12, 0x0c}, /* J */
    {0x11, 0x12, 0x14, 0x18, 0x14, 0x12, 0x11}, /* K */
    {0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f}, /* L */
    {0x11, 0x1b, 0x15, 0x15, 0x11, 0x11, 0x11}, /* M */
    {0x11, 0x11, 0x19, 0x15, 0x13, 0x11, 0x11}, /* N */
    {0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* O */
    {0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10}, /* P */
    {0x0e, 0x11, 0x11, 0x11, 0x15, 0x12, 0x0d}, /* Q */
    {0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11}, /* R */
    {0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e}, /* S */
    {0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* T */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e}, /* U */
    {0x11, 0x11, 0x11, 0x11, 0x11, 0x0a, 0x04}, /* V */
    {0x11, 0x11, 0x11, 0x15, 0x15, 0x15, 0x0a}, /* W */
    {0x11, 0x11, 0x0a, 0x04, 0x0a, 0x11, 0x11}, /* X */
    {0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04}, /* Y */
    {0x1f, 0x01, 0x02, 0x04, 0x08, 0x10, 0x1f}, /* Z */
    {0x0e, 0x08, 0x08, 0x08, 0x08, 0x08, 0x0e}, /* [ */
    {0x00, 0x10, 0x08, 0x04, 0x02, 0x01, 0x00}, /* backslash */
    {0x0e, 0x02, 0x02, 0x02, 0x02, 0x02, 0x0e}, /* ] */
    {0x04, 0x0a, 0x11, 0x00, 0x00, 0x00, 0x00}, /* ^ */
    {0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x1f}, /* _ */
    {0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f, 0x1f}, /* solid */
    {0x04, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04}, /* | */
};

#define ATLAS_W (GLYPHS * GC_HUD_CELL_W)
#define ATLAS_H GC_HUD_CELL_H
#define FLOATS_PER_VERTEX 8

static int glyph_index(uint32_t ch)
{
    if (ch >= 'a' && ch <= 'z')
        ch = ch - 'a' + 'A';
    if (ch == '|')
        return BAR;
    if (ch < FIRST_CHAR || ch >= FIRST_CHAR + SOLID)
        return '?' - FIRST_CHAR;
    return (int)(ch - FIRST_CHAR);
}

/* The next code point of UTF-8 text at *s (advanced past it); a malformed byte is U+FFFD. */
static uint32_t next_code(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = p[0];
    int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;
    if (n < 0) {
        *s += 1;
        return 0xfffd;
    }
    c &= n == 0 ? 0x7f : 0x3f >> n;
    for (int k = 1; k <= n; k++) {
        if ((p[k] & 0xc0) != 0x80) {
            *s += k;
            return 0xfffd;
        }
        c = (c << 6) | (p[k] & 0x3f);
    }
    *s += n + 1;
    return c;
}

/* The font file of --font, or DejaVu Sans where found; without one, the pixel font (logged
 * once). Only a --font that cannot be used is an error. */
static enum gc_status open_font(struct gc_hud *h, const char *shader_dir, const char *given)
{
    char path[4096];
    enum gc_status st = gc_font_find(given, shader_dir, path, sizeof path);
    if (st == GC_OK)
        st = gc_font_open(path, &h->font);
    if (st == GC_OK) {
        gc_log_info("text: real type from %s", path);
        return GC_OK;
    }
    if (given)
        return st;
    if (gc_font_available())
        gc_log_warn("text: no usable font file (DejaVu Sans: fonts-dejavu-core on Debian and "
                    "Ubuntu); the built-in pixel font draws the text (--font FILE names a font)");
    else
        gc_log_info("text: the built-in pixel font (this build has no FreeType)");
    return GC_OK;
}

enum gc_status gc_hud_init(struct gc_hud *h, const char *shader_dir, const char *font_file)
{
    unsigned char atlas[ATLAS_H][ATLAS_W]; /* 3.5 KiB, uploaded then dropped */
    enum gc_status st;
    memset(h, 0, sizeof *h);
    h->scale = 2.0f;
    h->pixel_scale = 2;
    st = open_font(h, shader_dir, font_file);
    if (st == GC_OK)
        st = gc_shader_load(shader_dir, "text", &h->program);
    if (st != GC_OK) {
        gc_hud_destroy(h);
        return st;
    }
    h->loc_viewport = glGetUniformLocation(h->program, "u_viewport");
    h->loc_font = glGetUniformLocation(h->program, "u_font");

    /* Glyph g occupies columns [g*CELL_W, g*CELL_W+5) and rows [1, 8) of its cell, leaving a
     * blank border so linear filtering at non-integer scales never bleeds between glyphs. */
    memset(atlas, 0, sizeof atlas);
    for (int g = 0; g < GLYPHS; g++)
        for (int r = 0; r < 7; r++)
            for (int c = 0; c < 5; c++)
                if (font[g][r] & (0x10 >> c))
                    atlas[r + 1][g * GC_HUD_CELL_W + c] = 255;
    glGenTextures(1, &h->texture);
    glBindTexture(GL_TEXTURE_2D, h->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, ATLAS_W, ATLAS_H, 0, GL_RED, GL_UNSIGNED_BYTE, atlas);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);

    glGenVertexArrays(1, &h->vao);
    glGenBuffers(1, &h->vbo);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, FLOATS_PER_VERTEX * sizeof(float), (void *)0);
    glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, FLOATS_PER_VERTEX * sizeof(float),
                          (void *)(2 * sizeof(float)));
    glVertexAttribPointer(2, 4, GL_FLOAT, GL_FALSE, FLOATS_PER_VERTEX * sizeof(float),
                          (void *)(4 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glEnableVertexAttribArray(2);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("hud: creating the font texture or buffers failed");
        gc_hud_destroy(h);
        return GC_ERR_GL;
    }
    return GC_OK;
}

static void drop_type(struct gc_hud_type *t)
{
    if (t->texture)
        glDeleteTextures(1, &t->texture);
    gc_font_atlas_free(&t->atlas);
    memset(t, 0, sizeof *t);
}

/* The font at em size px as a texture: kept from an earlier batch, or rasterised now in
 * the place of the least recently used size. NULL on failure (logged). */
static struct gc_hud_type *type_at(struct gc_hud *h, int px)
{
    struct gc_hud_type *t = &h->types[0];
    for (int k = 0; k < GC_HUD_SIZES; k++) {
        if (h->types[k].atlas.px == px)
            return &h->types[k];
        if (h->types[k].used < t->used)
            t = &h->types[k];
    }
    drop_type(t);
    if (gc_font_rasterise(h->font, px, &t->atlas) != GC_OK)
        return NULL;
    glGenTextures(1, &t->texture);
    glBindTexture(GL_TEXTURE_2D, t->texture);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R8, t->atlas.w, t->atlas.h, 0, GL_RED, GL_UNSIGNED_BYTE,
                 t->atlas.pixels);
    /* Quads sit on whole pixels, one texel each: sampling lands on texel centres. */
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    free(t->atlas.pixels);
    t->atlas.pixels = NULL;
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("hud: uploading the %d-pixel glyph atlas (%dx%d) failed", px, t->atlas.w,
                     t->atlas.h);
        drop_type(t);
        return NULL;
    }
    return t;
}

void gc_hud_begin(struct gc_hud *h, int w, int h_px, float scale)
{
    h->count = 0;
    h->vp_w = (float)w;
    h->vp_h = (float)h_px;
    h->scale = scale > 0.25f ? scale : 0.25f;
    h->pixel_scale = (int)fmaxf(1.0f, floorf(h->scale + 0.5f));
    h->type = NULL;
    h->batches++;
    if (!h->font)
        return;
    h->type = type_at(h, gc_font_px_for_line(h->font, GC_HUD_CELL_H * h->scale));
    if (h->type) {
        h->type->used = h->batches;
    } else {
        /* Reported once: the pixel font draws from now on. */
        gc_log_warn("text: the built-in pixel font draws the text from now on");
        gc_font_close(h->font);
        h->font = NULL;
    }
}

/* Appends two triangles (six vertices: screen x, y, texels u, v) of colour c; out of memory,
 * nothing is drawn. */
static void put6(struct gc_hud *h, const float xs[6], const float ys[6], const float us[6],
                 const float vs[6], const float c[4])
{
    const float tw = h->type ? (float)h->type->atlas.w : ATLAS_W;
    const float th = h->type ? (float)h->type->atlas.h : ATLAS_H;
    if (h->count + 6 > h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 6 * 512;
        float *v = realloc(h->verts, cap * FLOATS_PER_VERTEX * sizeof *v);
        if (!v)
            return;
        h->verts = v;
        h->cap = cap;
    }
    for (int i = 0; i < 6; i++) {
        float *p = h->verts + (h->count + (size_t)i) * FLOATS_PER_VERTEX;
        p[0] = xs[i];
        p[1] = ys[i];
        p[2] = us[i] / tw;
        p[3] = vs[i] / th;
        memcpy(p + 4, c, 4 * sizeof *c);
    }
    h->count += 6;
}

/* The middle of the solid block, in texels: sampled there, filtering always hits full
 * coverage. */
static void solid(const struct gc_hud *h, float *u, float *v)
{
    *u = h->type ? (float)h->type->atlas.solid_x + 1.5f : SOLID * GC_HUD_CELL_W + 1.5f;
    *v = h->type ? (float)h->type->atlas.solid_y + 1.5f : 3.5f;
}

/* Appends one quad: screen rectangle (x0, y0)-(x1, y1), texture coordinates (u0, v0)-(u1, v1)
 * in texels of a texture tw x th. */
static void quad(struct gc_hud *h, float x0, float y0, float x1, float y1, float u0, float v0,
                 float u1, float v1, const float c[4])
{
    const float xs[6] = {x0, x1, x1, x0, x1, x0}, ys[6] = {y0, y0, y1, y0, y1, y1};
    const float us[6] = {u0, u1, u1, u0, u1, u0}, vs[6] = {v0, v0, v1, v0, v1, v1};
    put6(h, xs, ys, us, vs, c);
}

void gc_hud_line(struct gc_hud *h, float x0, float y0, float x1, float y1, float width,
                 const float rgba[4])
{
    const float len = sqrtf((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
    const float nx = len > 0.0f ? -(y1 - y0) / len * 0.5f * width : 0.0f;
    const float ny = len > 0.0f ? (x1 - x0) / len * 0.5f * width : 0.0f;
    const float xs[6] = {x0 + nx, x1 + nx, x1 - nx, x0 + nx, x1 - nx, x0 - nx};
    const float ys[6] = {y0 + ny, y1 + ny, y1 - ny, y0 + ny, y1 - ny, y0 - ny};
    float u, v;
    solid(h, &u, &v);
    {
        const float us[6] = {u, u, u, u, u, u}, vs[6] = {v, v, v, v, v, v};
        put6(h, xs, ys, us, vs, rgba);
    }
}

void gc_hud_rect(struct gc_hud *h, float x, float y, float w, float hh, const float rgba[4])
{
    float u, v;
    solid(h, &u, &v);
    quad(h, x, y, x + w, y + hh, u, v, u + 1.0f, v + 1.0f, rgba);
}

/* Real type: the width of s, pixels; its glyphs are queued into `out` (h itself) unless
 * NULL. Glyphs sit on whole pixels, the pen keeps its fractions (even spacing). */
static float type_text(const struct gc_hud *h, float x, float y, const char *s,
                       const float *rgba, struct gc_hud *out)
{
    const struct gc_font_atlas *a = &h->type->atlas;
    float pen = x;
    /* The font's line centred in the layout's line. */
    float base = floorf(y + 0.5f * (gc_hud_line_height(h) - (float)a->line) + 0.5f) +
                 (float)a->ascender;
    while (*s) {
        int k = gc_font_slot(next_code(&s));
        const struct gc_font_glyph *g;
        if (k < 0 || a->glyph[k].advance < 0.0f)
            k = gc_font_slot('?');
        g = &a->glyph[k];
        if (out && g->w > 0) {
            float gx = floorf(pen + 0.5f) + (float)g->left, gy = base - (float)g->top;
            quad(out, gx, gy, gx + (float)g->w, gy + (float)g->h, (float)g->x, (float)g->y,
                 (float)(g->x + g->w), (float)(g->y + g->h), rgba);
        }
        pen += g->advance > 0.0f ? g->advance : 0.0f;
    }
    return pen - x;
}

static size_t code_points(const char *s)
{
    size_t n = 0;
    while (*s) {
        next_code(&s);
        n++;
    }
    return n;
}

float gc_hud_text_width(const struct gc_hud *h, const char *s)
{
    if (h->type)
        return type_text(h, 0.0f, 0.0f, s, NULL, NULL);
    return (float)(code_points(s) * GC_HUD_CELL_W * (size_t)h->pixel_scale);
}

float gc_hud_line_height(const struct gc_hud *h)
{
    return h->type ? GC_HUD_CELL_H * h->scale : (float)(GC_HUD_CELL_H * h->pixel_scale);
}

float gc_hud_text(struct gc_hud *h, float x, float y, const char *s, const float rgba[4])
{
    float s_px = (float)h->pixel_scale, x0 = x;
    if (h->type)
        return type_text(h, x, y, s, rgba, h);
    while (*s) {
        uint32_t c = next_code(&s);
        float u = (float)(glyph_index(c) * GC_HUD_CELL_W);
        if (c != ' ')
            quad(h, x, y, x + GC_HUD_CELL_W * s_px, y + GC_HUD_CELL_H * s_px, u, 0.0f,
                 u + GC_HUD_CELL_W, (float)GC_HUD_CELL_H, rgba);
        x += GC_HUD_CELL_W * s_px;
    }
    return x - x0;
}

void gc_hud_end(struct gc_hud *h)
{
    if (!h->program || h->count == 0)
        return;
    glUseProgram(h->program);
    glUniform2f(h->loc_viewport, h->vp_w, h->vp_h);
    glUniform1i(h->loc_font, 0);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, h->type ? h->type->texture : h->texture);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(h->count * FLOATS_PER_VERTEX * sizeof(float)),
                 h->verts, GL_STREAM_DRAW);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glDrawArrays(GL_TRIANGLES, 0, (GLsizei)h->count);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    h->count = 0;
}

void gc_hud_destroy(struct gc_hud *h)
{
    for (int k = 0; k < GC_HUD_SIZES; k++)
        drop_type(&h->types[k]);
    gc_font_close(h->font);
    if (h->program)
        glDeleteProgram(h->program);
    if (h->vbo)
        glDeleteBuffers(1, &h->vbo);
    if (h->vao)
        glDeleteVertexArrays(1, &h->vao);
    if (h->texture)
        glDeleteTextures(1, &h->texture);
    free(h->verts);
    memset(h, 0, sizeof *h);
}
