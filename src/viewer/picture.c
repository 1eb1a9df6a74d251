/* The viewer's picture: drawn by GL or the backend's picture table, text on top, screenshots, movies. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <GL/glew.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_picture.h"
#include "log.h"
#include "overlay.h"
#include "screenshot.h"
#include "shader.h"
#include "tour.h"

enum gc_status gc_app_picture_init(struct gc_app *a)
{
    struct gc_app_picture *p = &a->picture;
    struct gc_picture_profile profile;
    enum gc_status st = gc_shader_find_dir(p->shader_dir, sizeof p->shader_dir);
    if (st != GC_OK)
        return st;
    gc_picture_profile_choose((const char *)glGetString(GL_RENDERER), &profile);
    if (profile.software)
        gc_log_info("renderer: a software rasteriser: the light buffer at 1/%d of the "
                    "picture's size from %d rows up, the glow at 1/%d", profile.light_div,
                    GC_PICTURE_DIV_MIN_H, profile.glow_div);
    st = gc_render_init(&p->render, p->shader_dir, a->initial, a->view.sprite_distance);
    if (st != GC_OK)
        return st;
    st = gc_post_init(&p->post, p->shader_dir, &profile);
    if (st == GC_OK) {
        st = gc_hud_init(&p->hud, p->shader_dir, a->opt->font);
        if (st != GC_OK)
            gc_post_destroy(&p->post);
    }
    if (st != GC_OK)
        gc_render_destroy(&p->render, a->backend);
    return st;
}

void gc_app_picture_free(struct gc_app *a)
{
    gc_hud_destroy(&a->picture.hud);
    /* The backend lets go of the picture's pixel buffer before GL deletes it. */
    (void)gc_backend_picture_detach(a->backend);
    gc_post_destroy(&a->picture.post);
    gc_render_destroy(&a->picture.render, a->backend);
}

/* --raster: the picture drawn by CUDA kernels where the backend can (a compute GPU's few
 * graphics units took longer to draw 81,920 sprites and the glow than the force step), else
 * by the GL shaders. */
enum gc_status gc_app_picture_choose_raster(struct gc_app *a)
{
    const char *want = a->opt->raster ? a->opt->raster : "auto";
    int can = gc_backend_picture_can_draw(a->backend) && !a->opt->no_interop &&
              gc_sim_ranks(a->sim) == 1;
    if (strcmp(want, "gl") == 0 || (!can && strcmp(want, "auto") == 0)) {
        a->picture.by_backend = 0;
    } else if (!can) {
        gc_log_error("--raster cuda needs the CUDA backend with CUDA-GL interop on one rank "
                     "(backend %s%s); --raster gl draws with OpenGL", gc_backend_name(a->backend),
                     a->opt->no_interop ? ", --no-interop given" : "");
        return GC_ERR_INVALID;
    } else {
        a->picture.by_backend = 1;
        gc_log_info("renderer: sprites, glow and tone map drawn by CUDA kernels; GL shows the "
                    "picture (--raster gl: OpenGL shaders)");
    }
    a->picture.render.buf.device_picture = a->picture.by_backend;
    return GC_OK;
}

static float pixel_scale(const struct gc_app_picture *p)
{
    return fmaxf(0.5f, (float)p->fb_h / 800.0f);
}

/* GL is about to read or draw over the picture: the backend gives back what it kept. */
void gc_app_picture_to_gl(struct gc_app *a)
{
    a->frames.fences.gl_work = 1;
    if (a->picture.by_backend) {
        enum gc_status st = gc_backend_picture_release(a->backend);
        if (st != GC_OK)
            gc_app_fail(a, st, "handing the picture to GL");
    }
}

/* The stats panel's lines, from every part's state. */
/* The regularised close groups, as the report rows give them. */
static void groups_info(const struct gc_sim *sim, struct gc_overlay_info *i)
{
    struct gc_groups_report g;
    i->groups = gc_sim_groups(sim, &g, NULL);
    i->groups_on = g.radius > 0.0;
    i->group_members = g.members;
    i->have_binary = g.have_binary;
    i->binary_a = g.a;
    i->binary_e = g.e;
}

