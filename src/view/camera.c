/* Orbit camera: framing, mouse-driven rotate/zoom/pan, and the matrices the shaders use. */
/* SPDX-License-Identifier: MIT */
#include "camera.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bodies.h"

#define PI_F 3.14159265358979f
/* Keep 1 degree away from the poles, where the look-at up vector degenerates. */
#define PITCH_LIMIT (PI_F / 2.0f - 0.0175f)
/* Framing looks at no more than this many bodies, evenly strided: a 99th percentile is
 * stable long before, and the fit, done once at the start, stays a few milliseconds at any N. */
#define FIT_SAMPLES 16384
/* n = 0: the Dubinski data's extent. */
#define FIT_DEFAULT_RADIUS 40.0f

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Value below which a fraction q of v[0..n) lies (v is sorted in place; n > 0). */
static float quantile(float *v, size_t n, float q)
{
    qsort(v, n, sizeof *v, cmp_float);
    return v[(size_t)(q * (float)(n - 1) + 0.5f)];
}

static void basis(const struct gc_camera *c, float f[3], float r[3], float u[3]);

static int luminous(const uint8_t *tag, size_t i)
{
    return !tag || GC_TAG_COMPONENT(tag[i]) != GC_HALO;
}

/* The sampled bodies (stars; all bodies when there are none) copied to s as x, y, z, mass;
 * returns how many. An odd stride, so bodies stored alternately (galaxy A, galaxy B, ...)
 * are not sampled from one galaxy only. */
static size_t sample(const float *pos4, const uint8_t *tag, size_t n, float *s)
{
    size_t stride = (n + FIT_SAMPLES - 1) / FIT_SAMPLES, m = 0;
    stride |= 1; /* still at most FIT_SAMPLES samples */
    for (size_t i = 0; i < n; i += stride)
        if (luminous(tag, i))
            memcpy(&s[4 * m++], &pos4[4 * i], 4 * sizeof *s);
    if (m == 0)
        for (size_t i = 0; i < n; i += stride)
            memcpy(&s[4 * m++], &pos4[4 * i], 4 * sizeof *s);
    return m;
}

/* Rounds of "centre the stars' box on screen, then fit the distance": the box moves with
 * the distance (perspective), and three rounds leave it centred to a percent or so. */
#define FIT_ROUNDS 4

/* Target and distance for the m sampled bodies s at c's angle. Returns 0 when they give no
 * usable distance (all at one point, non-finite positions, no memory). */
static int fit_samples(struct gc_camera *c, const float *s, size_t m, float aspect)
{
    const float lo = 0.5f * (1.0f - GC_CAMERA_FIT_KEEP), hi = 1.0f - lo;
    double mass = 0.0, mx[3] = {0, 0, 0}, sum[3] = {0, 0, 0};
    float f[3], r[3], u[3], d = 0.0f, ty = tanf(0.5f * c->fovy);
    float *x = malloc(4 * m * sizeof *x), *y = x + m, *z = y + m, *w = z + m;
    if (!x)
        return 0;
    /* Start from the centre of the stars' mass (an unweighted mean if masses are not
     * positive): escapers are too few to pull it far. */
    for (size_t i = 0; i < m; i++) {
        double wi = s[4 * i + 3] > 0.0f ? s[4 * i + 3] : 0.0;
        mass += wi;
        for (int k = 0; k < 3; k++) {
            mx[k] += wi * s[4 * i + k];
            sum[k] += s[4 * i + k];
        }
    }
    for (int k = 0; k < 3; k++)
        c->target[k] = (float)(mass > 0.0 ? mx[k] / mass : sum[k] / (double)m);
    basis(c, f, r, u);
    for (int round = 0; round < FIT_ROUNDS; round++) {
        float mid[2];
        for (size_t i = 0; i < m; i++) {
            float p[3];
            for (int k = 0; k < 3; k++)
                p[k] = s[4 * i + k] - c->target[k];
            x[i] = p[0] * r[0] + p[1] * r[1] + p[2] * r[2];
            y[i] = p[0] * u[0] + p[1] * u[1] + p[2] * u[2];
            z[i] = -(p[0] * f[0] + p[1] * f[1] + p[2] * f[2]); /* towards the eye */
            /* The eye must be at least this far away for the body to lie within the fill
             * fraction of the half-height (or half-width): its depth plus the distance at
             * which its offset across the view spans that much, in perspective. */
            w[i] = z[i] + fmaxf(fabsf(y[i]), fabsf(x[i]) / aspect) / (GC_CAMERA_FIT_FILL * ty);
        }
        d = quantile(w, m, GC_CAMERA_FIT_KEEP);
        if (!(d > 1e-3f) || !isfinite(d) || round == FIT_ROUNDS - 1)
            break;
        /* Centre the box of the bodies' directions from the eye (the picture's box, not the
         * box in space: the nearer galaxy looks bigger), from the same percentiles. */
        for (int a = 0; a < 2; a++) {
            float *v = a == 0 ? x : y;
            size_t j = 0;
            for (size_t i = 0; i < m; i++)
                if (d - z[i] > 0.01f * d)  /* behind the eye: not in the picture anyway */
                    w[j++] = v[i] / (d - z[i]);
            mid[a] = j > 0 ? 0.5f * (quantile(w, j, lo) + quantile(w, j, hi)) : 0.0f;
        }
        for (int k = 0; k < 3; k++)
            c->target[k] += d * (mid[0] * r[k] + mid[1] * u[k]);
    }
    free(x);
    if (!(d > 1e-3f) || !isfinite(d) || !isfinite(c->target[0] + c->target[1] + c->target[2]))
        return 0;
    c->distance = d;
    return 1;
}

