/* The CPU backend: its compute table, the state in float arrays and the leapfrog primitives (OpenMP over bodies). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend_bench.h"
#include "backend_cpu.h"
#include "backend_state.h"
#include "backend_tree.h"
#include "render_buffer.h"
#include "log.h"

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

/* The force methods of this backend, one file each (backend_cpu_<method>.c). */
static const struct cpu_force_method *const methods[GC_FORCE_METHODS] = {
    [GC_FORCE_ALLPAIRS] = &gc_cpu_allpairs,
    [GC_FORCE_TREE] = &gc_cpu_tree,
};

static enum gc_status cpu_accel(struct gc_backend *b, const struct gc_force_params *fp)
{
    const struct cpu_force_method *m = methods[fp->method];
    if (!m) {
        gc_log_error("cpu backend: force method %d is not available", (int)fp->method);
        return GC_ERR_UNSUPPORTED;
    }
    return m->accel(b->ctx, fp);
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

static enum gc_status cpu_potential(struct gc_backend *b, const struct gc_force_params *fp,
                                    double *w)
{
    struct cpu_ctx *c = b->ctx;
    const struct cpu_force_method *m = methods[fp->method];
    if (c->h) /* Hermite: the double view, with its own softening (0 allowed) */
        return gc_cpu_hermite_potential(c, w);
    if (!m || !m->potential) {
        gc_log_error("cpu backend: no potential energy for force method %d", (int)fp->method);
        return GC_ERR_UNSUPPORTED;
    }
    return m->potential(c, fp, w);
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
        gc_cpu_tree_free(b->ctx);
        free_arrays(b->ctx);
        free(b->ctx);
    }
    free(b);
}

/* ---- kept states: the ten arrays one after the other, in host memory ---- */

#define KEPT_ARRAYS 10

static size_t kept_bytes(const struct gc_backend *b)
{
    return KEPT_ARRAYS * ((const struct cpu_ctx *)b->ctx)->n * sizeof(float);
}

static enum gc_status cpu_keep(struct gc_backend *b, void **blob)
{
    struct cpu_ctx *c = b->ctx;
    const float *a[KEPT_ARRAYS] = {c->x, c->y, c->z, c->m, c->vx, c->vy, c->vz,
                                   c->ax, c->ay, c->az};
    float *dst;
    if (!*blob && !(*blob = malloc(kept_bytes(b) ? kept_bytes(b) : 1)))
        return GC_ERR_NOMEM;
    dst = *blob;
    for (int k = 0; k < KEPT_ARRAYS; k++)
        memcpy(dst + (size_t)k * c->n, a[k], c->n * sizeof(float));
    return GC_OK;
}

static enum gc_status cpu_restore(struct gc_backend *b, const void *blob)
{
    struct cpu_ctx *c = b->ctx;
    float *a[KEPT_ARRAYS] = {c->x, c->y, c->z, c->m, c->vx, c->vy, c->vz, c->ax, c->ay, c->az};
    const float *src = blob;
    for (int k = 0; k < KEPT_ARRAYS; k++)
        memcpy(a[k], src + (size_t)k * c->n, c->n * sizeof(float));
    return GC_OK;
}

static void cpu_release(struct gc_backend *b, void *blob)
{
    (void)b;
    free(blob);
}

/* MemAvailable (what the kernel can give without swapping), else the free pages. */
static enum gc_status cpu_free_memory(const struct gc_backend *b, size_t *bytes)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb = 0;
    (void)b;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    if (kb == 0) {
        const long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
        kb = pages > 0 && size > 0 ? (unsigned long long)pages * (unsigned long long)size / 1024
                                   : 0;
    }
    *bytes = (size_t)(kb * 1024);
    return kb > 0 ? GC_OK : GC_ERR_UNSUPPORTED;
}

static const struct gc_backend_state cpu_state_table = {
    .bytes = kept_bytes,
    .keep = cpu_keep,
    .restore = cpu_restore,
    .release = cpu_release,
    .free_memory = cpu_free_memory,
};

