/* Camera math without a GL context: framing, matrices, rotate/zoom/pan invariants. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "bodies.h"
#include "camera.h"
#include "check.h"

/* (x, y, z, 1) through a column-major matrix. */
static void xform(const float m[16], const float p[3], float out[4])
{
    for (int r = 0; r < 4; r++)
        out[r] = m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r];
}

static float dist3(const float a[3], const float b[3])
{
    float dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrtf(dx * dx + dy * dy + dz * dz);
}

static void test_fit(void)
{
    /* Two clumps 30 units apart around (10, 0, 0), like the Dubinski pair. */
    enum { N = 2000 };
    float *p = calloc(4 * N, sizeof *p);
    struct gc_camera c;
    unsigned s = 12345;
    CHECK(p != NULL);
    if (!p)
        return;
    for (int i = 0; i < N; i++) {
        float cx = (i % 2) ? -5.0f : 25.0f;
        for (int k = 0; k < 3; k++) {
            s = s * 1103515245u + 12345u;
            p[4 * i + k] = (k == 0 ? cx : 0.0f) + ((float)(s >> 8) / 16777216.0f - 0.5f) * 8.0f;
        }
        p[4 * i + 3] = 1.0f;
    }
    gc_camera_fit(&c, p, NULL, N, 1.0f);
    /* Every body must be inside the view frustum of a square viewport, the pair centred
     * in the picture (the target between the clumps, nearer the far one: perspective). */
    CHECK_LT(-5.0f, c.target[0]);
    CHECK_LT(c.target[0], 25.0f);
    {
        float v[16], pr[16], mvp[16], q[4], lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
        int outside = 0;
        gc_camera_view(&c, v);
        gc_camera_projection(&c, 1.0f, pr);
        gc_camera_mat_mul(pr, v, mvp);
        for (int i = 0; i < N; i++) {
            xform(mvp, &p[4 * i], q);
            if (q[3] <= 0.0f || fabsf(q[0] / q[3]) > 1.0f || fabsf(q[1] / q[3]) > 1.0f ||
                fabsf(q[2] / q[3]) > 1.0f)
                outside++;
            for (int k = 0; k < 2; k++) {
                lo[k] = fminf(lo[k], q[k] / q[3]);
                hi[k] = fmaxf(hi[k], q[k] / q[3]);
            }
        }
        CHECK(outside == 0);
        CHECK_NEAR(lo[0] + hi[0], 0.0, 0.1);
        CHECK_NEAR(lo[1] + hi[1], 0.0, 0.1);
    }
    /* ...and not be a speck: the system spans a good part of the view. */
    CHECK_LT(c.distance, 120.0f);
    CHECK_LT(30.0f, c.distance);
    free(p);

    gc_camera_fit(&c, NULL, NULL, 0, 1.0f);
    CHECK(c.distance > 40.0f);
    CHECK(isfinite(c.distance));
}

/* A galaxy pair as the viewer starts it: two flattened star clusters 30 units apart, each
 * inside a dark halo ten times wider (hidden by default), and 0.25% of the stars flung far
 * out. The home view must frame the stars in a 16:10 window: both clusters whole on screen,
 * and together covering most of the frame in the direction that binds (the sphere around
 * all stars that the first fit used left them in about half the frame height). */
