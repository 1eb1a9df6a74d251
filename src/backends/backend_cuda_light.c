/* The CUDA backend's render_light: the picture drawn by kernels on a stream of its own, handed to GL as a pixel buffer. */
/* SPDX-License-Identifier: MIT */
/* Frame order: export_positions (render buffer with device_light) copies the state into
 * this file's own arrays and marks it with an event; render_light waits for that event on
 * the picture stream, so the picture overlaps the steps queued after the hand-over on the
 * compute stream. The next hand-over waits until the picture has read the copy. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>
#ifdef GC_CUDA_GL_INTEROP
#include <GL/gl.h>
#include <cuda_gl_interop.h>
#ifndef GL_RENDERBUFFER /* GL 3.0; gl.h alone may stop at 1.x */
#define GL_RENDERBUFFER 0x8D41
#endif
#endif

#include "backend_cuda_ctx.h"
#include "light_job.h"

#define METER_RING 3 /* meterings in flight: the one of 2 frames ago is read */
#define FENCES 8     /* frame fences in use at once (the pacer keeps at most 8 frames) */

struct cuda_light {
    cudaStream_t stream;          /* the picture's kernels and copies */
    cudaEvent_t handed, drawn;    /* state copied for drawing; picture done reading it */
    cudaEvent_t metered[METER_RING];
    cudaEvent_t fence[FENCES];    /* frame fences (events made on first use) */
    cudaEvent_t tail;             /* the compute stream's end, for a fence to wait on */
    int fence_used[FENCES];
    float *pos, *vel;             /* n float4 each: the handed-over state */
    unsigned char *tag;
    const uint8_t *tag_src;       /* host tags last uploaded (pointer), for n bodies */
    size_t n, cap;
    int handed_once;              /* a hand-over happened since the bodies were uploaded */
    float *light, *big, *meter;   /* device: light + glow levels, large sprites, block maxima */
    int *nbig;
    size_t light_floats, meter_cap;
    float *h_meter;               /* pinned, METER_RING * meter_cap */
    unsigned queued;              /* meterings queued since the size last changed */
    int w, h;
    cudaGraphicsResource_t res;   /* the registered GL object the picture goes into */
    unsigned gl_name;
    int gl_kind;                  /* enum gc_light_into */
    cudaArray_t arr;              /* a texture's or renderbuffer's array when last mapped */
    cudaSurfaceObject_t surf;     /* and the surface written through */
    int mapped;                   /* CUDA holds the GL object (kept between pictures) */
};

static enum gc_status ensure_setup(struct cuda_ctx *c)
{
    struct cuda_light *L;
    if (c->light)
        return GC_OK;
    L = calloc(1, sizeof *L);
    if (!L) {
        gc_log_error("cuda backend: out of memory for the picture state");
        return GC_ERR_NOMEM;
    }
    c->light = L;
    GC_CUDA_TRY(cudaStreamCreateWithFlags(&L->stream, cudaStreamNonBlocking));
    GC_CUDA_TRY(cudaEventCreateWithFlags(&L->handed, cudaEventDisableTiming));
    GC_CUDA_TRY(cudaEventCreateWithFlags(&L->drawn, cudaEventDisableTiming));
    GC_CUDA_TRY(cudaEventCreateWithFlags(&L->tail, cudaEventDisableTiming));
    for (int k = 0; k < METER_RING; k++)
        GC_CUDA_TRY(cudaEventCreateWithFlags(&L->metered[k], cudaEventDisableTiming));
    return GC_OK;
}