static enum gc_status cpu_tree_stats(struct gc_backend *b, struct gc_tree_stats *out)
{
    return gc_cpu_tree_stats(b->ctx, out);
}

static enum gc_status cpu_tree_group_times(struct gc_backend *b, float *us, size_t cap,
                                           size_t *count)
{
    return gc_cpu_tree_group_times(b->ctx, us, cap, count);
}

static const struct gc_backend_tree cpu_tree_table = {.stats = cpu_tree_stats,
                                                      .group_times = cpu_tree_group_times};

static enum gc_status cpu_peak(struct gc_backend *b, struct gc_bench_peak *out)
{
    const struct cpu_ctx *c = b->ctx;
    struct gc_cpu_peak p;
    gc_cpu_peak_estimate(gc_cpu_threads(c), &p);
    memset(out, 0, sizeof *out);
    out->flops = p.flops;
    out->pair_flops = c->kernels->flops_per_pair;
    snprintf(out->loops, sizeof out->loops, "%s", c->kernels->isa);
    snprintf(out->how, sizeof out->how, "%s", p.how);
    return GC_OK;
}

/* The host's clock times this backend: only the peak comparison. */
static const struct gc_backend_bench cpu_bench_table = {.peak = cpu_peak};

static const void *cpu_lookup(const struct gc_backend *b, int table)
{
    (void)b;
    switch (table) {
    case GC_TABLE_HERMITE: return &gc_cpu_hermite_table;
    case GC_TABLE_TREE: return &cpu_tree_table;
    case GC_TABLE_STATE: return &cpu_state_table;
    case GC_TABLE_BENCH: return &cpu_bench_table;
    default: return NULL;
    }
}

static const struct gc_backend_iface cpu_iface = {
    .name = "cpu",
    .caps = 0,
    /* One core's tree overtakes its all pairs at ~3,000 bodies and runs twice as fast from
     * 8,192 (BENCHMARKS.md, "The CPU backend"): above that, exact forces cost more than a
     * talk can wait for. */
    .tree_above = 8192,
    .upload = cpu_upload,
    .download = cpu_download,
    .accel = cpu_accel,
    .kick = cpu_kick,
    .drift = cpu_drift,
    .kick_drift = NULL,
    .export_positions = cpu_export,
    .potential = cpu_potential,
    .sync = NULL,
    .set_range = cpu_set_range,
    .get_positions = cpu_get_positions,
    .set_positions = cpu_set_positions,
    .lookup = cpu_lookup,
    .device_name = cpu_device_name,
    .destroy = cpu_destroy,
};

enum gc_status gc_backend_cpu_create(const struct gc_backend_options *opt,
                                     struct gc_backend **out)
{
    struct gc_backend *b = calloc(1, sizeof *b);
    struct cpu_ctx *c = calloc(1, sizeof *c);
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    const int cores = online > 0 ? (int)online : 1;
    int threads;
    enum gc_status st;
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
    /* The environment's choice is read here, once: it lets a whole run (the window, the
     * tests' programs) take the portable loops on a CPU that has wider ones. */
    st = gc_cpu_kernels_choose(opt && opt->cpu_isa ? opt->cpu_isa : getenv("GC_CPU_ISA"),
                               &c->kernels);
    if (st != GC_OK) {
        free(b);
        free(c);
        return st;
    }
    c->threads = opt ? opt->threads : 0;
    threads = gc_cpu_threads(c);
    snprintf(c->device, sizeof c->device, "CPU, %d OpenMP thread%s%s, %s loops", threads,
             threads == 1 ? "" : "s", threads > cores ? " (more than its cores)" : "",
             c->kernels->isa);
    /* Allowed (a test of a machine with more cores, or of scheduling), but said: the extra
     * threads take turns on the cores, and each pass waits for the last of them. */
    if (threads > cores && !(opt && opt->quiet))
        gc_log_warn("cpu backend: %d threads on %d core%s: they take turns, which is slower "
                    "than one a core", threads, cores, cores == 1 ? "" : "s");
    b->iface = &cpu_iface;
    b->ctx = c;
    *out = b;
    return GC_OK;
}
