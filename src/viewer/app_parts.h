/* struct gc_app as the sum of its parts, and the calls between them (private to src/viewer/). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_APP_PARTS_H
#define GC_APP_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "bodies.h"
#include "camera.h"
#include "capture.h"
#include "cli.h"
#include "clock.h"
#include "comm.h"
#include "director.h"
#include "exposure.h"
#include "frame_fence.h"
#include "hud.h"
#include "log.h"
#include "pacer.h"
#include "panel.h"
#include "post.h"
#include "render.h"
#include "sim.h"
#include "snapshots.h"
#include "status.h"
#include "timeline.h"
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
    int guides;                      /* time line, names, scale bar, legend; 'g' hides them */
    int screenshot_pending;          /* 's' pressed: save after the next draw */
    int record_pending;              /* window: start recording at the next frame */
    unsigned screenshot_seq;         /* number of the next screenshot or movie file */
};

/* The views' (views.c): camera, the director's moves and where the galaxies are. */
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

/* Playback's (playback.c): which way and how fast simulated time goes, the time line (how
 * far the run is computed, its events, going back), the note on screen. */
struct gc_app_playback {
    struct gc_timeline timeline;     /* horizon, events, going back (gc_app_seek) */
    int backwards;                   /* 'j': time runs backwards; 'l' forwards (default) */
    double rate;                     /* simulated time a wall second asked for with the speed
                                      * keys, N-body units; 0 = automatic (default) */
    double auto_rate;                /* the automatic rate: the first passage about
                                      * GC_APP_AUTO_PASSAGE_S after the start; 0 = as fast as
                                      * the machine goes (no passage ahead, a star cluster) */
    double owed;                     /* steps owed to the rate, carried between frames */
    double t_wall;                   /* wall time of the last frame that stepped, s; 0 = none */
    int limited;                     /* the machine did not keep up with the rate */
    double shown_rate;               /* simulated time a wall second over the last second */
    double rate_sim_t, rate_wall_t;  /* simulation and wall time when it was measured */
    char note[200];                  /* a message on screen; "" = none */
    int note_warn;                   /* 1 = drawn as a warning */
    double note_until;               /* wall time it goes, s */
    double labels_from;              /* wall time the galaxies' names appeared, s; 0 = at
                                      * the first frame */
};

/* The encounter's (app_scene.c): what runs, the panel that changes it, scenes. */
struct gc_app_scene {
    int pair;                        /* the built-in pair runs: the panel and scenes apply */
    struct gc_encounter running;     /* the encounter of the bodies running now */
    const char *scenario;            /* its preset's name (static) */
    const char *title;               /* --present's title: --title, else the preset's */
    struct gc_bodies own;            /* bodies of the last restart (a->initial points here) */
    struct gc_panel panel;           /* key e */
    int rebuild;                     /* 2: Enter pressed, its note not yet drawn; 1: build at
                                      * the next idle; 0: none */
    double key_t;                    /* wall time of that Enter, s */
    unsigned restarted_at;           /* frames.drawn when the last restart finished; the
                                      * next frame drawn is logged, then 0 */
};

/* The window's (window.c). */
struct gc_app_window {
    int fullscreen;                  /* default --fullscreen or --present; 'f' toggles */
};

struct gc_app {
    const struct gc_options *opt;    /* command line, not owned */
    const struct gc_bodies *initial; /* initial state for 'r': the caller's, or scene.own after
                                      * a restart with a new encounter */
    struct gc_backend *backend;      /* not owned */
    struct gc_sim *sim;              /* owned: the simulation the window shows */
    struct gc_snapshots snapshots;   /* --snapshot-every schedule (off when not given) */
    struct gc_bodies scratch;        /* download target for energy and track measurements */
    int headless;                    /* 1 = EGL offscreen, no GLUT calls */

    struct gc_app_frames frames;
    struct gc_app_picture picture;
    struct gc_app_view view;
    struct gc_app_input input;
    struct gc_app_stats stats;
    struct gc_app_playback playback;
    struct gc_app_scene scene;
    struct gc_app_window win;

    /* a failure while running: reported once, simulation paused */
    enum gc_status failure;
    char failure_msg[160];
};