static enum gc_status ensure_bodies(struct cuda_light *L, size_t n)
{
    if (n <= L->cap) {
        L->n = n;
        return GC_OK;
    }
    cudaFree(L->pos);
    cudaFree(L->vel);
    cudaFree(L->tag);
    cudaFree(L->big);
    L->pos = L->vel = L->big = NULL;
    L->tag = NULL;
    L->tag_src = NULL;
    L->cap = L->n = 0;
    GC_CUDA_TRY(cudaMalloc((void **)&L->pos, n * 4 * sizeof(float)));
    GC_CUDA_TRY(cudaMalloc((void **)&L->vel, n * 4 * sizeof(float)));
    GC_CUDA_TRY(cudaMalloc((void **)&L->tag, n));
    GC_CUDA_TRY(cudaMalloc((void **)&L->big, n * 8 * sizeof(float)));
    L->cap = L->n = n;
    return GC_OK;
}

enum gc_status gc_cuda_light_handover(struct cuda_ctx *c)
{
    struct cuda_light *L;
    const size_t bytes = c->n * 4 * sizeof(float);
    enum gc_status st = ensure_setup(c);
    if (st != GC_OK)
        return st;
    L = c->light;
    st = ensure_bodies(L, c->n);
    if (st != GC_OK)
        return st;
    /* The previous picture must have read the copy before it is overwritten. */
    GC_CUDA_TRY(cudaStreamWaitEvent(c->stream, L->drawn, 0));
    GC_CUDA_TRY(cudaMemcpyAsync(L->pos, c->d_pos, bytes, cudaMemcpyDeviceToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(L->vel, c->d_vel, bytes, cudaMemcpyDeviceToDevice, c->stream));
    GC_CUDA_TRY(cudaEventRecord(L->handed, c->stream));
    L->handed_once = 1;
    return GC_OK;
}

void gc_cuda_light_bodies_changed(struct cuda_ctx *c)
{
    if (c->light) {
        c->light->handed_once = 0;
        c->light->tag_src = NULL; /* new bodies may have new tags at the same address */
    }
}

static enum gc_status ensure_picture(struct cuda_light *L, int w, int h, int block)
{
    size_t floats = gc_cuda_light_floats(w, h);
    size_t blocks = block > 0 ? (size_t)((w + block - 1) / block) * (size_t)((h + block - 1) / block)
                              : 1;
    if (floats > L->light_floats) {
        cudaFree(L->light);
        cudaFree(L->nbig);
        L->light = NULL;
        L->nbig = NULL;
        L->light_floats = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&L->light, floats * sizeof(float)));
        GC_CUDA_TRY(cudaMalloc((void **)&L->nbig, sizeof(int)));
        L->light_floats = floats;
    }
    if (blocks > L->meter_cap) {
        cudaFree(L->meter);
        cudaFreeHost(L->h_meter);
        L->meter = L->h_meter = NULL;
        L->meter_cap = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&L->meter, blocks * sizeof(float)));
        GC_CUDA_TRY(cudaMallocHost((void **)&L->h_meter, METER_RING * blocks * sizeof(float)));
        L->meter_cap = blocks;
    }
    if (w != L->w || h != L->h)
        L->queued = 0;
    L->w = w;
    L->h = h;
    return GC_OK;
}

#ifdef GC_CUDA_GL_INTEROP
static const char *const kind_names[] = {"pixel buffer", "texture", "renderbuffer"};

static void forget_surface(struct cuda_light *L)
{
    if (L->surf)
        cudaDestroySurfaceObject(L->surf);
    L->surf = 0;
    L->arr = NULL;
}

/* Gives the GL object back to GL: GL's commands issued after this wait for the picture. */
static enum gc_status unmap_target(struct cuda_light *L)
{
    if (!L->mapped)
        return GC_OK;
    L->mapped = 0;
    GC_CUDA_TRY(cudaGraphicsUnmapResources(1, &L->res, L->stream));
    return GC_OK;
}

