/* The CUDA backend's picture table: the picture drawn by kernels on a stream of its own, written into GL's texture or renderbuffer; frame fences. */
/* SPDX-License-Identifier: MIT */
/* Frame order: export_positions (render buffer with device_picture) copies the state into
 * this file's own arrays and marks it with an event; draw waits for that event on
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
#include "picture_job.h"

#define METER_RING 3 /* meterings in flight: the one of 2 frames ago is read */
#define FENCES 8     /* frame fences in use at once (the pacer keeps at most 8 frames) */

struct cuda_picture {
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
    int gl_kind;                  /* enum gc_picture_into */
    cudaArray_t arr;              /* a texture's or renderbuffer's array when last mapped */
    cudaSurfaceObject_t surf;     /* and the surface written through */
    int mapped;                   /* CUDA holds the GL object (kept between pictures) */
};

static enum gc_status ensure_setup(struct cuda_ctx *c)
{
    struct cuda_picture *P;
    if (c->picture)
        return GC_OK;
    P = calloc(1, sizeof *P);
    if (!P) {
        gc_log_error("cuda backend: out of memory for the picture state");
        return GC_ERR_NOMEM;
    }
    c->picture = P;
    GC_CUDA_TRY(cudaStreamCreateWithFlags(&P->stream, cudaStreamNonBlocking));
    GC_CUDA_TRY(cudaEventCreateWithFlags(&P->handed, cudaEventDisableTiming));
    GC_CUDA_TRY(cudaEventCreateWithFlags(&P->drawn, cudaEventDisableTiming));
    GC_CUDA_TRY(cudaEventCreateWithFlags(&P->tail, cudaEventDisableTiming));
    for (int k = 0; k < METER_RING; k++)
        GC_CUDA_TRY(cudaEventCreateWithFlags(&P->metered[k], cudaEventDisableTiming));
    return GC_OK;
}

static enum gc_status ensure_bodies(struct cuda_picture *P, size_t n)
{
    if (n <= P->cap) {
        P->n = n;
        return GC_OK;
    }
    cudaFree(P->pos);
    cudaFree(P->vel);
    cudaFree(P->tag);
    cudaFree(P->big);
    P->pos = P->vel = P->big = NULL;
    P->tag = NULL;
    P->tag_src = NULL;
    P->cap = P->n = 0;
    GC_CUDA_TRY(cudaMalloc((void **)&P->pos, n * 4 * sizeof(float)));
    GC_CUDA_TRY(cudaMalloc((void **)&P->vel, n * 4 * sizeof(float)));
    GC_CUDA_TRY(cudaMalloc((void **)&P->tag, n));
    GC_CUDA_TRY(cudaMalloc((void **)&P->big, n * 8 * sizeof(float)));
    P->cap = P->n = n;
    return GC_OK;
}

enum gc_status gc_cuda_picture_handover(struct cuda_ctx *c)
{
    struct cuda_picture *P;
    const size_t bytes = c->n * 4 * sizeof(float);
    enum gc_status st = ensure_setup(c);
    if (st != GC_OK)
        return st;
    P = c->picture;
    st = ensure_bodies(P, c->n);
    if (st != GC_OK)
        return st;
    /* The previous picture must have read the copy before it is overwritten. */
    GC_CUDA_TRY(cudaStreamWaitEvent(c->stream, P->drawn, 0));
    GC_CUDA_TRY(cudaMemcpyAsync(P->pos, c->d_pos, bytes, cudaMemcpyDeviceToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(P->vel, c->d_vel, bytes, cudaMemcpyDeviceToDevice, c->stream));
    GC_CUDA_TRY(cudaEventRecord(P->handed, c->stream));
    P->handed_once = 1;
    return GC_OK;
}

void gc_cuda_picture_bodies_changed(struct cuda_ctx *c)
{
    if (c->picture) {
        c->picture->handed_once = 0;
        c->picture->tag_src = NULL; /* new bodies may have new tags at the same address */
    }
}

static enum gc_status ensure_picture(struct cuda_picture *P, int w, int h, int block)
{
    size_t floats = gc_cuda_picture_floats(w, h);
    size_t blocks = block > 0 ? (size_t)((w + block - 1) / block) * (size_t)((h + block - 1) / block)
                              : 1;
    if (floats > P->light_floats) {
        cudaFree(P->light);
        cudaFree(P->nbig);
        P->light = NULL;
        P->nbig = NULL;
        P->light_floats = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&P->light, floats * sizeof(float)));
        GC_CUDA_TRY(cudaMalloc((void **)&P->nbig, sizeof(int)));
        P->light_floats = floats;
    }
    if (blocks > P->meter_cap) {
        cudaFree(P->meter);
        cudaFreeHost(P->h_meter);
        P->meter = P->h_meter = NULL;
        P->meter_cap = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&P->meter, blocks * sizeof(float)));
        GC_CUDA_TRY(cudaMallocHost((void **)&P->h_meter, METER_RING * blocks * sizeof(float)));
        P->meter_cap = blocks;
    }
    if (w != P->w || h != P->h)
        P->queued = 0;
    P->w = w;
    P->h = h;
    return GC_OK;
}