static void test_fit_pair(void)
{
    enum { STARS = 4000, HALO = 12000, N = STARS + HALO };
    const float aspect = 1.6f;
    float *p = calloc(4 * N, sizeof *p);
    uint8_t *tag = calloc(N, 1);
    unsigned s = 777;
    CHECK(p != NULL && tag != NULL);
    if (!p || !tag) {
        free(p);
        free(tag);
        return;
    }
    /* The pair along x (height binds at the default angle), then along y (width binds). */
    for (int axis = 0; axis < 2; axis++) {
        struct gc_camera c;
        float v[16], pr[16], mvp[16], q[4];
        float lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
        int outside = 0;
        for (int i = 0; i < N; i++) {
            float u[3], l = 0.0f;
            for (int k = 0; k < 3; k++) {
                s = s * 1103515245u + 12345u;
                u[k] = (float)(s >> 8) / 16777216.0f - 0.5f;
                l += u[k] * u[k];
            }
            l = sqrtf(l) + 1e-6f;
            for (int k = 0; k < 3; k++)
                p[4 * i + k] = 0.0f;
            if (i < STARS) {
                /* Disks of radius 4, 0.5 thick, centred at -5 and 25 along the axis. */
                p[4 * i + axis] = (i % 2 ? -5.0f : 25.0f) + 8.0f * u[0];
                p[4 * i + 1 - axis] = 8.0f * u[1];
                p[4 * i + 2] = 1.0f * u[2];
                tag[i] = GC_TAG(i % 2, i % 7 ? GC_DISK : GC_BULGE);
                if (i % 400 == 3) /* an escaper, 150 units out */
                    for (int k = 0; k < 3; k++)
                        p[4 * i + k] = 150.0f * u[k] / l;
            } else {
                float r = 30.0f + 120.0f * (float)(s >> 8) / 16777216.0f;
                for (int k = 0; k < 3; k++)
                    p[4 * i + k] = r * u[k] / l + (k == axis ? 10.0f : 0.0f);
                tag[i] = GC_TAG(i % 2, GC_HALO);
            }
            p[4 * i + 3] = i < STARS ? 1e-3f : 1e-2f;
        }
        gc_camera_fit(&c, p, tag, N, aspect);
        gc_camera_view(&c, v);
        gc_camera_projection(&c, aspect, pr);
        gc_camera_mat_mul(pr, v, mvp);
        for (int i = 0; i < STARS; i++) {
            if (i % 400 == 3)
                continue;
            xform(mvp, &p[4 * i], q);
            if (q[3] <= 0.0f || fabsf(q[0] / q[3]) > 1.0f || fabsf(q[1] / q[3]) > 1.0f) {
                outside++;
                continue;
            }
            for (int k = 0; k < 2; k++) {
                lo[k] = fminf(lo[k], q[k] / q[3]);
                hi[k] = fmaxf(hi[k], q[k] / q[3]);
            }
        }
        /* Both clusters whole in the frame... */
        CHECK(outside == 0);
        /* ...covering at least 60% of the frame's height or width, whichever binds (NDC
         * spans 2 across the frame), and centred on it. */
        CHECK_LT(0.6, 0.5 * fmaxf(hi[0] - lo[0], hi[1] - lo[1]));
        if (axis == 0)
            CHECK_LT(0.6, 0.5 * (hi[1] - lo[1]));
        CHECK_NEAR(lo[0] + hi[0], 0.0, 0.15);
        CHECK_NEAR(lo[1] + hi[1], 0.0, 0.15);
        CHECK(c.min_distance < c.distance && c.distance < c.max_distance);
    }

    /* Only halo bodies (a dark-matter-only set): framed all the same, not the default. */
    {
        struct gc_camera c;
        for (int i = 0; i < 100; i++) {
            for (int k = 0; k < 3; k++)
                p[4 * i + k] = (k == 0 ? 2.0f : 0.0f) * (float)((i % 3) - 1);
            p[4 * i + 3] = 1.0f;
            tag[i] = GC_TAG(0, GC_HALO);
        }
        gc_camera_fit(&c, p, tag, 100, aspect);
        CHECK(isfinite(c.distance) && c.distance > 0.0f && c.distance < 20.0f);
    }
    free(p);
    free(tag);
}