static void stats_panel(struct gc_app *a)
{
    const struct gc_app_picture *p = &a->picture;
    const struct gc_director *d = &a->view.director;
    struct gc_overlay_info i;
    struct gc_integrator_stats st;
    char when[64], last[200];
    gc_sim_stats(a->sim, &st);
    memset(&i, 0, sizeof i);
    i.n = a->initial->n;
    i.backend = gc_backend_name(a->backend);
    i.device = gc_backend_device_name(a->backend);
    i.fps = a->stats.fps;
    i.sps = a->stats.sps;
    i.ips = a->stats.ips;
    i.flops = gc_sim_scheme(a->sim)->flops_per_interaction;
    if (gc_sim_force_method(a->sim) == GC_FORCE_TREE) {
        struct gc_tree_stats ts;
        i.tree = 1;
        i.theta = gc_sim_params(a->sim)->theta;
        if (gc_sim_tree_stats(a->sim, &ts) == GC_OK && ts.valid) {
            i.tree_build_ms = ts.sort_ms + ts.build_ms + ts.moments_ms;
            i.tree_walk_ms = ts.walk_ms;
            i.tree_interactions =
                ts.cell_interactions + ts.body_interactions + ts.mono_interactions;
            i.tree_local = ts.local_cells;
        }
    }
    gc_app_time_text(a, 0, when, sizeof when);
    i.time = when;
    i.integrator = gc_sim_scheme(a->sim)->name;
    i.block_steps = gc_app_block_steps(a);
    i.dt = fabs(gc_sim_params(a->sim)->dt); /* its sign is the way the run goes */
    i.dt_myr = i.dt * GC_MYR_PER_TIME_UNIT;
    i.active = (unsigned long long)st.last_active;
    i.steps = (unsigned long long)st.steps;
    groups_info(a->sim, &i);
    i.energy_state = a->stats.energy_state;
    i.drift = a->stats.drift;
    i.draw_mode = gc_render_draw_mode_name(p->render.draw_mode);
    i.color_mode = gc_render_color_mode_name(p->render.color_mode);
    i.halo_view = gc_render_halo_view_name(p->render.halo_view);
    i.view = d->view == GC_VIEW_TOUR ? gc_tour_shot(gc_tour_at(gc_sim_time_myr(a->sim)))->name
                                     : gc_director_view_name(d->view);
    i.size_factor = p->render.size_factor;
    i.ev = p->exposure.ev;
    i.ev_manual = p->exposure.manual;
    i.glow = p->glow;
    i.orbit = d->orbit;
    if (a->failure != GC_OK)
        snprintf(last, sizeof last, "%s", a->failure_msg);
    else
        snprintf(last, sizeof last, "%s", a->input.paused ? "Paused (space runs, n steps)"
                                                          : "h: help   i: hide this");
    i.last_line = last;
    i.last_warn = a->failure != GC_OK;
    gc_overlay_stats(&a->picture.hud, p->fb_w, p->fb_h, &i);
}

static void draw_overlays(struct gc_app *a, const float view[16], const float proj[16])
{
    struct gc_app_picture *p = &a->picture;
    /* The window's guides (time line, names, scale, legend), unless the presentation's
     * text alone is asked for ('p') or 'g' hid them; headless frames draw none. */
    const int guides = !a->headless && !p->present_hud && p->guides;
    char when[64];
    if (!p->present_hud && !p->show_hud && !p->show_help && !guides && !a->scene.panel.open)
        return;
    gc_app_picture_to_gl(a);
    /* Set here: a picture written in place by the backend left no GL pass to set them. */
    glBindFramebuffer(GL_FRAMEBUFFER, p->target_fbo);
    glViewport(0, 0, p->fb_w, p->fb_h);
    if (p->present_hud) {
        gc_app_time_text(a, 2, when, sizeof when);
        gc_overlay_present(&p->hud, p->fb_w, p->fb_h, a->scene.title, when);
    }
    if (guides) {
        gc_app_annotations_draw(a, view, proj);
        gc_app_timeline_bar_draw(a);
    }
    if (p->show_hud)
        stats_panel(a);
    gc_app_scene_draw(a);
    if (p->show_help)
        gc_overlay_help(&p->hud, p->fb_w, p->fb_h);
}

