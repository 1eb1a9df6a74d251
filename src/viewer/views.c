/* The viewer's views: the home view, the camera the director moves, where the galaxies are. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <string.h>

#include "log.h"
#include "tour.h"

#define PI_F 3.14159265358979f

/* A following view re-measures where the galaxies are every this many frames, from this
 * many bodies at most: a download of all bodies at 1M would cost a large part of a frame,
 * so it is sampled and spread over frames; the director smooths between measurements. */
#define TRACK_EVERY 15u
#define TRACK_SAMPLES 32768

static float window_aspect(const struct gc_app *a)
{
    return (float)a->picture.fb_w / (float)(a->picture.fb_h > 0 ? a->picture.fb_h : 1);
}

/* The home view: --camera, else an encounter's sky view, else framed from the default angle. */
static void fit_home(const struct gc_app *a, float aspect, struct gc_camera *home)
{
    const struct gc_options *o = a->opt;
    const struct gc_bodies *b = a->initial;
    if (o->camera_given) {
        /* --camera: the view as given (a scene's camera), fitted only for its zoom limits */
        gc_camera_fit(home, b->pos, b->tag, b->n, aspect);
        home->yaw = (float)o->camera[0] * PI_F / 180.0f;
        home->pitch = (float)o->camera[1] * PI_F / 180.0f;
        home->distance = (float)o->camera[2];
        for (int k = 0; k < 3; k++)
            home->target[k] = (float)o->camera[3 + k];
        home->min_distance = fminf(home->min_distance, 0.5f * home->distance);
        home->max_distance = fmaxf(home->max_distance, 2.0f * home->distance);
    } else if (a->scene.pair && !a->scene.running.legacy) {
        /* An encounter is built in its sky frame: seen from -y, z up (encounter.h). Far
         * enough for a sphere around the stars too: two galaxies one behind the other at the
         * start would be framed as one, and meet and throw tails well outside that frame. */
        gc_camera_fit_at(home, -0.5f * PI_F, 0.0f, GC_CAMERA_FIT_KEEP, b->pos, b->tag, b->n,
                         aspect);
        home->distance = fmaxf(home->distance,
                               gc_camera_sphere_distance(home, b->pos, b->tag, b->n));
    } else {
        gc_camera_fit(home, b->pos, b->tag, b->n, aspect);
    }
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
    fit_home(a, a->view.home_aspect, &a->view.home);
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
    fit_home(a, aspect, &a->view.home);
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
    if (v->follow) {
        /* Framed as the home view is, from the angle it has now, on the stars this frame
         * shows: a headless picture late in a run keeps its tails, which the stars as they
         * started do not reach. */
        if (gc_sim_download(a->sim, &a->scratch) == GC_OK)
            gc_camera_fit_at(&v->camera, v->camera.yaw, v->camera.pitch, GC_CAMERA_FOLLOW_KEEP,
                             a->scratch.pos, a->scratch.tag, a->scratch.n, window_aspect(a));
    } else {
        if (gc_director_following(&v->director))
            update_track(a, 0);
        v->track_age++;
        gc_director_update(&v->director, v->track_ok ? &v->track : NULL,
                           gc_sim_time_myr(a->sim), a->frames.dt, &v->camera);
    }
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
