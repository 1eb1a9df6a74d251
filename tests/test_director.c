/* Camera moves for talks without GL: tracking two galaxies, presets, smooth moves, orbit, tour. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "director.h"
#include "tour.h"
#include "track.h"

/* Two galaxies: A centred at (-10, 0, 0) with its disk in the x-y plane spinning about +z,
 * B centred at (+10, 0, 0) with its disk in the y-z plane spinning about +x, moving at
 * +y and -y. Each: a compact bulge, a uniform disk of radius 4 (half-mass radius
 * 4 / sqrt 2), and a wide halo that tracking must ignore. */
enum { PER = 3000 };

static unsigned rng = 99;
static float urand(void)
{
    rng = rng * 1103515245u + 12345u;
    return (float)(rng >> 8) / 16777216.0f;
}

static void make_pair(struct gc_bodies *b)
{
    static const float centre[2][3] = {{-10.0f, 0.0f, 0.0f}, {10.0f, 0.0f, 0.0f}};
    static const float vel[2][3] = {{0.0f, 0.5f, 0.0f}, {0.0f, -0.5f, 0.0f}};
    size_t i = 0;
    CHECK(gc_bodies_alloc(b, 2 * PER) == GC_OK);
    for (int g = 0; g < 2; g++)
        for (int k = 0; k < PER; k++, i++) {
            float *p = &b->pos[4 * i], *v = &b->vel[4 * i];
            float r, phi = 6.2831853f * urand(), u[3], w[3];
            int comp = k < PER / 6 ? GC_BULGE : k < PER / 2 ? GC_DISK : GC_HALO;
            r = comp == GC_BULGE ? 0.3f * urand() : comp == GC_DISK ? 4.0f * sqrtf(urand())
                                                                   : 30.0f + 20.0f * urand();
            /* in-plane unit vectors u (radial) and w (tangential, spin direction) */
            if (g == 0) {
                u[0] = cosf(phi), u[1] = sinf(phi), u[2] = 0.0f;
                w[0] = -sinf(phi), w[1] = cosf(phi), w[2] = 0.0f;
            } else {
                u[0] = 0.0f, u[1] = cosf(phi), u[2] = sinf(phi);
                w[0] = 0.0f, w[1] = -sinf(phi), w[2] = cosf(phi);
            }
            for (int d = 0; d < 3; d++) {
                p[d] = centre[g][d] + r * u[d];
                v[d] = vel[g][d] + (comp == GC_DISK ? 1.0f : 0.0f) * w[d];
            }
            if (comp == GC_HALO)
                p[2] += 25.0f; /* halos off to one side: they must not move the centre */
            p[3] = comp == GC_HALO ? 0.01f : 0.001f;
            b->tag[i] = GC_TAG(g, comp);
        }
}

