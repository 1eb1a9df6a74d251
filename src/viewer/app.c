/* The viewer: struct gc_app, freeglut callbacks (window mode) and the EGL frame loop (headless). */
/* SPDX-License-Identifier: MIT */
#include "app.h"

#include <GL/glew.h>
#include <GL/freeglut.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "camera.h"
#include "capture.h"
#include "diagnostics.h"
#include "director.h"
#include "exposure.h"
#include "gl_context_egl.h"
#include "gl_context_glx.h"
#include "hud.h"
#include "log.h"
#include "overlay.h"
#include "frame_fence.h"
#include "pacer.h"
#include "post.h"
#include "render.h"
#include "screenshot.h"
#include "shader.h"
#include "sim.h"
#include "snapshots.h"
#include "tour.h"
#include "track.h"

/* Flops per body-body interaction in the GFLOP/s figure: the classic CUDA nbody convention
 * (cuda-samples nbody, GPU Gems 3 ch. 31), which counts a softened interaction as 20. */
/* Energy re-measured at most this often (seconds), and never more often than 20 times its
 * own cost, so the O(N^2) potential takes at most 5% of the frame time. */
#define ENERGY_INTERVAL_S 2.0
/* Above this N on a backend without a fast potential, energy is measured once at start only
 * when it is cheap; the HUD then says so instead of stalling every few seconds. */
#define ENERGY_MAX_HOST_N 32768
/* A following view re-measures where the galaxies are every this many frames, from this
 * many bodies at most: a download of all bodies costs ~5 ms at 1M on an H100, so every 15
 * frames is < 0.4 ms a frame; the director smooths between measurements. */
#define TRACK_EVERY 15u
#define TRACK_SAMPLES 32768
/* Longest screen time one window frame may advance camera moves and the exposure (a stall
 * must not make the camera jump). */
#define MAX_FRAME_DT 0.1

struct gc_app {
    const struct gc_options *opt;    /* command line, not owned */
    const struct gc_bodies *initial; /* initial state for 'r', not owned */
    struct gc_backend *backend;      /* not owned */
    struct gc_sim sim;
    struct gc_render render;
    struct gc_post post;             /* light buffer, metering, tone mapping */
    struct gc_hud hud;
    struct gc_pacer pacer;           /* at most 2 frames queued on the GPU */
    struct gc_frame_fences fences;   /* its fences: GL's, or the backend's when GL idles */
    struct gc_capture capture;       /* movie recording; capture.rec NULL = off */
    struct gc_exposure exposure;
    struct gc_camera camera, camera_home; /* current view and the one 'r' restores */
    struct gc_director director;     /* presets, moves, auto-orbit, tour */
    struct gc_track track;           /* where the galaxies are (valid when track_ok) */
    int track_ok;
    unsigned track_age;              /* frames since the track was measured */
    struct gc_bodies scratch;        /* download target for energy and track measurements */
    struct gc_snapshots snapshots;   /* --snapshot-every schedule (off when not given) */
    char shader_dir[4096];
    int gl_ready;                    /* 1 while renderer, post and HUD GL objects exist */
    int headless;                    /* 1 = EGL offscreen, no GLUT calls */
    unsigned target_fbo;             /* where the picture goes: 0 = window, else the EGL FBO */
    int backend_picture;             /* the backend draws the picture (--raster cuda); GL shows it */
    unsigned target_rb;              /* the EGL FBO's colour renderbuffer; 0 in the window */
    unsigned auto_steps;             /* steps per frame chosen by --substeps auto; starts at 1 */
    int auto_settled;                /* the last timing left auto_steps as it was */
    int frame_open;                  /* the pacer's begin_frame was called for this frame */
    int stepped;                     /* steps queued since the renderer last got the state */
    double step_s;                   /* seconds per step (per frame_dt of simulated time), last
                                      * timed; 0 = not yet */
    double waited_s;                 /* seconds the last timed frame's steps took */
    unsigned frames_since_timing;    /* frames whose steps ran untimed since the last timing */
    unsigned long long timed_frames; /* frames whose steps were waited for (and timed) */

    /* interaction state */
    int paused, step_once, show_hud, show_help, present_hud, glow, fullscreen, quit;
    int mouse_buttons;               /* bit i set while GLUT button i is down */
    int mouse_x, mouse_y;
    int fb_w, fb_h;                  /* framebuffer size, pixels */
    int screenshot_pending;          /* 's' pressed: save after the next draw */
    unsigned screenshot_seq;
    unsigned frames_drawn;           /* display calls since start (not reset by 'r') */
    double frame_dt;                 /* screen time of this frame, s: wall clock or 1/fps */
    double t_prev;                   /* wall time of the previous window frame */
    int record_pending;              /* window: start recording at the next frame */

    /* statistics, refreshed once a second */
    double t_window;                 /* start of the current 1 s window, s */
    unsigned frames_window;
    uint64_t steps_at_window;        /* integrator steps when the window started */
    double fps, sps;                 /* frames/s and steps/s of the last window */
    double ips;                      /* interactions/s of the last window */
    double interactions_at_window;   /* integrator's interaction count when it started */
    double e0;                       /* energy at start, N-body units */
    double drift;                    /* (E - E0) / |E0| at the last measurement */
    int energy_state;                /* 0 not measured, 1 measured, -1 off (too costly) */
    double next_energy_t, energy_cost;

