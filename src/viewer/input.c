/* The viewer's input and views: keys, mouse, the camera the director moves, the galaxies' track. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <GL/freeglut.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "tour.h"

/* A following view re-measures where the galaxies are every this many frames, from this
 * many bodies at most: a download of all bodies at 1M would cost a large part of a frame,
 * so it is sampled and spread over frames; the director smooths between measurements. */
#define TRACK_EVERY 15u
#define TRACK_SAMPLES 32768

static float window_aspect(const struct gc_app *a)
{
    return (float)a->picture.fb_w / (float)(a->picture.fb_h > 0 ? a->picture.fb_h : 1);
}

void gc_app_view_init(struct gc_app *a)
{
    struct gc_track t0;
    /* The tour looks along the orbit's normal as it is at the start (later there is no
     * orbit to measure); a set with no stars at all is simply not tracked. */
    memset(&t0, 0, sizeof t0);
    t0.orbit_axis[2] = 1.0f;
    if (gc_track_measure(a->initial, TRACK_SAMPLES, &t0) == GC_OK) {
        a->view.track = t0;
        a->view.track_ok = 1;
    }
    /* The home view frames the stars (dark matter, hidden by default, spreads ~10x wider)
     * in the window as it opens. */
    a->view.home_aspect = window_aspect(a);
    gc_app_scene_home(a, a->view.home_aspect, &a->view.home);
    a->view.sprite_distance = gc_camera_sphere_distance(&a->view.home, a->initial->pos,
                                                        a->initial->tag, a->initial->n);
    gc_director_init(&a->view.director, &a->view.home, t0.orbit_axis);
}

/* A window of another shape frames the stars differently: the home view is fitted again
 * (to the bodies as they started, as at the start), and a camera still at home, free and
 * untouched, goes with it; one the user moved stays where it is. */
void gc_app_view_refit(struct gc_app *a)
{
    const float aspect = window_aspect(a);
    int at_home;
    if (!(a->view.home_aspect > 0.0f) || fabsf(aspect - a->view.home_aspect) <=
                                             1e-3f * a->view.home_aspect)
        return;
    at_home = a->view.director.view == GC_VIEW_FREE && !a->view.director.orbit &&
              memcmp(&a->view.camera, &a->view.home, sizeof a->view.camera) == 0;
    a->view.home_aspect = aspect;
    gc_app_scene_home(a, aspect, &a->view.home);
    a->view.director.home = a->view.home;
    if (at_home)
        a->view.camera = a->view.home;
}

/* Key 'r': the home view, free, not orbiting; the track is measured afresh when needed. */
void gc_app_view_reset(struct gc_app *a)
{
    a->view.camera = a->view.home;
    gc_director_set_view(&a->view.director, GC_VIEW_FREE, &a->view.camera);
    a->view.director.orbit = 0;
    a->view.track_ok = 0;
}

/* Where the galaxies are now, for the following views: measured from a download every
 * TRACK_EVERY frames (force: now). */
static void update_track(struct gc_app *a, int force)
{
    struct gc_app_view *v = &a->view;
    enum gc_status st;
    if (!force && v->track_ok && v->track_age < TRACK_EVERY)
        return;
    v->track_age = 0;
    st = gc_sim_download(a->sim, &a->scratch);
    if (st == GC_OK)
        st = gc_track_measure(&a->scratch, TRACK_SAMPLES, &v->track);
    v->track_ok = st == GC_OK;
}

const struct gc_track *gc_app_view_track(struct gc_app *a)
{
    update_track(a, 0);
    return a->view.track_ok ? &a->view.track : NULL;
}

/* This frame's camera (the director's move advanced by the frame's screen time) as matrices. */
void gc_app_view_frame(struct gc_app *a, float view[16], float proj[16])
{
    struct gc_app_view *v = &a->view;
    const int w = a->picture.fb_w, h = a->picture.fb_h;
    if (gc_director_following(&v->director))
        update_track(a, 0);
    v->track_age++;
    gc_director_update(&v->director, v->track_ok ? &v->track : NULL, gc_sim_time_myr(a->sim),
                       a->frames.dt, &v->camera);
    gc_camera_view(&v->camera, view);
    gc_camera_projection(&v->camera, (float)w / (float)(h > 0 ? h : 1), proj);
}

/* 1 when the camera stays where it is without input (nothing followed, orbiting or moving). */
int gc_app_view_still(const struct gc_app *a)
{
    const struct gc_director *d = &a->view.director;
    return !gc_director_following(d) && !d->orbit && d->move_len <= 0.0;
}

