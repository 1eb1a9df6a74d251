/* The scripted tour: which part of the encounter each stretch of simulated time shows, and from where. */
/* SPDX-License-Identifier: MIT */
#include "tour.h"

#include <math.h>

#define PI 3.14159265358979

/* Timed on the Dubinski table's orbit (model B), measured with tools/measure_encounter at
 * 8,192 bodies with halos (the built-in model follows the same orbit): separation 30 at
 * t = 0, first pericentre (4.4 units) at ~280 Myr, apocentre (18.7) at ~630 Myr, second
 * pericentre at ~1060 Myr, nuclei merged from ~1150 Myr. Each shot starts before its event
 * so the blend is done when the event happens. */
static const struct gc_tour_shot SHOTS[] = {
    {0.0, "approach", 0, 55.0f, 1.0f, 0},
    {170.0, "first passage", 1, 35.0f, 1.3f, 0},
    /* The tails face-on: they are thrown out near each disk's plane, not the orbit's (disk A
     * lies 22 degrees from it), so the shot looks down their own plane as it is measured. */
    {380.0, "tidal tails", 0, 0.0f, 1.05f, 1},
    {700.0, "falling back", 0, 65.0f, 0.9f, 0},
    {960.0, "merger", 1, 45.0f, 1.4f, 0},
    {1250.0, "remnant", 0, 40.0f, 1.1f, 0},
};
#define NSHOTS ((int)(sizeof SHOTS / sizeof SHOTS[0]))

int gc_tour_count(void)
{
    return NSHOTS;
}

const struct gc_tour_shot *gc_tour_shot(int k)
{
    return &SHOTS[k < 0 ? 0 : k >= NSHOTS ? NSHOTS - 1 : k];
}

int gc_tour_at(double t_myr)
{
    int k = 0;
    while (k + 1 < NSHOTS && t_myr >= SHOTS[k + 1].start_myr)
        k++;
    return k;
}

static void unit(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f)
        for (int k = 0; k < 3; k++)
            v[k] /= l;
}

/* The camera of shot k alone at t_myr. */
static void shot_camera(const struct gc_tour_shot *s, const struct gc_track *t,
                        const float axis[3], double t_myr, const struct gc_camera *base,
                        struct gc_camera *out)
{
    const float *along = s->tails ? t->tails_axis : axis;
    float n[3] = {along[0], along[1], along[2]}, e1[3], e2[3], dir[3], r;
    double az = GC_TOUR_DRIFT_DEG_PER_MYR * t_myr * PI / 180.0, tilt = s->tilt_deg * PI / 180.0;
    *out = *base;
    unit(n);
    /* The side the other shots look from: a plane's normal has two. */
    if (n[0] * axis[0] + n[1] * axis[1] + n[2] * axis[2] < 0.0f)
        for (int k = 0; k < 3; k++)
            n[k] = -n[k];
    /* e1, e2: a frame in the orbital plane (e1 horizontal unless the normal is). */
    e1[0] = -n[1];
    e1[1] = n[0];
    e1[2] = 0.0f;
    if (e1[0] * e1[0] + e1[1] * e1[1] < 1e-6f) {
        e1[0] = 1.0f;
        e1[1] = 0.0f;
    }
    unit(e1);
    e2[0] = n[1] * e1[2] - n[2] * e1[1];
    e2[1] = n[2] * e1[0] - n[0] * e1[2];
    e2[2] = n[0] * e1[1] - n[1] * e1[0];
    for (int k = 0; k < 3; k++)
        dir[k] = (float)(cos(tilt) * n[k] + sin(tilt) * (cos(az) * e1[k] + sin(az) * e2[k]));
    gc_camera_look_from(out, dir);
    if (s->pair && t->galaxies == 2) {
        /* Both nuclei and their inner disks: half the separation plus a few disk radii. */
        for (int k = 0; k < 3; k++)
            out->target[k] = 0.5f * (t->centre[0][k] + t->centre[1][k]);
        r = 0.5f * t->separation + 2.5f * fmaxf(t->half_mass[0], t->half_mass[1]);
    } else if (s->pair) {
        for (int k = 0; k < 3; k++)
            out->target[k] = t->centre[0][k];
        r = 3.0f * t->half_mass[0];
    } else {
        for (int k = 0; k < 3; k++)
            out->target[k] = t->com[k];
        r = t->extent;
    }
    if (!(r > 0.0f) || !isfinite(r))
        r = base->distance * sinf(0.5f * base->fovy) / 1.15f;
    out->distance = gc_camera_distance_for(out, r * s->zoom);
    if (out->max_distance > 0.0f)
        out->distance = fminf(fmaxf(out->distance, out->min_distance), out->max_distance);
}

void gc_tour_camera(const struct gc_track *track, const float axis[3], double t_myr,
                    const struct gc_camera *base, struct gc_camera *out)
{
    int k = gc_tour_at(t_myr);
    struct gc_camera cur, prev;
    double into = t_myr - SHOTS[k].start_myr;
    shot_camera(&SHOTS[k], track, axis, t_myr, base, &cur);
    if (k == 0 || into >= GC_TOUR_BLEND_MYR) {
        *out = cur;
        return;
    }
    shot_camera(&SHOTS[k - 1], track, axis, t_myr, base, &prev);
    gc_camera_blend(&prev, &cur, gc_camera_ease((float)(into / GC_TOUR_BLEND_MYR)), out);
}
