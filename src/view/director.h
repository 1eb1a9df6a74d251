/* Camera moves for talks: presets that follow the galaxies, smooth transitions, auto-orbit, the tour (no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_DIRECTOR_H
#define GC_DIRECTOR_H

#include "camera.h"
#include "track.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_view {
    GC_VIEW_FREE = 0,  /* the mouse's camera; nothing is followed */
    GC_VIEW_FACE_ON,   /* key 1: down the two disks' mean spin axis, both nuclei in view */
    GC_VIEW_EDGE_ON,   /* key 2: in the mean disk plane, the galaxies side by side */
    GC_VIEW_OVERVIEW,  /* key 3: every star in view, following their centre of mass */
    GC_VIEW_HOME,      /* key 0 (and 'r'): back to the starting view, then free */
    GC_VIEW_TOUR,      /* key t, --tour: the scripted tour (tour.h), timed by simulated time */
    GC_VIEW_COUNT
};

/* Seconds a change of view takes (eased at both ends). */
#define GC_DIRECTOR_MOVE_S 1.5
/* Time constant with which a followed view catches up with the galaxies, seconds: the
 * positions are measured every few frames and must not make the picture jump. */
#define GC_DIRECTOR_FOLLOW_TAU_S 0.5
/* Auto-orbit: one turn a minute. */
#define GC_DIRECTOR_ORBIT_RAD_PER_S (6.2831853 / 60.0)

struct gc_director {
    enum gc_view view;          /* default GC_VIEW_FREE */
    struct gc_camera home;      /* the starting view */
    struct gc_camera from;      /* where the running move started */
    struct gc_camera goal;      /* the followed view, smoothed */
    int goal_valid;             /* goal holds a view (reset by every change of view) */
    double move_t, move_len;    /* seconds into the running move, its length; 0 = none */
    int orbit;                  /* auto-orbit on (key o) */
    float orbit_yaw;            /* yaw the auto-orbit has added to a followed view, radians */
    float axis[3];              /* orbit normal the tour looks along (measured at the start) */
};

/* home: the starting view; orbit_axis: the orbit's normal at the start (gc_track). */
void gc_director_init(struct gc_director *d, const struct gc_camera *home,
                      const float orbit_axis[3]);
/* Changes the view, moving smoothly from `current` (the camera on screen now). */
void gc_director_set_view(struct gc_director *d, enum gc_view v, const struct gc_camera *current);
/* The user moved the camera with the mouse: stop following, keep the auto-orbit. */
void gc_director_release(struct gc_director *d);
/* 1 when the view follows the galaxies, so the caller should keep the track up to date. */
int gc_director_following(const struct gc_director *d);
/* The camera a following view asks for now (no smoothing, no move): fov and zoom limits
 * from base; FREE and HOME give base and home. */
void gc_director_goal(const struct gc_director *d, enum gc_view v, const struct gc_track *t,
                      double t_myr, const struct gc_camera *base, struct gc_camera *out);
/* Advances the camera by dt seconds (of the screen: wall time in the window, 1/fps when
 * headless) at simulated time t_myr; t may be NULL while the view is FREE or HOME. */
void gc_director_update(struct gc_director *d, const struct gc_track *t, double t_myr,
                        double dt, struct gc_camera *cam);
const char *gc_director_view_name(enum gc_view v);

#ifdef __cplusplus
}
#endif
#endif