void gc_app_view_set(struct gc_app *a, enum gc_view v)
{
    if (v == GC_VIEW_TOUR && gc_app_henon(a)) {
        gc_log_warn("the tour follows a galaxy encounter, timed in Myr; a star cluster has "
                    "none ('o' orbits the camera, 1 2 3 frame it)");
        return;
    }
    if (v != GC_VIEW_HOME && v != GC_VIEW_FREE)
        update_track(a, 1);  /* frame the galaxies where they are now */
    gc_director_set_view(&a->view.director, v, &a->view.camera);
    if (v == GC_VIEW_TOUR) {
        const struct gc_tour_shot *s = gc_tour_shot(gc_tour_at(gc_sim_time_myr(a->sim)));
        gc_log_info("tour: %s (%.0f Myr)", s->name, gc_sim_time_myr(a->sim));
    }
}

static void toggle_recording(struct gc_app *a)
{
    if (a->picture.capture.rec) {
        struct gc_record_stats s;
        if (gc_capture_stop(&a->picture.capture, &s) != GC_OK)
            gc_log_warn("the movie may be incomplete");
    } else if (gc_app_picture_record(a, NULL) != GC_OK) {
        gc_log_warn("recording did not start; the viewer goes on");
    }
}

/* Keys , . x: exposure half a stop down / up, or auto / locked. */
static void exposure_key(struct gc_exposure *e, unsigned char key)
{
    if (key == 'x' || key == 'X') {
        e->manual = !e->manual;
        gc_log_info("exposure %s (EV %+.2f)", e->manual ? "locked" : "auto", e->ev);
        return;
    }
    {
        float step = key == ',' ? -GC_EXPOSURE_STEP_EV : GC_EXPOSURE_STEP_EV;
        if (e->manual)
            e->ev += step;
        else
            e->bias += step, e->adapting = 1;
        gc_log_info("exposure %s EV %+.1f", e->manual ? "locked at" : "compensation",
                    e->manual ? e->ev : e->bias);
    }
}

/* Keys [ ]: halve or double dt, where the scheme has one shared step (its sign says which
 * way the run goes: the size is what changes). */
static void dt_key(struct gc_app *a, unsigned char key)
{
    const float dt = gc_sim_params(a->sim)->dt;
    if (gc_app_block_steps(a)) {
        gc_log_info("%s chooses each body's step itself (--eta, --dt-max)",
                    gc_sim_scheme(a->sim)->name);
        return;
    }
    if (gc_timeline_set_dt(&a->playback.timeline, a->sim,
                           fabsf(dt) * (key == '[' ? 0.5f : 2.0f)) == GC_OK)
        gc_log_info("dt = %g (%.3g Myr)", fabsf(gc_sim_params(a->sim)->dt),
                    fabsf(gc_sim_params(a->sim)->dt) * GC_MYR_PER_TIME_UNIT);
}

void gc_app_input_key(struct gc_app *a, unsigned char key)
{
    struct gc_app_picture *p = &a->picture;
    struct gc_render *r = &p->render;
    if (!p->gl_ready)
        return;
    if (gc_app_scene_key(a, key)) {
        glutPostRedisplay();
        return;
    }
    switch (key) {
    case 'q': case 'Q': case 27: gc_app_window_quit(a); return;
    case ' ': if (a->failure == GC_OK) a->input.paused = !a->input.paused; break;
    case 'n': case 'N': if (a->input.paused) a->input.step_once = 1; break;
    case 'r': case 'R': gc_app_reset(a); break;
    case 'd': case 'D':
        r->draw_mode = (r->draw_mode + 1) % GC_DRAW_COUNT;
        gc_log_info("drawing %s", gc_render_draw_mode_name(r->draw_mode));
        break;
    case 'c': case 'C':
        r->color_mode = (r->color_mode + 1) % GC_COLOR_COUNT;
        if (r->color_mode == GC_COLOR_LEVEL && !gc_app_block_steps(a)) /* one shared step */
            r->color_mode = (r->color_mode + 1) % GC_COLOR_COUNT;
        gc_log_info("colours: %s", gc_render_color_mode_name(r->color_mode));
        break;
    case 'm': case 'M':
        r->halo_view = (r->halo_view + 1) % GC_HALO_COUNT;
        gc_log_info("showing %s", gc_render_halo_view_name(r->halo_view));
        break;
    case '+': case '=': r->size_factor = fminf(r->size_factor * 1.25f, 8.0f); break;
    case '-': case '_': r->size_factor = fmaxf(r->size_factor / 1.25f, 0.25f); break;
    case ',': case '.': case 'x': case 'X': exposure_key(&p->exposure, key); break;
    case 'b': case 'B': p->glow = !p->glow; break;
    case '1': gc_app_view_set(a, GC_VIEW_FACE_ON); break;
    case '2': gc_app_view_set(a, GC_VIEW_EDGE_ON); break;
    case '3': gc_app_view_set(a, GC_VIEW_OVERVIEW); break;
    case '0': gc_app_view_set(a, GC_VIEW_HOME); break;
    case 'o': case 'O': a->view.director.orbit = !a->view.director.orbit; break;
    case 't': case 'T':
        if (a->view.director.view == GC_VIEW_TOUR)
            gc_director_release(&a->view.director);
        else
            gc_app_view_set(a, GC_VIEW_TOUR);
        break;
    case 'v': case 'V': toggle_recording(a); break;
    case 'p': case 'P':
        p->present_hud = !p->present_hud;
        if (p->present_hud)
            p->show_hud = 0;
        break;
    case '[': case ']': dt_key(a, key); break;
    case 'j': case 'J': gc_app_direction(a, 1); break;
    case 'l': case 'L': gc_app_direction(a, 0); break;
    case 'a': case 'A': gc_app_speed(a, 0); break;
    case 'f': case 'F': gc_app_window_fullscreen(a); break;
    case 'h': case 'H': case '?': p->show_help = !p->show_help; break;
    case 'i': case 'I': p->show_hud = !p->show_hud; break;
    case 'g': case 'G': p->guides = !p->guides; break;
    case 's': case 'S': p->screenshot_pending = 1; break;
    default: return;
    }
    glutPostRedisplay();
}

