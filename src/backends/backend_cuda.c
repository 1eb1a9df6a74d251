/* The CUDA backend: device memory, stream, CUDA-GL buffer registration and calls to the kernel launchers. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>
#ifdef GC_CUDA_GL_INTEROP
/* Needs only the GL headers: cudaGraphicsGLRegisterBuffer lives in cudart, so gc_core does
 * not link libGL; the renderer's context must be current when export_positions runs. */
#include <GL/gl.h>
#include <cuda_gl_interop.h>
#endif

#include "backend.h"
#include "backend_cuda.h"
#include "backend_cuda_ctx.h"

static void free_device(struct cuda_ctx *c)
{
    cudaFree(c->d_pos);
    cudaFree(c->d_vel);
    cudaFree(c->d_acc);
    cudaFree(c->d_part);
    cudaFree(c->d_wpart);
    free(c->h_wpart);
    c->d_pos = c->d_vel = c->d_acc = NULL;
    c->d_part = NULL;
    c->d_wpart = NULL;
    c->h_wpart = NULL;
    c->n = c->cap = c->part_cap = 0;
    c->wpart_cap = 0;
}

/* The force pass's split for this rank's i1 - i0 bodies against all n. */
static enum gc_status make_plan(struct cuda_ctx *c, size_t n)
{
    size_t need;
    GC_CUDA_TRY(gc_cuda_accel_plan_range(c->i1 - c->i0 > 0 ? c->i1 - c->i0 : 1, n, c->sm_count,
                                         c->force, &c->plan));
    snprintf(c->plan_str, sizeof c->plan_str, "T=%d B=%d U=%d M=%d P=%d blocks=%dx%d tiles/slice=%d",
             c->plan.threads, c->plan.bodies_per_thread, c->plan.unroll, c->plan.min_blocks,
             c->plan.soft_period,
             c->plan.blocks_i,
             c->plan.jsplit, c->plan.tiles_per_slice);
    need = gc_cuda_accel_scratch(&c->plan, n);
    if (need > c->part_cap) {
        cudaFree(c->d_part);
        c->d_part = NULL;
        c->part_cap = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_part, need * sizeof(double)));
        c->part_cap = need;
    }
    return GC_OK;
}

static enum gc_status cuda_upload(struct gc_backend *b, const struct gc_bodies *src)
{
    struct cuda_ctx *c = b->ctx;
    const size_t n = src->n, bytes = n * 4 * sizeof(float);
    enum gc_status st;
    int nw = gc_cuda_potential_blocks(n);

    GC_CUDA_TRY(cudaSetDevice(c->device));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    gc_cuda_hermite_free(c); /* new bodies: any Hermite state is stale */
    gc_cuda_light_bodies_changed(c);
    if (n > c->cap) {
        free_device(c);
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_pos, bytes));
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_vel, bytes));
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_acc, bytes));
        c->cap = n;
    }
    if (nw > c->wpart_cap) {
        cudaFree(c->d_wpart);
        free(c->h_wpart);
        c->d_wpart = NULL;
        c->wpart_cap = 0;
        c->h_wpart = malloc((size_t)nw * sizeof(double));
        if (!c->h_wpart) {
            gc_log_error("cuda backend: out of host memory for %d potential partial sums", nw);
            return GC_ERR_NOMEM;
        }
        GC_CUDA_TRY(cudaMalloc((void **)&c->d_wpart, (size_t)nw * sizeof(double)));
        c->wpart_cap = nw;
    }
    c->i0 = 0;
    c->i1 = n;
    st = make_plan(c, n);
    if (st != GC_OK)
        return st;
    c->n = n;
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

