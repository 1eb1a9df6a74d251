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
#include "diagnostics.h"
#include "gl_context_egl.h"
#include "gl_context_glx.h"
#include "hud.h"
#include "log.h"
#include "render.h"
#include "screenshot.h"
#include "shader.h"
#include "sim.h"
#include "snapshots.h"

/* Flops per body-body interaction in the GFLOP/s figure: the classic CUDA nbody convention
 * (cuda-samples nbody, GPU Gems 3 ch. 31), which counts a softened interaction as 20. */
#define FLOPS_PER_INTERACTION 20.0
/* Energy re-measured at most this often (seconds), and never more often than 20 times its
 * own cost, so the O(N^2) potential takes at most 5% of the frame time. */
#define ENERGY_INTERVAL_S 2.0
/* Above this N on a backend without a fast potential, energy is measured once at start only
 * when it is cheap; the HUD then says so instead of stalling every few seconds. */
#define ENERGY_MAX_HOST_N 32768

struct gc_app {
    const struct gc_options *opt;    /* command line, not owned */
    const struct gc_bodies *initial; /* initial state for 'r', not owned */
    struct gc_backend *backend;      /* not owned */
    struct gc_sim sim;
    struct gc_render render;
    struct gc_hud hud;
    struct gc_camera camera, camera_home; /* current view and the one 'r' restores */
    struct gc_bodies scratch;        /* download target for energy measurements */
    struct gc_snapshots snapshots;   /* --snapshot-every schedule (off when not given) */
    char shader_dir[4096];
    int gl_ready;                    /* 1 while renderer and HUD GL objects exist */
    int headless;                    /* 1 = EGL offscreen, no GLUT calls */
    unsigned auto_steps;             /* steps per frame chosen by --substeps auto; starts at 1 */

    /* interaction state */
    int paused, step_once, show_hud, show_help, fullscreen, quit;
    int mouse_buttons;               /* bit i set while GLUT button i is down */
    int mouse_x, mouse_y;
    int fb_w, fb_h;                  /* framebuffer size, pixels */
    int screenshot_pending;          /* 's' pressed: save after the next draw */
    unsigned screenshot_seq;
    unsigned frames_drawn;           /* display calls since start (not reset by 'r') */

    /* statistics, refreshed once a second */
    double t_window;                 /* start of the current 1 s window, s */
    unsigned frames_window;
    uint64_t steps_window;
    double fps, sps;                 /* frames/s and steps/s of the last window */
    double e0;                       /* energy at start, N-body units */
    double drift;                    /* (E - E0) / |E0| at the last measurement */
    int energy_state;                /* 0 not measured, 1 measured, -1 off (too costly) */
    double next_energy_t, energy_cost;