/* The calls between the parts, bottom up: a part calls only those declared above it, so
 * none of them depends on the ones that drive it (tools/layering.sh checks the object files). */

/* run.c: what every part asks of the run. */
int gc_app_henon(const struct gc_app *a);
int gc_app_block_steps(const struct gc_app *a);
/* The simulated time as text: style 0 the HUD's, 1 the title's and log's, 2 --present's. */
void gc_app_time_text(const struct gc_app *a, int style, char *buf, size_t size);
/* The name of galaxy g for labels ("Milky Way"); NULL when it has none (a star cluster). */
const char *gc_app_galaxy_name(const struct gc_app *a, int g);
/* "Milky Way and Andromeda (8192 bodies)": what the window's title names. */
void gc_app_scene_name(const struct gc_app *a, char *buf, size_t size);
/* The window's title (left alone headless), and the one that names the program and the scene. */
void gc_app_window_title(struct gc_app *a, const char *text);
void gc_app_window_scene_title(struct gc_app *a);
/* The simulation's state into the render buffer the next draw reads. */
enum gc_status gc_app_export(struct gc_app *a);
/* Puts the simulation on hold after a failure and remembers one message for title and HUD;
 * later failures are not reported until a reset. */
void gc_app_fail(struct gc_app *a, enum gc_status st, const char *what);

/* views.c: the home view, the camera, where the galaxies are. */
void gc_app_view_init(struct gc_app *a);
void gc_app_view_reset(struct gc_app *a);
void gc_app_view_refit(struct gc_app *a); /* the window changed shape */
void gc_app_view_set(struct gc_app *a, enum gc_view v);
void gc_app_view_frame(struct gc_app *a, float view[16], float proj[16]);
int gc_app_view_still(const struct gc_app *a);
/* Where the galaxies are, re-measured every few frames while asked for; NULL when unknown. */
const struct gc_track *gc_app_view_track(struct gc_app *a);

/* playback.c: speed and direction, going back, the clock's words, notes. */
/* The automatic speed brings the first passage this many seconds of wall clock after the
 * start. */
#define GC_APP_AUTO_PASSAGE_S 30.0
enum gc_status gc_app_playback_init(struct gc_app *a); /* after the simulation's init */
/* --start-at: the run advanced there before anything is drawn. */
enum gc_status gc_app_playback_start_at(struct gc_app *a);
/* Steps for this frame (window, not fixed by --substeps): the speed's share of the wall
 * time since the last frame, at most `cap` (the machine's). */
unsigned gc_app_playback_steps(struct gc_app *a, unsigned cap, double now);
/* Where k steps of this frame go: forwards or backwards (held at the start). */
double gc_app_playback_target(struct gc_app *a, unsigned k);
/* After the frame's steps: the start reached going backwards pauses. */
void gc_app_playback_landed(struct gc_app *a);
/* The one way to put the run at time t (N-body units): the time line's seek, then the
 * picture and the views catch up. */
void gc_app_seek(struct gc_app *a, double t);
void gc_app_reset(struct gc_app *a); /* key 'r' */
void gc_app_speed(struct gc_app *a, int change);     /* +1 faster, -1 slower, 0 automatic */
void gc_app_direction(struct gc_app *a, int backwards);
void gc_app_jump_event(struct gc_app *a, int later); /* Page Down (1), Page Up (0) */
void gc_app_scrub(struct gc_app *a, int later);      /* Right (1), Left (0) */
void gc_app_jump_end(struct gc_app *a, int end);     /* End (1), Home (0) */
/* The time line's span on the bar: [start, end] in N-body units. */
void gc_app_timeline_span(const struct gc_app *a, double *start, double *end);
/* The next passage of the Kepler orbit when no event ahead is known yet (N-body time);
 * -1 when none. */
double gc_app_predicted_passage(const struct gc_app *a, int *number);
/* The clock ("t = 412 Myr since the start"), the next event ("first passage in 120 Myr")
 * and the speed ("forwards, 9.2 Myr/s (automatic)"). */
void gc_app_clock_text(const struct gc_app *a, char *clock, size_t clock_size, char *next,
                       size_t next_size, char *speed, size_t speed_size);