/* The metered white level into the exposure (white < 0: none this frame). */
static void expose(struct gc_app *a, float white)
{
    struct gc_exposure *e = &a->picture.exposure;
    gc_exposure_update(e, white, a->frames.dt);
    if (a->frames.drawn == 0 && e->metered && white > 0.0f)
        gc_log_info("exposure: auto, EV %+.2f at the first frame (--exposure %.2f fixes it)",
                    e->ev, e->ev);
}

/* The picture drawn by the backend (its picture table): headless, straight into the EGL
 * framebuffer's renderbuffer, so GL has nothing to do; in the window, into the texture GL
 * draws to the screen. The first frames meter their own picture first, as the GL path does. */
static enum gc_status draw_on_device(struct gc_app *a, const float view[16], const float proj[16])
{
    struct gc_app_picture *p = &a->picture;
    struct gc_picture_job job;
    enum gc_status st;
    unsigned name;
    int in_place = p->target_rb != 0;
    /* A new size makes a new texture: the backend lets go of the old one first. */
    if (p->fb_w != p->post.fw || p->fb_h != p->post.fh) {
        st = gc_backend_picture_detach(a->backend);
        if (st != GC_OK)
            return st;
    }
    name = gc_post_image_target(&p->post, p->fb_w, p->fb_h);
    if (!name)
        return GC_ERR_GL;
    memset(&job, 0, sizeof job);
    gc_render_picture_job(&p->render, view, proj, p->fb_w, p->fb_h, pixel_scale(p),
                          a->initial->tag, &job);
    job.gl_name = in_place ? p->target_rb : name;
    job.keep_mapped = in_place;
    job.gl_kind = in_place ? GC_PICTURE_INTO_RENDERBUFFER : GC_PICTURE_INTO_TEXTURE;
    job.tone_k = GC_TONE_K;
    job.glow = p->glow ? GC_POST_GLOW : 0.0f;
    if (!p->exposure.manual && !p->exposure.metered) {
        job.meter_block = GC_POST_METER_BLOCK;
        job.meter = p->post.meter;
        job.meter_sync = 1;
        st = gc_backend_picture_draw(a->backend, &job);
        if (st != GC_OK)
            return st;
        expose(a, gc_post_white(&p->post));
        job.meter_sync = 0;
    } else if (!p->exposure.manual) {
        job.meter_block = GC_POST_METER_BLOCK;
        job.meter = p->post.meter;
    }
    job.exposure = gc_exposure_scale(&p->exposure);
    st = gc_backend_picture_draw(a->backend, &job);
    if (st != GC_OK)
        return st;
    if (job.meter && !job.meter_sync)
        expose(a, job.meter_ready ? gc_post_white(&p->post) : -1.0f);
    if (in_place) {
        /* Written into the target itself: GL has nothing to do unless text goes on top. */
        glBindFramebuffer(GL_FRAMEBUFFER, p->target_fbo);
        a->frames.fences.gl_work = 0;
        return GC_OK;
    }
    return gc_post_show_image(&p->post, p->target_fbo);
}

/* The GL path: bodies as light into the float buffer, metered, tone-mapped to the target. */
static enum gc_status draw_with_gl(struct gc_app *a, const float view[16], const float proj[16])
{
    struct gc_app_picture *p = &a->picture;
    float white = -1.0f;
    enum gc_status st = gc_post_begin(&p->post, p->fb_w, p->fb_h);
    if (st != GC_OK)
        return st;
    /* Into the light buffer's own size (smaller on a software rasteriser), sprites scaled
     * with it: each pixel gets the same light. */
    gc_render_draw(&p->render, view, proj, p->post.w, p->post.h,
                   pixel_scale(p) / (float)p->post.div);
    if (!p->exposure.manual) {
        /* The first frames wait for their own metering, so even frame 1 is exposed right. */
        st = gc_post_meter(&p->post, !p->exposure.metered, &white);
        if (st == GC_OK) /* a failed metering is logged; the picture keeps its exposure */
            expose(a, white);
    }
    gc_post_finish(&p->post, p->target_fbo, gc_exposure_scale(&p->exposure), p->glow);
    return GC_OK;
}

/* One picture: the bodies as light, metered and tone-mapped into the target (by the backend
 * or by GL), text on top. */