static void test_view(void)
{
    struct gc_camera c;
    float v[16], e[3], q[4];
    gc_camera_fit(&c, NULL, NULL, 0, 1.0f);
    c.target[0] = 3.0f;
    c.target[1] = -2.0f;
    c.target[2] = 1.0f;
    gc_camera_view(&c, v);
    /* The target lies straight ahead at -distance on the eye z axis. */
    xform(v, c.target, q);
    CHECK_NEAR(q[0], 0.0f, 1e-4f);
    CHECK_NEAR(q[1], 0.0f, 1e-4f);
    CHECK_NEAR(q[2], -c.distance, 1e-3f);
    /* The eye maps to the origin, and sits `distance` from the target. */
    gc_camera_eye(&c, e);
    CHECK_NEAR(dist3(e, c.target), c.distance, 1e-3f);
    xform(v, e, q);
    CHECK_NEAR(q[0] * q[0] + q[1] * q[1] + q[2] * q[2], 0.0f, 1e-6f);
    /* Rotation part is orthonormal. */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            float dot = v[a] * v[b] + v[4 + a] * v[4 + b] + v[8 + a] * v[8 + b];
            CHECK_NEAR(dot, a == b ? 1.0f : 0.0f, 1e-5f);
        }
    /* World +z points up on screen (positive eye y). */
    {
        float up[3] = {c.target[0], c.target[1], c.target[2] + 1.0f};
        xform(v, up, q);
        CHECK(q[1] > 0.0f);
    }
}

static void test_projection(void)
{
    struct gc_camera c;
    float p[16], n, f, q[4];
    gc_camera_fit(&c, NULL, NULL, 0, 1.0f);
    gc_camera_projection(&c, 1.6f, p);
    gc_camera_clip(&c, &n, &f);
    CHECK(n > 0.0f && f > n);
    {
        float pn[3] = {0, 0, -n}, pf[3] = {0, 0, -f};
        xform(p, pn, q);
        CHECK_NEAR(q[2] / q[3], -1.0f, 1e-4f);
        xform(p, pf, q);
        CHECK_NEAR(q[2] / q[3], 1.0f, 1e-4f);
    }
    /* A point on the top edge of the vertical field of view maps to y = +1. */
    {
        float d = 10.0f, pt[3] = {0, d * tanf(0.5f * c.fovy), -d};
        xform(p, pt, q);
        CHECK_NEAR(q[1] / q[3], 1.0f, 1e-4f);
    }
}

static void test_controls(void)
{
    struct gc_camera c;
    float d0, t0[3], e[3];
    gc_camera_fit(&c, NULL, NULL, 0, 1.0f);
    d0 = c.distance;
    gc_camera_zoom(&c, 0.5f);
    CHECK_NEAR(c.distance, 0.5f * d0, 1e-4f * d0);
    gc_camera_zoom(&c, 1e-9f);
    CHECK_NEAR(c.distance, c.min_distance, 1e-6f);
    gc_camera_zoom(&c, 1e9f);
    CHECK_NEAR(c.distance, c.max_distance, 1e-3f);
    gc_camera_zoom(&c, -1.0f);  /* ignored */
    CHECK_NEAR(c.distance, c.max_distance, 1e-3f);

    /* Rotation keeps the distance and clamps the pitch short of the pole. */
    gc_camera_fit(&c, NULL, NULL, 0, 1.0f);
    gc_camera_rotate(&c, 100.0f, 100000.0f);
    CHECK(c.pitch < 1.5708f && c.pitch > 1.5f);
    gc_camera_eye(&c, e);
    CHECK_NEAR(dist3(e, c.target), c.distance, 1e-3f);
    gc_camera_rotate(&c, 0.0f, -200000.0f);
    CHECK(c.pitch > -1.5708f && c.pitch < -1.5f);

    /* Panning moves the target perpendicular to the view direction, by the on-screen amount. */
    gc_camera_fit(&c, NULL, NULL, 0, 1.0f);
    for (int k = 0; k < 3; k++)
        t0[k] = c.target[k];
    gc_camera_pan(&c, 0.0f, 100.0f, 800.0f);
    {
        float v[16], q[4];
        gc_camera_view(&c, v);
        /* The old target, seen from the new camera, is now 100 px below the centre line:
         * y_eye / (d tan(fovy/2)) = -100 / 400. */
        xform(v, t0, q);
        CHECK_NEAR(q[1] / (c.distance * tanf(0.5f * c.fovy)), -0.25f, 1e-4f);
        CHECK_NEAR(q[0], 0.0f, 1e-4f);
        CHECK_NEAR(q[2], -c.distance, 1e-3f);
    }
    gc_camera_pan(&c, 5.0f, 5.0f, 0.0f);  /* zero-height viewport: ignored, not NaN */
    CHECK(isfinite(c.target[0]) && isfinite(c.target[1]) && isfinite(c.target[2]));
}

