/* Body renderer: owns the VBOs/VAO/program, uploads host-staged positions, draws bodies as light. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_RENDER_H
#define GC_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "backend_picture.h"
#include "bodies.h"
#include "render_buffer.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_draw_mode {
    GC_DRAW_POINTS = 0,  /* coloured flat points, fixed pixel size */
    GC_DRAW_SPRITES,     /* coloured Gaussian sprites, size attenuated with distance */
    GC_DRAW_PLAIN,       /* single-colour Gaussian sprites, as in the original galaxy viewer */
    GC_DRAW_COUNT
};

enum gc_color_mode {
    GC_COLOR_STELLAR = 0, /* bulges warm, disks cooler, each galaxy in its own hue */
    GC_COLOR_GALAXY,      /* Milky Way bluish white, Andromeda orange */
    GC_COLOR_COMPONENT,   /* disk blue, bulge yellow, halo purple */
    GC_COLOR_VELOCITY,    /* R, G, B from the direction of (vx, vy, vz) */
    GC_COLOR_SPEED,       /* |v| on a blue-to-white ramp */
    GC_COLOR_LEVEL,       /* Hermite time-step level on the same ramp: blue = dt_max, white =
                           * dt_max / 2^16 and shorter (vel.w carries the level) */
    GC_COLOR_COUNT
};

/* Which bodies give light. Halo bodies always take part in gravity. */
enum gc_halo_view {
    GC_HALO_HIDDEN = 0,  /* stars only (default): dark matter is dark */
    GC_HALO_FAINT,       /* stars and a faint haze where the halos are */
    GC_HALO_ONLY,        /* halo bodies only */
    GC_HALO_COUNT
};

struct gc_render {
    unsigned program, vao;          /* GL objects, owned */
    unsigned vbo_tag;               /* per-body tag, uploaded once (tags never change) */
    struct gc_render_buffer buf;    /* VBO names and host staging handed to export_positions */
    int loc_view, loc_proj, loc_size, loc_ref_dist, loc_attenuate, loc_color_mode,
        loc_speed_scale, loc_light, loc_flux, loc_profile, loc_sprite; /* looked up once */
    enum gc_draw_mode draw_mode;    /* default GC_DRAW_SPRITES */
    enum gc_color_mode color_mode;  /* default GC_COLOR_STELLAR */
    enum gc_halo_view halo_view;    /* default GC_HALO_HIDDEN */
    float size_factor;              /* '+'/'-' multiply it by 1.25; default 1 */
    float speed_scale;              /* speed at the top of the ramp: 2x the initial RMS speed */
    float ref_distance;             /* camera distance at which sprites have their base size */
    float n_size;                   /* sprite size factor for this N: smaller at large N */
};

/* Creates the program from shader_dir/particles.*, the buffers for `initial` (positions,
 * velocities and tags uploaded at once so the first frame shows them) and host staging.
 * ref_distance: where sprites have their base size. Needs a current GL 3.3 context. */
enum gc_status gc_render_init(struct gc_render *r, const char *shader_dir,
                              const struct gc_bodies *initial, float ref_distance);
/* The buffer description to pass to gc_backend_export_positions. */
struct gc_render_buffer *gc_render_target(struct gc_render *r);
/* After export: uploads the host staging arrays unless the backend wrote the VBOs itself. */
enum gc_status gc_render_upload(struct gc_render *r);
/* Draws the bodies as additive light into the bound (floating-point) framebuffer of
 * fb_w x fb_h pixels with the given column-major view and projection matrices. pixel_scale
 * enlarges points and sprites on high-density framebuffers (1 = a 800-pixel-tall
 * reference). Each body gives light in proportion to its mass, so the picture does not
 * depend on N. Does not clear. */
void gc_render_draw(const struct gc_render *r, const float view[16], const float proj[16],
                    int fb_w, int fb_h, float pixel_scale);
/* The same picture as gc_render_draw, described for a backend that draws it itself
 * (gc_backend_picture_draw): fills the drawing fields of job (matrices, size, colours,
 * light, tags); the caller sets exposure, glow, tone curve, target and metering. */
void gc_render_picture_job(const struct gc_render *r, const float view[16], const float proj[16],
                           int fb_w, int fb_h, float pixel_scale, const uint8_t *tag,
                           struct gc_picture_job *job);
/* Reads the bound framebuffer as RGBA rows, bottom row first (w*h*4 bytes). */
enum gc_status gc_render_read_pixels(int w, int h, uint8_t *rgba);
/* Names of the modes for the HUD and log. */
const char *gc_render_draw_mode_name(enum gc_draw_mode m);
const char *gc_render_color_mode_name(enum gc_color_mode m);
const char *gc_render_halo_view_name(enum gc_halo_view v);
/* Asks the backend to forget the VBOs (gc_backend_picture_detach), then deletes all GL
 * objects. backend may be NULL. Safe to call twice. */
void gc_render_destroy(struct gc_render *r, struct gc_backend *backend);

#ifdef __cplusplus
}
#endif
#endif
