/* The light buffer (floating point, no clipping), its exposure metering and the tone-mapping pass to the screen. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_POST_H
#define GC_POST_H

#include "picture_profile.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GC_POST_METER_BLOCK 8 /* framebuffer pixels per side of a metering block
                               * (shaders/meter.frag); a multiple of the light_div */
#define GC_POST_METER_RING 3  /* metering readbacks in flight: read the one of 2 frames ago */
/* Strength of the glow: ~10% of a core's light spread over tens of pixels around it. */
#define GC_POST_GLOW 0.12f

struct gc_post {
    unsigned fbo, tex;              /* light buffer: RGBA32F texture (mipmaps for the glow) */
    unsigned meter_fbo, meter_tex;  /* block maxima, R32F, one texel per 8x8 block */
    unsigned pbo[GC_POST_METER_RING]; /* metering readbacks, read GC_POST_METER_RING-1 frames late */
    unsigned prog_tone, prog_meter, prog_show, vao; /* full-screen passes (the VAO is empty:
                                                     * core profile needs one) */
    int loc_exposure, loc_glow, loc_k, loc_tone_hdr, loc_meter_hdr, loc_show_img;
    int loc_glow_base, loc_mode, loc_glow_tex, loc_meter_block, loc_show_stretch;
    struct gc_picture_profile profile; /* the renderer's (picture_profile.h) */
    int div, glow_div;              /* the light buffer's division at this size, the glow's */
    unsigned glow_fbo, glow_tex;    /* with glow_div: the glow, made once a frame, RGBA16F */
    unsigned tone_fbo, tone_tex;    /* with div > 1: the tone-mapped picture at the light
                                     * buffer's size, RGBA8, stretched to the target */
    int w, h;                       /* light buffer size, pixels: the framebuffer's / div */
    int fw, fh;                     /* framebuffer size, pixels */
    int gw, gh;                     /* glow buffer size, pixels */
    int mw, mh;                     /* metering grid, blocks */
    unsigned queued;                /* metering readbacks issued since the last resize */
    float *meter, *scratch;         /* mw * mh floats each: block maxima, selection scratch */
    unsigned img_tex;               /* a picture the backend drew (its picture table): RGBA8
                                     * texture GL shows; made on first use */
};

/* Compiles the passes from shader_dir (fullscreen.vert, tonemap.frag, meter.frag, show.frag)
 * for the renderer's profile. The buffers are made by the first gc_post_begin. Needs a
 * current GL 3.3 context. */
enum gc_status gc_post_init(struct gc_post *p, const char *shader_dir,
                            const struct gc_picture_profile *profile);
/* Binds the light buffer for a framebuffer of w x h pixels (made or resized as needed:
 * p->w x p->h pixels, the framebuffer's divided by the profile's light_div) and clears it:
 * draw the bodies into p->w x p->h next. */
enum gc_status gc_post_begin(struct gc_post *p, int w, int h);
/* Measures the light drawn since gc_post_begin: *white is the white level
 * (gc_exposure_meter) of this frame when sync is 1 (waits for the GPU), otherwise of the
 * frame drawn GC_POST_METER_RING-1 frames ago, read without waiting (*white = -1 while the
 * ring fills up after a start or resize). */
enum gc_status gc_post_meter(struct gc_post *p, int sync, float *white);
/* Tone-maps the light buffer into framebuffer `target` (0 = the window's) of the size given
 * to gc_post_begin with light multiplied by `exposure`, with the glow when `glow` is set.
 * Leaves `target` bound. */
void gc_post_finish(struct gc_post *p, unsigned target, float exposure, int glow);
/* For pictures drawn by the backend: sizes the buffers for w x h (as gc_post_begin, without
 * binding or clearing) and gives the name of the RGBA8 texture of w x h pixels the picture
 * goes into (0 on failure, logged). */
unsigned gc_post_image_target(struct gc_post *p, int w, int h);
/* Copies that texture into framebuffer `target` (left bound) by a full-screen pass. */
enum gc_status gc_post_show_image(struct gc_post *p, unsigned target);
/* White level of the block maxima in p->meter (gc_exposure_meter over mw * mh blocks). */
float gc_post_white(struct gc_post *p);
void gc_post_destroy(struct gc_post *p);

#ifdef __cplusplus
}
#endif
#endif
