/* Light buffer, exposure metering (read back a few frames late through pixel buffers) and tone mapping. */
/* SPDX-License-Identifier: MIT */
#include "post.h"

#include <GL/glew.h>
#include <stdlib.h>
#include <string.h>

#include "exposure.h"
#include "log.h"
#include "shader.h"

/* Mip levels the glow reads (tonemap.frag uses 2..5 of a full-size light buffer). */
#define GLOW_LEVELS 5
/* A metering block is a whole number of light-buffer pixels at every profile's division. */
_Static_assert(GC_POST_METER_BLOCK % 2 == 0, "metering blocks of a half-size light buffer");

enum gc_status gc_post_init(struct gc_post *p, const char *shader_dir,
                            const struct gc_picture_profile *profile)
{
    enum gc_status st;
    memset(p, 0, sizeof *p);
    p->profile = *profile;
    p->div = 1;
    p->glow_div = profile->glow_div;
    st = gc_shader_load_pair(shader_dir, "fullscreen", "tonemap", &p->prog_tone);
    if (st == GC_OK)
        st = gc_shader_load_pair(shader_dir, "fullscreen", "meter", &p->prog_meter);
    if (st == GC_OK)
        st = gc_shader_load_pair(shader_dir, "fullscreen", "show", &p->prog_show);
    if (st != GC_OK) {
        gc_post_destroy(p);
        return st;
    }
    p->loc_exposure = glGetUniformLocation(p->prog_tone, "u_exposure");
    p->loc_glow = glGetUniformLocation(p->prog_tone, "u_glow");
    p->loc_k = glGetUniformLocation(p->prog_tone, "u_k");
    p->loc_tone_hdr = glGetUniformLocation(p->prog_tone, "u_hdr");
    p->loc_meter_hdr = glGetUniformLocation(p->prog_meter, "u_hdr");
    p->loc_meter_block = glGetUniformLocation(p->prog_meter, "u_block");
    p->loc_show_img = glGetUniformLocation(p->prog_show, "u_img");
    p->loc_show_stretch = glGetUniformLocation(p->prog_show, "u_stretch");
    p->loc_glow_base = glGetUniformLocation(p->prog_tone, "u_glow_base");
    p->loc_mode = glGetUniformLocation(p->prog_tone, "u_mode");
    p->loc_glow_tex = glGetUniformLocation(p->prog_tone, "u_glow_tex");
    glGenVertexArrays(1, &p->vao);
    glGenFramebuffers(1, &p->fbo);
    glGenFramebuffers(1, &p->glow_fbo);
    glGenFramebuffers(1, &p->tone_fbo);
    glGenFramebuffers(1, &p->meter_fbo);
    glGenBuffers(GC_POST_METER_RING, p->pbo);
    return GC_OK;
}

static void free_image(struct gc_post *p)
{
    if (p->img_tex)
        glDeleteTextures(1, &p->img_tex);
    p->img_tex = 0;
}

static void free_targets(struct gc_post *p)
{
    free_image(p);
    if (p->tex)
        glDeleteTextures(1, &p->tex);
    if (p->meter_tex)
        glDeleteTextures(1, &p->meter_tex);
    if (p->glow_tex)
        glDeleteTextures(1, &p->glow_tex);
    if (p->tone_tex)
        glDeleteTextures(1, &p->tone_tex);
    p->tex = p->meter_tex = p->glow_tex = p->tone_tex = 0;
    free(p->meter);
    free(p->scratch);
    p->meter = p->scratch = NULL;
    p->w = p->h = p->fw = p->fh = p->mw = p->mh = p->gw = p->gh = 0;
}

/* A texture of w x h pixels as the colour of fbo, filtered linearly (it is stretched when
 * read): the glow's buffer (with glow_div) and the small picture (with div > 1). */
static GLenum make_stretched(unsigned fbo, unsigned *tex, GLint format, int w, int h)
{
    glGenTextures(1, tex);
    glBindTexture(GL_TEXTURE_2D, *tex);
    glTexImage2D(GL_TEXTURE_2D, 0, format, w, h, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *tex, 0);
    return glCheckFramebufferStatus(GL_FRAMEBUFFER);
}

/* The buffers for a framebuffer of fw x fh pixels: the light buffer at the profile's
 * division, its metering grid, the glow's buffer. */