#ifdef GC_CUDA_GL_INTEROP
static const char *const kind_names[] = {"texture", "renderbuffer"};

static void forget_surface(struct cuda_picture *P)
{
    if (P->surf)
        cudaDestroySurfaceObject(P->surf);
    P->surf = 0;
    P->arr = NULL;
}

/* Gives the GL object back to GL: GL's commands issued after this wait for the picture. */
static enum gc_status unmap_target(struct cuda_picture *P)
{
    if (!P->mapped)
        return GC_OK;
    P->mapped = 0;
    GC_CUDA_TRY(cudaGraphicsUnmapResources(1, &P->res, P->stream));
    return GC_OK;
}

static enum gc_status ensure_target(struct cuda_picture *P, unsigned name, int kind)
{
    cudaError_t e;
    if (P->res && P->gl_name == name && P->gl_kind == kind)
        return GC_OK;
    if (unmap_target(P) != GC_OK)
        return GC_ERR_CUDA;
    forget_surface(P);
    if (P->res)
        cudaGraphicsUnregisterResource(P->res);
    P->res = NULL;
    P->gl_name = 0;
    e = cudaGraphicsGLRegisterImage(
        &P->res, (GLuint)name, kind == GC_PICTURE_INTO_TEXTURE ? GL_TEXTURE_2D : GL_RENDERBUFFER,
        cudaGraphicsRegisterFlagsSurfaceLoadStore | cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        P->res = NULL;
        (void)cudaGetLastError();
        gc_log_warn("cuda backend: cannot register the picture's GL %s %u (%s)",
                    kind_names[kind], name,
                    cudaGetErrorString(e));
        return GC_ERR_UNSUPPORTED;
    }
    P->gl_name = name;
    P->gl_kind = kind;
    return GC_OK;
}

/* Maps the registered object (unless still mapped from the last picture) and gives the
 * surface the picture is written through, over the object's array (kept while the array
 * stays the same). */
static enum gc_status map_target(struct cuda_picture *P, const struct gc_picture_job *job,
                                 struct gc_cuda_picture *d)
{
    cudaArray_t arr = NULL;
    if (!P->mapped)
        GC_CUDA_TRY(cudaGraphicsMapResources(1, &P->res, P->stream));
    P->mapped = 1;
    if (cudaGraphicsSubResourceGetMappedArray(&arr, P->res, 0, 0) == cudaSuccess) {
        struct cudaResourceDesc rd;
        if (arr == P->arr && P->surf) {
            d->surface = P->surf;
            return GC_OK;
        }
        forget_surface(P);
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = arr;
        if (cudaCreateSurfaceObject(&P->surf, &rd) == cudaSuccess) {
            P->arr = arr;
            d->surface = P->surf;
            return GC_OK;
        }
        P->surf = 0;
    }
    (void)cudaGetLastError();
    (void)unmap_target(P);
    gc_log_error("cuda backend: cannot write the %d x %d picture into GL %s %u", job->w, job->h,
                 kind_names[P->gl_kind], P->gl_name);
    return GC_ERR_INVALID;
}
#endif

/* Queues the copy of this picture's block maxima and hands back the oldest finished one
 * (or this one, waiting, when meter_sync). */
