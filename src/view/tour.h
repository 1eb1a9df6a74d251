/* The scripted camera tour of an encounter: shots keyed by simulated time in Myr (no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_TOUR_H
#define GC_TOUR_H

#include "camera.h"
#include "track.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One shot: from start_myr until the next shot starts. */
struct gc_tour_shot {
    double start_myr;  /* simulated time the shot starts, Myr */
    const char *name;  /* "first passage", for the HUD and the log */
    int pair;          /* 1 = frame the two nuclei (close), 0 = frame all stars (wide) */
    float tilt_deg;    /* angle of the eye from the orbit's normal: 0 face-on, 90 edge-on */
    float zoom;        /* radius framed, times the natural one (pair or 90% extent) */
    int tails;         /* 1 = tilt from the tails' plane (gc_track.tails_axis, measured as
                        * it goes), not from the orbit's normal at the start */
};

/* Number of shots and shot k (0 <= k < count). */
int gc_tour_count(void);
const struct gc_tour_shot *gc_tour_shot(int k);
/* Index of the shot playing at t_myr. */
int gc_tour_at(double t_myr);
/* The camera of the tour at simulated time t_myr: the shot then playing, blended from the
 * previous one over the first GC_TOUR_BLEND_MYR of each shot, with a slow drift around the
 * orbit's normal. `track` gives where the galaxies are now; `axis` is the orbit's normal to
 * look along (taken once, at the start: after the merger there is no orbit to measure).
 * Fov and zoom limits come from `base`. */
void gc_tour_camera(const struct gc_track *track, const float axis[3], double t_myr,
                    const struct gc_camera *base, struct gc_camera *out);

/* Simulated time over which one shot blends into the next, Myr. */
#define GC_TOUR_BLEND_MYR 90.0
/* Azimuthal drift of the eye around the orbit's normal, degrees per Myr: a quarter turn in
 * ~450 Myr, so the three-dimensional shape of the tails shows. */
#define GC_TOUR_DRIFT_DEG_PER_MYR 0.2

#ifdef __cplusplus
}
#endif
#endif
