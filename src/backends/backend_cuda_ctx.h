/* Private to the CUDA backend: its context and error macro, shared by its leapfrog and Hermite files. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CUDA_CTX_H
#define GC_BACKEND_CUDA_CTX_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "backend.h"
#include "gc_kernels.h"
#include "log.h"

/* Logs the failing call, where it is, and CUDA's description, then returns GC_ERR_CUDA. */
#define GC_CUDA_TRY(call)                                                                  \
    do {                                                                                   \
        cudaError_t e_ = (cudaError_t)(call);                                              \
        if (e_ != cudaSuccess) {                                                           \
            gc_log_error("%s:%d: %s: %s", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
            return GC_ERR_CUDA;                                                            \
        }                                                                                  \
    } while (0)

struct cuda_hermite;
struct cuda_light;
struct cuda_trace;

struct cuda_ctx {
    int device;                   /* CUDA device index; default 0 */
    int no_interop;               /* 1 = copy positions through the host (--no-interop) */
    int sm_count;                 /* multiprocessors, for the launch plan */
    cudaStream_t stream;          /* every launch and copy goes here, in order */
    cudaEvent_t ev[2];            /* benchmark timer: start, stop */
    float *d_pos, *d_vel, *d_acc; /* n float4 each: x y z m, vx vy vz 0, ax ay az 0 */
    double *d_part;               /* j-split partial sums (double), part_cap doubles */
    int force[5];                 /* GC_CUDA_ACCEL=T,B,U,M[,P] variant override; 0 = any */
    double *d_wpart, *h_wpart;    /* potential per-block partial sums, wpart_cap each */
    size_t n, cap, part_cap;
    size_t i0, i1;                /* this rank's bodies (set_range); [0, n) by default */
    int wpart_cap;
    struct gc_cuda_accel_plan plan; /* force-pass split for the current n */
    char name[256];               /* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" */
    char plan_str[64];
    /* Present in every build so that each file of this backend sees one layout. */
    cudaGraphicsResource_t res[2]; /* registered position / velocity VBOs; NULL = none */
    unsigned vbo[2];               /* the GL names they were registered from */
    int interop_failed;            /* registration failed once: host copies from then on */
    struct cuda_hermite *herm;     /* Hermite state; NULL until hermite_init */
    struct cuda_light *light;      /* the picture drawn on the device; NULL until first used */
    struct cuda_trace *trace;      /* GC_CUDA_TRACE timeline; NULL when off */
};

/* The picture on the device (backend_cuda_light.c): render_light, the hand-over of the
 * state to draw (export_positions with device_light), GL buffer release, cleanup. */
enum gc_status gc_cuda_render_light(struct gc_backend *b, struct gc_light_job *job);
enum gc_status gc_cuda_light_handover(struct cuda_ctx *c);
enum gc_status gc_cuda_render_release(struct gc_backend *b);
void *gc_cuda_frame_fence(struct gc_backend *b);
int gc_cuda_frame_wait(struct gc_backend *b, void *fence, double timeout_s);
void gc_cuda_frame_release(struct gc_backend *b, void *fence);
void gc_cuda_light_bodies_changed(struct cuda_ctx *c);
enum gc_status gc_cuda_light_detach(struct cuda_ctx *c);
void gc_cuda_light_free(struct cuda_ctx *c);

/* GC_CUDA_TRACE=FILE (backend_cuda_trace.c): timing marks on the streams, a CSV at close. */
enum { GC_TRACE_FORCE0, GC_TRACE_FORCE1, GC_TRACE_PIC0, GC_TRACE_MAPPED, GC_TRACE_PIC1, GC_TRACE_UNMAP,
       GC_TRACE_MARKS };
void gc_cuda_trace_open(struct cuda_ctx *c);
void gc_cuda_trace_mark(struct cuda_ctx *c, int mark, cudaStream_t stream);
void gc_cuda_trace_close(struct cuda_ctx *c);

/* The Hermite slots (backend_cuda_hermite.c). */
enum gc_status gc_cuda_hermite_init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                                    const struct gc_bodies *bodies);
enum gc_status gc_cuda_hermite_begin(struct gc_backend *b);
enum gc_status gc_cuda_hermite_select(struct gc_backend *b, int64_t t_limit, int *due);
enum gc_status gc_cuda_hermite_predict(struct gc_backend *b);
enum gc_status gc_cuda_hermite_force(struct gc_backend *b);
enum gc_status gc_cuda_hermite_correct(struct gc_backend *b);
enum gc_status gc_cuda_hermite_view(struct gc_backend *b, int64_t t);
enum gc_status gc_cuda_hermite_counters(struct gc_backend *b, struct gc_hermite_counters *out);
enum gc_status gc_cuda_hermite_schedule(struct gc_backend *b, int64_t *t, uint8_t *level);
enum gc_status gc_cuda_hermite_derivs(struct gc_backend *b, double *acc, double *jerk,
                                      double *snap);
enum gc_status gc_cuda_hermite_repeat(struct gc_backend *b, enum gc_status (*body)(void *ctx),
                                      void *ctx);
/* Download of the view in double (pos64/vel64/mass64 of dst when present); the float
 * arrays (with levels in vel.w) are the ones the view kernel wrote. */
enum gc_status gc_cuda_hermite_download(struct cuda_ctx *c, struct gc_bodies *dst);
/* The potential energy of the view, in double, with the Hermite softening. */
enum gc_status gc_cuda_hermite_potential(struct cuda_ctx *c, double *w);
void gc_cuda_hermite_free(struct cuda_ctx *c);
/* The range changed (set_range): the Hermite kernels follow it. */
void gc_cuda_hermite_set_range(struct cuda_ctx *c);
enum gc_status gc_cuda_hermite_pack(struct gc_backend *b, struct gc_hermite_record *dst,
                                    size_t *count);
enum gc_status gc_cuda_hermite_unpack(struct gc_backend *b, const struct gc_hermite_record *src,
                                      size_t count);

#endif
