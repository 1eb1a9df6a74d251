/* struct gc_app as the sum of its parts, and the calls between them (private to src/viewer/). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_APP_PARTS_H
#define GC_APP_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "app.h"
#include "camera.h"
#include "capture.h"
#include "clock.h"
#include "director.h"
#include "exposure.h"
#include "frame_fence.h"
#include "hud.h"
#include "pacer.h"
#include "post.h"
#include "render.h"
#include "sim.h"
#include "snapshots.h"
#include "track.h"

/* The frame loop's (frame_loop.c): frames in flight, the steps each frame queues and their
 * timing. */
struct gc_app_frames {
    struct gc_pacer pacer;           /* at most 2 frames queued on the GPU */
    struct gc_frame_fences fences;   /* its fences: GL's, or the backend's when GL idles */
    int open;                        /* the pacer's begin_frame was called for this frame */
    int stepped;                     /* steps queued since the renderer last got the state */
    unsigned auto_steps;             /* steps per frame chosen by --substeps auto; starts at 1 */
    int auto_settled;                /* the last timing left auto_steps as it was */
    double step_s;                   /* seconds per step (per frame_dt of simulated time), last
                                      * timed; 0 = not yet */
    double waited_s;                 /* seconds the last timed frame's steps took */
    unsigned since_timing;           /* frames whose steps ran untimed since the last timing */
    unsigned long long timed;        /* frames whose steps were waited for (and timed) */
    unsigned drawn;                  /* frames drawn since start (not reset by 'r') */
    double dt;                       /* screen time of this frame, s: wall clock or 1/fps */
    double t_prev;                   /* wall time of the previous window frame, s; 0 = none */
};

/* The picture's (picture.c): GL objects, what is drawn on top, screenshots and movies. */
struct gc_app_picture {
    struct gc_render render;
    struct gc_post post;             /* light buffer, metering, tone mapping */
    struct gc_hud hud;
    struct gc_exposure exposure;
    struct gc_capture capture;       /* movie recording; capture.rec NULL = off */
    char shader_dir[4096];
    int gl_ready;                    /* 1 while renderer, post, HUD and pacer GL objects exist */
    unsigned target_fbo;             /* where the picture goes: 0 = window, else the EGL FBO */
    unsigned target_rb;              /* the EGL FBO's colour renderbuffer; 0 in the window */
    int by_backend;                  /* the backend draws it (--raster cuda); GL shows it */
    int fb_w, fb_h;                  /* framebuffer size, pixels */
    int show_hud, show_help, present_hud, glow; /* keys i, h, p, b */
    int screenshot_pending;          /* 's' pressed: save after the next draw */
    int record_pending;              /* window: start recording at the next frame */
    unsigned screenshot_seq;         /* number of the next screenshot or movie file */
};

/* The view's (input.c): camera, the director's moves and where the galaxies are. */
struct gc_app_view {
    struct gc_camera camera, home;   /* current view and the one 'r' restores */
    float home_aspect;               /* the window's width / height the home view fits */
    float sprite_distance;           /* where sprites have their base size (the sphere-framed
                                      * views' scale: the home view is nearer) */
    struct gc_director director;     /* presets, moves, auto-orbit, tour */
    struct gc_track track;           /* where the galaxies are (valid when track_ok) */
    int track_ok;
    unsigned track_age;              /* frames since the track was measured */
    int follow;                      /* --follow (headless): each frame fitted to its stars */
};

/* Input's (input.c): run control and the mouse. */
struct gc_app_input {
    int paused;                      /* default --paused; space toggles */
    int step_once;                   /* 'n' while paused: one step at the next frame */
    int mouse_buttons;               /* bit i set while GLUT button i is down */
    int mouse_x, mouse_y;            /* where the mouse was last seen, window pixels */
};

/* Statistics' (stats.c): rates refreshed once a second, and the energy drift. */
struct gc_app_stats {
    double t_window;                 /* start of the current 1 s window, s */
    unsigned frames;                 /* frames drawn in it */
    uint64_t steps_at_window;        /* integrator steps when the window started */
    double interactions_at_window;   /* integrator's interaction count when it started */
    double fps, sps;                 /* frames/s and steps/s of the last window */
    double ips;                      /* interactions/s of the last window */
    double e0;                       /* energy at start, N-body units */
    double drift;                    /* (E - E0) / |E0| at the last measurement */
    int energy_state;                /* 0 not measured, 1 measured, -1 off (too costly) */
    double next_energy_t;            /* wall time of the next measurement, s */
    double energy_cost;              /* seconds the last measurement took */
};

