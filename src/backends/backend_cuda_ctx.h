/* Private to the CUDA backend: its context and error macro, shared by its compute, force-method, Hermite and picture files. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CUDA_CTX_H
#define GC_BACKEND_CUDA_CTX_H

#include <stdint.h>

#include <cuda_runtime.h>

#include "backend.h"
#include "backend_hermite.h"
#include "backend_picture.h"
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

struct cuda_allpairs;
struct cuda_tree;
struct gc_tree_stats;
struct cuda_hermite;
struct cuda_picture;

struct cuda_ctx {
    int device;                   /* CUDA device index; default 0 */
    int no_interop;               /* 1 = copy positions through the host (--no-interop) */
    int sm_count;                 /* multiprocessors, for the launch plan */
    cudaStream_t stream;          /* every launch and copy goes here, in order */
    cudaEvent_t ev[2];            /* benchmark timer: start, stop */
    float *d_pos, *d_vel, *d_acc; /* n float4 each: x y z m, vx vy vz 0, ax ay az 0 */
    size_t n, cap;
    size_t i0, i1;                /* this rank's bodies (set_range); [0, n) by default */
    char name[256];               /* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" */
    struct cuda_allpairs *allpairs; /* all-pairs method state; NULL before the first upload */
    struct cuda_tree *tree;       /* tree method state; NULL until its first pass */
    /* Present in every build so that each file of this backend sees one layout. */
    cudaGraphicsResource_t res[2]; /* registered position / velocity VBOs; NULL = none */
    unsigned vbo[2];               /* the GL names they were registered from */
    int interop_failed;            /* registration failed once: host copies from then on */
    struct cuda_hermite *herm;     /* Hermite state; NULL until hermite_init */
    struct cuda_picture *picture;  /* the picture drawn on the device; NULL until first used */
};

/* One force method of this backend, a file each (enum gc_force_method). */
struct cuda_force_method {
    /* the range's accelerations into d_acc, queued on the stream */
    enum gc_status (*accel)(struct cuda_ctx *c, const struct gc_force_params *fp);
    /* optional: the range's share of the potential energy (waits for it); NULL = none */
    enum gc_status (*potential)(struct cuda_ctx *c, const struct gc_force_params *fp,
                                double *w);
    /* optional: the bodies (n) or the range changed; NULL = nothing kept per N */
    enum gc_status (*resize)(struct cuda_ctx *c);
    /* optional: frees what the method keeps on the device */
    void (*free)(struct cuda_ctx *c);
};
extern const struct cuda_force_method gc_cuda_allpairs; /* backend_cuda_allpairs.c */
extern const struct cuda_force_method gc_cuda_tree;     /* backend_cuda_tree.c */
/* The tree's figures of its latest finished pass (backend_tree.h). */
enum gc_status gc_cuda_tree_stats(struct cuda_ctx *c, struct gc_tree_stats *out);
/* Each group's walk time of the latest pass (backend_tree.h's group_times). */
enum gc_status gc_cuda_tree_group_times(struct cuda_ctx *c, float *us, size_t cap,
                                        size_t *count);
/* The all-pairs kernel alone, or the classic reference, and the plan (benchmark table). */
enum gc_status gc_cuda_allpairs_kernel(struct cuda_ctx *c, float eps2, int reference);
const char *gc_cuda_allpairs_plan(const struct cuda_ctx *c);

/* The picture on the device (backend_cuda_picture.c): its table, the hand-over of the state
 * to draw (export_positions with device_picture), and its lifetime. */
extern const struct gc_backend_picture gc_cuda_picture_table;
enum gc_status gc_cuda_picture_handover(struct cuda_ctx *c);
void gc_cuda_picture_bodies_changed(struct cuda_ctx *c);
void gc_cuda_picture_free(struct cuda_ctx *c);
/* Positions (and velocities) into the render buffer's GL buffers, registered once with CUDA,
 * or through its host arrays where interop is off or unavailable (backend_cuda_interop.c);
 * and the registered buffers forgotten, before GL deletes them. */
enum gc_status gc_cuda_export_buffers(struct cuda_ctx *c, struct gc_render_buffer *dst);
enum gc_status gc_cuda_interop_detach(struct cuda_ctx *c);

/* The Hermite table (backend_cuda_hermite.c) and what the compute table needs of its state. */
extern const struct gc_backend_hermite gc_cuda_hermite_table;
/* Download of the view in double (pos64/vel64/mass64 of dst when present); the float
 * arrays (with levels in vel.w) are the ones the view kernel wrote. */
enum gc_status gc_cuda_hermite_download(struct cuda_ctx *c, struct gc_bodies *dst);
/* The potential energy of the view, in double, with the Hermite softening. */
enum gc_status gc_cuda_hermite_potential(struct cuda_ctx *c, double *w);
void gc_cuda_hermite_free(struct cuda_ctx *c);
/* The range changed (set_range): the Hermite kernels follow it. */
void gc_cuda_hermite_set_range(struct cuda_ctx *c);

#endif