static enum gc_status cuda_accel(struct gc_backend *b, float eps2)
{
    struct cuda_ctx *c = b->ctx;
    gc_cuda_trace_mark(c, GC_TRACE_FORCE0, c->stream);
    GC_CUDA_TRY(gc_cuda_launch_accel_range(c->d_pos, c->d_acc, c->d_part, c->n, c->i0, c->i1,
                                           eps2, &c->plan, c->stream));
    gc_cuda_trace_mark(c, GC_TRACE_FORCE1, c->stream);
    return GC_OK;
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

static enum gc_status cuda_kick_drift(struct gc_backend *b, float dt_kick, float dt_drift)
{
    struct cuda_ctx *c = b->ctx;
    GC_CUDA_TRY(gc_cuda_launch_kick_drift(c->d_pos + 4 * c->i0, c->d_vel + 4 * c->i0,
                                          c->d_acc + 4 * c->i0, c->i1 - c->i0, dt_kick,
                                          dt_drift, c->stream));
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

static enum gc_status export_host(struct cuda_ctx *c, struct gc_render_buffer *dst)
{
    const size_t bytes = c->n * 4 * sizeof(float);
    if (!dst->h_pos) {
        gc_log_error("cuda backend: positions must go through the host (--no-interop or "
                     "interop unavailable) but the render buffer has no host staging array");
        return GC_ERR_UNSUPPORTED;
    }
    GC_CUDA_TRY(cudaMemcpyAsync(dst->h_pos, c->d_pos, bytes, cudaMemcpyDeviceToHost, c->stream));
    if (dst->h_vel)
        GC_CUDA_TRY(cudaMemcpyAsync(dst->h_vel, c->d_vel, bytes, cudaMemcpyDeviceToHost,
                                    c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    dst->written_to_vbo = 0;
    return GC_OK;
}

#ifdef GC_CUDA_GL_INTEROP
static enum gc_status detach(struct cuda_ctx *c)
{
    enum gc_status st = GC_OK;
    for (int k = 0; k < 2; k++) {
        if (c->res[k]) {
            cudaError_t e = cudaGraphicsUnregisterResource(c->res[k]);
            if (e != cudaSuccess) {
                gc_log_error("cuda backend: cannot unregister GL buffer %u: %s", c->vbo[k],
                             cudaGetErrorString(e));
                st = GC_ERR_CUDA;
            }
        }
        c->res[k] = NULL;
        c->vbo[k] = 0;
    }
    return st;
}

/* Registers `vbo` as slot k once (again only if the renderer hands over another buffer).
 * Returns 0 when registration is impossible here; the caller then falls back. */
static int ensure_registered(struct cuda_ctx *c, int k, unsigned vbo)
{
    cudaError_t e;
    if (c->res[k] && c->vbo[k] == vbo)
        return 1;
    if (c->res[k]) {
        cudaGraphicsUnregisterResource(c->res[k]);
        c->res[k] = NULL;
        c->vbo[k] = 0;
    }
    e = cudaGraphicsGLRegisterBuffer(&c->res[k], (GLuint)vbo,
                                     cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        c->res[k] = NULL;
        (void)cudaGetLastError();
        gc_log_warn("cuda backend: CUDA-GL interop unavailable (cudaGraphicsGLRegisterBuffer: "
                    "%s); copying positions through the host from now on, as --no-interop "
                    "does", cudaGetErrorString(e));
        c->interop_failed = 1;
        return 0;
    }
    c->vbo[k] = vbo;
    if (k == 0)
        gc_log_info("cuda backend: CUDA-GL interop on: positions go straight into GL buffer "
                    "%u, no host copy", vbo);
    return 1;
}

/* One map, two device-to-device copies, one unmap per frame: no host round trip. */
static enum gc_status export_interop(struct cuda_ctx *c, struct gc_render_buffer *dst)
{
    const size_t bytes = c->n * 4 * sizeof(float);
    const float *src[2] = {c->d_pos, c->d_vel};
    cudaGraphicsResource_t res[2];
    int count = 0;
    unsigned names[2] = {dst->vbo_pos, dst->vbo_vel};

    for (int k = 0; k < 2; k++) {
        if (!names[k])
            continue;
        if (!ensure_registered(c, k, names[k])) {
            detach(c);
            return export_host(c, dst);
        }
        res[count++] = c->res[k];
    }
    GC_CUDA_TRY(cudaGraphicsMapResources(count, res, c->stream));
    for (int k = 0; k < 2; k++) {
        void *ptr = NULL;
        size_t size = 0;
        cudaError_t e;
        if (!names[k])
            continue;
        e = cudaGraphicsResourceGetMappedPointer(&ptr, &size, c->res[k]);
        if (e == cudaSuccess && size < bytes) {
            gc_log_error("cuda backend: GL buffer %u holds %zu bytes, %zu needed", names[k],
                         size, bytes);
            cudaGraphicsUnmapResources(count, res, c->stream);
            return GC_ERR_INVALID;
        }
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(ptr, src[k], bytes, cudaMemcpyDeviceToDevice, c->stream);
        if (e != cudaSuccess) {
            gc_log_error("cuda backend: writing GL buffer %u: %s", names[k],
                         cudaGetErrorString(e));
            cudaGraphicsUnmapResources(count, res, c->stream);
            return GC_ERR_CUDA;
        }
    }
    GC_CUDA_TRY(cudaGraphicsUnmapResources(count, res, c->stream));
    dst->written_to_vbo = 1;
    return GC_OK;
}
#endif

static enum gc_status cuda_export(struct gc_backend *b, struct gc_render_buffer *dst)
{
    struct cuda_ctx *c = b->ctx;
    if (dst->n < c->n) {
        gc_log_error("cuda backend: render buffer holds %zu bodies, %zu needed", dst->n, c->n);
        return GC_ERR_INVALID;
    }
    if (dst->device_light)
        return gc_cuda_light_handover(c);
#ifdef GC_CUDA_GL_INTEROP
    if (dst->vbo_pos && !c->no_interop && !c->interop_failed)
        return export_interop(c, dst);
#endif
    return export_host(c, dst);
}

static enum gc_status cuda_render_detach(struct gc_backend *b)
{
#ifdef GC_CUDA_GL_INTEROP
    struct cuda_ctx *c = b->ctx;
    enum gc_status st;
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    st = gc_cuda_light_detach(c);
    return detach(c) == GC_OK ? st : GC_ERR_CUDA;
#else
    (void)b;
    return GC_OK;
#endif
}

static enum gc_status cuda_potential(struct gc_backend *b, float eps2, double *w)
{
    struct cuda_ctx *c = b->ctx;
    const int nb = gc_cuda_potential_blocks(c->i1 - c->i0);
    double sum = 0.0;
    if (c->herm) /* Hermite: the double view, with its own softening (0 allowed) */
        return gc_cuda_hermite_potential(c, w);
    if (!(eps2 > 0.0f)) {
        gc_log_error("cuda backend: potential needs softening > 0");
        return GC_ERR_INVALID;
    }
    GC_CUDA_TRY(gc_cuda_launch_potential_range(c->d_pos, c->d_wpart, c->n, c->i0, c->i1, eps2,
                                               c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(c->h_wpart, c->d_wpart, (size_t)nb * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    for (int k = 0; k < nb; k++)
        sum += c->h_wpart[k];
    *w = -0.5 * sum;
    return GC_OK;
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
    return make_plan(c, c->n);
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
#ifdef GC_CUDA_GL_INTEROP
        detach(c);
#endif
        gc_cuda_trace_close(c);
        gc_cuda_hermite_free(c);
        gc_cuda_light_free(c);
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

static const struct gc_backend_iface cuda_iface = {
    .name = "cuda",
    .upload = cuda_upload,
    .download = cuda_download,
    .set_range = cuda_set_range,
    .get_positions = cuda_get_positions,
    .set_positions = cuda_set_positions,
    .accel = cuda_accel,
    .kick = cuda_kick,
    .drift = cuda_drift,
    .kick_drift = cuda_kick_drift,
    .export_positions = cuda_export,
    .potential = cuda_potential,
    .sync = cuda_sync,
    .hermite_init = gc_cuda_hermite_init,
    .hermite_begin = gc_cuda_hermite_begin,
    .hermite_select = gc_cuda_hermite_select,
    .hermite_predict = gc_cuda_hermite_predict,
    .hermite_force = gc_cuda_hermite_force,
    .hermite_correct = gc_cuda_hermite_correct,
    .hermite_view = gc_cuda_hermite_view,
    .hermite_counters = gc_cuda_hermite_counters,
    .hermite_schedule = gc_cuda_hermite_schedule,
    .hermite_derivs = gc_cuda_hermite_derivs,
    .hermite_pack = gc_cuda_hermite_pack,
    .hermite_unpack = gc_cuda_hermite_unpack,
    .repeat = gc_cuda_hermite_repeat,
    .device_name = cuda_device_name,
    .render_detach = cuda_render_detach,
    .render_light = gc_cuda_render_light,
    .render_release = gc_cuda_render_release,
    .frame_fence = gc_cuda_frame_fence,
    .frame_wait = gc_cuda_frame_wait,
    .frame_release = gc_cuda_frame_release,
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
    /* Benchmark knob for variant studies: GC_CUDA_ACCEL=T,B,U,M[,P] forces a compiled
     * variant (0 = any value of that parameter; P defaults to 0). */
    if (getenv("GC_CUDA_ACCEL") &&
        sscanf(getenv("GC_CUDA_ACCEL"), "%d,%d,%d,%d,%d", &c->force[0], &c->force[1],
               &c->force[2], &c->force[3], &c->force[4]) < 4) {
        memset(c->force, 0, sizeof c->force);
        gc_log_warn("cuda backend: GC_CUDA_ACCEL should be T,B,U,M[,P] (e.g. 128,4,16,4); "
                    "ignored");
    }
    e = (cudaError_t)gc_cuda_accel_plan(1024, c->sm_count, c->force, &c->plan);
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
    gc_cuda_trace_open(c);
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

static struct cuda_ctx *cuda_ctx_of(struct gc_backend *b)
{
    if (!b || b->iface != &cuda_iface) {
        gc_log_error("not a cuda backend");
        return NULL;
    }
    return b->ctx;
}

enum gc_status gc_backend_cuda_accel_variant(struct gc_backend *b, float eps2,
                                             enum gc_cuda_accel_variant v)
{
    struct cuda_ctx *c = cuda_ctx_of(b);
    if (!c)
        return GC_ERR_INVALID;
    if (v == GC_CUDA_ACCEL_REFERENCE) {
        GC_CUDA_TRY(gc_cuda_launch_accel_reference(c->d_pos, c->d_acc, c->n, eps2, c->stream));
        return GC_OK;
    }
    return cuda_accel(b, eps2);
}

enum gc_status gc_backend_cuda_timer_mark(struct gc_backend *b, int stop)
{
    struct cuda_ctx *c = cuda_ctx_of(b);
    if (!c)
        return GC_ERR_INVALID;
    GC_CUDA_TRY(cudaEventRecord(c->ev[stop ? 1 : 0], c->stream));
    return GC_OK;
}

enum gc_status gc_backend_cuda_timer_elapsed(struct gc_backend *b, double *ms)
{
    struct cuda_ctx *c = cuda_ctx_of(b);
    float f = 0.0f;
    if (!c)
        return GC_ERR_INVALID;
    GC_CUDA_TRY(cudaEventSynchronize(c->ev[1]));
    GC_CUDA_TRY(cudaGetLastError());
    GC_CUDA_TRY(cudaEventElapsedTime(&f, c->ev[0], c->ev[1]));
    *ms = (double)f;
    return GC_OK;
}

const char *gc_backend_cuda_plan_str(struct gc_backend *b)
{
    struct cuda_ctx *c = cuda_ctx_of(b);
    return c ? c->plan_str : "";
}