void gc_camera_fit(struct gc_camera *c, const float *pos4, const uint8_t *tag, size_t n,
                   float aspect)
{
    gc_camera_fit_at(c, 0.6f, 0.5f, pos4, tag, n, aspect);
}

void gc_camera_fit_at(struct gc_camera *c, float yaw, float pitch, const float *pos4,
                      const uint8_t *tag, size_t n, float aspect)
{
    int fitted = 0;
    memset(c, 0, sizeof *c);
    c->fovy = 45.0f * PI_F / 180.0f;
    c->pitch = fminf(fmaxf(pitch, -PITCH_LIMIT), PITCH_LIMIT);
    c->yaw = yaw;
    if (!(aspect > 0.0f) || !isfinite(aspect))
        aspect = 1.0f;
    if (pos4 && n > 0) {
        float *s = malloc(4 * sizeof *s * FIT_SAMPLES);
        if (s) {
            size_t m = sample(pos4, tag, n, s);
            fitted = fit_samples(c, s, m, aspect);
            free(s);
        }
        if (!fitted) {
            memset(c->target, 0, sizeof c->target);
            if (isfinite(pos4[0] + pos4[1] + pos4[2]))
                memcpy(c->target, pos4, sizeof c->target);
            c->distance = gc_camera_distance_for(c, 1.0f);
        }
    } else {
        c->distance = gc_camera_distance_for(c, FIT_DEFAULT_RADIUS);
    }
    /* Deep enough to look into a nucleus, far enough to see the halos (ten times wider). */
    c->min_distance = 0.02f * c->distance;
    c->max_distance = 20.0f * c->distance;
}

float gc_camera_sphere_distance(const struct gc_camera *c, const float *pos4, const uint8_t *tag,
                                size_t n)
{
    float r = FIT_DEFAULT_RADIUS;
    float *s = pos4 && n > 0 ? malloc(4 * sizeof *s * FIT_SAMPLES) : NULL;
    if (s) {
        const size_t m = sample(pos4, tag, n, s);
        double mean[3] = {0, 0, 0};
        for (size_t i = 0; i < m; i++)
            for (int k = 0; k < 3; k++)
                mean[k] += s[4 * i + k] / (double)m;
        /* The radii overwrite the samples' first m floats, read before they are written. */
        for (size_t i = 0; i < m; i++) {
            const double dx = s[4 * i] - mean[0], dy = s[4 * i + 1] - mean[1],
                         dz = s[4 * i + 2] - mean[2];
            s[i] = (float)sqrt(dx * dx + dy * dy + dz * dz);
        }
        r = m > 0 ? quantile(s, m, 0.95f) : 1.0f;
        free(s);
        if (!(r > 1e-3f) || !isfinite(r))
            r = 1.0f;
    }
    return gc_camera_distance_for(c, r);
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
    /* The framed stars lie within about one distance of the target (the home view fills
     * the frame with them); halos and bodies flung further out may be clipped at the far
     * plane, which sits well past them. A near plane at 1% of the distance keeps depth
     * precision irrelevant (no depth test is used: sprites are blended additively). */
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
