/* Body renderer: buffer lifetime, host-to-VBO upload, bodies drawn as additive light. */
/* SPDX-License-Identifier: MIT */
#include "render.h"

#include <GL/glew.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "shader.h"

/* Base sizes in pixels on an 800-pixel-tall framebuffer, chosen by eye for 4k-64k bodies. */
#define SPRITE_PX 7.0f
#define POINT_PX 2.0f
/* Mean of the Gaussian sprite's profile exp(-3.125 r^2) over its square (particles.frag):
 * (pi/4) (1 - e^-3.125) / 3.125 = 0.2397. Flat square points have 1. Dividing a body's light
 * by size^2 times this keeps its total on screen independent of its size in pixels. */
#define SPRITE_PROFILE 0.2397f
/* Light per unit mass of stars, in framebuffer units: chosen so the brightest pixels of the
 * default views sit at ~1-100, far inside float range and far above its rounding. */
#define FLUX 400.0f
/* Light per unit mass of the components: disk, bulge (old stars: the table's bulges carry
 * less mass per unit light than its disks would suggest, so a little brighter), and halo
 * bodies when drawn faint (dark matter outweighs the stars ~3:1 and fills a ~10x larger
 * volume; at 2% of the stars' light per mass it is a haze, not a cloud) or alone. */
static const float LIGHT[GC_HALO_COUNT][3] = {
    {1.0f, 1.3f, 0.0f},    /* stars only */
    {1.0f, 1.3f, 0.02f},   /* stars + faint halo */
    {0.0f, 0.0f, 1.0f},    /* halo only */
};

static float rms_speed(const struct gc_bodies *b)
{
    double s = 0.0;
    for (size_t i = 0; i < b->n; i++) {
        const float *v = &b->vel[4 * i];
        s += (double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2];
    }
    return b->n ? (float)sqrt(s / (double)b->n) : 1.0f;
}

enum gc_status gc_render_init(struct gc_render *r, const char *shader_dir,
                              const struct gc_bodies *initial, float ref_distance)
{
    size_t bytes = initial->n * 4 * sizeof(float);
    GLuint b[2];
    enum gc_status st;
    memset(r, 0, sizeof *r);
    r->draw_mode = GC_DRAW_SPRITES;
    r->color_mode = GC_COLOR_STELLAR;
    r->halo_view = GC_HALO_HIDDEN;
    r->size_factor = 1.0f;
    r->ref_distance = ref_distance > 0.0f ? ref_distance : 100.0f;
    r->speed_scale = 2.0f * rms_speed(initial);
    if (!(r->speed_scale > 0.0f))
        r->speed_scale = 1.0f;
    /* More bodies, smaller sprites: the light is the same (it goes with mass), the detail
     * finer. Reference 8192 bodies; sprites shrink as N^(-1/6), to at most half size. */
    r->n_size = fminf(1.0f, fmaxf(0.5f, powf(8192.0f / (float)(initial->n ? initial->n : 1),
                                             1.0f / 6.0f)));

    st = gc_shader_load(shader_dir, "particles", &r->program);
    if (st != GC_OK)
        return st;
#define LOC(field, name) r->field = glGetUniformLocation(r->program, name)
    LOC(loc_view, "u_view");
    LOC(loc_proj, "u_proj");
    LOC(loc_size, "u_size");
    LOC(loc_ref_dist, "u_ref_dist");
    LOC(loc_attenuate, "u_attenuate");
    LOC(loc_color_mode, "u_color_mode");
    LOC(loc_speed_scale, "u_speed_scale");
    LOC(loc_light, "u_light");
    LOC(loc_flux, "u_flux");
    LOC(loc_profile, "u_profile");
    LOC(loc_sprite, "u_sprite");
#undef LOC

    r->buf.n = initial->n;
    r->buf.h_pos = malloc(bytes);
    r->buf.h_vel = malloc(bytes);
    if (!r->buf.h_pos || !r->buf.h_vel) {
        gc_log_error("renderer: out of memory for %zu bodies of staging", initial->n);
        gc_render_destroy(r, NULL);
        return GC_ERR_NOMEM;
    }

    glGenVertexArrays(1, &r->vao);
    glGenBuffers(2, b);
    glGenBuffers(1, &r->vbo_tag);
    r->buf.vbo_pos = b[0];
    r->buf.vbo_vel = b[1];
    glBindVertexArray(r->vao);
    /* DYNAMIC_DRAW: rewritten every frame, by glBufferSubData or by CUDA through interop. */
    glBindBuffer(GL_ARRAY_BUFFER, r->buf.vbo_pos);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, initial->pos, GL_DYNAMIC_DRAW);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 0, (void *)0);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, r->buf.vbo_vel);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)bytes, initial->vel, GL_DYNAMIC_DRAW);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 0, (void *)0);
    glEnableVertexAttribArray(1);
    glBindBuffer(GL_ARRAY_BUFFER, r->vbo_tag);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)initial->n, initial->tag, GL_STATIC_DRAW);
    glVertexAttribIPointer(2, 1, GL_UNSIGNED_BYTE, 0, (void *)0);
    glEnableVertexAttribArray(2);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: creating vertex buffers for %zu bodies failed", initial->n);
        gc_render_destroy(r, NULL);
        return GC_ERR_GL;
    }
    return GC_OK;
}

struct gc_render_buffer *gc_render_target(struct gc_render *r)
{
    r->buf.written_to_vbo = 0;
    return &r->buf;
}