void gc_app_picture_draw(struct gc_app *a)
{
    struct gc_app_picture *p = &a->picture;
    float view[16], proj[16];
    enum gc_status st = GC_OK;
    gc_app_view_frame(a, view, proj);
    a->frames.fences.gl_work = 1;
    if (p->by_backend) {
        int forced = a->opt->raster && strcmp(a->opt->raster, "cuda") == 0;
        st = draw_on_device(a, view, proj);
        if (st == GC_ERR_UNSUPPORTED && !forced) {
            /* auto: interop refused here; GL draws from now on (the VBOs get the state). */
            gc_log_warn("renderer: the backend cannot draw the picture here; GL draws it");
            p->by_backend = 0;
            p->render.buf.device_picture = 0;
            st = gc_app_export(a);
        }
    }
    if (!p->by_backend && st == GC_OK)
        st = draw_with_gl(a, view, proj);
    if (st != GC_OK) {
        gc_app_fail(a, st, "drawing");
        gc_app_picture_to_gl(a);
        glBindFramebuffer(GL_FRAMEBUFFER, p->target_fbo);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        return;
    }
    draw_overlays(a, view, proj);
}

/* Reads the frame just drawn and writes it as PNG. */
enum gc_status gc_app_picture_save(struct gc_app *a, const char *path)
{
    const int w = a->picture.fb_w, h = a->picture.fb_h;
    size_t bytes = (size_t)w * (size_t)h * 4;
    uint8_t *px = malloc(bytes);
    enum gc_status st;
    if (!px) {
        gc_log_error("screenshot: out of memory for %dx%d pixels", w, h);
        return GC_ERR_NOMEM;
    }
    gc_app_picture_to_gl(a);
    st = gc_render_read_pixels(w, h, px);
    if (st == GC_OK)
        st = gc_screenshot_write_png(path, w, h, px, 1);
    free(px);
    if (st == GC_OK)
        gc_log_info("saved screenshot %s (%dx%d)", path, w, h);
    return st;
}

/* Starts a movie into path, or (NULL) into the next numbered file of --screenshot-dir. */
enum gc_status gc_app_picture_record(struct gc_app *a, const char *path)
{
    struct gc_record_params rp;
    char name[4096];
    if (!path) {
        enum gc_status st = gc_screenshot_name(name, sizeof name, a->opt->screenshot_dir,
                                               a->picture.screenshot_seq++, "mp4");
        if (st != GC_OK)
            return st;
        path = name;
    }
    memset(&rp, 0, sizeof rp);
    rp.path = path;
    rp.width = a->picture.fb_w;
    rp.height = a->picture.fb_h;
    rp.fps = a->opt->fps;
    rp.realtime = !a->headless;
    return gc_capture_start(&a->picture.capture, &rp);
}

/* After a window frame is drawn, before it is shown: the movie's frame and the screenshot. */
void gc_app_picture_outputs(struct gc_app *a)
{
    struct gc_app_picture *p = &a->picture;
    if (p->record_pending) {
        p->record_pending = 0;
        if (gc_app_picture_record(a, a->opt->record) != GC_OK)
            gc_log_warn("recording did not start; the viewer goes on");
    }
    if (p->capture.rec) {
        enum gc_status st;
        glReadBuffer(GL_BACK);
        /* Stamped by the wall clock: the movie plays at the pace the speaker saw. */
        st = gc_capture_frame_timed(&p->capture, p->fb_w, p->fb_h, gc_clock_seconds());
        if (st != GC_OK) {
            gc_log_error("recording stopped: %s", gc_status_str(st));
            gc_capture_stop(&p->capture, NULL);
        }
    }
    if (p->screenshot_pending ||
        (a->opt->screenshot_after && a->frames.drawn == a->opt->screenshot_after)) {
        char path[4096];
        p->screenshot_pending = 0;
        glReadBuffer(GL_BACK);
        if (gc_screenshot_name(path, sizeof path, a->opt->screenshot_dir, p->screenshot_seq++,
                               "png") == GC_OK)
            gc_app_picture_save(a, path);  /* a failed screenshot is logged, the viewer goes on */
    }
    /* After the movie's frame and the screenshot: the mark is for the presenter only. */
    if (p->capture.rec)
        gc_overlay_recording(&p->hud, p->fb_w, p->fb_h);
}
