/* How the GL picture is made on the renderer at hand: full resolution on a GPU, a lighter buffer and glow on a software rasteriser. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_PICTURE_PROFILE_H
#define GC_PICTURE_PROFILE_H

#ifdef __cplusplus
extern "C" {
#endif

struct gc_picture_profile {
    int software;   /* 1: the renderer rasterises on the CPU (Mesa's llvmpipe, ...) */
    int light_div;  /* the light buffer is the framebuffer divided by this each way (1, 2)
                     * where it is large enough (gc_picture_light_div) */
    int glow_div;   /* the glow is made once at the framebuffer divided by this and
                     * stretched; 0 = made for every pixel by the tone map */
};

/* The profile for a renderer named `gl_renderer` (GL_RENDERER; NULL = unknown: a GPU's).
 * A CPU rasteriser pays for every pixel and every texture read: its light buffer has a
 * quarter of the pixels (sprites half the size, each pixel the same light, so the picture
 * keeps its brightness and its look, a little softer) and is tone-mapped at that size and
 * stretched; the glow, made of the buffer's coarse levels anyway (4 pixels across and
 * more), is made once at an eighth of the size each way and stretched. */
void gc_picture_profile_choose(const char *gl_renderer, struct gc_picture_profile *out);
/* The light buffer's division for a framebuffer of w x h pixels: the profile's from
 * GC_PICTURE_DIV_MIN_H rows up, else 1. Below, sprites are a few pixels across already and a
 * lone star halved and stretched would fall under a pixel; the pixels cost less, too. */
#define GC_PICTURE_DIV_MIN_H 720
int gc_picture_light_div(const struct gc_picture_profile *p, int w, int h);

#ifdef __cplusplus
}
#endif
#endif