static enum gc_status ensure_target(struct cuda_light *L, unsigned name, int kind)
{
    cudaError_t e;
    if (L->res && L->gl_name == name && L->gl_kind == kind)
        return GC_OK;
    if (unmap_target(L) != GC_OK)
        return GC_ERR_CUDA;
    forget_surface(L);
    if (L->res)
        cudaGraphicsUnregisterResource(L->res);
    L->res = NULL;
    L->gl_name = 0;
    if (kind == GC_LIGHT_INTO_BUFFER)
        e = cudaGraphicsGLRegisterBuffer(&L->res, (GLuint)name,
                                         cudaGraphicsRegisterFlagsWriteDiscard);
    else
        e = cudaGraphicsGLRegisterImage(
            &L->res, (GLuint)name,
            kind == GC_LIGHT_INTO_TEXTURE ? GL_TEXTURE_2D : GL_RENDERBUFFER,
            cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        L->res = NULL;
        (void)cudaGetLastError();
        gc_log_warn("cuda backend: cannot register the picture's GL %s %u (%s)",
                    kind_names[kind], name,
                    cudaGetErrorString(e));
        return GC_ERR_UNSUPPORTED;
    }
    L->gl_name = name;
    L->gl_kind = kind;
    return GC_OK;
}

/* Maps the registered object (unless still mapped from the last picture) and says where the
 * picture goes: a pointer into the pixel buffer, or a surface over the texture's array (kept
 * while the array stays the same). */
static enum gc_status map_target(struct cuda_light *L, const struct gc_light_job *job,
                                 struct gc_cuda_light *d)
{
    size_t size = 0;
    void *image = NULL;
    cudaArray_t arr = NULL;
    if (!L->mapped)
        GC_CUDA_TRY(cudaGraphicsMapResources(1, &L->res, L->stream));
    L->mapped = 1;
    if (L->gl_kind == GC_LIGHT_INTO_BUFFER) {
        if (cudaGraphicsResourceGetMappedPointer(&image, &size, L->res) == cudaSuccess &&
            size >= (size_t)job->w * (size_t)job->h * 4) {
            d->image = image;
            return GC_OK;
        }
    } else if (cudaGraphicsSubResourceGetMappedArray(&arr, L->res, 0, 0) == cudaSuccess) {
        struct cudaResourceDesc rd;
        if (arr == L->arr && L->surf) {
            d->surface = L->surf;
            return GC_OK;
        }
        forget_surface(L);
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        if (cudaCreateSurfaceObject(&L->surf, &rd) == cudaSuccess) {
            L->arr = arr;
            d->surface = L->surf;
            return GC_OK;
        }
        L->surf = 0;
    }
    (void)cudaGetLastError();
    (void)unmap_target(L);
    gc_log_error("cuda backend: cannot write the %d x %d picture into GL %s %u", job->w, job->h,
                 kind_names[L->gl_kind], L->gl_name);
    return GC_ERR_INVALID;
}
#endif

/* Queues the copy of this picture's block maxima and hands back the oldest finished one
 * (or this one, waiting, when meter_sync). */
static enum gc_status read_meter(struct cuda_light *L, struct gc_light_job *job, size_t blocks)
{
    unsigned slot = job->meter_sync ? 0 : L->queued % METER_RING;
    float *h = L->h_meter + (size_t)slot * L->meter_cap;
    GC_CUDA_TRY(cudaMemcpyAsync(h, L->meter, blocks * sizeof(float), cudaMemcpyDeviceToHost,
                                L->stream));
    if (job->meter_sync) {
        GC_CUDA_TRY(cudaStreamSynchronize(L->stream));
        memcpy(job->meter, h, blocks * sizeof(float));
        job->meter_ready = 1;
        return GC_OK;
    }
    GC_CUDA_TRY(cudaEventRecord(L->metered[slot], L->stream));
    L->queued++;
    if (L->queued >= METER_RING) {
        unsigned old = L->queued % METER_RING; /* queued RING-1 pictures ago */
        GC_CUDA_TRY(cudaEventSynchronize(L->metered[old]));
        memcpy(job->meter, L->h_meter + (size_t)old * L->meter_cap, blocks * sizeof(float));
        job->meter_ready = 1;
    }
    return GC_OK;
}