/* A message on screen for a few seconds, and in the log. */
void gc_app_note(struct gc_app *a, int warn, const char *fmt, ...) GC_PRINTF(3, 4);
/* The rate shown, measured once a second (stats). */
void gc_app_playback_measure(struct gc_app *a, double now);

/* frame_loop.c: the simulation's part of each frame. */
void gc_app_frames_init(struct gc_app *a); /* the pacer and its fences (GL current) */
void gc_app_advance(struct gc_app *a, int may_step);
void gc_app_frame_begin(struct gc_app *a);
void gc_app_frame_end(struct gc_app *a);

/* stats.c: rates and energy. */
void gc_app_stats_init(struct gc_app *a);
void gc_app_stats_update(struct gc_app *a, double now);
void gc_app_energy_measure(struct gc_app *a, double now);
void gc_app_energy_refresh(struct gc_app *a, double now, int busy);

/* app_scene.c: the encounter panel (key e), restarts, scenes (key w). */
void gc_app_scene_init(struct gc_app *a);
void gc_app_scene_free(struct gc_app *a);
void gc_app_scene_modes(struct gc_app *a);              /* --draw, --colour (GL ready) */
int gc_app_scene_key(struct gc_app *a, int key);        /* 1 = the key was the panel's */
int gc_app_scene_mouse(struct gc_app *a, int button, int x, int y); /* 1 = the panel's */
void gc_app_scene_idle(struct gc_app *a);               /* a pending restart */
void gc_app_scene_draw(struct gc_app *a);               /* the panel, when open */

/* timeline_bar.c, annotations.c: the time line at the bottom of the window; the galaxies'
 * names, the scale bar, the colours' legend. */
void gc_app_timeline_bar_draw(struct gc_app *a);
/* Where the time line's strip begins (pixels from the top): what sits above it goes there. */
float gc_app_timeline_bar_top(struct gc_app *a);
/* The time (N-body units) at window pixel (x, y) when it is on the time line's strip; -1
 * elsewhere. */
double gc_app_timeline_bar_time(struct gc_app *a, float x, float y);
void gc_app_annotations_draw(struct gc_app *a, const float view[16], const float proj[16]);

/* picture.c: drawing, overlays, screenshots and movies. */
enum gc_status gc_app_picture_init(struct gc_app *a);
enum gc_status gc_app_picture_choose_raster(struct gc_app *a);
void gc_app_picture_free(struct gc_app *a);
void gc_app_picture_draw(struct gc_app *a);
void gc_app_picture_to_gl(struct gc_app *a);
void gc_app_picture_outputs(struct gc_app *a);
enum gc_status gc_app_picture_save(struct gc_app *a, const char *path);
enum gc_status gc_app_picture_record(struct gc_app *a, const char *path);

/* input.c: keys and mouse. A key may ask for what only the window does (headless has none);
 * the window does it. */
enum gc_app_window_ask { GC_APP_WINDOW_NONE, GC_APP_WINDOW_QUIT, GC_APP_WINDOW_FULLSCREEN };
enum gc_app_window_ask gc_app_input_key(struct gc_app *a, unsigned char key);
void gc_app_input_button(struct gc_app *a, int button, int state, int x, int y);
void gc_app_input_motion(struct gc_app *a, int x, int y);
void gc_app_input_special(struct gc_app *a, int key); /* GLUT_KEY_* */

/* app.c: assembly (for window.c and headless.c). */
enum gc_status gc_app_init(struct gc_app *a, const struct gc_options *opt,
                           const struct gc_bodies *initial, struct gc_backend *backend,
                           struct gc_comm *comm);
void gc_app_free(struct gc_app *a); /* also after a failed gc_app_init */
/* Before the first frame: the energy at the start, then --start-at's run without drawing. */
enum gc_status gc_app_prerun(struct gc_app *a);
/* The GL side, once a context is current: renderer, post, HUD, pacer, the first picture. */
enum gc_status gc_app_gl_init(struct gc_app *a);
void gc_app_gl_teardown(struct gc_app *a); /* safe to call twice */
/* The one line a run stopped by SIGINT or SIGTERM ends with: signal, time, steps, frames,
 * the last complete snapshot. */
void gc_app_report_stop(struct gc_app *a);

#endif