/* Arrows, Page Up and Down, Home and End: speed and the time line; the arrows are the
 * encounter panel's while it is open. */
void gc_app_input_special(struct gc_app *a, int key)
{
    static const int panel_keys[][2] = {{GLUT_KEY_UP, GC_PANEL_KEY_UP},
                                        {GLUT_KEY_DOWN, GC_PANEL_KEY_DOWN},
                                        {GLUT_KEY_LEFT, GC_PANEL_KEY_LEFT},
                                        {GLUT_KEY_RIGHT, GC_PANEL_KEY_RIGHT}};
    if (!a->picture.gl_ready)
        return;
    for (size_t k = 0; k < sizeof panel_keys / sizeof panel_keys[0]; k++)
        if (key == panel_keys[k][0] && gc_app_scene_key(a, panel_keys[k][1])) {
            glutPostRedisplay();
            return;
        }
    switch (key) {
    case GLUT_KEY_UP: gc_app_speed(a, 1); break;
    case GLUT_KEY_DOWN: gc_app_speed(a, -1); break;
    case GLUT_KEY_LEFT: gc_app_scrub(a, 0); break;
    case GLUT_KEY_RIGHT: gc_app_scrub(a, 1); break;
    case GLUT_KEY_PAGE_UP: gc_app_jump_event(a, 0); break;
    case GLUT_KEY_PAGE_DOWN: gc_app_jump_event(a, 1); break;
    case GLUT_KEY_HOME: gc_app_jump_end(a, 0); break;
    case GLUT_KEY_END: gc_app_jump_end(a, 1); break;
    default: return;
    }
    glutPostRedisplay();
}

void gc_app_input_button(struct gc_app *a, int button, int state, int x, int y)
{
    struct gc_app_input *in = &a->input;
    if (state == GLUT_DOWN && gc_app_scene_mouse(a, button, x, y)) {
        glutPostRedisplay();
        return;
    }
    /* freeglut reports the wheel as buttons 3 (away from the user) and 4 (towards). */
    if ((button == 3 || button == 4) && state == GLUT_DOWN) {
        gc_director_release(&a->view.director);
        gc_camera_zoom(&a->view.camera, button == 3 ? 1.0f / 1.1f : 1.1f);
        glutPostRedisplay();
        return;
    }
    if (button < 0 || button > 2)
        return;
    if (button == GLUT_LEFT_BUTTON && state == GLUT_DOWN) {
        /* A click on the time line goes there (no further than it is computed). */
        const double t = gc_app_timeline_bar_time(a, (float)x, (float)y);
        if (t >= 0.0) {
            gc_app_seek(a, fmin(t, gc_timeline_horizon(&a->playback.timeline)));
            glutPostRedisplay();
            return;
        }
    }
    if (state == GLUT_DOWN)
        in->mouse_buttons |= 1 << button;
    else
        in->mouse_buttons &= ~(1 << button);
    in->mouse_x = x;
    in->mouse_y = y;
}


void gc_app_input_motion(struct gc_app *a, int x, int y)
{
    struct gc_app_input *in = &a->input;
    struct gc_camera *cam = &a->view.camera;
    float dx = (float)(x - in->mouse_x), dy = (float)(y - in->mouse_y);
    in->mouse_x = x;
    in->mouse_y = y;
    if (in->mouse_buttons)
        gc_director_release(&a->view.director);  /* the mouse takes the camera */
    if (in->mouse_buttons & (1 << GLUT_LEFT_BUTTON))
        gc_camera_rotate(cam, dx, dy);
    else if (in->mouse_buttons & (1 << GLUT_RIGHT_BUTTON))
        gc_camera_zoom(cam, expf(0.005f * dy));
    else if (in->mouse_buttons & (1 << GLUT_MIDDLE_BUTTON))
        gc_camera_pan(cam, dx, dy, (float)a->picture.fb_h);
    glutPostRedisplay();
}