static enum gc_status make_targets(struct gc_post *p, int fw, int fh)
{
    GLenum fb;
    size_t nb;
    const int div = gc_picture_light_div(&p->profile, fw, fh);
    const int w = (fw + div - 1) / div, h = (fh + div - 1) / div;
    free_targets(p);
    p->div = div;
    p->mw = (fw + GC_POST_METER_BLOCK - 1) / GC_POST_METER_BLOCK;
    p->mh = (fh + GC_POST_METER_BLOCK - 1) / GC_POST_METER_BLOCK;
    nb = (size_t)p->mw * (size_t)p->mh;
    p->meter = malloc(nb * sizeof *p->meter);
    p->scratch = malloc(nb * sizeof *p->scratch);
    if (!p->meter || !p->scratch) {
        gc_log_error("renderer: out of memory for %zu metering blocks", nb);
        free_targets(p);
        return GC_ERR_NOMEM;
    }
    /* 32-bit float: a body's light at 4M bodies is ~1e-6 of a core's; half floats would
     * round it away when added to a bright pixel. */
    glGenTextures(1, &p->tex);
    glBindTexture(GL_TEXTURE_2D, p->tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, w, h, 0, GL_RGBA, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, GLOW_LEVELS);
    glGenerateMipmap(GL_TEXTURE_2D);
    glBindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, p->tex, 0);
    fb = glCheckFramebufferStatus(GL_FRAMEBUFFER);

    glGenTextures(1, &p->meter_tex);
    glBindTexture(GL_TEXTURE_2D, p->meter_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, p->mw, p->mh, 0, GL_RED, GL_FLOAT, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, p->meter_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, p->meter_tex, 0);
    if (fb == GL_FRAMEBUFFER_COMPLETE)
        fb = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    p->fw = fw;
    p->fh = fh;
    p->gw = p->glow_div > 0 ? (fw + p->glow_div - 1) / p->glow_div : 0;
    p->gh = p->glow_div > 0 ? (fh + p->glow_div - 1) / p->glow_div : 0;
    if (fb == GL_FRAMEBUFFER_COMPLETE && p->glow_div > 0)
        fb = make_stretched(p->glow_fbo, &p->glow_tex, GL_RGBA16F, p->gw, p->gh);
    if (fb == GL_FRAMEBUFFER_COMPLETE && p->div > 1)
        fb = make_stretched(p->tone_fbo, &p->tone_tex, GL_RGBA8, w, h);
    glBindTexture(GL_TEXTURE_2D, 0);
    for (int k = 0; k < GC_POST_METER_RING; k++) {
        glBindBuffer(GL_PIXEL_PACK_BUFFER, p->pbo[k]);
        glBufferData(GL_PIXEL_PACK_BUFFER, (GLsizeiptr)(nb * sizeof(float)), NULL, GL_STREAM_READ);
    }
    glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (fb != GL_FRAMEBUFFER_COMPLETE || glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: no %dx%d floating-point light buffer (framebuffer status 0x%x); "
                     "OpenGL 3.3 should offer one", w, h, (unsigned)fb);
        free_targets(p);
        return GC_ERR_GL;
    }
    p->w = w;
    p->h = h;
    p->queued = 0;
    return GC_OK;
}