static void test_moves(void)
{
    struct gc_camera a, b, m;
    float eye[3], d[3], l;
    static const float dirs[3][3] = {{1.0f, 2.0f, 3.0f}, {0.0f, -1.0f, 0.0f}, {-3.0f, 0.0f, -1.0f}};
    gc_camera_fit(&a, NULL, NULL, 0, 1.0f);
    /* look_from: the eye ends up in the asked direction from the target. */
    for (int t = 0; t < 3; t++) {
        b = a;
        gc_camera_look_from(&b, dirs[t]);
        gc_camera_eye(&b, eye);
        l = sqrtf(dirs[t][0] * dirs[t][0] + dirs[t][1] * dirs[t][1] + dirs[t][2] * dirs[t][2]);
        for (int k = 0; k < 3; k++)
            d[k] = (eye[k] - b.target[k]) / b.distance;
        for (int k = 0; k < 3; k++)
            CHECK_NEAR(d[k], dirs[t][k] / l, 1e-4);
    }
    /* Straight down the pole: clamped short of it, no NaN; a zero direction changes nothing. */
    {
        static const float up[3] = {0.0f, 0.0f, 5.0f}, zero[3] = {0.0f, 0.0f, 0.0f};
        b = a;
        gc_camera_look_from(&b, up);
        CHECK(b.pitch > 1.5f && b.pitch < 1.5708f && isfinite(b.yaw));
        m = b;
        gc_camera_look_from(&m, zero);
        CHECK(m.pitch == b.pitch && m.yaw == b.yaw);
    }
    /* distance_for frames the radius as gc_camera_fit frames no bodies (15% margin). */
    CHECK_NEAR(gc_camera_distance_for(&a, 40.0f), a.distance, 1e-3 * a.distance);
    /* Ease: 0 and 1 at the ends, at rest there, symmetric, clamped. */
    CHECK(gc_camera_ease(0.0f) == 0.0f && gc_camera_ease(1.0f) == 1.0f);
    CHECK(gc_camera_ease(-1.0f) == 0.0f && gc_camera_ease(2.0f) == 1.0f);
    CHECK_NEAR(gc_camera_ease(0.5f), 0.5, 1e-6);
    CHECK_LT(gc_camera_ease(0.01f), 0.001);
    CHECK_NEAR(gc_camera_ease(0.3f) + gc_camera_ease(0.7f), 1.0, 1e-6);
    /* Blend: the ends are the cameras, the zoom is geometric, yaw goes the short way. */
    a.yaw = 3.0f;
    a.distance = 10.0f;
    a.target[0] = 0.0f;
    b = a;
    b.yaw = -3.0f;     /* 0.28 rad away the short way, across +-pi */
    b.distance = 40.0f;
    b.target[0] = 8.0f;
    gc_camera_blend(&a, &b, 0.0f, &m);
    CHECK_NEAR(m.distance, 10.0, 1e-4);
    CHECK_NEAR(m.yaw, 3.0, 1e-5);
    gc_camera_blend(&a, &b, 1.0f, &m);
    CHECK_NEAR(m.distance, 40.0, 1e-3);
    CHECK_NEAR(cosf(m.yaw), cosf(-3.0f), 1e-5);
    CHECK_NEAR(sinf(m.yaw), sinf(-3.0f), 1e-5);
    gc_camera_blend(&a, &b, 0.5f, &m);
    CHECK_NEAR(m.distance, 20.0, 1e-3);
    CHECK_NEAR(m.target[0], 4.0, 1e-5);
    CHECK_NEAR(fabsf(m.yaw), 3.14159f, 1e-3);
    /* out may alias an input */
    gc_camera_blend(&a, &b, 0.5f, &a);
    CHECK_NEAR(a.distance, 20.0, 1e-3);
}

int main(void)
{
    test_fit();
    test_fit_pair();
    test_view();
    test_projection();
    test_controls();
    test_moves();
    return check_failures ? 1 : 0;
}
