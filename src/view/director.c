/* Camera moves for talks: presets computed from the tracked galaxies, eased moves between views, auto-orbit. */
/* SPDX-License-Identifier: MIT */
#include "director.h"

#include <math.h>
#include <string.h>

#include "tour.h"

void gc_director_init(struct gc_director *d, const struct gc_camera *home,
                      const float orbit_axis[3])
{
    memset(d, 0, sizeof *d);
    d->home = *home;
    d->from = *home;
    d->goal = *home;
    memcpy(d->axis, orbit_axis, sizeof d->axis);
}

void gc_director_set_view(struct gc_director *d, enum gc_view v, const struct gc_camera *current)
{
    if ((unsigned)v >= GC_VIEW_COUNT)
        return;
    d->view = v;
    d->from = *current;
    d->goal_valid = 0;
    d->orbit_yaw = 0.0f;
    d->move_t = 0.0;
    d->move_len = v == GC_VIEW_FREE ? 0.0 : GC_DIRECTOR_MOVE_S;
}

void gc_director_release(struct gc_director *d)
{
    d->view = GC_VIEW_FREE;
    d->move_len = 0.0;
    d->goal_valid = 0;
}

int gc_director_following(const struct gc_director *d)
{
    return d->view == GC_VIEW_FACE_ON || d->view == GC_VIEW_EDGE_ON ||
           d->view == GC_VIEW_OVERVIEW || d->view == GC_VIEW_TOUR;
}

static float norm3(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (l > 0.0f)
        for (int k = 0; k < 3; k++)
            v[k] /= l;
    return l;
}

static void cross3(const float a[3], const float b[3], float out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* Face-on and edge-on: the mean spin of the disks (the orbit's normal when they spin
 * against each other), centred between the nuclei, both inner disks in view. */
static void disk_view(int edge, const struct gc_track *t, struct gc_camera *out)
{
    float axis[3], dir[3], sep[3], r;
    for (int k = 0; k < 3; k++)
        axis[k] = t->axis[0][k] + (t->galaxies == 2 ? t->axis[1][k] : 0.0f);
    if (norm3(axis) < 0.3f) {
        memcpy(axis, t->orbit_axis, sizeof axis);
        norm3(axis);
    }
    for (int k = 0; k < 3; k++) {
        out->target[k] = t->galaxies == 2 ? 0.5f * (t->centre[0][k] + t->centre[1][k])
                                          : t->centre[0][k];
        sep[k] = t->centre[1][k] - t->centre[0][k];
    }
    if (!edge) {
        memcpy(dir, axis, sizeof dir);
    } else {
        /* In the disk plane, across the line joining the galaxies: they stand side by side. */
        static const float z[3] = {0.0f, 0.0f, 1.0f};
        cross3(axis, sep, dir);
        if (t->galaxies < 2 || norm3(dir) < 1e-3f * (norm3(sep) + 1e-6f)) {
            cross3(axis, z, dir);
            if (norm3(dir) < 1e-3f)
                dir[0] = 1.0f, dir[1] = dir[2] = 0.0f;
        }
    }
    gc_camera_look_from(out, dir);
    r = (t->galaxies == 2 ? 0.5f * t->separation : 0.0f) +
        4.0f * fmaxf(t->half_mass[0], t->galaxies == 2 ? t->half_mass[1] : 0.0f);
    if (r > 0.0f && isfinite(r))
        out->distance = gc_camera_distance_for(out, r);
}

void gc_director_goal(const struct gc_director *d, enum gc_view v, const struct gc_track *t,
                      double t_myr, const struct gc_camera *base, struct gc_camera *out)
{
    *out = *base;
    if (v == GC_VIEW_HOME) {
        *out = d->home;
        return;
    }
    if (!t || t->galaxies == 0)
        return;
    switch (v) {
    case GC_VIEW_FACE_ON: disk_view(0, t, out); break;
    case GC_VIEW_EDGE_ON: disk_view(1, t, out); break;
    case GC_VIEW_OVERVIEW:
        /* Keep the viewer's angle; follow the stars' centre and spread. */
        memcpy(out->target, t->com, sizeof out->target);
        if (t->extent > 0.0f && isfinite(t->extent))
            out->distance = gc_camera_distance_for(out, t->extent);
        break;
    case GC_VIEW_TOUR: gc_tour_camera(t, d->axis, t_myr, base, out); break;
    default: break;
    }
    if (out->max_distance > 0.0f)
        out->distance = fminf(fmaxf(out->distance, out->min_distance), out->max_distance);
}

void gc_director_update(struct gc_director *d, const struct gc_track *t, double t_myr,
                        double dt, struct gc_camera *cam)
{
    struct gc_camera want;
    if (dt < 0.0)
        dt = 0.0;
    if (d->view == GC_VIEW_FREE) {
        if (d->orbit)
            cam->yaw = fmodf(cam->yaw + (float)(GC_DIRECTOR_ORBIT_RAD_PER_S * dt),
                             6.2831853f);
        return;
    }
    /* The overview keeps the angle the view was chosen from; the auto-orbit turns every
     * followed view on top of where it looks from. */
    gc_director_goal(d, d->view, t, t_myr, &d->from, &want);
    if (d->orbit && d->view != GC_VIEW_HOME) {
        d->orbit_yaw = fmodf(d->orbit_yaw + (float)(GC_DIRECTOR_ORBIT_RAD_PER_S * dt),
                             6.2831853f);
        want.yaw += d->orbit_yaw;
    }
    if (!d->goal_valid) {
        d->goal = want;
        d->goal_valid = 1;
    } else {
        gc_camera_blend(&d->goal, &want, (float)(1.0 - exp(-dt / GC_DIRECTOR_FOLLOW_TAU_S)),
                        &d->goal);
    }
    if (d->move_len > 0.0) {
        d->move_t += dt;
        gc_camera_blend(&d->from, &d->goal, gc_camera_ease((float)(d->move_t / d->move_len)),
                        cam);
        if (d->move_t >= d->move_len) {
            d->move_len = 0.0;
            if (d->view == GC_VIEW_HOME)
                d->view = GC_VIEW_FREE;
        }
    } else {
        *cam = d->goal;
    }
}

const char *gc_director_view_name(enum gc_view v)
{
    static const char *const names[GC_VIEW_COUNT] = {"free", "face-on", "edge-on", "overview",
                                                     "home", "tour"};
    return (unsigned)v < GC_VIEW_COUNT ? names[v] : "?";
}
