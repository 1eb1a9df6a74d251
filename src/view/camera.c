/* Orbit camera: framing, mouse-driven rotate/zoom/pan, and the matrices the shaders use. */
/* SPDX-License-Identifier: MIT */
#include "camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_F 3.14159265358979f
/* Keep 1 degree away from the poles, where the look-at up vector degenerates. */
#define PITCH_LIMIT (PI_F / 2.0f - 0.0175f)
/* Framing samples at most this many bodies: the 95th percentile is stable long before. */
#define FIT_SAMPLES 4096

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

void gc_camera_fit(struct gc_camera *c, const float *pos4, size_t n)
{
    double mean[3] = {0, 0, 0};
    float radius = 40.0f;
    memset(c, 0, sizeof *c);
    c->fovy = 45.0f * PI_F / 180.0f;
    c->pitch = 0.5f;
    c->yaw = 0.6f;
    if (pos4 && n > 0) {
        size_t stride = n > FIT_SAMPLES ? n / FIT_SAMPLES : 1, m = 0;
        float *d = malloc(sizeof *d * (n / stride + 1));
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 3; k++)
                mean[k] += pos4[4 * i + k];
        for (int k = 0; k < 3; k++)
            mean[k] /= (double)n;
        if (d) {
            for (size_t i = 0; i < n; i += stride) {
                double dx = pos4[4 * i] - mean[0], dy = pos4[4 * i + 1] - mean[1],
                       dz = pos4[4 * i + 2] - mean[2];
                d[m++] = (float)sqrt(dx * dx + dy * dy + dz * dz);
            }
            qsort(d, m, sizeof *d, cmp_float);
            radius = d[(size_t)(0.95 * (double)(m - 1))];
            free(d);
        }
        if (!(radius > 1e-3f) || !isfinite(radius))
            radius = 1.0f;
    }
    for (int k = 0; k < 3; k++)
        c->target[k] = (float)mean[k];
    /* The sphere fits the vertical field of view with a 15% margin. */
    c->distance = 1.15f * radius / sinf(0.5f * c->fovy);
    c->min_distance = 0.02f * c->distance;
    c->max_distance = 20.0f * c->distance;
}

void gc_camera_rotate(struct gc_camera *c, float dx, float dy)
{
    float s = GC_CAMERA_DEG_PER_PIXEL * PI_F / 180.0f;
    c->yaw -= dx * s;
    c->pitch += dy * s;
    if (c->pitch > PITCH_LIMIT)
        c->pitch = PITCH_LIMIT;
    if (c->pitch < -PITCH_LIMIT)
        c->pitch = -PITCH_LIMIT;
    c->yaw = fmodf(c->yaw, 2.0f * PI_F);
}

void gc_camera_zoom(struct gc_camera *c, float factor)
{
    if (!(factor > 0.0f))
        return;
    c->distance *= factor;
    if (c->distance < c->min_distance)
        c->distance = c->min_distance;
    if (c->distance > c->max_distance)
        c->distance = c->max_distance;
}

/* Unit vectors of the eye frame: forward (eye to target), right, up. */
static void basis(const struct gc_camera *c, float f[3], float r[3], float u[3])
{
    float cp = cosf(c->pitch), sp = sinf(c->pitch), cy = cosf(c->yaw), sy = sinf(c->yaw);
    /* The eye sits at target - distance * f; world z is up. */
    f[0] = -cp * cy;
    f[1] = -cp * sy;
    f[2] = -sp;
    /* r = f x z_up, normalised (|f x z| = cos pitch > 0 away from the poles) */
    r[0] = -sy;
    r[1] = cy;
    r[2] = 0.0f;
    /* u = r x f */
    u[0] = r[1] * f[2] - r[2] * f[1];
    u[1] = r[2] * f[0] - r[0] * f[2];
    u[2] = r[0] * f[1] - r[1] * f[0];
}

void gc_camera_pan(struct gc_camera *c, float dx, float dy, float viewport_h)
{
    float f[3], r[3], u[3];
    float per_px;
    if (!(viewport_h > 0.0f))
        return;
    basis(c, f, r, u);
    per_px = 2.0f * c->distance * tanf(0.5f * c->fovy) / viewport_h;
    for (int k = 0; k < 3; k++)
        c->target[k] += (-dx * r[k] + dy * u[k]) * per_px;
}

