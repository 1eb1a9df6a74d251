/* The viewer's window: freeglut set-up, its callbacks (each handed the gc_app), gc_app_run. */
/* SPDX-License-Identifier: MIT */
#include "app.h"
#include "app_parts.h"

#include <GL/glew.h>
#include <GL/freeglut.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gl_context_egl.h"
#include "gl_context_glx.h"
#include "log.h"
#include "stop.h"

/* Longest screen time one window frame may advance camera moves and the exposure (a stall
 * must not make the camera jump). */
#define MAX_FRAME_DT 0.1

static void quit(struct gc_app *a)
{
    gc_app_gl_teardown(a);  /* the window's context is current in this callback */
    glutLeaveMainLoop();
}

static void toggle_fullscreen(struct gc_app *a)
{
    a->win.fullscreen = !a->win.fullscreen;
#ifdef GC_HAVE_GLUT_UCALL
    glutFullScreenToggle();
#else
    /* freeglut 2.8 without a window manager does not restore the size on leaving full
     * screen; resizing leaves it (with or without one), to the --size the window had. */
    if (a->win.fullscreen)
        glutFullScreen();
    else
        glutReshapeWindow(a->opt->width, a->opt->height);
#endif
}

static void on_display(void *ud)
{
    struct gc_app *a = ud;
    double now = gc_clock_seconds();
    if (!a->picture.gl_ready)
        return;
    gc_app_frame_begin(a);
    a->frames.dt = a->frames.t_prev > 0.0 ? fmin(now - a->frames.t_prev, MAX_FRAME_DT) : 0.0;
    a->frames.t_prev = now;
    gc_app_picture_draw(a);
    a->frames.drawn++;
    a->stats.frames++;
    gc_app_picture_outputs(a);
    glutSwapBuffers();
    gc_app_frame_end(a);
}

static void on_idle(void *ud)
{
    struct gc_app *a = ud;
    double now = gc_clock_seconds();
    if (!a->picture.gl_ready)
        return;
    /* SIGINT or SIGTERM (the steps stop too, between steps): the movie is finished and
     * the window closes as on 'q'. */
    if (gc_stop_requested() || a->failure == GC_ERR_INTERRUPTED) {
        a->failure = GC_ERR_INTERRUPTED;
        gc_app_report_stop(a);
        quit(a);
        return;
    }
    gc_app_scene_idle(a);
    /* The first frame shows the initial state, so --screenshot-after 1 and 'r' agree. */
    if (a->frames.drawn > 0) {
        int busy = !a->input.paused || a->input.step_once;
        gc_app_frame_begin(a);
        gc_app_advance(a, 1);
        gc_app_energy_refresh(a, now, busy);
        if (!busy && !a->frames.stepped && gc_app_view_still(a) &&
            !a->picture.exposure.adapting && !a->picture.capture.rec) {
            /* Paused and still: nothing changes but the view; don't spin a core redrawing. */
            struct timespec ts = {0, 15 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    gc_app_stats_update(a, gc_clock_seconds());
    glutPostRedisplay();
}

static void on_reshape(int w, int h, void *ud)
{
    struct gc_app *a = ud;
    a->picture.fb_w = w > 0 ? w : 1;
    a->picture.fb_h = h > 0 ? h : 1;
    gc_app_view_refit(a);
}

static void on_keyboard(unsigned char key, int x, int y, void *ud)
{
    (void)x;
    (void)y;
    switch (gc_app_input_key(ud, key)) {
    case GC_APP_WINDOW_QUIT: quit(ud); break;
    case GC_APP_WINDOW_FULLSCREEN: toggle_fullscreen(ud); break;
    case GC_APP_WINDOW_NONE: break;
    }
}

static void on_special(int key, int x, int y, void *ud)
{
    (void)x;
    (void)y;
    gc_app_input_special(ud, key);
}

static void on_mouse(int button, int state, int x, int y, void *ud)
{
    gc_app_input_button(ud, button, state, x, y);
}

static void on_motion(int x, int y, void *ud)
{
    gc_app_input_motion(ud, x, y);
}

static void on_close(void *ud)
{
    gc_app_gl_teardown(ud);
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
    a->picture.fb_w = a->opt->width;
    a->picture.fb_h = a->opt->height;
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
        a->win.fullscreen = 1;
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
static void on_special0(int key, int x, int y)
{
    struct gc_app *a = window_app();
    if (a)
        on_special(key, x, y, a);
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
    glutSpecialFuncUcall(on_special, a);
    glutMouseFuncUcall(on_mouse, a);
    glutMotionFuncUcall(on_motion, a);
    glutCloseFuncUcall(on_close, a);
#else
    glutSetWindowData(a);
    glutDisplayFunc(on_display0);
    glutIdleFunc(on_idle0);
    glutReshapeFunc(on_reshape0);
    glutKeyboardFunc(on_keyboard0);
    glutSpecialFunc(on_special0);
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
    st = gc_app_init(a, opt, initial, backend, comm);
    /* Without FFmpeg this says how to get it, before a window opens. */
    if (st == GC_OK && opt->record && !gc_record_available())
        st = gc_app_picture_record(a, opt->record);
    /* --start-at: the run gets there before the window opens. */
    if (st == GC_OK)
        st = gc_app_prerun(a);
    if (st == GC_OK)
        st = open_window(a, argc, argv);
    if (st == GC_OK)
        gc_app_window_scene_title(a);
    if (st == GC_OK)
        st = gc_app_gl_init(a);
    if (st == GC_OK) {
        a->picture.record_pending = opt->record != NULL;
        if (opt->tour)
            gc_app_view_set(a, GC_VIEW_TOUR);
        set_callbacks(a);
        gc_stop_startup(0); /* from here a stop is heard between frames (stop.h) */
        glutMainLoop();
        /* Returns after 'q' (teardown done there) or the window closing (on_close). */
        st = a->failure;
    } else if (glutGet(GLUT_INIT_STATE)) {
        gc_app_gl_teardown(a);
        glutExit();
    }
    gc_app_free(a);
    free(a);
    return st;
}