enum gc_status gc_post_begin(struct gc_post *p, int w, int h)
{
    static const float black[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    if (w != p->fw || h != p->fh) {
        enum gc_status st = make_targets(p, w, h);
        if (st != GC_OK)
            return st;
    }
    glBindFramebuffer(GL_FRAMEBUFFER, p->fbo);
    glViewport(0, 0, p->w, p->h);
    glClearBufferfv(GL_COLOR, 0, black);
    return GC_OK;
}

static void draw_triangle(struct gc_post *p)
{
    glBindVertexArray(p->vao);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glBindVertexArray(0);
}

enum gc_status gc_post_meter(struct gc_post *p, int sync, float *white)
{
    size_t nb = (size_t)p->mw * (size_t)p->mh;
    unsigned slot = p->queued % GC_POST_METER_RING;
    *white = -1.0f;
    glBindFramebuffer(GL_FRAMEBUFFER, p->meter_fbo);
    glViewport(0, 0, p->mw, p->mh);
    glDisable(GL_BLEND);
    glUseProgram(p->prog_meter);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, p->tex);
    glUniform1i(p->loc_meter_hdr, 0);
    glUniform1i(p->loc_meter_block, GC_POST_METER_BLOCK / p->div);
    draw_triangle(p);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    if (sync) {
        glReadPixels(0, 0, p->mw, p->mh, GL_RED, GL_FLOAT, p->meter);
        *white = gc_exposure_meter(p->meter, nb, p->scratch);
    } else {
        /* Queue this frame's readback, then read the one queued RING-1 frames ago: by now
         * its frame has finished (the frame pacer keeps at most 2 frames in flight), so the
         * map does not wait. */
        glBindBuffer(GL_PIXEL_PACK_BUFFER, p->pbo[slot]);
        glReadPixels(0, 0, p->mw, p->mh, GL_RED, GL_FLOAT, (void *)0);
        p->queued++;
        if (p->queued >= GC_POST_METER_RING) {
            const float *m;
            glBindBuffer(GL_PIXEL_PACK_BUFFER, p->pbo[p->queued % GC_POST_METER_RING]);
            m = glMapBufferRange(GL_PIXEL_PACK_BUFFER, 0, (GLsizeiptr)(nb * sizeof(float)),
                                 GL_MAP_READ_BIT);
            if (m) {
                *white = gc_exposure_meter(m, nb, p->scratch);
                glUnmapBuffer(GL_PIXEL_PACK_BUFFER);
            }
        }
        glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    glUseProgram(0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: exposure metering failed (%dx%d blocks)", p->mw, p->mh);
        return GC_ERR_GL;
    }
    return GC_OK;
}

/* tonemap.frag's passes (u_mode) */
enum { TONE_GLOW_HERE = 0, GLOW_ONLY = 1, TONE_GLOW_READ = 2 };

void gc_post_finish(struct gc_post *p, unsigned target, float exposure, int glow)
{
    /* The glow's finest level is 4 framebuffer pixels across: level 2 of a full-size light
     * buffer, level 1 of a half-size one. */
    const int glow_base = p->div > 1 ? 1 : 2;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, p->tex);
    if (glow)
        glGenerateMipmap(GL_TEXTURE_2D);
    glDisable(GL_BLEND);
    glUseProgram(p->prog_tone);
    glUniform1i(p->loc_tone_hdr, 0);
    glUniform1i(p->loc_glow_tex, 1);
    glUniform1i(p->loc_glow_base, glow_base);
    glUniform1f(p->loc_exposure, exposure);
    glUniform1f(p->loc_glow, glow ? GC_POST_GLOW : 0.0f);
    glUniform1f(p->loc_k, GC_TONE_K);
    if (glow && p->glow_div > 0) {
        glBindFramebuffer(GL_FRAMEBUFFER, p->glow_fbo);
        glViewport(0, 0, p->gw, p->gh);
        glUniform1i(p->loc_mode, GLOW_ONLY);
        draw_triangle(p);
        glActiveTexture(GL_TEXTURE1);
        glBindTexture(GL_TEXTURE_2D, p->glow_tex);
        glActiveTexture(GL_TEXTURE0);
    }
    /* A smaller light buffer is tone-mapped at its own size, then stretched: a quarter of
     * the tone map's pixels, which are most of a software rasteriser's frame. */
    glBindFramebuffer(GL_FRAMEBUFFER, p->div > 1 ? p->tone_fbo : target);
    glViewport(0, 0, p->w, p->h);
    glUniform1i(p->loc_mode, glow && p->glow_div > 0 ? TONE_GLOW_READ : TONE_GLOW_HERE);
    draw_triangle(p);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, 0);
    glActiveTexture(GL_TEXTURE0);
    if (p->div > 1) {
        glBindTexture(GL_TEXTURE_2D, p->tone_tex);
        glBindFramebuffer(GL_FRAMEBUFFER, target);
        glViewport(0, 0, p->fw, p->fh);
        glUseProgram(p->prog_show);
        glUniform1i(p->loc_show_img, 0);
        glUniform1i(p->loc_show_stretch, 1);
        draw_triangle(p);
    }
    glUseProgram(0);
    glBindTexture(GL_TEXTURE_2D, 0);
}

unsigned gc_post_image_target(struct gc_post *p, int w, int h)
{
    if ((w != p->fw || h != p->fh) && make_targets(p, w, h) != GC_OK)
        return 0;
    if (p->img_tex)
        return p->img_tex;
    glGenTextures(1, &p->img_tex);
    glBindTexture(GL_TEXTURE_2D, p->img_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: no %dx%d RGBA8 picture texture", w, h);
        free_image(p);
        return 0;
    }
    return p->img_tex;
}

/* A full-screen pass (a blit may not write a multisampled target). */
enum gc_status gc_post_show_image(struct gc_post *p, unsigned target)
{
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, p->img_tex);
    glBindFramebuffer(GL_FRAMEBUFFER, target);
    glViewport(0, 0, p->fw, p->fh);
    glDisable(GL_BLEND);
    glUseProgram(p->prog_show);
    glUniform1i(p->loc_show_img, 0);
    glUniform1i(p->loc_show_stretch, 0);
    draw_triangle(p);
    glUseProgram(0);
    glBindTexture(GL_TEXTURE_2D, 0);
    if (glGetError() != GL_NO_ERROR) {
        gc_log_error("renderer: showing the %dx%d picture failed", p->fw, p->fh);
        return GC_ERR_GL;
    }
    return GC_OK;
}

float gc_post_white(struct gc_post *p)
{
    return gc_exposure_meter(p->meter, (size_t)p->mw * (size_t)p->mh, p->scratch);
}

void gc_post_destroy(struct gc_post *p)
{
    free_targets(p);
    if (p->fbo)
        glDeleteFramebuffers(1, &p->fbo);
    if (p->meter_fbo)
        glDeleteFramebuffers(1, &p->meter_fbo);
    if (p->glow_fbo)
        glDeleteFramebuffers(1, &p->glow_fbo);
    if (p->tone_fbo)
        glDeleteFramebuffers(1, &p->tone_fbo);
    if (p->pbo[0])
        glDeleteBuffers(GC_POST_METER_RING, p->pbo);
    if (p->vao)
        glDeleteVertexArrays(1, &p->vao);
    if (p->prog_tone)
        glDeleteProgram(p->prog_tone);
    if (p->prog_meter)
        glDeleteProgram(p->prog_meter);
    if (p->prog_show)
        glDeleteProgram(p->prog_show);
    memset(p, 0, sizeof *p);
}
