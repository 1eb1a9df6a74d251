/* The CPU backend: its table, all-pairs softened gravity and the leapfrog primitives (float, OpenMP over bodies). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend.h"
#include "backend_cpu.h"
#include "log.h"

/* j-block length for the partial float sums: each SIMD lane sums at most BLOCK/8 terms in
 * float before the block is added into a double, which keeps the force error ~1e-7
 * relative even at a million bodies while the hot loop stays single precision. */
#define BLOCK 2048

int gc_cpu_threads(const struct cpu_ctx *c)
{
#ifdef _OPENMP
    return c->threads > 0 ? c->threads : omp_get_max_threads();
#else
    (void)c;
    return 1;
#endif
}

static void free_arrays(struct cpu_ctx *c)
{
    float **a[] = {&c->x, &c->y, &c->z, &c->m, &c->vx, &c->vy, &c->vz, &c->ax, &c->ay, &c->az};
    for (size_t k = 0; k < sizeof a / sizeof a[0]; k++) {
        free(*a[k]);
        *a[k] = NULL;
    }
    c->n = c->cap = 0;
}

static enum gc_status cpu_upload(struct gc_backend *b, const struct gc_bodies *src)
{
    struct cpu_ctx *c = b->ctx;
    size_t n = src->n;
    gc_cpu_hermite_free(c); /* new bodies: any Hermite state is stale */
    if (n > c->cap) {
        float **a[] = {&c->x, &c->y, &c->z, &c->m, &c->vx, &c->vy, &c->vz, &c->ax, &c->ay, &c->az};
        free_arrays(c);
        for (size_t k = 0; k < sizeof a / sizeof a[0]; k++) {
            *a[k] = calloc(n, sizeof(float));
            if (!*a[k]) {
                free_arrays(c);
                gc_log_error("cpu backend: cannot allocate memory for %zu bodies", n);
                return GC_ERR_NOMEM;
            }
        }
        c->cap = n;
    }
    c->n = n;
    c->i0 = 0;
    c->i1 = n;
    for (size_t i = 0; i < n; i++) {
        c->x[i] = src->pos[4 * i + 0];
        c->y[i] = src->pos[4 * i + 1];
        c->z[i] = src->pos[4 * i + 2];
        c->m[i] = src->pos[4 * i + 3];
        c->vx[i] = src->vel[4 * i + 0];
        c->vy[i] = src->vel[4 * i + 1];
        c->vz[i] = src->vel[4 * i + 2];
        c->ax[i] = c->ay[i] = c->az[i] = 0.0f;
    }
    return GC_OK;
}

static enum gc_status cpu_download(struct gc_backend *b, struct gc_bodies *dst)
{
    struct cpu_ctx *c = b->ctx;
    for (size_t i = 0; i < c->n; i++) {
        dst->pos[4 * i + 0] = c->x[i];
        dst->pos[4 * i + 1] = c->y[i];
        dst->pos[4 * i + 2] = c->z[i];
        dst->pos[4 * i + 3] = c->m[i];
        dst->vel[4 * i + 0] = c->vx[i];
        dst->vel[4 * i + 1] = c->vy[i];
        dst->vel[4 * i + 2] = c->vz[i];
        dst->vel[4 * i + 3] = 0.0f;
    }
    if (c->h)
        gc_cpu_hermite_download(c, dst);
    return GC_OK;
}

/* The loop is over i only: each thread writes its own a_i, so there are no write races,
 * and the j summation order is fixed, so results repeat exactly run to run. */