void gc_camera_eye(const struct gc_camera *c, float eye[3])
{
    float f[3], r[3], u[3];
    basis(c, f, r, u);
    for (int k = 0; k < 3; k++)
        eye[k] = c->target[k] - c->distance * f[k];
}

void gc_camera_view(const struct gc_camera *c, float m[16])
{
    float f[3], r[3], u[3], e[3];
    basis(c, f, r, u);
    gc_camera_eye(c, e);
    /* rows: r, u, -f; translation -R e */
    m[0] = r[0]; m[4] = r[1]; m[8] = r[2];
    m[1] = u[0]; m[5] = u[1]; m[9] = u[2];
    m[2] = -f[0]; m[6] = -f[1]; m[10] = -f[2];
    m[3] = 0.0f; m[7] = 0.0f; m[11] = 0.0f;
    m[12] = -(r[0] * e[0] + r[1] * e[1] + r[2] * e[2]);
    m[13] = -(u[0] * e[0] + u[1] * e[1] + u[2] * e[2]);
    m[14] = (f[0] * e[0] + f[1] * e[1] + f[2] * e[2]);
    m[15] = 1.0f;
}

void gc_camera_clip(const struct gc_camera *c, float *znear, float *zfar)
{
    /* The framed system lies within ~2 fit radii of the target, and fit radius is about
     * distance / 3; bodies flung further out may be clipped at the far plane, which sits
     * well past them. A near plane at 1% of the distance keeps depth precision irrelevant
     * (no depth test is used: sprites are blended additively). */
    *znear = 0.01f * c->distance;
    *zfar = 10.0f * c->distance + 200.0f;
}

void gc_camera_projection(const struct gc_camera *c, float aspect, float m[16])
{
    float n, f, t = 1.0f / tanf(0.5f * c->fovy);
    gc_camera_clip(c, &n, &f);
    if (!(aspect > 0.0f))
        aspect = 1.0f;
    memset(m, 0, 16 * sizeof *m);
    m[0] = t / aspect;
    m[5] = t;
    m[10] = (f + n) / (n - f);
    m[11] = -1.0f;
    m[14] = 2.0f * f * n / (n - f);
}

void gc_camera_mat_mul(const float a[16], const float b[16], float out[16])
{
    for (int col = 0; col < 4; col++)
        for (int row = 0; row < 4; row++) {
            float s = 0.0f;
            for (int k = 0; k < 4; k++)
                s += a[k * 4 + row] * b[col * 4 + k];
            out[col * 4 + row] = s;
        }
}

void gc_camera_look_from(struct gc_camera *c, const float dir[3])
{
    double h = sqrt((double)dir[0] * dir[0] + (double)dir[1] * dir[1]);
    double l = sqrt(h * h + (double)dir[2] * dir[2]);
    float pitch;
    if (!(l > 0.0) || !isfinite(l))
        return;
    /* basis(): the eye is at target - distance * f with f = -(cp cy, cp sy, sp). */
    pitch = (float)atan2((double)dir[2], h);
    c->pitch = fminf(fmaxf(pitch, -PITCH_LIMIT), PITCH_LIMIT);
    if (h > 1e-9 * l)
        c->yaw = (float)atan2((double)dir[1], (double)dir[0]);
}

float gc_camera_distance_for(const struct gc_camera *c, float r)
{
    return 1.15f * r / sinf(0.5f * c->fovy);
}

float gc_camera_ease(float s)
{
    s = fminf(fmaxf(s, 0.0f), 1.0f);
    return s * s * (3.0f - 2.0f * s);
}

void gc_camera_blend(const struct gc_camera *a, const struct gc_camera *b, float s,
                     struct gc_camera *out)
{
    struct gc_camera r = *b;
    float dyaw = fmodf(b->yaw - a->yaw, 2.0f * PI_F);
    if (dyaw > PI_F)
        dyaw -= 2.0f * PI_F;
    if (dyaw < -PI_F)
        dyaw += 2.0f * PI_F;
    for (int k = 0; k < 3; k++)
        r.target[k] = a->target[k] + s * (b->target[k] - a->target[k]);
    if (a->distance > 0.0f && b->distance > 0.0f)
        r.distance = a->distance * powf(b->distance / a->distance, s);
    else
        r.distance = a->distance + s * (b->distance - a->distance);
    r.yaw = a->yaw + s * dyaw;
    r.pitch = a->pitch + s * (b->pitch - a->pitch);
    *out = r;
}