static enum gc_status read_meter(struct cuda_picture *P, struct gc_picture_job *job, size_t blocks)
{
    unsigned slot = job->meter_sync ? 0 : P->queued % METER_RING;
    float *h = P->h_meter + (size_t)slot * P->meter_cap;
    GC_CUDA_TRY(cudaMemcpyAsync(h, P->meter, blocks * sizeof(float), cudaMemcpyDeviceToHost,
                                P->stream));
    if (job->meter_sync) {
        GC_CUDA_TRY(cudaStreamSynchronize(P->stream));
        memcpy(job->meter, h, blocks * sizeof(float));
        job->meter_ready = 1;
        return GC_OK;
    }
    GC_CUDA_TRY(cudaEventRecord(P->metered[slot], P->stream));
    P->queued++;
    if (P->queued >= METER_RING) {
        unsigned old = P->queued % METER_RING; /* queued RING-1 pictures ago */
        GC_CUDA_TRY(cudaEventSynchronize(P->metered[old]));
        memcpy(job->meter, P->h_meter + (size_t)old * P->meter_cap, blocks * sizeof(float));
        job->meter_ready = 1;
    }
    return GC_OK;
}

static enum gc_status draw(struct gc_backend *b, struct gc_picture_job *job)
{
#ifdef GC_CUDA_GL_INTEROP
    struct cuda_ctx *c = b->ctx;
    struct cuda_picture *P;
    struct gc_cuda_picture d;
    int mb = job->meter && job->meter_block > 0 ? job->meter_block : 0;
    size_t blocks = mb ? (size_t)((job->w + mb - 1) / mb) * (size_t)((job->h + mb - 1) / mb) : 0;
    enum gc_status st;
    job->meter_ready = 0;
    if (c->no_interop || c->interop_failed)
        return GC_ERR_UNSUPPORTED;
    if (job->w <= 0 || job->h <= 0 || !job->tag || job->gl_kind < GC_PICTURE_INTO_TEXTURE ||
        job->gl_kind > GC_PICTURE_INTO_RENDERBUFFER)
        return GC_ERR_INVALID;
    st = ensure_setup(c);
    if (st == GC_OK && (!c->picture->handed_once || c->picture->n != c->n))
        st = gc_cuda_picture_handover(c); /* nothing handed over yet: the current state */
    if (st == GC_OK)
        st = ensure_picture(c->picture, job->w, job->h, mb);
    if (st == GC_OK && !job->meter_sync)
        st = ensure_target(c->picture, job->gl_name, job->gl_kind);
    if (st != GC_OK)
        return st;
    P = c->picture;
    if (P->tag_src != job->tag) {
        GC_CUDA_TRY(cudaMemcpyAsync(P->tag, job->tag, P->n, cudaMemcpyHostToDevice, P->stream));
        GC_CUDA_TRY(cudaStreamSynchronize(P->stream));
        P->tag_src = job->tag;
    }
    GC_CUDA_TRY(cudaStreamWaitEvent(P->stream, P->handed, 0));
    memset(&d, 0, sizeof d);
    if (!job->meter_sync) {
        st = map_target(P, job, &d);
        if (st != GC_OK)
            return st;
    }
    d.light = P->light;
    d.big = P->big;
    d.nbig = P->nbig;
    d.meter = mb ? P->meter : NULL;
    d.pos = P->pos;
    d.vel = P->vel;
    d.tag = P->tag;
    d.n = (int)P->n;
    {
        cudaError_t e = (cudaError_t)gc_cuda_picture_launch(&d, job, c->sm_count, P->stream);
        if (e != cudaSuccess) {
            (void)unmap_target(P);
            gc_log_error("cuda backend: drawing the picture: %s", cudaGetErrorString(e));
            return GC_ERR_CUDA;
        }
    }
    GC_CUDA_TRY(cudaEventRecord(P->drawn, P->stream));
    if (!job->meter_sync) {
        /* Kept: every map and unmap has GL's context signal the GPU, and the GPU switching
         * to it in the middle of a force pass lengthens that pass. */
        if (!job->keep_mapped && unmap_target(P) != GC_OK)
            return GC_ERR_CUDA;
    }
    return mb ? read_meter(P, job, blocks) : GC_OK;
#else
    (void)b;
    (void)job;
    gc_log_warn("cuda backend: built without CUDA-GL interop (no GL/gl.h): GL draws instead");
    return GC_ERR_UNSUPPORTED;
#endif
}