static enum gc_status cpu_accel(struct gc_backend *b, float eps2)
{
    struct cpu_ctx *c = b->ctx;
    const long n = (long)c->n, i0 = (long)c->i0, i1 = (long)c->i1;
    const float *restrict x = c->x, *restrict y = c->y, *restrict z = c->z, *restrict m = c->m;

#pragma omp parallel for schedule(dynamic, 16) num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        double ax = 0.0, ay = 0.0, az = 0.0;
        for (long j0 = 0; j0 < n; j0 += BLOCK) {
            const long j1 = j0 + BLOCK < n ? j0 + BLOCK : n;
            float bx = 0.0f, by = 0.0f, bz = 0.0f;
#pragma omp simd reduction(+ : bx, by, bz)
            for (long j = j0; j < j1; j++) {
                const float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
                const float r2 = dx * dx + dy * dy + dz * dz + eps2;
                const float inv = 1.0f / sqrtf(r2);
                const float s = m[j] * inv * inv * inv;
                bx += dx * s;
                by += dy * s;
                bz += dz * s;
            }
            ax += bx;
            ay += by;
            az += bz;
        }
        c->ax[i] = (float)ax;
        c->ay[i] = (float)ay;
        c->az[i] = (float)az;
    }
    return GC_OK;
}

static enum gc_status cpu_kick(struct gc_backend *b, float dt)
{
    struct cpu_ctx *c = b->ctx;
    const long i0 = (long)c->i0, i1 = (long)c->i1;
#pragma omp parallel for simd schedule(static) num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        c->vx[i] += c->ax[i] * dt;
        c->vy[i] += c->ay[i] * dt;
        c->vz[i] += c->az[i] * dt;
    }
    return GC_OK;
}

static enum gc_status cpu_drift(struct gc_backend *b, float dt)
{
    struct cpu_ctx *c = b->ctx;
    const long i0 = (long)c->i0, i1 = (long)c->i1;
#pragma omp parallel for simd schedule(static) num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        c->x[i] += c->vx[i] * dt;
        c->y[i] += c->vy[i] * dt;
        c->z[i] += c->vz[i] * dt;
    }
    return GC_OK;
}

static enum gc_status cpu_export(struct gc_backend *b, struct gc_render_buffer *dst)
{
    struct cpu_ctx *c = b->ctx;
    if (!dst->h_pos || dst->n < c->n) {
        gc_log_error("cpu backend: render buffer has no host staging array for %zu bodies",
                     c->n);
        return GC_ERR_INVALID;
    }
    for (size_t i = 0; i < c->n; i++) {
        dst->h_pos[4 * i + 0] = c->x[i];
        dst->h_pos[4 * i + 1] = c->y[i];
        dst->h_pos[4 * i + 2] = c->z[i];
        dst->h_pos[4 * i + 3] = c->m[i];
    }
    if (dst->h_vel)
        for (size_t i = 0; i < c->n; i++) {
            dst->h_vel[4 * i + 0] = c->vx[i];
            dst->h_vel[4 * i + 1] = c->vy[i];
            dst->h_vel[4 * i + 2] = c->vz[i];
            dst->h_vel[4 * i + 3] = 0.0f;
        }
    if (dst->h_vel && c->h) /* Hermite: each body's time-step level, for colouring */
        gc_cpu_hermite_levels(c, dst->h_vel);
    dst->written_to_vbo = 0;
    return GC_OK;
}

/* W = -1/2 sum_i m_i sum_{j != i} m_j / sqrt(r^2 + eps^2). Pairs in float (as the forces),
 * sums in double; the j = i term (m_i / eps) is included by the vector loop and removed
 * exactly afterwards so the loop needs no branch. */
static enum gc_status cpu_potential(struct gc_backend *b, float eps2, double *w)
{
    struct cpu_ctx *c = b->ctx;
    if (c->h) /* Hermite: the double view, with its own softening (0 allowed) */
        return gc_cpu_hermite_potential(c, w);
    const long n = (long)c->n, i0 = (long)c->i0, i1 = (long)c->i1;
    const float *restrict x = c->x, *restrict y = c->y, *restrict z = c->z, *restrict m = c->m;
    double total = 0.0;
    if (!(eps2 > 0.0f)) {
        gc_log_error("cpu backend: potential needs softening > 0");
        return GC_ERR_INVALID;
    }
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total) num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        double phi = 0.0;
        for (long j0 = 0; j0 < n; j0 += BLOCK) {
            const long j1 = j0 + BLOCK < n ? j0 + BLOCK : n;
            float p = 0.0f;
#pragma omp simd reduction(+ : p)
            for (long j = j0; j < j1; j++) {
                const float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
                p += m[j] / sqrtf(dx * dx + dy * dy + dz * dz + eps2);
            }
            phi += p;
        }
        phi -= (double)m[i] / sqrt((double)eps2);
        total += (double)m[i] * phi;
    }
    *w = -0.5 * total;
    return GC_OK;
}