/* The window's (window.c). */
struct gc_app_window {
    int fullscreen;                  /* default --fullscreen or --present; 'f' toggles */
};

struct gc_app {
    const struct gc_options *opt;    /* command line, not owned */
    const struct gc_bodies *initial; /* initial state for 'r', not owned */
    struct gc_backend *backend;      /* not owned */
    struct gc_sim sim;
    struct gc_snapshots snapshots;   /* --snapshot-every schedule (off when not given) */
    struct gc_bodies scratch;        /* download target for energy and track measurements */
    int headless;                    /* 1 = EGL offscreen, no GLUT calls */

    struct gc_app_frames frames;
    struct gc_app_picture picture;
    struct gc_app_view view;
    struct gc_app_input input;
    struct gc_app_stats stats;
    struct gc_app_window win;

    /* a failure while running: reported once, simulation paused */
    enum gc_status failure;
    char failure_msg[160];
};

/* app.c: assembly, reset, failures. */
enum gc_status gc_app_init(struct gc_app *a, const struct gc_options *opt,
                           const struct gc_bodies *initial, struct gc_backend *backend,
                           struct gc_comm *comm);
void gc_app_free(struct gc_app *a); /* also after a failed gc_app_init */
/* The GL side, once a context is current: renderer, post, HUD, pacer, the first picture. */
enum gc_status gc_app_gl_init(struct gc_app *a);
void gc_app_gl_teardown(struct gc_app *a); /* safe to call twice */
/* Puts the simulation on hold after a failure and remembers one message for title and HUD;
 * later failures are not reported until a reset. */
void gc_app_fail(struct gc_app *a, enum gc_status st, const char *what);
/* The one line a run stopped by SIGINT or SIGTERM ends with: signal, time, steps, frames,
 * the last complete snapshot. */
void gc_app_report_stop(struct gc_app *a);
void gc_app_reset(struct gc_app *a); /* key 'r' */
int gc_app_henon(const struct gc_app *a);
int gc_app_block_steps(const struct gc_app *a);

/* frame_loop.c: the simulation's part of each frame. */
void gc_app_frames_init(struct gc_app *a); /* the pacer and its fences (GL current) */
enum gc_status gc_app_export(struct gc_app *a);
void gc_app_advance(struct gc_app *a, int may_step);
void gc_app_frame_begin(struct gc_app *a);
void gc_app_frame_end(struct gc_app *a);

/* picture.c: drawing, overlays, screenshots and movies. */
enum gc_status gc_app_picture_init(struct gc_app *a);
enum gc_status gc_app_picture_choose_raster(struct gc_app *a);
void gc_app_picture_free(struct gc_app *a);
void gc_app_picture_draw(struct gc_app *a);
void gc_app_picture_to_gl(struct gc_app *a);
void gc_app_picture_outputs(struct gc_app *a);
enum gc_status gc_app_picture_save(struct gc_app *a, const char *path);
enum gc_status gc_app_picture_record(struct gc_app *a, const char *path);

/* input.c: keys, mouse and views. */
void gc_app_view_init(struct gc_app *a);
void gc_app_view_reset(struct gc_app *a);
void gc_app_view_refit(struct gc_app *a); /* the window changed shape */
void gc_app_view_set(struct gc_app *a, enum gc_view v);
void gc_app_view_frame(struct gc_app *a, float view[16], float proj[16]);
int gc_app_view_still(const struct gc_app *a);
void gc_app_input_key(struct gc_app *a, unsigned char key);
void gc_app_input_button(struct gc_app *a, int button, int state, int x, int y);
void gc_app_input_motion(struct gc_app *a, int x, int y);

/* stats.c: rates, energy, the simulated time as text. */
void gc_app_stats_init(struct gc_app *a);
void gc_app_stats_update(struct gc_app *a, double now);
void gc_app_energy_measure(struct gc_app *a, double now);
void gc_app_energy_refresh(struct gc_app *a, double now, int busy);
void gc_app_time_text(const struct gc_app *a, int style, char *buf, size_t size);

/* window.c: what only the window does (the title is left alone headless). */
void gc_app_window_title(struct gc_app *a, const char *text);
void gc_app_window_quit(struct gc_app *a);
void gc_app_window_fullscreen(struct gc_app *a);

#endif
