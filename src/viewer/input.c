/* The viewer's input: keys and mouse, handed to the part each belongs to. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <GL/freeglut.h>
#include <math.h>

#include "log.h"

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

enum gc_app_window_ask gc_app_input_key(struct gc_app *a, unsigned char key)
{
    struct gc_app_picture *p = &a->picture;
    struct gc_render *r = &p->render;
    enum gc_app_window_ask ask = GC_APP_WINDOW_NONE;
    if (!p->gl_ready)
        return GC_APP_WINDOW_NONE;
    if (gc_app_scene_key(a, key)) {
        glutPostRedisplay();
        return GC_APP_WINDOW_NONE;
    }
    switch (key) {
    case 'q': case 'Q': case 27: return GC_APP_WINDOW_QUIT;
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
    case 'f': case 'F': ask = GC_APP_WINDOW_FULLSCREEN; break;
    case 'h': case 'H': case '?': p->show_help = !p->show_help; break;
    case 'i': case 'I': p->show_hud = !p->show_hud; break;
    case 'g': case 'G': p->guides = !p->guides; break;
    case 's': case 'S': p->screenshot_pending = 1; break;
    default: return GC_APP_WINDOW_NONE;
    }
    glutPostRedisplay();
    return ask;
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