    /* a failure while running: reported once, simulation paused */
    enum gc_status failure;
    char failure_msg[160];
    enum gc_status result;           /* what gc_app_run returns */
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
    return a->initial->n <= ENERGY_MAX_HOST_N || strcmp(gc_backend_name(a->backend), "cuda") == 0;
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

/* Backend -> render buffer -> VBO. */
static enum gc_status export_frame(struct gc_app *a)
{
    enum gc_status st = gc_sim_export(&a->sim, gc_render_target(&a->render));
    if (st == GC_OK)
        st = gc_render_upload(&a->render);
    return st;
}

static enum gc_status gl_init(struct gc_app *a)
{
    enum gc_status st = gc_shader_find_dir(a->shader_dir, sizeof a->shader_dir);
    if (st != GC_OK)
        return st;
    gc_camera_fit(&a->camera_home, a->initial->pos, a->initial->n);
    a->camera = a->camera_home;
    st = gc_render_init(&a->render, a->shader_dir, a->initial, a->camera_home.distance);
    if (st != GC_OK)
        return st;
    st = gc_hud_init(&a->hud, a->shader_dir);
    if (st != GC_OK) {
        gc_render_destroy(&a->render, a->backend);
        return st;
    }
    a->gl_ready = 1;
    return GC_OK;
}

static void gl_teardown(struct gc_app *a)
{
    if (!a->gl_ready)
        return;
    gc_hud_destroy(&a->hud);
    gc_render_destroy(&a->render, a->backend);
    a->gl_ready = 0;
}

static enum gc_status app_init(struct gc_app *a, const struct gc_options *opt,
                               const struct gc_bodies *initial, struct gc_backend *backend,
                               struct gc_comm *comm)
{
    enum gc_status st;
    memset(a, 0, sizeof *a);
    a->opt = opt;
    a->initial = initial;
    a->backend = backend;
    a->show_hud = 1;
    a->auto_steps = 1;
    a->fb_w = opt->width;
    a->fb_h = opt->height;
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
 * takes longer than the budget leaves one step per frame. Growth is capped at 2x per frame
 * so a hiccup (window move, energy measurement) cannot make the next frame stall. */
#define AUTO_STEP_BUDGET_S 0.012
#define AUTO_STEPS_MAX 256u

static void adapt_steps(struct gc_app *a, unsigned k, double elapsed)
{
    double want = elapsed > 0.0 ? k * AUTO_STEP_BUDGET_S / elapsed : 2.0 * k;
    unsigned next = (unsigned)fmin(fmin(want, 2.0 * k), (double)AUTO_STEPS_MAX);
    a->auto_steps = next < 1 ? 1 : next;
}

/* Advances the simulation by what this frame asks for and refreshes the VBOs. */
static void advance(struct gc_app *a)
{
    unsigned k = 0;
    int adapt = 0;
    double t0 = 0.0;
    enum gc_status st;
    if (a->failure != GC_OK)
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
    if (adapt)
        t0 = now_s();
    st = gc_snapshots_advance(&a->snapshots, &a->sim,
                              gc_sim_time(&a->sim) + k * gc_sim_frame_dt(&a->sim));
    if (st == GC_OK && adapt)
        st = gc_backend_sync(a->backend);
    if (st != GC_OK) {
        fail(a, st, "simulation step");
        return;
    }
    if (adapt)
        adapt_steps(a, k, now_s() - t0);
    a->steps_window += k;
    st = export_frame(a);
    if (st != GC_OK)
        fail(a, st, "position export");
}

static float pixel_scale(const struct gc_app *a)
{
    return fmaxf(0.5f, (float)a->fb_h / 800.0f);
}

static void update_stats(struct gc_app *a, double now)
{
    double dt = now - a->t_window;
    if (dt < 1.0)
        return;
    a->fps = a->frames_window / dt;
    a->sps = (double)a->steps_window / dt;
    a->frames_window = 0;
    a->steps_window = 0;
    a->t_window = now;
    if (!a->headless) {
        double n = (double)a->initial->n, ips = n * n * a->sps;
        char title[256], drift[32];
        if (a->failure != GC_OK)
            return;  /* the title keeps the failure message */
        if (a->energy_state > 0)
            snprintf(drift, sizeof drift, "%.2e", a->drift);
        else
            snprintf(drift, sizeof drift, "n/a");
        snprintf(title, sizeof title,
                 "galaxy | N %zu | %s | %.1f fps | %.1f steps/s | %.3g int/s | %.1f GFLOP/s "
                 "| %.1f Myr | dE/|E0| %s%s", a->initial->n, gc_backend_name(a->backend),
                 a->fps, a->sps, ips, FLOPS_PER_INTERACTION * ips * 1e-9,
                 gc_sim_time_myr(&a->sim), drift, a->paused ? " | paused" : "");
        glutSetWindowTitle(title);
    }
}

static void draw_hud(struct gc_app *a)
{
    static const float white[4] = {0.92f, 0.94f, 1.0f, 1.0f}, dim[4] = {0.6f, 0.65f, 0.75f, 1.0f},
                       warn[4] = {1.0f, 0.45f, 0.35f, 1.0f}, panel[4] = {0.0f, 0.0f, 0.0f, 0.6f};
    int scale = (int)fmaxf(1.0f, floorf((float)a->fb_h / 400.0f + 0.5f));
    char lines[9][200];
    int nl = 0;
    float lh, x, y, w = 0.0f;
    double n = (double)a->initial->n, ips = n * n * a->sps;
    struct gc_integrator_stats st;

    gc_sim_stats(&a->sim, &st);
    gc_hud_begin(&a->hud, a->fb_w, a->fb_h, scale);
    lh = gc_hud_line_height(&a->hud);
    if (a->show_hud) {
        snprintf(lines[nl++], sizeof lines[0], "N %zu   BACKEND %s (%s)", a->initial->n,
                 gc_backend_name(a->backend), gc_backend_device_name(a->backend));
        snprintf(lines[nl++], sizeof lines[0], "%.1f FPS   %.1f STEPS/S", a->fps, a->sps);
        snprintf(lines[nl++], sizeof lines[0], "%.3g INTERACTIONS/S   %.2f GFLOP/S", ips,
                 FLOPS_PER_INTERACTION * ips * 1e-9);
        snprintf(lines[nl++], sizeof lines[0], "(GFLOP/S AT 20 FLOPS PER INTERACTION)");
        snprintf(lines[nl++], sizeof lines[0], "T %.1f MYR   DT %g (%.3g MYR)   STEP %llu",
                 gc_sim_time_myr(&a->sim), a->sim.p.dt, a->sim.p.dt * GC_MYR_PER_TIME_UNIT,
                 (unsigned long long)st.steps);
        if (a->energy_state > 0)
            snprintf(lines[nl++], sizeof lines[0], "ENERGY DRIFT DE/|E0| %+.2e", a->drift);
        else
            snprintf(lines[nl++], sizeof lines[0], "ENERGY DRIFT: OFF FOR THIS N ON %s",
                     gc_backend_name(a->backend));
        snprintf(lines[nl++], sizeof lines[0], "DRAW %s   COLOUR %s   SIZE X%.2f",
                 gc_render_draw_mode_name(a->render.draw_mode),
                 gc_render_color_mode_name(a->render.color_mode), a->render.size_factor);
        snprintf(lines[nl++], sizeof lines[0], "%s", a->failure != GC_OK ? a->failure_msg
                                                     : a->paused ? "PAUSED (SPACE RUNS, N STEPS)"
                                                                 : "H: HELP   I: HIDE THIS");
        for (int i = 0; i < nl; i++)
            w = fmaxf(w, gc_hud_text_width(&a->hud, lines[i]));
        x = 6.0f * scale;
        y = 6.0f * scale;
        gc_hud_rect(&a->hud, x - 4.0f * scale, y - 3.0f * scale, w + 8.0f * scale,
                    nl * lh + 5.0f * scale, panel);
        for (int i = 0; i < nl; i++)
            gc_hud_text(&a->hud, x, y + i * lh, lines[i],
                        i == nl - 1 && a->failure != GC_OK ? warn : i == 3 ? dim : white);
    }
    if (a->show_help) {
        static const char *const help[] = {
            "KEYS",
            "SPACE   PAUSE / RUN",
            "N       ONE STEP WHILE PAUSED",
            "[  ]    HALVE / DOUBLE DT",
            "R       RESET SIMULATION AND CAMERA",
            "D       DRAW MODE: POINTS, SPRITES, PLAIN",
            "C       COLOUR: GALAXY, COMPONENT, VELOCITY, SPEED",
            "+  -    POINT SIZE",
            "I       STATISTICS (HUD)",
            "F       FULL SCREEN",
            "S       SAVE PNG SCREENSHOT",
            "H       THIS HELP",
            "Q ESC   QUIT",
            "",
            "MOUSE",
            "LEFT DRAG     ROTATE",
            "RIGHT DRAG    ZOOM (OR WHEEL)",
            "MIDDLE DRAG   PAN",
        };
        int hn = (int)(sizeof help / sizeof help[0]);
        float hw = 0.0f, hh = hn * lh;
        for (int i = 0; i < hn; i++)
            hw = fmaxf(hw, gc_hud_text_width(&a->hud, help[i]));
        x = floorf(0.5f * ((float)a->fb_w - hw));
        y = floorf(0.5f * ((float)a->fb_h - hh));
        gc_hud_rect(&a->hud, x - 10.0f * scale, y - 8.0f * scale, hw + 20.0f * scale,
                    hh + 14.0f * scale, panel);
        for (int i = 0; i < hn; i++)
            gc_hud_text(&a->hud, x, y + i * lh, help[i],
                        (i == 0 || i == 14) ? warn : white);
    }
    gc_hud_end(&a->hud);
}

static void draw(struct gc_app *a)
{
    float view[16], proj[16];
    glViewport(0, 0, a->fb_w, a->fb_h);
    glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    gc_camera_view(&a->camera, view);
    gc_camera_projection(&a->camera, (float)a->fb_w / (float)(a->fb_h > 0 ? a->fb_h : 1), proj);
    gc_render_draw(&a->render, view, proj, a->fb_w, a->fb_h, pixel_scale(a));
    if (a->show_hud || a->show_help)
        draw_hud(a);
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
    a->step_once = 0;
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

/* ---- window mode: freeglut callbacks, each handed the gc_app through user data ---- */

static void on_display(void *ud)
{
    struct gc_app *a = ud;
    if (!a->gl_ready)
        return;
    draw(a);
    a->frames_drawn++;
    a->frames_window++;
    if (a->screenshot_pending ||
        (a->opt->screenshot_after && a->frames_drawn == a->opt->screenshot_after)) {
        char path[4096];
        a->screenshot_pending = 0;
        glReadBuffer(GL_BACK);
        if (gc_screenshot_name(path, sizeof path, a->opt->screenshot_dir,
                               a->screenshot_seq++) == GC_OK)
            save_frame(a, path);  /* a failed screenshot is logged, the viewer goes on */
    }
    glutSwapBuffers();
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
        advance(a);
        if (a->energy_state >= 0 && now >= a->next_energy_t && (a->energy_state == 0 || busy))
            measure_energy(a, now);
        if (!busy) {
            /* Paused: nothing changes but the view; don't spin a core redrawing it. */
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
    case 'd': case 'D': a->render.draw_mode = (a->render.draw_mode + 1) % GC_DRAW_COUNT; break;
    case 'c': case 'C': a->render.color_mode = (a->render.color_mode + 1) % GC_COLOR_COUNT; break;
    case '+': case '=': a->render.size_factor = fminf(a->render.size_factor * 1.25f, 8.0f); break;
    case '-': case '_': a->render.size_factor = fmaxf(a->render.size_factor / 1.25f, 0.25f); break;
    case '[': case ']':
        st = gc_sim_set_dt(&a->sim, key == '[' ? 0.5f * a->sim.p.dt : 2.0f * a->sim.p.dt);
        if (st == GC_OK)
            gc_log_info("dt = %g (%.3g Myr)", a->sim.p.dt, a->sim.p.dt * GC_MYR_PER_TIME_UNIT);
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
    if (a->opt->fullscreen) {
        a->fullscreen = 1;
        glutFullScreen();
    }
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
    if (st == GC_OK)
        st = open_window(a, argc, argv);
    if (st == GC_OK)
        st = gl_init(a);
    if (st == GC_OK) {
        measure_energy(a, now_s());
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
    if (st == GC_OK)
        st = gc_egl_create(&egl, opt->width, opt->height);
    if (st == GC_OK)
        st = gl_init(a);
    if (st == GC_OK) {
        if (a->energy_state == 0)
            measure_energy(a, now_s());
        gc_sim_stats(&a->sim, &before);
        t0 = now_s();
        /* Frame 1 shows the initial state; each later frame first advances the simulation,
         * the same order as the window's idle/display pair. */
        for (unsigned f = 0; f < frames && a->failure == GC_OK; f++) {
            if (f > 0)
                advance(a);
            draw(a);
        }
        glFinish();
        elapsed = now_s() - t0;
        st = a->failure;
        if (st == GC_OK) {
            struct gc_integrator_stats stats;
            double ips;
            gc_sim_stats(&a->sim, &stats);
            ips = elapsed > 0 ? (stats.interactions - before.interactions) / elapsed : 0.0;
            if (a->energy_state > 0)
                measure_energy(a, now_s());
            gc_log_info("headless: %u frames, %llu steps in %.2f s: %.1f frames/s, %.3g "
                        "interactions/s, %.2f GFLOP/s (20 flops/interaction), t = %.1f Myr%s",
                        frames, (unsigned long long)(stats.steps - before.steps), elapsed,
                        frames / elapsed,
                        ips, FLOPS_PER_INTERACTION * ips * 1e-9, gc_sim_time_myr(&a->sim),
                        "");
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