enum gc_status gc_render_upload(struct gc_render *r)
{
    GLsizeiptr bytes = (GLsizeiptr)(r->buf.n * 4 * sizeof(float));
    if (r->buf.written_to_vbo || r->buf.device_picture)
        return GC_OK;
    glBindBuffer(GL_ARRAY_BUFFER, r->buf.vbo_pos);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, r->buf.h_pos);
    glBindBuffer(GL_ARRAY_BUFFER, r->buf.vbo_vel);
    glBufferSubData(GL_ARRAY_BUFFER, 0, bytes, r->buf.h_vel);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: uploading %zu positions failed", r->buf.n);
        return GC_ERR_GL;
    }
    return GC_OK;
}

/* The numbers that decide how the bodies look, for the GL shaders and for a backend that
 * draws the picture itself (gc_render_picture_job): one place for both. */
struct look {
    int sprite, color_mode;
    float size, flux, profile;
    const float *light;
};

static struct look look_of(const struct gc_render *r, float pixel_scale)
{
    struct look k;
    k.sprite = r->draw_mode != GC_DRAW_POINTS;
    k.size = (k.sprite ? SPRITE_PX * r->n_size : POINT_PX) * r->size_factor * pixel_scale;
    k.light = LIGHT[(unsigned)r->halo_view < GC_HALO_COUNT ? r->halo_view : 0];
    k.color_mode = r->draw_mode == GC_DRAW_PLAIN ? GC_COLOR_COUNT : (int)r->color_mode;
    /* pixel_scale^2: a body covers that many more pixels on a denser framebuffer, so the
     * light per pixel (what the eye and the exposure see) stays the same. */
    k.flux = FLUX * pixel_scale * pixel_scale;
    k.profile = k.sprite ? SPRITE_PROFILE : 1.0f;
    return k;
}

void gc_render_picture_job(const struct gc_render *r, const float view[16], const float proj[16],
                         int fb_w, int fb_h, float pixel_scale, const uint8_t *tag,
                           struct gc_picture_job *job)
{
    struct look k = look_of(r, pixel_scale);
    memcpy(job->view, view, sizeof job->view);
    memcpy(job->proj, proj, sizeof job->proj);
    job->w = fb_w;
    job->h = fb_h;
    job->size = k.size;
    job->ref_dist = r->ref_distance;
    job->attenuate = k.sprite;
    job->sprite = k.sprite;
    job->color_mode = k.color_mode;
    job->speed_scale = r->speed_scale;
    memcpy(job->light, k.light, sizeof job->light);
    job->flux = k.flux;
    job->profile = k.profile;
    job->tag = tag;
}

void gc_render_draw(const struct gc_render *r, const float view[16], const float proj[16],
                    int fb_w, int fb_h, float pixel_scale)
{
    struct look k = look_of(r, pixel_scale);
    glViewport(0, 0, fb_w, fb_h);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glEnable(GL_PROGRAM_POINT_SIZE);
    glUseProgram(r->program);
    glUniformMatrix4fv(r->loc_view, 1, GL_FALSE, view);
    glUniformMatrix4fv(r->loc_proj, 1, GL_FALSE, proj);
    glUniform1f(r->loc_size, k.size);
    glUniform1f(r->loc_ref_dist, r->ref_distance);
    glUniform1i(r->loc_attenuate, k.sprite);
    glUniform1i(r->loc_sprite, k.sprite);
    glUniform1i(r->loc_color_mode, k.color_mode);
    glUniform1f(r->loc_speed_scale, r->speed_scale);
    glUniform3fv(r->loc_light, 1, k.light);
    glUniform1f(r->loc_flux, k.flux);
    glUniform1f(r->loc_profile, k.profile);
    glBindVertexArray(r->vao);
    glDrawArrays(GL_POINTS, 0, (GLsizei)r->buf.n);
    glBindVertexArray(0);
    glUseProgram(0);
    glDisable(GL_BLEND);
}

enum gc_status gc_render_read_pixels(int w, int h, uint8_t *rgba)
{
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: reading back %dx%d pixels failed", w, h);
        return GC_ERR_GL;
    }
    return GC_OK;
}

const char *gc_render_draw_mode_name(enum gc_draw_mode m)
{
    static const char *const names[GC_DRAW_COUNT] = {"points", "sprites", "plain sprites"};
    return (unsigned)m < GC_DRAW_COUNT ? names[m] : "?";
}

const char *gc_render_color_mode_name(enum gc_color_mode m)
{
    static const char *const names[GC_COLOR_COUNT] = {"stellar", "galaxy", "component",
                                                      "velocity direction", "speed",
                                                      "time-step level"};
    return (unsigned)m < GC_COLOR_COUNT ? names[m] : "?";
}

const char *gc_render_halo_view_name(enum gc_halo_view v)
{
    static const char *const names[GC_HALO_COUNT] = {"stars", "stars + faint halo",
                                                     "halo only"};
    return (unsigned)v < GC_HALO_COUNT ? names[v] : "?";
}

void gc_render_destroy(struct gc_render *r, struct gc_backend *backend)
{
    if (backend && (r->buf.vbo_pos || r->buf.vbo_vel))
        gc_backend_picture_detach(backend);
    if (r->buf.vbo_pos)
        glDeleteBuffers(1, &r->buf.vbo_pos);
    if (r->buf.vbo_vel)
        glDeleteBuffers(1, &r->buf.vbo_vel);
    if (r->vbo_tag)
        glDeleteBuffers(1, &r->vbo_tag);
    if (r->vao)
        glDeleteVertexArrays(1, &r->vao);
    if (r->program)
        glDeleteProgram(r->program);
    free(r->buf.h_pos);
    free(r->buf.h_vel);
    memset(r, 0, sizeof *r);
}