enum gc_status gc_cuda_render_light(struct gc_backend *b, struct gc_light_job *job)
{
#ifdef GC_CUDA_GL_INTEROP
    struct cuda_ctx *c = b->ctx;
    struct cuda_light *L;
    struct gc_cuda_light d;
    int mb = job->meter && job->meter_block > 0 ? job->meter_block : 0;
    size_t blocks = mb ? (size_t)((job->w + mb - 1) / mb) * (size_t)((job->h + mb - 1) / mb) : 0;
    enum gc_status st;
    job->meter_ready = 0;
    if (c->no_interop || c->interop_failed)
        return GC_ERR_UNSUPPORTED;
    if (job->w <= 0 || job->h <= 0 || !job->tag || job->gl_kind < GC_LIGHT_INTO_BUFFER ||
        job->gl_kind > GC_LIGHT_INTO_RENDERBUFFER)
        return GC_ERR_INVALID;
    st = ensure_setup(c);
    if (st == GC_OK && (!c->light->handed_once || c->light->n != c->n))
        st = gc_cuda_light_handover(c); /* nothing handed over yet: the current state */
    if (st == GC_OK)
        st = ensure_picture(c->light, job->w, job->h, mb);
    if (st == GC_OK && !job->meter_sync)
        st = ensure_target(c->light, job->gl_name, job->gl_kind);
    if (st != GC_OK)
        return st;
    L = c->light;
    if (L->tag_src != job->tag) {
        GC_CUDA_TRY(cudaMemcpyAsync(L->tag, job->tag, L->n, cudaMemcpyHostToDevice, L->stream));
        GC_CUDA_TRY(cudaStreamSynchronize(L->stream));
        L->tag_src = job->tag;
    }
    GC_CUDA_TRY(cudaStreamWaitEvent(L->stream, L->handed, 0));
    memset(&d, 0, sizeof d);
    if (!job->meter_sync) {
        gc_cuda_trace_mark(c, GC_TRACE_PIC0, L->stream);
        st = map_target(L, job, &d);
        if (st != GC_OK)
            return st;
        gc_cuda_trace_mark(c, GC_TRACE_MAPPED, L->stream);
    }
    d.light = L->light;
    d.big = L->big;
    d.nbig = L->nbig;
    d.meter = mb ? L->meter : NULL;
    d.pos = L->pos;
    d.vel = L->vel;
    d.tag = L->tag;
    d.n = (int)L->n;
    {
        cudaError_t e = (cudaError_t)gc_cuda_light_launch(&d, job, c->sm_count, L->stream);
        if (e != cudaSuccess) {
            (void)unmap_target(L);
            gc_log_error("cuda backend: drawing the picture: %s", cudaGetErrorString(e));
            return GC_ERR_CUDA;
        }
    }
    GC_CUDA_TRY(cudaEventRecord(L->drawn, L->stream));
    if (!job->meter_sync) {
        gc_cuda_trace_mark(c, GC_TRACE_PIC1, L->stream);
        /* Kept: every map and unmap has GL's context signal the GPU, and the GPU switching
         * to it in the middle of a force pass cost ~0.4 ms on the H100. */
        if (!job->keep_mapped && unmap_target(L) != GC_OK)
            return GC_ERR_CUDA;
        gc_cuda_trace_mark(c, GC_TRACE_UNMAP, L->stream);
    }
    return mb ? read_meter(L, job, blocks) : GC_OK;
#else
    (void)b;
    (void)job;
    gc_log_warn("cuda backend: built without CUDA-GL interop (no GL/gl.h): GL draws instead");
    return GC_ERR_UNSUPPORTED;
#endif
}

enum gc_status gc_cuda_render_release(struct gc_backend *b)
{
#ifdef GC_CUDA_GL_INTEROP
    struct cuda_ctx *c = b->ctx;
    return c->light ? unmap_target(c->light) : GC_OK;
#else
    (void)b;
    return GC_OK;
#endif
}