static enum gc_status cpu_set_range(struct gc_backend *b, size_t i0, size_t i1)
{
    struct cpu_ctx *c = b->ctx;
    c->i0 = i0;
    c->i1 = i1;
    return GC_OK;
}

static enum gc_status cpu_get_positions(struct gc_backend *b, size_t i0, size_t i1, float *dst)
{
    const struct cpu_ctx *c = b->ctx;
    for (size_t i = i0; i < i1; i++, dst += 4) {
        dst[0] = c->x[i];
        dst[1] = c->y[i];
        dst[2] = c->z[i];
        dst[3] = c->m[i];
    }
    return GC_OK;
}

static enum gc_status cpu_set_positions(struct gc_backend *b, size_t i0, size_t i1,
                                        const float *src)
{
    struct cpu_ctx *c = b->ctx;
    for (size_t i = i0; i < i1; i++, src += 4) {
        c->x[i] = src[0];
        c->y[i] = src[1];
        c->z[i] = src[2];
        c->m[i] = src[3];
    }
    return GC_OK;
}

static const char *cpu_device_name(const struct gc_backend *b)
{
    return ((const struct cpu_ctx *)b->ctx)->device;
}

static void cpu_destroy(struct gc_backend *b)
{
    if (!b)
        return;
    if (b->ctx) {
        gc_cpu_hermite_free(b->ctx);
        free_arrays(b->ctx);
        free(b->ctx);
    }
    free(b);
}

static const struct gc_backend_iface cpu_iface = {
    .name = "cpu",
    .upload = cpu_upload,
    .download = cpu_download,
    .set_range = cpu_set_range,
    .get_positions = cpu_get_positions,
    .set_positions = cpu_set_positions,
    .accel = cpu_accel,
    .kick = cpu_kick,
    .drift = cpu_drift,
    .kick_drift = NULL,
    .export_positions = cpu_export,
    .potential = cpu_potential,
    .sync = NULL,
    .hermite_init = gc_cpu_hermite_init,
    .hermite_begin = gc_cpu_hermite_begin,
    .hermite_select = gc_cpu_hermite_select,
    .hermite_predict = gc_cpu_hermite_predict,
    .hermite_force = gc_cpu_hermite_force,
    .hermite_correct = gc_cpu_hermite_correct,
    .hermite_view = gc_cpu_hermite_view,
    .hermite_counters = gc_cpu_hermite_counters,
    .hermite_schedule = gc_cpu_hermite_schedule,
    .hermite_derivs = gc_cpu_hermite_derivs,
    .hermite_pack = gc_cpu_hermite_pack,
    .hermite_unpack = gc_cpu_hermite_unpack,
    .repeat = NULL, /* the integrator loops on the host */
    .device_name = cpu_device_name,
    .destroy = cpu_destroy,
};

enum gc_status gc_backend_cpu_create(const struct gc_backend_options *opt,
                                     struct gc_backend **out)
{
    struct gc_backend *b = calloc(1, sizeof *b);
    struct cpu_ctx *c = calloc(1, sizeof *c);
    *out = NULL;
    if (!b || !c) {
        free(b);
        free(c);
        gc_log_error("cpu backend: out of memory");
        return GC_ERR_NOMEM;
    }
    if (opt && opt->threads < 0) {
        free(b);
        free(c);
        gc_log_error("cpu backend: thread count must be >= 0, got %d", opt->threads);
        return GC_ERR_INVALID;
    }
    c->threads = opt ? opt->threads : 0;
    snprintf(c->device, sizeof c->device, "CPU, %d OpenMP thread%s", gc_cpu_threads(c),
             gc_cpu_threads(c) == 1 ? "" : "s");
    b->iface = &cpu_iface;
    b->ctx = c;
    *out = b;
    return GC_OK;
}