    /* a failure while running: reported once, simulation paused */
    enum gc_status failure;
    char failure_msg[160];
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- shared by window and headless modes ---- */

static void measure_energy(struct gc_app *a, double now)
{
    struct gc_diagnostics d;
    double t0 = now_s();
    enum gc_status st;
    if (a->energy_state < 0 || a->failure != GC_OK)
        return;
    st = gc_diagnostics_measure(&a->sim, &a->scratch, &d);
    a->energy_cost = now_s() - t0;
    if (st != GC_OK) {
        a->energy_state = -1;
        gc_log_warn("energy measurement failed (%s); the HUD will not show drift",
                    gc_status_str(st));
        return;
    }
    if (a->energy_state == 0) {
        a->e0 = d.energy;
        a->energy_state = 1;
    }
    a->drift = a->e0 != 0.0 ? (d.energy - a->e0) / fabs(a->e0) : 0.0;
    a->next_energy_t = now + fmax(ENERGY_INTERVAL_S, 20.0 * a->energy_cost);
}

static int energy_affordable(const struct gc_app *a)
{
    return a->initial->n <= ENERGY_MAX_HOST_N || gc_backend_is_device(a->backend);
}

/* Puts the simulation on hold after a failure and remembers one message for title and HUD. */
static void fail(struct gc_app *a, enum gc_status st, const char *what)
{
    if (a->failure != GC_OK)
        return;
    a->failure = st;
    a->paused = 1;
    snprintf(a->failure_msg, sizeof a->failure_msg, "%s failed: %s (paused; r resets)", what,
             gc_status_str(st));
    gc_log_error("%s", a->failure_msg);
    if (!a->headless)
        glutSetWindowTitle(a->failure_msg);
}

/* Backend -> render buffer -> VBO (the set the next draw reads). */
static enum gc_status export_frame(struct gc_app *a)
{
    enum gc_status st = gc_sim_export(&a->sim, gc_render_target(&a->render));
    if (st == GC_OK)
        st = gc_render_upload(&a->render);
    return st;
}

/* The home view frames the stars: dark matter, hidden by default, spreads ~10x wider. */
static void fit_home(struct gc_app *a)
{
    const struct gc_bodies *b = a->initial;
    float *p = malloc(b->n * 4 * sizeof *p);
    size_t m = 0;
    if (p)
        for (size_t i = 0; i < b->n; i++)
            if (GC_TAG_COMPONENT(b->tag[i]) != GC_HALO)
                memcpy(&p[4 * m++], &b->pos[4 * i], 4 * sizeof *p);
    if (m > 0)
        gc_camera_fit(&a->camera_home, p, m);
    else
        gc_camera_fit(&a->camera_home, b->pos, b->n);
    free(p);
}

/* --raster: the picture drawn by CUDA kernels where the backend can (the H100's few
 * graphics units took longer to draw 81,920 sprites and the glow than the force step), else
 * by the GL shaders. */
static enum gc_status choose_raster(struct gc_app *a)
{
    const char *want = a->opt->raster ? a->opt->raster : "auto";
    int can = gc_backend_picture_can_draw(a->backend) && !a->opt->no_interop &&
              gc_sim_ranks(&a->sim) == 1;
    if (strcmp(want, "gl") == 0 || (!can && strcmp(want, "auto") == 0)) {
        a->backend_picture = 0;
    } else if (!can) {
        gc_log_error("--raster cuda needs the CUDA backend with CUDA-GL interop on one rank "
                     "(backend %s%s); --raster gl draws with OpenGL", gc_backend_name(a->backend),
                     a->opt->no_interop ? ", --no-interop given" : "");
        return GC_ERR_INVALID;
    } else {
        a->backend_picture = 1;
        gc_log_info("renderer: sprites, glow and tone map drawn by CUDA kernels; GL shows the "
                    "picture (--raster gl: OpenGL shaders)");
    }
    a->render.buf.device_picture = a->backend_picture;
    return GC_OK;
}

static enum gc_status gl_init(struct gc_app *a)
{
    enum gc_status st = gc_shader_find_dir(a->shader_dir, sizeof a->shader_dir);
    if (st != GC_OK)
        return st;
    a->camera = a->camera_home;
    st = gc_render_init(&a->render, a->shader_dir, a->initial, a->camera_home.distance);
    if (st != GC_OK)
        return st;
    st = gc_post_init(&a->post, a->shader_dir);
    if (st == GC_OK) {
        st = gc_hud_init(&a->hud, a->shader_dir);
        if (st != GC_OK)
            gc_post_destroy(&a->post);
    }
    if (st != GC_OK) {
        gc_render_destroy(&a->render, a->backend);
        return st;
    }
    gc_frame_fences_init(&a->fences, a->backend);
    {
        struct gc_pacer_ops ops = gc_frame_fence_ops(&a->fences);
        gc_pacer_init(&a->pacer, &ops, 0);
    }
    a->gl_ready = 1;
    st = choose_raster(a);
    /* The first picture shows the backend's view, as every later one does: the initial
     * bodies lack what the integrator adds (Hermite time-step levels, in vel.w). */
    return st != GC_OK ? st : export_frame(a);
}

static void gl_teardown(struct gc_app *a)
{
    if (!a->gl_ready)
        return;
    gc_capture_stop(&a->capture, NULL);
    gc_pacer_drain(&a->pacer);
    gc_pacer_free(&a->pacer);
    gc_hud_destroy(&a->hud);
    /* The backend lets go of the picture's pixel buffer before GL deletes it. */
    (void)gc_backend_picture_detach(a->backend);
    gc_post_destroy(&a->post);
    gc_render_destroy(&a->render, a->backend);
    a->gl_ready = 0;
}

/* Where the galaxies are now, for the following views: measured from a download every
 * TRACK_EVERY frames (force: now). */
static void update_track(struct gc_app *a, int force)
{
    enum gc_status st;
    if (!force && a->track_ok && a->track_age < TRACK_EVERY)
        return;
    a->track_age = 0;
    st = gc_sim_download(&a->sim, &a->scratch);
    if (st == GC_OK)
        st = gc_track_measure(&a->scratch, TRACK_SAMPLES, &a->track);
    a->track_ok = st == GC_OK;
}

static enum gc_status app_init(struct gc_app *a, const struct gc_options *opt,
                               const struct gc_bodies *initial, struct gc_backend *backend,
                               struct gc_comm *comm)
{
    enum gc_status st;
    struct gc_track t0;
    memset(a, 0, sizeof *a);
    a->opt = opt;
    a->initial = initial;
    a->backend = backend;
    a->show_hud = !opt->present;
    a->present_hud = opt->present;
    a->glow = !opt->no_bloom;
    a->paused = opt->paused;
    a->auto_steps = 1;
    a->fb_w = opt->width;
    a->fb_h = opt->height;
    gc_exposure_init(&a->exposure, !isnan(opt->exposure), (float)opt->exposure);
    st = gc_sim_init(&a->sim, backend, comm, initial, &opt->params);
    if (st != GC_OK)
        return st;
    st = gc_snapshots_init(&a->snapshots, opt->snapshot_every, opt->snapshot_dir, &a->sim,
                           initial);
    if (st != GC_OK)
        return st;
    st = gc_bodies_alloc(&a->scratch, initial->n);
    if (st != GC_OK)
        return st;
    if (!energy_affordable(a))
        a->energy_state = -1;
    /* The tour looks along the orbit's normal as it is at the start (later there is no
     * orbit to measure); a set with no stars at all is simply not tracked. */
    memset(&t0, 0, sizeof t0);
    t0.orbit_axis[2] = 1.0f;
    if (gc_track_measure(initial, TRACK_SAMPLES, &t0) == GC_OK) {
        a->track = t0;
        a->track_ok = 1;
    }
    fit_home(a);
    gc_director_init(&a->director, &a->camera_home, t0.orbit_axis);
    a->t_window = now_s();
    return GC_OK;
}

static void app_free(struct gc_app *a)
{
    gc_bodies_free(&a->scratch);
    gc_snapshots_free(&a->snapshots);
    gc_sim_free(&a->sim);
}

/* --substeps auto: a display refreshes at ~60 Hz, so drawing faster than that wastes the GPU.
 * Give the physics ~12 ms of each ~16.7 ms frame (the rest is drawing and the CUDA-GL
 * hand-over, which costs ~1 ms a frame on an H100: BENCHMARKS.md, run 8). A step that alone
 * takes longer than the budget leaves one step per frame. Growth is capped at 2x per timing
 * so a hiccup (window move, energy measurement) cannot make the next frame stall. */
#define AUTO_STEP_BUDGET_S 0.012
#define AUTO_STEPS_MAX 256u
/* A frame's steps run on the GPU while the frame before is drawn, so the host does not wait
 * for them; it waits (and so times them) only where the time is needed: on the first
 * frame, while --substeps auto is still settling and every TIME_EVERY frames after, and on
 * every frame whose steps take longer than SLOW_STEP_S. Slow steps are waited for on the host
 * so that GL never queues work behind seconds of CUDA work: with 60 frames of 0.5 s steps
 * at 1M bodies queued at once behind CUDA-GL hand-overs, headless never finished on an
 * H100 (issue 11, run of 2026-11-22); at that speed the wait costs nothing. */
#define TIME_EVERY 30u
#define SLOW_STEP_S 0.05

static unsigned auto_steps_for(double step_s, unsigned k)
{
    double want = step_s > 0.0 ? AUTO_STEP_BUDGET_S / step_s : 2.0 * k;
    unsigned next = (unsigned)fmin(fmin(want, 2.0 * k), (double)AUTO_STEPS_MAX);
    return next < 1 ? 1 : next;
}

/* Hands the state the queued steps reached to the renderer (after their frame was drawn). */
static void hand_over(struct gc_app *a)
{
    enum gc_status st;
    if (!a->stepped || a->failure != GC_OK)
        return;
    a->stepped = 0;
    st = export_frame(a);
    if (st != GC_OK)
        fail(a, st, "position export");
}

/* Queues k steps; they run while the current frame is drawn. */
static void launch_steps(struct gc_app *a, unsigned k, int adapt)
{
    int timed = a->step_s <= 0.0 || k * a->step_s > SLOW_STEP_S ||
                (adapt && (!a->auto_settled || a->frames_since_timing >= TIME_EVERY));
    double t0 = now_s();
    enum gc_status st = gc_snapshots_advance(&a->snapshots, &a->sim,
                                             gc_sim_time(&a->sim) + k * gc_sim_frame_dt(&a->sim));
    if (st == GC_OK && timed)
        st = gc_backend_sync(a->backend);
    if (st != GC_OK) {
        fail(a, st, "simulation step");
        return;
    }
    a->stepped = 1;
    a->frames_since_timing++;
    if (timed) {
        a->waited_s = now_s() - t0;
        a->step_s = a->waited_s / k;
        a->frames_since_timing = 0;
        a->timed_frames++;
        if (adapt) {
            /* Within 10% of the count in use: keep it, so timing jitter does not keep the
             * host waiting every frame. */
            unsigned next = auto_steps_for(a->step_s, k);
            a->auto_settled = (next > k ? next - k : k - next) * 10 <= k;
            a->auto_steps = a->auto_settled ? k : next;
        }
    }
}

/* The simulation's part of a frame: the renderer gets the state stepped during the last
 * frame, then (when may_step) this frame's steps are queued, to be drawn next frame. */
static void advance(struct gc_app *a, int may_step)
{
    unsigned k = 0;
    int adapt = 0;
    if (a->failure != GC_OK)
        return;
    hand_over(a);
    if (!may_step || a->failure != GC_OK)
        return;
    if (!a->paused) {
        adapt = a->opt->substeps == 0 && !a->headless;
        k = a->opt->substeps ? a->opt->substeps : adapt ? a->auto_steps : 1;
    } else if (a->step_once) {
        k = 1;
    }
    a->step_once = 0;
    if (k == 0)
        return;
    launch_steps(a, k, adapt);
    /* A single step while paused is shown at once: nothing runs to overlap it with. */
    if (a->paused)
        hand_over(a);
}

/* Star clusters (--model plummer, pythagorean) are in Henon units: their time is shown as
 * it is, not in Myr. */
static int henon(const struct gc_app *a)
{
    return a->opt->units == GC_UNITS_HENON;
}

/* Individual (block) time steps: no single dt to show or change. */
static int block_steps(const struct gc_app *a)
{
    return gc_integrator_has(gc_sim_scheme(&a->sim), GC_INTEGRATOR_BLOCK_STEPS);
}

/* The simulated time for the HUD (style 0: "123.4 MYR"), the title and log (1: "123.4 Myr")
 * or --present (2: "123 MILLION YEARS"); Henon units say so. */
static void time_text(const struct gc_app *a, int style, char *buf, size_t size)
{
    double t = gc_sim_time(&a->sim);
    if (henon(a))
        snprintf(buf, size, style == 2 ? "T = %.2f HENON UNITS" : style == 1 ? "%.4g Henon units"
                                                                         : "%.4g HENON", t);
    else
        snprintf(buf, size, style == 2 ? "%.0f MILLION YEARS" : style == 1 ? "%.1f Myr"
                                                                        : "%.1f MYR",
                 t * GC_MYR_PER_TIME_UNIT);
}

static float pixel_scale(const struct gc_app *a)
{
    return fmaxf(0.5f, (float)a->fb_h / 800.0f);
}

static void update_stats(struct gc_app *a, double now)
{
    struct gc_integrator_stats st;
    double dt = now - a->t_window;
    if (dt < 1.0)
        return;
    gc_sim_stats(&a->sim, &st);
    a->fps = a->frames_window / dt;
    a->sps = (double)(st.steps - a->steps_at_window) / dt;
    a->ips = (st.interactions - a->interactions_at_window) / dt;
    a->frames_window = 0;
    a->steps_at_window = st.steps;
    a->interactions_at_window = st.interactions;
    a->t_window = now;
    if (!a->headless) {
        char title[320], drift[32], when[64];
        if (a->failure != GC_OK)
            return;  /* the title keeps the failure message */
        if (a->energy_state > 0)
            snprintf(drift, sizeof drift, "%.2e", a->drift);
        else
            snprintf(drift, sizeof drift, "n/a");
        time_text(a, 1, when, sizeof when);
        snprintf(title, sizeof title,
                 "galaxy | N %zu | %s | %.1f fps | %.1f %ssteps/s | %.3g int/s | %.1f GFLOP/s "
                 "| %s | dE/|E0| %s%s%s", a->initial->n, gc_backend_name(a->backend),
                 a->fps, a->sps, block_steps(a) ? "block " : "", a->ips,
                 gc_sim_scheme(&a->sim)->flops_per_interaction * a->ips * 1e-9, when, drift,
                 a->paused ? " | paused" : "", a->capture.rec ? " | recording" : "");
        glutSetWindowTitle(title);
    }
}

/* GL is about to read or draw over the picture: the backend gives back what it kept. */
static void gl_takes_picture(struct gc_app *a)
{
    a->fences.gl_work = 1;
    if (a->backend_picture) {
        enum gc_status st = gc_backend_picture_release(a->backend);
        if (st != GC_OK)
            fail(a, st, "handing the picture to GL");
    }
}

static void draw_overlays(struct gc_app *a)
{
    char when[64];
    if (!a->present_hud && !a->show_hud && !a->show_help)
        return;
    gl_takes_picture(a);
    /* Set here: a picture written in place by the backend left no GL pass to set them. */
    glBindFramebuffer(GL_FRAMEBUFFER, a->target_fbo);
    glViewport(0, 0, a->fb_w, a->fb_h);
    if (a->present_hud) {
        time_text(a, 2, when, sizeof when);
        gc_overlay_present(&a->hud, a->fb_w, a->fb_h, a->opt->title, when);
    }
    if (a->show_hud) {
        struct gc_overlay_info i;
        struct gc_integrator_stats st;
        char last[200];
        gc_sim_stats(&a->sim, &st);
        memset(&i, 0, sizeof i);
        i.n = a->initial->n;
        i.backend = gc_backend_name(a->backend);
        i.device = gc_backend_device_name(a->backend);
        i.fps = a->fps;
        i.sps = a->sps;
        i.ips = a->ips;
        i.flops = gc_sim_scheme(&a->sim)->flops_per_interaction;
        time_text(a, 0, when, sizeof when);
        i.time = when;
        i.integrator = gc_sim_scheme(&a->sim)->name;
        i.block_steps = block_steps(a);
        i.dt = gc_sim_params(&a->sim)->dt;
        i.dt_myr = gc_sim_params(&a->sim)->dt * GC_MYR_PER_TIME_UNIT;
        i.active = (unsigned long long)st.last_active;
        i.steps = (unsigned long long)st.steps;
        i.energy_state = a->energy_state;
        i.drift = a->drift;
        i.draw_mode = gc_render_draw_mode_name(a->render.draw_mode);
        i.color_mode = gc_render_color_mode_name(a->render.color_mode);
        i.halo_view = gc_render_halo_view_name(a->render.halo_view);
        i.view = a->director.view == GC_VIEW_TOUR
                     ? gc_tour_shot(gc_tour_at(gc_sim_time_myr(&a->sim)))->name
                     : gc_director_view_name(a->director.view);
        i.size_factor = a->render.size_factor;
        i.ev = a->exposure.ev;
        i.ev_manual = a->exposure.manual;
        i.glow = a->glow;
        i.orbit = a->director.orbit;
        if (a->failure != GC_OK)
            snprintf(last, sizeof last, "%s", a->failure_msg);
        else
            snprintf(last, sizeof last, "%s", a->paused ? "PAUSED (SPACE RUNS, N STEPS)"
                                                        : "H: HELP   I: HIDE THIS");
        i.last_line = last;
        i.last_warn = a->failure != GC_OK;
        gc_overlay_stats(&a->hud, a->fb_w, a->fb_h, &i);
    }
    if (a->show_help)
        gc_overlay_help(&a->hud, a->fb_w, a->fb_h);
}

/* The metered white level into the exposure (white < 0: none this frame). */
static void expose(struct gc_app *a, float white)
{
    gc_exposure_update(&a->exposure, white, a->frame_dt);
    if (a->frames_drawn == 0 && a->exposure.metered && white > 0.0f)
        gc_log_info("exposure: auto, EV %+.2f at the first frame (--exposure %.2f fixes it)",
                    a->exposure.ev, a->exposure.ev);
}

/* The picture drawn by the backend (its picture table): headless, straight into the EGL
 * framebuffer's renderbuffer, so GL has nothing to do; in the window, into the texture GL
 * draws to the screen. The first frames meter their own picture first, as the GL path does. */
static enum gc_status draw_on_device(struct gc_app *a, const float view[16], const float proj[16])
{
    struct gc_picture_job job;
    enum gc_status st;
    unsigned name;
    int in_place = a->target_rb != 0;
    /* A new size makes a new texture: the backend lets go of the old one first. */
    if (a->fb_w != a->post.w || a->fb_h != a->post.h) {
        st = gc_backend_picture_detach(a->backend);
        if (st != GC_OK)
            return st;
    }
    name = gc_post_image_target(&a->post, a->fb_w, a->fb_h);
    if (!name)
        return GC_ERR_GL;
    memset(&job, 0, sizeof job);
    gc_render_picture_job(&a->render, view, proj, a->fb_w, a->fb_h, pixel_scale(a),
                          a->initial->tag, &job);
    job.gl_name = in_place ? a->target_rb : name;
    job.keep_mapped = in_place;
    job.gl_kind = in_place ? GC_PICTURE_INTO_RENDERBUFFER : GC_PICTURE_INTO_TEXTURE;
    job.tone_k = GC_TONE_K;
    job.glow = a->glow ? GC_POST_GLOW : 0.0f;
    if (!a->exposure.manual && !a->exposure.metered) {
        job.meter_block = GC_POST_METER_BLOCK;
        job.meter = a->post.meter;
        job.meter_sync = 1;
        st = gc_backend_picture_draw(a->backend, &job);
        if (st != GC_OK)
            return st;
        expose(a, gc_post_white(&a->post));
        job.meter_sync = 0;
    } else if (!a->exposure.manual) {
        job.meter_block = GC_POST_METER_BLOCK;
        job.meter = a->post.meter;
    }
    job.exposure = gc_exposure_scale(&a->exposure);
    st = gc_backend_picture_draw(a->backend, &job);
    if (st != GC_OK)
        return st;
    if (job.meter && !job.meter_sync)
        expose(a, job.meter_ready ? gc_post_white(&a->post) : -1.0f);
    if (in_place) {
        /* Written into the target itself: GL has nothing to do unless text goes on top. */
        glBindFramebuffer(GL_FRAMEBUFFER, a->target_fbo);
        a->fences.gl_work = 0;
        return GC_OK;
    }
    return gc_post_show_image(&a->post, a->target_fbo);
}

/* The GL path: bodies as light into the float buffer, metered, tone-mapped to the target. */
static enum gc_status draw_with_gl(struct gc_app *a, const float view[16], const float proj[16])
{
    float white = -1.0f;
    enum gc_status st = gc_post_begin(&a->post, a->fb_w, a->fb_h);
    if (st != GC_OK)
        return st;
    gc_render_draw(&a->render, view, proj, a->fb_w, a->fb_h, pixel_scale(a));
    if (!a->exposure.manual) {
        /* The first frames wait for their own metering, so even frame 1 is exposed right. */
        st = gc_post_meter(&a->post, !a->exposure.metered, &white);
        if (st == GC_OK) /* a failed metering is logged; the picture keeps its exposure */
            expose(a, white);
    }
    gc_post_finish(&a->post, a->target_fbo, gc_exposure_scale(&a->exposure), a->glow);
    return GC_OK;
}

/* One picture: the bodies as light, metered and tone-mapped into the target (by the backend
 * or by GL), text on top. */
static void draw(struct gc_app *a)
{
    float view[16], proj[16];
    enum gc_status st = GC_OK;
    if (gc_director_following(&a->director))
        update_track(a, 0);
    a->track_age++;
    gc_director_update(&a->director, a->track_ok ? &a->track : NULL, gc_sim_time_myr(&a->sim),
                       a->frame_dt, &a->camera);
    gc_camera_view(&a->camera, view);
    gc_camera_projection(&a->camera, (float)a->fb_w / (float)(a->fb_h > 0 ? a->fb_h : 1), proj);
    a->fences.gl_work = 1;
    if (a->backend_picture) {
        int forced = a->opt->raster && strcmp(a->opt->raster, "cuda") == 0;
        st = draw_on_device(a, view, proj);
        if (st == GC_ERR_UNSUPPORTED && !forced) {
            /* auto: interop refused here; GL draws from now on (the VBOs get the state). */
            gc_log_warn("renderer: the backend cannot draw the picture here; GL draws it");
            a->backend_picture = 0;
            a->render.buf.device_picture = 0;
            st = export_frame(a);
        }
    }
    if (!a->backend_picture && st == GC_OK)
        st = draw_with_gl(a, view, proj);
    if (st != GC_OK) {
        fail(a, st, "drawing");
        gl_takes_picture(a);
        glBindFramebuffer(GL_FRAMEBUFFER, a->target_fbo);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        return;
    }
    draw_overlays(a);
}

/* Reads the frame just drawn and writes it as PNG. */
static enum gc_status save_frame(struct gc_app *a, const char *path)
{
    size_t bytes = (size_t)a->fb_w * (size_t)a->fb_h * 4;
    uint8_t *px = malloc(bytes);
    enum gc_status st;
    if (!px) {
        gc_log_error("screenshot: out of memory for %dx%d pixels", a->fb_w, a->fb_h);
        return GC_ERR_NOMEM;
    }
    gl_takes_picture(a);
    st = gc_render_read_pixels(a->fb_w, a->fb_h, px);
    if (st == GC_OK)
        st = gc_screenshot_write_png(path, a->fb_w, a->fb_h, px, 1);
    free(px);
    if (st == GC_OK)
        gc_log_info("saved screenshot %s (%dx%d)", path, a->fb_w, a->fb_h);
    return st;
}

static void reset(struct gc_app *a)
{
    enum gc_status st = gc_sim_reset(&a->sim, a->initial);
    a->camera = a->camera_home;
    gc_director_set_view(&a->director, GC_VIEW_FREE, &a->camera);
    a->director.orbit = 0;
    a->step_once = 0;
    a->stepped = 0;
    /* Meter afresh: the first frame after a reset looks exactly as the very first did. */
    a->exposure.metered = 0;
    a->exposure.adapting = 0;
    a->track_ok = 0;
    if (st == GC_OK)
        st = export_frame(a);
    if (st != GC_OK) {
        a->failure = GC_OK;  /* report the new failure */
        fail(a, st, "reset");
        return;
    }
    if (a->failure != GC_OK) {
        /* A reset after a failure starts over from a clean state, paused. */
        a->failure = GC_OK;
        a->failure_msg[0] = '\0';
    }
    if (a->energy_state > 0)
        a->drift = 0.0;
}

static enum gc_status start_recording(struct gc_app *a, const char *path)
{
    struct gc_record_params p;
    char name[4096];
    if (!path) {
        enum gc_status st = gc_screenshot_name(name, sizeof name, a->opt->screenshot_dir,
                                               a->screenshot_seq++, "mp4");
        if (st != GC_OK)
            return st;
        path = name;
    }
    memset(&p, 0, sizeof p);
    p.path = path;
    p.width = a->fb_w;
    p.height = a->fb_h;
    p.fps = a->opt->fps;
    p.realtime = !a->headless;
    return gc_capture_start(&a->capture, &p);
}

/* ---- window mode: freeglut callbacks, each handed the gc_app through user data ---- */

static void begin_frame(struct gc_app *a)
{
    enum gc_status st;
    if (a->frame_open)
        return;
    st = gc_pacer_begin_frame(&a->pacer);
    if (st != GC_OK)
        fail(a, st, "frame pacing");
    a->frame_open = 1;
}

static void end_frame(struct gc_app *a)
{
    enum gc_status st = gc_pacer_end_frame(&a->pacer);
    if (st != GC_OK)
        fail(a, st, "frame pacing");
    a->frame_open = 0;
}

static void on_display(void *ud)
{
    struct gc_app *a = ud;
    double now = now_s();
    if (!a->gl_ready)
        return;
    begin_frame(a);
    a->frame_dt = a->t_prev > 0.0 ? fmin(now - a->t_prev, MAX_FRAME_DT) : 0.0;
    a->t_prev = now;
    draw(a);
    a->frames_drawn++;
    a->frames_window++;
    if (a->record_pending) {
        a->record_pending = 0;
        if (start_recording(a, a->opt->record) != GC_OK)
            gc_log_warn("recording did not start; the viewer goes on");
    }
    if (a->capture.rec) {
        enum gc_status st;
        glReadBuffer(GL_BACK);
        st = gc_capture_frame(&a->capture, a->fb_w, a->fb_h);
        if (st != GC_OK) {
            gc_log_error("recording stopped: %s", gc_status_str(st));
            gc_capture_stop(&a->capture, NULL);
        }
    }
    if (a->screenshot_pending ||
        (a->opt->screenshot_after && a->frames_drawn == a->opt->screenshot_after)) {
        char path[4096];
        a->screenshot_pending = 0;
        glReadBuffer(GL_BACK);
        if (gc_screenshot_name(path, sizeof path, a->opt->screenshot_dir, a->screenshot_seq++,
                               "png") == GC_OK)
            save_frame(a, path);  /* a failed screenshot is logged, the viewer goes on */
    }
    /* After the movie's frame and the screenshot: the mark is for the presenter only. */
    if (a->capture.rec)
        gc_overlay_recording(&a->hud, a->fb_w, a->fb_h);
    glutSwapBuffers();
    end_frame(a);
}

static void on_idle(void *ud)
{
    struct gc_app *a = ud;
    double now = now_s();
    if (!a->gl_ready)
        return;
    /* The first frame shows the initial state, so --screenshot-after 1 and 'r' agree. */
    if (a->frames_drawn > 0) {
        int busy = !a->paused || a->step_once;
        begin_frame(a);
        advance(a, 1);
        if (a->energy_state >= 0 && now >= a->next_energy_t && (a->energy_state == 0 || busy))
            measure_energy(a, now);
        if (!busy && !a->stepped && !gc_director_following(&a->director) && !a->director.orbit &&
            a->director.move_len <= 0.0 && !a->exposure.adapting && !a->capture.rec) {
            /* Paused and still: nothing changes but the view; don't spin a core redrawing. */
            struct timespec ts = {0, 15 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    update_stats(a, now_s());
    glutPostRedisplay();
}

static void on_reshape(int w, int h, void *ud)
{
    struct gc_app *a = ud;
    a->fb_w = w > 0 ? w : 1;
    a->fb_h = h > 0 ? h : 1;
}

static void quit(struct gc_app *a)
{
    a->quit = 1;
    gl_teardown(a);  /* the window's context is current in this callback */
    glutLeaveMainLoop();
}

static void toggle_recording(struct gc_app *a)
{
    if (a->capture.rec) {
        struct gc_record_stats s;
        if (gc_capture_stop(&a->capture, &s) != GC_OK)
            gc_log_warn("the movie may be incomplete");
    } else if (start_recording(a, NULL) != GC_OK) {
        gc_log_warn("recording did not start; the viewer goes on");
    }
}

static void set_view(struct gc_app *a, enum gc_view v)
{
    if (v == GC_VIEW_TOUR && henon(a)) {
        gc_log_warn("the tour follows a galaxy encounter, timed in Myr; a star cluster has "
                    "none ('o' orbits the camera, 1 2 3 frame it)");
        return;
    }
    if (v != GC_VIEW_HOME && v != GC_VIEW_FREE)
        update_track(a, 1);  /* frame the galaxies where they are now */
    gc_director_set_view(&a->director, v, &a->camera);
    if (v == GC_VIEW_TOUR) {
        const struct gc_tour_shot *s = gc_tour_shot(gc_tour_at(gc_sim_time_myr(&a->sim)));
        gc_log_info("tour: %s (%.0f Myr)", s->name, gc_sim_time_myr(&a->sim));
    }
}

static void toggle_fullscreen(struct gc_app *a)
{
    a->fullscreen = !a->fullscreen;
#ifdef GC_HAVE_GLUT_UCALL
    glutFullScreenToggle();
#else
    /* freeglut 2.8 without a window manager does not restore the size on leaving full
     * screen; resizing leaves it (with or without one), to the --size the window had. */
    if (a->fullscreen)
        glutFullScreen();
    else
        glutReshapeWindow(a->opt->width, a->opt->height);
#endif
}

static void on_keyboard(unsigned char key, int x, int y, void *ud)
{
    struct gc_app *a = ud;
    enum gc_status st;
    (void)x;
    (void)y;
    if (!a->gl_ready)
        return;
    switch (key) {
    case 'q': case 'Q': case 27: quit(a); return;
    case ' ': if (a->failure == GC_OK) a->paused = !a->paused; break;
    case 'n': case 'N': if (a->paused) a->step_once = 1; break;
    case 'r': case 'R': reset(a); break;
    case 'd': case 'D':
        a->render.draw_mode = (a->render.draw_mode + 1) % GC_DRAW_COUNT;
        gc_log_info("drawing %s", gc_render_draw_mode_name(a->render.draw_mode));
        break;
    case 'c': case 'C':
        a->render.color_mode = (a->render.color_mode + 1) % GC_COLOR_COUNT;
        if (a->render.color_mode == GC_COLOR_LEVEL && !block_steps(a)) /* one shared step */
            a->render.color_mode = (a->render.color_mode + 1) % GC_COLOR_COUNT;
        gc_log_info("colours: %s", gc_render_color_mode_name(a->render.color_mode));
        break;
    case 'm': case 'M':
        a->render.halo_view = (a->render.halo_view + 1) % GC_HALO_COUNT;
        gc_log_info("showing %s", gc_render_halo_view_name(a->render.halo_view));
        break;
    case '+': case '=': a->render.size_factor = fminf(a->render.size_factor * 1.25f, 8.0f); break;
    case '-': case '_': a->render.size_factor = fmaxf(a->render.size_factor / 1.25f, 0.25f); break;
    case ',': case '.': {
        float step = key == ',' ? -GC_EXPOSURE_STEP_EV : GC_EXPOSURE_STEP_EV;
        if (a->exposure.manual)
            a->exposure.ev += step;
        else
            a->exposure.bias += step, a->exposure.adapting = 1;
        gc_log_info("exposure %s EV %+.1f", a->exposure.manual ? "locked at" : "compensation",
                    a->exposure.manual ? a->exposure.ev : a->exposure.bias);
        break;
    }
    case 'x': case 'X':
        a->exposure.manual = !a->exposure.manual;
        gc_log_info("exposure %s (EV %+.2f)", a->exposure.manual ? "locked" : "auto",
                    a->exposure.ev);
        break;
    case 'b': case 'B': a->glow = !a->glow; break;
    case '1': set_view(a, GC_VIEW_FACE_ON); break;
    case '2': set_view(a, GC_VIEW_EDGE_ON); break;
    case '3': set_view(a, GC_VIEW_OVERVIEW); break;
    case '0': set_view(a, GC_VIEW_HOME); break;
    case 'o': case 'O': a->director.orbit = !a->director.orbit; break;
    case 't': case 'T':
        if (a->director.view == GC_VIEW_TOUR)
            gc_director_release(&a->director);
        else
            set_view(a, GC_VIEW_TOUR);
        break;
    case 'v': case 'V': toggle_recording(a); break;
    case 'p': case 'P':
        a->present_hud = !a->present_hud;
        if (a->present_hud)
            a->show_hud = 0;
        break;
    case '[': case ']':
        if (block_steps(a)) {
            gc_log_info("%s chooses each body's step itself (--eta, --dt-max)",
                        gc_sim_scheme(&a->sim)->name);
            break;
        } else {
            const float dt = gc_sim_params(&a->sim)->dt;
            st = gc_sim_set_dt(&a->sim, key == '[' ? 0.5f * dt : 2.0f * dt);
            if (st == GC_OK)
                gc_log_info("dt = %g (%.3g Myr)", gc_sim_params(&a->sim)->dt,
                            gc_sim_params(&a->sim)->dt * GC_MYR_PER_TIME_UNIT);
        }
        break;
    case 'f': case 'F': toggle_fullscreen(a); break;
    case 'h': case 'H': case '?': a->show_help = !a->show_help; break;
    case 'i': case 'I': a->show_hud = !a->show_hud; break;
    case 's': case 'S': a->screenshot_pending = 1; break;
    default: return;
    }
    glutPostRedisplay();
}

static void on_mouse(int button, int state, int x, int y, void *ud)
{
    struct gc_app *a = ud;
    /* freeglut reports the wheel as buttons 3 (away from the user) and 4 (towards). */
    if ((button == 3 || button == 4) && state == GLUT_DOWN) {
        gc_director_release(&a->director);
        gc_camera_zoom(&a->camera, button == 3 ? 1.0f / 1.1f : 1.1f);
        glutPostRedisplay();
        return;
    }
    if (button < 0 || button > 2)
        return;
    if (state == GLUT_DOWN)
        a->mouse_buttons |= 1 << button;
    else
        a->mouse_buttons &= ~(1 << button);
    a->mouse_x = x;
    a->mouse_y = y;
}

static void on_motion(int x, int y, void *ud)
{
    struct gc_app *a = ud;
    float dx = (float)(x - a->mouse_x), dy = (float)(y - a->mouse_y);
    a->mouse_x = x;
    a->mouse_y = y;
    if (a->mouse_buttons)
        gc_director_release(&a->director);  /* the mouse takes the camera */
    if (a->mouse_buttons & (1 << GLUT_LEFT_BUTTON))
        gc_camera_rotate(&a->camera, dx, dy);
    else if (a->mouse_buttons & (1 << GLUT_RIGHT_BUTTON))
        gc_camera_zoom(&a->camera, expf(0.005f * dy));
    else if (a->mouse_buttons & (1 << GLUT_MIDDLE_BUTTON))
        gc_camera_pan(&a->camera, dx, dy, (float)a->fb_h);
    glutPostRedisplay();
}

static void on_close(void *ud)
{
    struct gc_app *a = ud;
    a->quit = 1;
    gl_teardown(a);
}

/* Opens the window with the best context on offer. GC_ERR_UNSUPPORTED when below 3.3. */
static enum gc_status open_window(struct gc_app *a, int *argc, char **argv)
{
    int core33 = 0;
    enum gc_status st = gc_glx_probe(&core33);
    const char *version;
    int major = 0, minor = 0;
    if (st != GC_OK)
        return st;
    glutInit(argc, argv);
    glutSetOption(GLUT_ACTION_ON_WINDOW_CLOSE, GLUT_ACTION_GLUTMAINLOOP_RETURNS);
    if (core33) {
        glutInitContextVersion(3, 3);
        glutInitContextProfile(GLUT_CORE_PROFILE);
    } else {
        gc_log_warn("this display offers no OpenGL 3.3 core context; trying its default "
                    "context instead");
    }
    glutInitDisplayMode(GLUT_RGBA | GLUT_DOUBLE);
    glutInitWindowSize(a->opt->width, a->opt->height);
    a->fb_w = a->opt->width;
    a->fb_h = a->opt->height;
    glutCreateWindow("galaxy");
    st = gc_gl_load();
    if (st != GC_OK)
        return st;
    version = (const char *)glGetString(GL_VERSION);
    if (!version || sscanf(version, "%d.%d", &major, &minor) != 2 ||
        major * 10 + minor < 33) {
        gc_log_error("OpenGL 3.3 is required, this display offers %s (%s); on Mesa try "
                     "MESA_GL_VERSION_OVERRIDE=3.3, or use --headless/--steps",
                     version ? version : "no version", (const char *)glGetString(GL_RENDERER));
        return GC_ERR_UNSUPPORTED;
    }
    gc_log_info("window: OpenGL %s on %s", version, (const char *)glGetString(GL_RENDERER));
    if (a->opt->fullscreen || a->opt->present) {
        a->fullscreen = 1;
        glutFullScreen();
    }
    if (a->opt->present)
        glutSetCursor(GLUT_CURSOR_NONE);
    return GC_OK;
}

#ifndef GC_HAVE_GLUT_UCALL
/* freeglut before 3.2 (Ubuntu 22.04 has 2.8) has no user-data callbacks: the app rides on the
 * window's own data pointer and these adapters hand it on (still no file-scope state). */
static struct gc_app *window_app(void)
{
    return glutGetWindow() ? glutGetWindowData() : NULL;
}
static void on_display0(void)
{
    struct gc_app *a = window_app();
    if (a)
        on_display(a);
}
static void on_idle0(void)
{
    struct gc_app *a = window_app();
    if (a)
        on_idle(a);
}
static void on_reshape0(int w, int h)
{
    struct gc_app *a = window_app();
    if (a)
        on_reshape(w, h, a);
}
static void on_keyboard0(unsigned char key, int x, int y)
{
    struct gc_app *a = window_app();
    if (a)
        on_keyboard(key, x, y, a);
}
static void on_mouse0(int button, int state, int x, int y)
{
    struct gc_app *a = window_app();
    if (a)
        on_mouse(button, state, x, y, a);
}
static void on_motion0(int x, int y)
{
    struct gc_app *a = window_app();
    if (a)
        on_motion(x, y, a);
}
static void on_close0(void)
{
    struct gc_app *a = window_app();
    if (a)
        on_close(a);
}
#endif

/* Hands every callback the app (the window is current). */
static void set_callbacks(struct gc_app *a)
{
#ifdef GC_HAVE_GLUT_UCALL
    glutDisplayFuncUcall(on_display, a);
    glutIdleFuncUcall(on_idle, a);
    glutReshapeFuncUcall(on_reshape, a);
    glutKeyboardFuncUcall(on_keyboard, a);
    glutMouseFuncUcall(on_mouse, a);
    glutMotionFuncUcall(on_motion, a);
    glutCloseFuncUcall(on_close, a);
#else
    glutSetWindowData(a);
    glutDisplayFunc(on_display0);
    glutIdleFunc(on_idle0);
    glutReshapeFunc(on_reshape0);
    glutKeyboardFunc(on_keyboard0);
    glutMouseFunc(on_mouse0);
    glutMotionFunc(on_motion0);
    glutCloseFunc(on_close0);
#endif
}

enum gc_status gc_app_run(int *argc, char **argv, const struct gc_options *opt,
                          const struct gc_bodies *initial, struct gc_backend *backend,
                          struct gc_comm *comm)
{
    struct gc_app *a = malloc(sizeof *a);
    enum gc_status st;
    if (!a)
        return GC_ERR_NOMEM;
    st = app_init(a, opt, initial, backend, comm);
    if (st == GC_OK && opt->record && !gc_record_available())
        st = start_recording(a, opt->record); /* says how to get FFmpeg, before a window opens */
    if (st == GC_OK)
        st = open_window(a, argc, argv);
    if (st == GC_OK)
        st = gl_init(a);
    if (st == GC_OK) {
        measure_energy(a, now_s());
        a->record_pending = opt->record != NULL;
        if (opt->tour)
            set_view(a, GC_VIEW_TOUR);
        set_callbacks(a);
        glutMainLoop();
        /* Returns after 'q' (teardown done there) or the window closing (on_close). */
        st = a->failure;
    } else if (glutGet(GLUT_INIT_STATE)) {
        gl_teardown(a);
        glutExit();
    }
    app_free(a);
    free(a);
    return st;
}

/* ---- headless mode: EGL offscreen, no window system at all ---- */

/* The frame loop: frame k shows the state after k frames of steps (frame 0 the initial
 * state), the steps of frame k+1 running while frame k is drawn. The pacer keeps at most two
 * frames queued: without it the host queued every frame's steps and draws at once (60
 * frames of 0.5 s steps at 1M bodies: 30 s of GPU work behind CUDA-GL hand-overs), which
 * never finished on an H100 (issue 11, run of 2026-11-22). */
static enum gc_status headless_frames(struct gc_app *a, unsigned frames)
{
    enum gc_status st = GC_OK;
    for (unsigned f = 0; f < frames && a->failure == GC_OK; f++) {
        st = gc_pacer_begin_frame(&a->pacer);
        if (st != GC_OK)
            break;
        advance(a, f + 1 < frames);
        draw(a);
        a->frames_drawn++;
        if (a->capture.rec) {
            gl_takes_picture(a);
            st = gc_capture_frame(&a->capture, a->fb_w, a->fb_h);
            if (st != GC_OK)
                break;
        }
        st = gc_pacer_end_frame(&a->pacer);
        if (st != GC_OK)
            break;
    }
    if (st == GC_OK)
        st = gc_pacer_drain(&a->pacer);
    return st != GC_OK ? st : a->failure;
}

enum gc_status gc_app_run_headless(const struct gc_options *opt, const struct gc_bodies *initial,
                                   struct gc_backend *backend, struct gc_comm *comm)
{
    struct gc_app *a = malloc(sizeof *a);
    struct gc_egl egl;
    struct gc_integrator_stats before;
    enum gc_status st;
    double t0, elapsed;
    unsigned frames = opt->frames ? opt->frames : 1;
    if (!a)
        return GC_ERR_NOMEM;
    memset(&egl, 0, sizeof egl);
    st = app_init(a, opt, initial, backend, comm);
    a->headless = 1;
    a->show_hud = 0;
    a->frame_dt = 1.0 / (double)opt->fps;
    if (st == GC_OK)
        st = gc_egl_create(&egl, opt->width, opt->height);
    a->target_fbo = egl.fbo;
    a->target_rb = egl.color_rb;
    if (st == GC_OK)
        st = gl_init(a);
    if (st == GC_OK && opt->tour)
        set_view(a, GC_VIEW_TOUR);
    if (st == GC_OK && opt->record) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, egl.fbo);
        st = start_recording(a, opt->record);
    }
    if (st == GC_OK) {
        struct gc_record_stats rs;
        if (a->energy_state == 0)
            measure_energy(a, now_s());
        gc_sim_stats(&a->sim, &before);
        t0 = now_s();
        st = headless_frames(a, frames);
        /* Both APIs' work in the timing: a frame whose fence was GL's does not cover steps
         * CUDA queued after it. */
        glFinish();
        if (st == GC_OK)
            st = gc_backend_sync(a->backend);
        elapsed = now_s() - t0;
        if (st == GC_OK && a->capture.rec)
            st = gc_capture_stop(&a->capture, &rs);
        if (st == GC_OK) {
            struct gc_integrator_stats stats;
            const double flops = gc_sim_scheme(&a->sim)->flops_per_interaction;
            double ips;
            char when[64];
            gc_sim_stats(&a->sim, &stats);
            time_text(a, 1, when, sizeof when);
            ips = elapsed > 0 ? (stats.interactions - before.interactions) / elapsed : 0.0;
            if (a->energy_state > 0)
                measure_energy(a, now_s());
            gc_log_info("headless: %u frames, %llu steps in %.2f s: %.1f frames/s, %.3g "
                        "interactions/s, %.2f GFLOP/s (%.0f flops/interaction), t = %s",
                        frames, (unsigned long long)(stats.steps - before.steps), elapsed,
                        frames / elapsed, ips, flops * ips * 1e-9, flops, when);
            gc_log_info("headless: frames in flight: at most %u (limit %u); %.2f s waiting "
                        "for the GPU; steps waited for in %llu frames (the last took %.3g s); "
                        "exposure EV %+.2f", a->pacer.max_in_flight, a->pacer.depth,
                        a->pacer.wait_s, a->timed_frames, a->waited_s, a->exposure.ev);
            if (a->energy_state > 0)
                gc_log_info("headless: relative energy drift dE/|E0| = %.3e", a->drift);
        }
        if (st == GC_OK && opt->screenshot)
            st = save_frame(a, opt->screenshot);
    }
    gl_teardown(a);
    gc_egl_destroy(&egl);
    app_free(a);
    free(a);
    return st;
}
