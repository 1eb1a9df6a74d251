/* The CUDA backend: device memory, stream and calls to the kernel launchers behind its compute table. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "backend_bench.h"
#include "backend_cuda.h"
#include "backend_cuda_ctx.h"
#include "backend_state.h"
#include "backend_tree.h"
#include "render_buffer.h"

/* The force methods of this backend, one file each (backend_cuda_<method>.c). */
static const struct cuda_force_method *const methods[GC_FORCE_METHODS] = {
    [GC_FORCE_ALLPAIRS] = &gc_cuda_allpairs,
    [GC_FORCE_TREE] = &gc_cuda_tree,
};

static void free_device(struct cuda_ctx *c)
{
    for (int k = 0; k < GC_FORCE_METHODS; k++)
        if (methods[k] && methods[k]->free)
            methods[k]->free(c);
    cudaFree(c->d_pos);
    cudaFree(c->d_vel);
    cudaFree(c->d_acc);
    c->d_pos = c->d_vel = c->d_acc = NULL;
    c->n = c->cap = 0;
}

/* The bodies or the range changed: each method lays out its work again. */
static enum gc_status resize_methods(struct cuda_ctx *c)
{
    for (int k = 0; k < GC_FORCE_METHODS; k++) {
        enum gc_status st = methods[k] && methods[k]->resize ? methods[k]->resize(c) : GC_OK;
        if (st != GC_OK)
            return st;
    }
    return GC_OK;
}

static enum gc_status cuda_upload(struct gc_backend *b, const struct gc_bodies *src)
{
    struct cuda_ctx *c = b->ctx;
    const size_t n = src->n, bytes = n * 4 * sizeof(float);
    enum gc_status st;