static enum gc_status release(struct gc_backend *b)
{
#ifdef GC_CUDA_GL_INTEROP
    struct cuda_ctx *c = b->ctx;
    return c->picture ? unmap_target(c->picture) : GC_OK;
#else
    (void)b;
    return GC_OK;
#endif
}

/* Frame fences: an event on the picture's stream behind all work queued so far on both
 * streams (the picture queued next waits for the compute stream's steps anyway), polled so
 * that the pacer's time limit holds. */
static void *make_fence(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_picture *P;
    if (ensure_setup(c) != GC_OK)
        return NULL;
    P = c->picture;
    for (int k = 0; k < FENCES; k++) {
        if (P->fence_used[k])
            continue;
        if (!P->fence[k] &&
            cudaEventCreateWithFlags(&P->fence[k], cudaEventDisableTiming) != cudaSuccess) {
            P->fence[k] = NULL;
            break;
        }
        if (cudaEventRecord(P->tail, c->stream) != cudaSuccess ||
            cudaStreamWaitEvent(P->stream, P->tail, 0) != cudaSuccess ||
            cudaEventRecord(P->fence[k], P->stream) != cudaSuccess)
            break;
        P->fence_used[k] = 1;
        return &P->fence[k];
    }
    (void)cudaGetLastError();
    return NULL;
}

static int fence_wait(struct gc_backend *b, void *fence, double timeout_s)
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

static void fence_release(struct gc_backend *b, void *fence)
{
    struct cuda_ctx *c = b->ctx;
    if (c->picture && fence)
        c->picture->fence_used[(cudaEvent_t *)fence - c->picture->fence] = 0;
}

static enum gc_status detach_picture(struct cuda_ctx *c)
{
    struct cuda_picture *P = c->picture;
    if (!P)
        return GC_OK;
#ifdef GC_CUDA_GL_INTEROP
    if (unmap_target(P) != GC_OK)
        return GC_ERR_CUDA;
#endif
    GC_CUDA_TRY(cudaStreamSynchronize(P->stream));
#ifdef GC_CUDA_GL_INTEROP
    forget_surface(P);
    if (P->res) {
        cudaError_t e = cudaGraphicsUnregisterResource(P->res);
        P->res = NULL;
        P->gl_name = 0;
        if (e != cudaSuccess) {
            gc_log_error("cuda backend: cannot unregister the picture's GL object: %s",
                         cudaGetErrorString(e));
            return GC_ERR_CUDA;
        }
    }
#endif
    return GC_OK;
}

void gc_cuda_picture_free(struct cuda_ctx *c)
{
    struct cuda_picture *P = c->picture;
    if (!P)
        return;
    (void)detach_picture(c);
    cudaFree(P->pos);
    cudaFree(P->vel);
    cudaFree(P->tag);
    cudaFree(P->big);
    cudaFree(P->light);
    cudaFree(P->nbig);
    cudaFree(P->meter);
    cudaFreeHost(P->h_meter);
    if (P->handed)
        cudaEventDestroy(P->handed);
    if (P->drawn)
        cudaEventDestroy(P->drawn);
    for (int k = 0; k < METER_RING; k++)
        if (P->metered[k])
            cudaEventDestroy(P->metered[k]);
    for (int k = 0; k < FENCES; k++)
        if (P->fence[k])
            cudaEventDestroy(P->fence[k]);
    if (P->tail)
        cudaEventDestroy(P->tail);
    if (P->stream)
        cudaStreamDestroy(P->stream);
    free(P);
    c->picture = NULL;
}

/* Forgets every GL object this backend registered: the picture's target and the buffers
 * export_positions wrote (GL is about to delete them). */
static enum gc_status detach(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    enum gc_status st;
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    st = detach_picture(c);
    return gc_cuda_interop_detach(c) == GC_OK ? st : GC_ERR_CUDA;
}

const struct gc_backend_picture gc_cuda_picture_table = {
    .draw = draw,
    .release = release,
    .detach = detach,
    .fence = make_fence,
    .wait = fence_wait,
    .fence_release = fence_release,
};
