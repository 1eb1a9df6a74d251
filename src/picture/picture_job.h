/* GL-free description of one picture a backend draws itself (its picture table): bodies as light, glow, tone map. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_PICTURE_JOB_H
#define GC_PICTURE_JOB_H

#include <math.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the picture goes: a pixel buffer GL then copies into a texture, or a texture or
 * renderbuffer written in place (no copy in GL). */
enum gc_picture_into { GC_PICTURE_INTO_BUFFER, GC_PICTURE_INTO_TEXTURE, GC_PICTURE_INTO_RENDERBUFFER };

/* The renderer fills this with the numbers its GL shaders would get (render.c owns them),
 * so both paths draw the same picture: shaders/particles.vert + particles.frag (sprites),
 * tonemap.frag (glow, tone curve) and meter.frag (exposure metering). */
struct gc_picture_job {
    float view[16], proj[16]; /* column-major, as glUniformMatrix4fv takes them */
    int w, h;                 /* picture size, pixels */
    float size;               /* sprite or point diameter, pixels (at ref_dist for sprites) */
    float ref_dist;           /* distance at which a sprite has `size` and full flux */
    int attenuate;            /* 1: size shrinks with distance (sprites), 0: fixed (points) */
    int sprite;               /* 1: Gaussian sprite, 0: flat square point */
    int color_mode;           /* 0 stellar, 1 galaxy, 2 component, 3 velocity, 4 speed,
                               * 5 time-step level, 6 plain */
    float speed_scale;        /* speed at the top of the ramp (colour mode 4) */
    float light[3];           /* light per unit mass of disk, bulge, halo bodies; 0 = hidden */
    float flux;               /* light per unit mass on screen */
    float profile;            /* mean of the sprite's profile over its square */
    float exposure;           /* light times this is 1 at the white level */
    float glow;               /* glow strength; 0 = off */
    float tone_k;             /* contrast of the log tone curve (GC_TONE_K) */
    const uint8_t *tag;       /* n tags (GC_TAG), host; read again when the pointer changes */
    unsigned gl_name;         /* the GL object that receives the w x h RGBA8 picture
                               * (bottom row first, as GL textures are) */
    int gl_kind;              /* what gl_name is: enum gc_picture_into */
    int keep_mapped;          /* 1: the backend keeps gl_name after drawing (no hand-back to
                               * GL each frame) until render_release */
    int meter_block;          /* pixels per side of a metering block; 0 = no metering */
    int meter_sync;           /* 1: meter this picture and wait (skips the picture itself) */
    float *meter;             /* host, ceil(w/b) * ceil(h/b) block maxima of the light */
    int meter_ready;          /* out: 1 when `meter` holds a metering (of this picture when
                               * meter_sync, else of one a few frames old) */
};

/* Display value of a linear value v (exposure * light): log(1 + k v) / log(1 + k), 1 from
 * v = 1 on, 0 for v <= 0 or NaN. The one formula of exposure.c, the CUDA tone map and (in
 * GLSL) tonemap.frag. */
#if defined(__CUDACC__)
__host__ __device__
#endif
static inline float gc_picture_tone(float v, float k)
{
    if (!(v > 0.0f))
        return 0.0f;
    if (v >= 1.0f)
        return 1.0f;
    return logf(1.0f + k * v) / logf(1.0f + k);
}

#ifdef __cplusplus
}
#endif
#endif