/* Frame fences: an event on the picture's stream behind all work queued so far on both
 * streams (the picture queued next waits for the compute stream's steps anyway), polled so
 * that the pacer's time limit holds. */
void *gc_cuda_frame_fence(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_light *L;
    if (ensure_setup(c) != GC_OK)
        return NULL;
    L = c->light;
    for (int k = 0; k < FENCES; k++) {
        if (L->fence_used[k])
            continue;
        if (!L->fence[k] &&
            cudaEventCreateWithFlags(&L->fence[k], cudaEventDisableTiming) != cudaSuccess) {
            L->fence[k] = NULL;
            break;
        }
        if (cudaEventRecord(L->tail, c->stream) != cudaSuccess ||
            cudaStreamWaitEvent(L->stream, L->tail, 0) != cudaSuccess ||
            cudaEventRecord(L->fence[k], L->stream) != cudaSuccess)
            break;
        L->fence_used[k] = 1;
        return &L->fence[k];
    }
    (void)cudaGetLastError();
    return NULL;
}

int gc_cuda_frame_wait(struct gc_backend *b, void *fence, double timeout_s)
{
    const struct timespec nap = {0, 20000}; /* 20 us: the GPU has a frame queued meanwhile */
    struct timespec t0, t;
    (void)b;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        cudaError_t e = cudaEventQuery(*(cudaEvent_t *)fence);
        if (e == cudaSuccess)
            return 1;
        if (e != cudaErrorNotReady) {
            (void)cudaGetLastError();
            return -1;
        }
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) >= timeout_s)
            return 0;
        nanosleep(&nap, NULL);
    }
}

void gc_cuda_frame_release(struct gc_backend *b, void *fence)
{
    struct cuda_ctx *c = b->ctx;
    if (c->light && fence)
        c->light->fence_used[(cudaEvent_t *)fence - c->light->fence] = 0;
}

enum gc_status gc_cuda_light_detach(struct cuda_ctx *c)
{
    struct cuda_light *L = c->light;
    if (!L)
        return GC_OK;
#ifdef GC_CUDA_GL_INTEROP
    if (unmap_target(L) != GC_OK)
        return GC_ERR_CUDA;
#endif
    GC_CUDA_TRY(cudaStreamSynchronize(L->stream));
#ifdef GC_CUDA_GL_INTEROP
    forget_surface(L);
    if (L->res) {
        cudaError_t e = cudaGraphicsUnregisterResource(L->res);
        L->res = NULL;
        L->gl_name = 0;
        if (e != cudaSuccess) {
            gc_log_error("cuda backend: cannot unregister the picture's pixel buffer: %s",
                         cudaGetErrorString(e));
            return GC_ERR_CUDA;
        }
    }
#endif
    return GC_OK;
}

void gc_cuda_light_free(struct cuda_ctx *c)
{
    struct cuda_light *L = c->light;
    if (!L)
        return;
    (void)gc_cuda_light_detach(c);
    cudaFree(L->pos);
    cudaFree(L->vel);
    cudaFree(L->tag);
    cudaFree(L->big);
    cudaFree(L->light);
    cudaFree(L->nbig);
    cudaFree(L->meter);
    cudaFreeHost(L->h_meter);
    if (L->handed)
        cudaEventDestroy(L->handed);
    if (L->drawn)
        cudaEventDestroy(L->drawn);
    for (int k = 0; k < METER_RING; k++)
        if (L->metered[k])
            cudaEventDestroy(L->metered[k]);
    for (int k = 0; k < FENCES; k++)
        if (L->fence[k])
            cudaEventDestroy(L->fence[k]);
    if (L->tail)
        cudaEventDestroy(L->tail);
    if (L->stream)
        cudaStreamDestroy(L->stream);
    free(L);
    c->light = NULL;
}