    GC_CUDA_TRY(cudaSetDevice(c->device));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    gc_cuda_hermite_free(c); /* new bodies: any Hermite state is stale */
    gc_cuda_picture_bodies_changed(c);
    if (n > c->cap) {
        free_device(c);
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_pos, bytes));
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_vel, bytes));
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_acc, bytes));
        c->cap = n;
    }
    c->i0 = 0;
    c->i1 = n;
    c->n = n;
    st = resize_methods(c);
    if (st != GC_OK)
        return st;
    GC_CUDA_TRY(cudaMemcpyAsync(c->d_pos, src->pos, bytes, cudaMemcpyHostToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(c->d_vel, src->vel, bytes, cudaMemcpyHostToDevice, c->stream));
    GC_CUDA_TRY(cudaMemsetAsync(c->d_acc, 0, bytes, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

static enum gc_status cuda_download(struct gc_backend *b, struct gc_bodies *dst)
{
    struct cuda_ctx *c = b->ctx;
    const size_t bytes = c->n * 4 * sizeof(float);
    GC_CUDA_TRY(cudaMemcpyAsync(dst->pos, c->d_pos, bytes, cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(dst->vel, c->d_vel, bytes, cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return c->herm ? gc_cuda_hermite_download(c, dst) : GC_OK;
}

static enum gc_status cuda_accel(struct gc_backend *b, const struct gc_force_params *fp)
{
    const struct cuda_force_method *m = methods[fp->method];
    if (!m) {
        gc_log_error("cuda backend: force method %d is not available", (int)fp->method);
        return GC_ERR_UNSUPPORTED;
    }
    return m->accel(b->ctx, fp);
}

static enum gc_status cuda_kick(struct gc_backend *b, float dt)
{
    struct cuda_ctx *c = b->ctx;
    GC_CUDA_TRY(gc_cuda_launch_kick(c->d_vel + 4 * c->i0, c->d_acc + 4 * c->i0, c->i1 - c->i0,
                                    dt, c->stream));
    return GC_OK;
}

static enum gc_status cuda_drift(struct gc_backend *b, float dt)
{
    struct cuda_ctx *c = b->ctx;
    GC_CUDA_TRY(gc_cuda_launch_drift(c->d_pos + 4 * c->i0, c->d_vel + 4 * c->i0, c->i1 - c->i0,
                                     dt, c->stream));
    return GC_OK;
}

static enum gc_status cuda_kick_drift(struct gc_backend *b, float dt_close, float dt_open,
                                      float dt_drift)
{
    struct cuda_ctx *c = b->ctx;
    GC_CUDA_TRY(gc_cuda_launch_kick_drift(c->d_pos + 4 * c->i0, c->d_vel + 4 * c->i0,
                                          c->d_acc + 4 * c->i0, c->i1 - c->i0, dt_close,
                                          dt_open, dt_drift, c->stream));
    return GC_OK;
}

/* Asynchronous faults of earlier launches surface here. */
static enum gc_status cuda_sync(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    GC_CUDA_TRY(cudaGetLastError());
    return GC_OK;
}

static enum gc_status cuda_export(struct gc_backend *b, struct gc_render_buffer *dst)
{
    struct cuda_ctx *c = b->ctx;
    if (dst->n < c->n) {
        gc_log_error("cuda backend: render buffer holds %zu bodies, %zu needed", dst->n, c->n);
        return GC_ERR_INVALID;
    }
    if (dst->device_picture)
        return gc_cuda_picture_handover(c);
    return gc_cuda_export_buffers(c, dst);
}


static enum gc_status cuda_potential(struct gc_backend *b, const struct gc_force_params *fp,
                                     double *w)
{
    struct cuda_ctx *c = b->ctx;
    const struct cuda_force_method *m = methods[fp->method];
    if (c->herm) /* Hermite: the double view, with its own softening (0 allowed) */
        return gc_cuda_hermite_potential(c, w);
    if (!m || !m->potential) {
        gc_log_error("cuda backend: no potential energy for force method %d", (int)fp->method);
        return GC_ERR_UNSUPPORTED;
    }
    return m->potential(c, fp, w);
}

/* Ranks: this rank's bodies for accel, kick, drift and potential (and Hermite's force,
 * correction and potential); positions cross between ranks through host memory. */
static enum gc_status cuda_set_range(struct gc_backend *b, size_t i0, size_t i1)
{
    struct cuda_ctx *c = b->ctx;
    c->i0 = i0;
    c->i1 = i1;
    if (c->herm)
        gc_cuda_hermite_set_range(c);
    return resize_methods(c);
}

static enum gc_status cuda_get_positions(struct gc_backend *b, size_t i0, size_t i1, float *dst)
{
    struct cuda_ctx *c = b->ctx;
    if (i1 <= i0)
        return GC_OK;
    GC_CUDA_TRY(cudaMemcpyAsync(dst, c->d_pos + 4 * i0, (i1 - i0) * 4 * sizeof(float),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

static enum gc_status cuda_set_positions(struct gc_backend *b, size_t i0, size_t i1,
                                         const float *src)
{
    struct cuda_ctx *c = b->ctx;
    if (i1 <= i0)
        return GC_OK;
    GC_CUDA_TRY(cudaMemcpyAsync(c->d_pos + 4 * i0, src, (i1 - i0) * 4 * sizeof(float),
                                cudaMemcpyHostToDevice, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

static const char *cuda_device_name(const struct gc_backend *b)
{
    return ((const struct cuda_ctx *)b->ctx)->name;
}

static void cuda_destroy(struct gc_backend *b)
{
    struct cuda_ctx *c;
    if (!b)
        return;
    c = b->ctx;
    if (c) {
        cudaSetDevice(c->device);
        if (c->stream)
            cudaStreamSynchronize(c->stream);
        gc_cuda_interop_detach(c);
        gc_cuda_hermite_free(c);
        gc_cuda_picture_free(c);
        free_device(c);
        for (int k = 0; k < 2; k++)
            if (c->ev[k])
                cudaEventDestroy(c->ev[k]);
        if (c->stream)
            cudaStreamDestroy(c->stream);
        free(c);
    }
    free(b);
}

/* ---- the benchmark table: CUDA events on the stream, the kernel alone ---- */

static enum gc_status bench_mark(struct gc_backend *b, int stop)
{
    struct cuda_ctx *c = b->ctx;
    GC_CUDA_TRY(cudaEventRecord(c->ev[stop ? 1 : 0], c->stream));
    return GC_OK;
}

static enum gc_status bench_elapsed(struct gc_backend *b, double *ms)
{
    struct cuda_ctx *c = b->ctx;
    float f = 0.0f;
    GC_CUDA_TRY(cudaEventSynchronize(c->ev[1]));
    GC_CUDA_TRY(cudaGetLastError());
    GC_CUDA_TRY(cudaEventElapsedTime(&f, c->ev[0], c->ev[1]));
    *ms = (double)f;
    return GC_OK;
}

static enum gc_status bench_force_kernel(struct gc_backend *b, float eps2, int kernel)
{
    return gc_cuda_allpairs_kernel(b->ctx, eps2, kernel);
}

static const char *bench_plan(struct gc_backend *b)
{
    return gc_cuda_allpairs_plan(b->ctx);
}

static enum gc_status bench_memory(struct gc_backend *b, size_t *bytes)
{
    size_t free_b = 0, total_b = 0;
    (void)b;
    GC_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
    *bytes = total_b - free_b;
    return GC_OK;
}

static const struct gc_backend_bench cuda_bench = {
    .mark = bench_mark,
    .elapsed = bench_elapsed,
    .force_kernel = bench_force_kernel,
    .plan = bench_plan,
    .memory = bench_memory,
};

static enum gc_status tree_stats(struct gc_backend *b, struct gc_tree_stats *out)
{
    return gc_cuda_tree_stats(b->ctx, out);
}

static enum gc_status tree_group_times(struct gc_backend *b, float *us, size_t cap,
                                       size_t *count)
{
    return gc_cuda_tree_group_times(b->ctx, us, cap, count);
}

static const struct gc_backend_tree cuda_tree_table = {.stats = tree_stats,
                                                       .group_times = tree_group_times};

/* ---- kept states: the position, velocity and acceleration arrays one after the other in
 * device memory, copied on the device (no host round trip) ---- */

static size_t kept_bytes(const struct gc_backend *b)
{
    return 3 * ((const struct cuda_ctx *)b->ctx)->n * 4 * sizeof(float);
}

static enum gc_status cuda_keep(struct gc_backend *b, void **blob)
{
    struct cuda_ctx *c = b->ctx;
    const size_t bytes = c->n * 4 * sizeof(float);
    char *dst;
    GC_CUDA_TRY(cudaSetDevice(c->device));
    if (!*blob && cudaMalloc(blob, bytes ? 3 * bytes : 1) != cudaSuccess) {
        (void)cudaGetLastError();
        *blob = NULL;
        return GC_ERR_NOMEM;
    }
    dst = *blob;
    GC_CUDA_TRY(cudaMemcpyAsync(dst, c->d_pos, bytes, cudaMemcpyDeviceToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(dst + bytes, c->d_vel, bytes, cudaMemcpyDeviceToDevice,
                                c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(dst + 2 * bytes, c->d_acc, bytes, cudaMemcpyDeviceToDevice,
                                c->stream));
    return GC_OK;
}

static enum gc_status cuda_restore(struct gc_backend *b, const void *blob)
{
    struct cuda_ctx *c = b->ctx;
    const size_t bytes = c->n * 4 * sizeof(float);
    const char *src = blob;
    GC_CUDA_TRY(cudaMemcpyAsync(c->d_pos, src, bytes, cudaMemcpyDeviceToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(c->d_vel, src + bytes, bytes, cudaMemcpyDeviceToDevice,
                                c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(c->d_acc, src + 2 * bytes, bytes, cudaMemcpyDeviceToDevice,
                                c->stream));
    return GC_OK;
}

static void cuda_release(struct gc_backend *b, void *blob)
{
    struct cuda_ctx *c = b->ctx;
    if (blob) {
        cudaStreamSynchronize(c->stream);
        cudaFree(blob);
    }
}

static enum gc_status cuda_free_memory(const struct gc_backend *b, size_t *bytes)
{
    const struct cuda_ctx *c = b->ctx;
    size_t total = 0;
    GC_CUDA_TRY(cudaSetDevice(c->device));
    GC_CUDA_TRY(cudaMemGetInfo(bytes, &total));
    return GC_OK;
}

static const struct gc_backend_state cuda_state_table = {
    .bytes = kept_bytes,
    .keep = cuda_keep,
    .restore = cuda_restore,
    .release = cuda_release,
    .free_memory = cuda_free_memory,
};

static const void *cuda_lookup(const struct gc_backend *b, int table)
{
    (void)b;
    switch (table) {
    case GC_TABLE_HERMITE: return &gc_cuda_hermite_table;
    case GC_TABLE_PICTURE: return &gc_cuda_picture_table;
    case GC_TABLE_BENCH: return &cuda_bench;
    case GC_TABLE_TREE: return &cuda_tree_table;
    case GC_TABLE_STATE: return &cuda_state_table;
    default: return NULL;
    }
}

static const struct gc_backend_iface cuda_iface = {
    .name = "cuda",
    .caps = GC_BACKEND_DEVICE,
    .upload = cuda_upload,
    .download = cuda_download,
    .accel = cuda_accel,
    .kick = cuda_kick,
    .drift = cuda_drift,
    .kick_drift = cuda_kick_drift,
    .export_positions = cuda_export,
    .potential = cuda_potential,
    .sync = cuda_sync,
    .set_range = cuda_set_range,
    .get_positions = cuda_get_positions,
    .set_positions = cuda_set_positions,
    .lookup = cuda_lookup,
    .device_name = cuda_device_name,
    .destroy = cuda_destroy,
};

int gc_backend_cuda_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count;
}

/* Everything that can fail at start-up happens here, so "auto" can fall back cleanly. */
static enum gc_status setup(struct cuda_ctx *c, const struct gc_backend_options *opt)
{
    struct cudaDeviceProp prop;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (!opt->quiet)
            gc_log_error("cuda backend: no usable CUDA device (%s)%s",
                         e != cudaSuccess ? cudaGetErrorString(e) : "no device found",
                         /* the runtime reports a missing driver as an old one */
                         e == cudaErrorInsufficientDriver
                             ? ": no NVIDIA driver is loaded, or it is older than this build's "
                               "CUDA runtime; --backend cpu runs without one"
                             : "; --backend cpu runs without one");
        (void)cudaGetLastError();
        return GC_ERR_CUDA;
    }
    if (opt->device < 0 || opt->device >= count) {
        if (!opt->quiet)
            gc_log_error("cuda backend: --device %d is out of range: %d device%s (0..%d)",
                         opt->device, count, count == 1 ? "" : "s", count - 1);
        return GC_ERR_INVALID;
    }
    c->device = opt->device;
    GC_CUDA_TRY(cudaSetDevice(c->device));
    GC_CUDA_TRY(cudaGetDeviceProperties(&prop, c->device));
    c->sm_count = prop.multiProcessorCount;
    snprintf(c->name, sizeof c->name, "%.200s (sm_%d%d, %d SMs)", prop.name, prop.major,
             prop.minor, prop.multiProcessorCount);
    /* The occupancy query fails when this build has no machine code for the device. */
    {
        static const int any_variant[5] = {0, 0, 0, 0, 0};
        struct gc_cuda_accel_plan plan;
        e = (cudaError_t)gc_cuda_accel_plan(1024, c->sm_count, any_variant, &plan);
    }
    if (e != cudaSuccess) {
        if (!opt->quiet)
            gc_log_error("cuda backend: %s cannot run this build's kernels (%s); rebuild "
                         "with -DCMAKE_CUDA_ARCHITECTURES=%d%d", prop.name,
                         cudaGetErrorString(e), prop.major, prop.minor);
        (void)cudaGetLastError();
        return GC_ERR_CUDA;
    }
    GC_CUDA_TRY(cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    GC_CUDA_TRY(cudaEventCreate(&c->ev[0]));
    GC_CUDA_TRY(cudaEventCreate(&c->ev[1]));
#ifndef GC_CUDA_GL_INTEROP
    c->no_interop = 1;
#endif
    return GC_OK;
}

enum gc_status gc_backend_cuda_create(const struct gc_backend_options *opt,
                                      struct gc_backend **out)
{
    static const struct gc_backend_options defaults = {0};
    struct gc_backend *b = calloc(1, sizeof *b);
    struct cuda_ctx *c = calloc(1, sizeof *c);
    enum gc_status st;
    *out = NULL;
    if (!opt)
        opt = &defaults;
    if (!b || !c) {
        free(b);
        free(c);
        gc_log_error("cuda backend: out of memory");
        return GC_ERR_NOMEM;
    }
    c->no_interop = opt->no_interop;
    b->iface = &cuda_iface;
    b->ctx = c;
    st = setup(c, opt);
    if (st != GC_OK) {
        cuda_destroy(b);
        return st;
    }
    *out = b;
    return GC_OK;
}