static float dot3(const float a[3], const float b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Unit vector from the camera's target to its eye. */
static void eye_dir(const struct gc_camera *c, float d[3])
{
    float e[3], l;
    gc_camera_eye(c, e);
    for (int k = 0; k < 3; k++)
        d[k] = e[k] - c->target[k];
    l = sqrtf(dot3(d, d));
    for (int k = 0; k < 3; k++)
        d[k] /= l;
}

static void test_track(const struct gc_bodies *b, struct gc_track *t)
{
    struct gc_track s;
    CHECK(gc_track_measure(b, 0, t) == GC_OK);
    CHECK(t->galaxies == 2);
    CHECK_NEAR(t->centre[0][0], -10.0, 0.05);
    CHECK_NEAR(t->centre[1][0], 10.0, 0.05);
    CHECK_NEAR(t->centre[0][2], 0.0, 0.05); /* the halos' offset is ignored */
    CHECK_NEAR(t->separation, 20.0, 0.1);
    CHECK_NEAR(t->axis[0][2], 1.0, 0.01);
    CHECK_NEAR(t->axis[1][0], 1.0, 0.01);
    CHECK_NEAR(t->half_mass[0], 4.0 / sqrt(2.0), 0.15);
    CHECK_NEAR(t->com[0], 0.0, 0.1);
    CHECK_NEAR(t->com[2], 0.0, 0.1);
    /* (B - A) x (vB - vA) = (20, 0, 0) x (0, -1, 0) = -20 z */
    CHECK_NEAR(t->orbit_axis[2], -1.0, 0.01);
    CHECK(t->extent > 10.0f && t->extent < 14.5f);
    /* Sampling a tenth of the bodies gives nearly the same answer. */
    CHECK(gc_track_measure(b, PER / 5, &s) == GC_OK);
    CHECK_NEAR(s.separation, t->separation, 0.3);
    CHECK_NEAR(s.half_mass[0], t->half_mass[0], 0.3);
}

/* Tails: disk stars of A thrown 8 to 24 units out in a plane whose normal (0.6, 0, 0.8)
 * is neither disk's; the far stars' plane is found, on the orbit normal's side. Without
 * such stars (the pair as built: every disk star within twice its half-mass radius) the
 * tails' axis is the orbit's normal. */
static void test_tails(const struct gc_bodies *pair, const struct gc_track *t0)
{
    static const float n[3] = {0.6f, 0.0f, 0.8f}, e1[3] = {0.8f, 0.0f, -0.6f},
                       e2[3] = {0.0f, 1.0f, 0.0f};
    struct gc_bodies b;
    struct gc_track t;
    const size_t tail = 400;
    CHECK(dot3(t0->tails_axis, t0->orbit_axis) > 0.999f);
    CHECK(gc_bodies_alloc(&b, pair->n + tail) == GC_OK);
    memcpy(b.pos, pair->pos, 4 * pair->n * sizeof *b.pos);
    memcpy(b.vel, pair->vel, 4 * pair->n * sizeof *b.vel);
    memcpy(b.tag, pair->tag, pair->n);
    for (size_t i = pair->n; i < b.n; i++) {
        const float u = 8.0f + 16.0f * urand(), phi = 6.2831853f * urand();
        const float a = u * cosf(phi), c = u * sinf(phi), off = 0.2f * (urand() - 0.5f);
        for (int k = 0; k < 3; k++)
            b.pos[4 * i + k] = (k == 0 ? -10.0f : 0.0f) + a * e1[k] + c * e2[k] + off * n[k];
        b.pos[4 * i + 3] = 0.001f;
        b.tag[i] = GC_TAG(0, GC_DISK);
    }
    CHECK(gc_track_measure(&b, 0, &t) == GC_OK);
    printf("tails' axis (%.3f, %.3f, %.3f), orbit's (%.3f, %.3f, %.3f)\n", t.tails_axis[0],
           t.tails_axis[1], t.tails_axis[2], t.orbit_axis[0], t.orbit_axis[1], t.orbit_axis[2]);
    CHECK(fabsf(dot3(t.tails_axis, n)) > 0.995f);
    CHECK(dot3(t.tails_axis, t.orbit_axis) > 0.0f);
    /* The tour's tidal-tail shot looks down that axis, once its blend is done, from the
     * side the other shots look from. */
    {
        struct gc_camera base, cam;
        float d[3];
        const int k = gc_tour_at(600.0);
        const float flipped[3] = {-t.orbit_axis[0], -t.orbit_axis[1], -t.orbit_axis[2]};
        memset(&base, 0, sizeof base);
        base.fovy = 0.785f;
        base.distance = 50.0f;
        base.min_distance = 1.0f;
        base.max_distance = 1000.0f;
        CHECK(gc_tour_shot(k)->tails);
        gc_tour_camera(&t, t.orbit_axis, 600.0, &base, &cam);
        eye_dir(&cam, d);
        CHECK(dot3(d, t.tails_axis) > 0.99f);
        gc_tour_camera(&t, flipped, 600.0, &base, &cam);
        eye_dir(&cam, d);
        CHECK(dot3(d, t.tails_axis) < -0.99f);
    }
    gc_bodies_free(&b);
}

static void test_track_failures(void)
{
    struct gc_bodies b;
    struct gc_track t;
    /* Only halo bodies: nothing to frame, an error and no crash. */
    CHECK(gc_bodies_alloc(&b, 10) == GC_OK);
    for (int i = 0; i < 10; i++) {
        b.tag[i] = GC_TAG(0, GC_HALO);
        b.pos[4 * i + 3] = 1.0f;
    }
    CHECK(gc_track_measure(&b, 0, &t) == GC_ERR_INVALID);
    /* One galaxy with stars: it is galaxy 0 of the track, whichever it was. */
    for (int i = 0; i < 10; i++) {
        b.tag[i] = GC_TAG(1, i < 5 ? GC_BULGE : GC_DISK);
        b.pos[4 * i] = 5.0f + (float)i * 0.01f;
    }
    CHECK(gc_track_measure(&b, 0, &t) == GC_OK);
    CHECK(t.galaxies == 1);
    CHECK_NEAR(t.centre[0][0], 5.02, 0.011);
    CHECK(t.separation == 0.0f);
    gc_bodies_free(&b);

    /* A star cluster (GC_STAR bodies, no disk or bulge): tracked as one system, centred on
     * its median, its half-mass radius from its stars, +z when it does not spin. */
    CHECK(gc_bodies_alloc(&b, 1001) == GC_OK);
    for (int i = 0; i < 1001; i++) {
        float r = (float)i / 1000.0f * 2.0f; /* radii 0..2 evenly: median 1 */
        float phi = 2.3999632f * (float)i;   /* golden-angle spiral on a sphere */
        float z = 1.0f - 2.0f * ((float)i + 0.5f) / 1001.0f, q = sqrtf(1.0f - z * z);
        b.pos[4 * i] = 3.0f + r * q * cosf(phi);
        b.pos[4 * i + 1] = r * q * sinf(phi);
        b.pos[4 * i + 2] = r * z;
        b.pos[4 * i + 3] = 1.0f / 1001.0f;
        b.tag[i] = GC_TAG(0, GC_STAR);
    }
    CHECK(gc_track_measure(&b, 0, &t) == GC_OK);
    CHECK(t.galaxies == 1);
    CHECK_NEAR(t.centre[0][0], 3.0, 0.1);
    CHECK_NEAR(t.half_mass[0], 1.0, 0.01);
    CHECK_NEAR(t.axis[0][2], 1.0, 1e-6);
    CHECK_NEAR(t.com[0], 3.0, 0.05);
    gc_bodies_free(&b);
}

/* Runs the director for `seconds` of screen time in 1/60 s frames. */
static void run(struct gc_director *d, const struct gc_track *t, double seconds,
                struct gc_camera *cam)
{
    for (double s = 0.0; s < seconds; s += 1.0 / 60.0)
        gc_director_update(d, t, 0.0, 1.0 / 60.0, cam);
}

static void test_presets(const struct gc_bodies *b, const struct gc_track *t)
{
    struct gc_camera home, cam;
    struct gc_director d;
    float dir[3], axis[3] = {0.0f, 0.0f, 0.0f}, start_dist;
    gc_camera_fit(&home, b->pos, b->tag, b->n, 1.6f);
    cam = home;
    gc_director_init(&d, &home, t->orbit_axis);
    CHECK(!gc_director_following(&d));

    /* Face-on: along the disks' mean spin (z + x), between the two centres. */
    gc_director_set_view(&d, GC_VIEW_FACE_ON, &cam);
    CHECK(gc_director_following(&d));
    start_dist = cam.distance;
    run(&d, t, 0.5 * GC_DIRECTOR_MOVE_S, &cam);
    /* Half way: on its way, not there yet and not jumping. */
    eye_dir(&cam, dir);
    CHECK_LT(0.02, fabs(cam.target[0] - home.target[0]) + fabs(cam.distance - start_dist));
    run(&d, t, GC_DIRECTOR_MOVE_S + 3.0, &cam);
    eye_dir(&cam, dir);
    for (int k = 0; k < 3; k++)
        axis[k] = t->axis[0][k] + t->axis[1][k];
    {
        float l = sqrtf(dot3(axis, axis));
        for (int k = 0; k < 3; k++)
            axis[k] /= l;
    }
    CHECK_NEAR(dot3(dir, axis), 1.0, 0.01);
    CHECK_NEAR(cam.target[0], 0.0, 0.05);
    /* Both galaxies in view: the framed radius holds half the separation. */
    CHECK_LT(10.0 / sin(0.5 * cam.fovy), cam.distance);

    /* Edge-on: the eye in the mean disk plane (perpendicular to the mean spin). */
    gc_director_set_view(&d, GC_VIEW_EDGE_ON, &cam);
    run(&d, t, GC_DIRECTOR_MOVE_S + 3.0, &cam);
    eye_dir(&cam, dir);
    CHECK_NEAR(dot3(dir, axis), 0.0, 0.02);
    /* ...and across the line joining the galaxies, so they stand side by side. */
    CHECK_NEAR(dir[0], 0.0, 0.02);

    /* Overview: the stars' centre of mass, the angle kept. */
    gc_director_set_view(&d, GC_VIEW_OVERVIEW, &cam);
    run(&d, t, GC_DIRECTOR_MOVE_S + 3.0, &cam);
    CHECK_NEAR(cam.target[0], t->com[0], 0.05);
    CHECK_NEAR(cam.target[2], t->com[2], 0.05);

    /* The mouse takes over: free, and the camera stays where it is. */
    gc_director_release(&d);
    CHECK(!gc_director_following(&d));
    {
        struct gc_camera before = cam;
        run(&d, t, 1.0, &cam);
        CHECK(memcmp(&before, &cam, sizeof cam) == 0);
        /* Auto-orbit turns a free camera at the stated rate. */
        d.orbit = 1;
        gc_director_update(&d, t, 0.0, 2.0, &cam);
        CHECK_NEAR(cam.yaw - before.yaw, 2.0 * GC_DIRECTOR_ORBIT_RAD_PER_S, 1e-4);
        d.orbit = 0;
    }

    /* Home: back to the start, then free. */
    gc_director_set_view(&d, GC_VIEW_HOME, &cam);
    run(&d, NULL, GC_DIRECTOR_MOVE_S + 0.1, &cam);
    CHECK(d.view == GC_VIEW_FREE);
    CHECK_NEAR(cam.distance, home.distance, 1e-3 * home.distance);
    CHECK_NEAR(cam.target[0], home.target[0], 1e-3);
    CHECK(strcmp(gc_director_view_name(GC_VIEW_EDGE_ON), "edge-on") == 0);
    CHECK(strcmp(gc_director_view_name((enum gc_view)99), "?") == 0);
}

static void test_tour(const struct gc_track *t)
{
    struct gc_camera base, a, b;
    memset(&base, 0, sizeof base);
    base.fovy = 0.785f;
    base.distance = 50.0f;
    base.min_distance = 1.0f;
    base.max_distance = 1000.0f;
    /* Shots in time order, each found where it starts. */
    CHECK(gc_tour_count() >= 4);
    CHECK(gc_tour_at(-5.0) == 0);
    for (int k = 1; k < gc_tour_count(); k++) {
        CHECK_LT(gc_tour_shot(k - 1)->start_myr, gc_tour_shot(k)->start_myr);
        CHECK(gc_tour_at(gc_tour_shot(k)->start_myr) == k);
        CHECK(gc_tour_at(gc_tour_shot(k)->start_myr - 1e-6) == k - 1);
    }
    CHECK(gc_tour_at(1e9) == gc_tour_count() - 1);
    /* Continuous: no jump at a change of shot, or anywhere (1 Myr apart). */
    for (double myr = 0.0; myr < 1600.0; myr += 1.0) {
        float da[3], db[3];
        gc_tour_camera(t, t->orbit_axis, myr, &base, &a);
        gc_tour_camera(t, t->orbit_axis, myr + 1.0, &base, &b);
        CHECK(isfinite(a.distance) && a.distance >= base.min_distance &&
              a.distance <= base.max_distance);
        eye_dir(&a, da);
        eye_dir(&b, db);
        if (!(dot3(da, db) > 0.999f) || !(fabsf(b.distance - a.distance) < 0.02f * a.distance)) {
            fprintf(stderr, "tour jumps at %.0f Myr\n", myr);
            CHECK(0);
            break;
        }
    }
    /* A close shot (first passage) frames the two nuclei: centred between them, and
     * closer in as they close in. */
    {
        struct gc_track near = *t;
        int k = gc_tour_at(300.0);
        CHECK(gc_tour_shot(k)->pair);
        gc_tour_camera(t, t->orbit_axis, 300.0, &base, &a);
        CHECK_NEAR(a.target[0], 0.0, 0.05);
        near.centre[0][0] = -2.0f;
        near.centre[1][0] = 2.0f;
        near.separation = 4.0f;
        gc_tour_camera(&near, t->orbit_axis, 300.0, &base, &b);
        CHECK_NEAR(b.target[0], 0.0, 0.05);
        CHECK_LT(b.distance, 0.75 * a.distance);
    }
}

int main(void)
{
    struct gc_bodies b;
    struct gc_track t;
    make_pair(&b);
    test_track(&b, &t);
    test_tails(&b, &t);
    test_track_failures();
    test_presets(&b, &t);
    test_tour(&t);
    gc_bodies_free(&b);
    return CHECK_DONE();
}
