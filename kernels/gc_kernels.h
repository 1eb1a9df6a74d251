/* Plain-C declarations of the CUDA kernel launchers (no CUDA types), for the CUDA backend and the study tools of bench/. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_KERNELS_H
#define GC_KERNELS_H

#include <stddef.h>

#include "hermite_timeline.h"
#include "tree_formulas.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Launchers return 0 on success or a cudaError_t value (checked and logged by the caller).
 * Device arrays of bodies are float4 (x, y, z, w): pos.w = mass, vel.w and acc.w unused.
 * `stream` is a cudaStream_t passed as void * so this header needs no CUDA types. */

/* How the force pass is split, chosen at run time per N by gc_cuda_accel_plan. */
struct gc_cuda_accel_plan {
    int variant;           /* index of the compiled kernel variant (B, U) */
    int bodies_per_thread; /* B: i bodies each thread owns (1, 2, 4 or 8); one LDS.128 serves B */
    int unroll;            /* U: j-loop unroll of that variant */
    int threads;           /* T: threads per block; also the shared-memory tile length */
    int min_blocks;        /* M: blocks per SM the variant's register cap was built for */
    int soft_period;       /* P: every P-th j body uses the FMA-pipe rsqrt; 0 = all MUFU */
    int blocks_i;          /* blocks along i: ceil(n / (threads * B)) */
    int jsplit;            /* S: j range split into S slices (blocks along y); 1 = no split */
    int tiles_per_slice;   /* tiles of `threads` j bodies per slice */
};

/* Picks the variant (B, U) and j-split for n bodies on a device with `sm_count`
 * multiprocessors, so that small N still fills the chip. force restricts the variant:
 * force = {T, B, U, M, P}, 0 = any (P: 0 = none); all 0 = the planner's own choice among
 * the variants with a measured rate (the product's). A build with GC_STUDY compiles the
 * unrated variants too, which only a non-zero force reaches (bench/accel_variants). Returns
 * 0 or a cudaError_t (cudaErrorInvalidValue when no compiled variant matches). */
int gc_cuda_accel_plan(size_t n, int sm_count, const int force[5],
                       struct gc_cuda_accel_plan *plan);
/* The same for ni bodies i (a rank's range) against n sources j. */
int gc_cuda_accel_plan_range(size_t ni, size_t n, int sm_count, const int force[5],
                             struct gc_cuda_accel_plan *plan);

/* Doubles of scratch `d_part` that gc_cuda_launch_accel needs for this plan (0 when
 * jsplit == 1): per-slice partial sums, kept in double. */
size_t gc_cuda_accel_scratch(const struct gc_cuda_accel_plan *plan, size_t n);

/* d_acc[i] = sum_j m_j (x_j - x_i) / (|x_j - x_i|^2 + eps2)^(3/2), self-pair included. */
int gc_cuda_launch_accel(const float *d_pos, float *d_acc, double *d_part, size_t n, float eps2,
                         const struct gc_cuda_accel_plan *plan, void *stream);
/* The same for the bodies i in [i0, i1) only (a rank's range; plan from
 * gc_cuda_accel_plan_range(i1 - i0, n, ...)). */
int gc_cuda_launch_accel_range(const float *d_pos, float *d_acc, double *d_part, size_t n,
                               size_t i0, size_t i1, float eps2,
                               const struct gc_cuda_accel_plan *plan, void *stream);

/* Per-block partial sums of m_i * sum_{j != i} m_j / sqrt(r^2 + eps2), in double, written
 * to d_wpart[0 .. gc_cuda_potential_blocks(n)); W = -1/2 * their sum. */
int gc_cuda_potential_blocks(size_t n);
int gc_cuda_launch_potential(const float *d_pos, double *d_wpart, size_t n, float eps2,
                             void *stream);
/* The same over the bodies i in [i0, i1): gc_cuda_potential_blocks(i1 - i0) partial sums. */
int gc_cuda_launch_potential_range(const float *d_pos, double *d_wpart, size_t n, size_t i0,
                                   size_t i1, float eps2, void *stream);

/* The classic GPU Gems 3 ch. 31 kernel (one body per thread, 256-thread tiles, IEEE
 * rsqrtf without fast math), kept only as the benchmark's side-by-side reference. */
int gc_cuda_launch_accel_reference(const float *d_pos, float *d_acc, size_t n, float eps2,
                                   void *stream);

/* v += a dt */
int gc_cuda_launch_kick(float *d_vel, const float *d_acc, size_t n, float dt, void *stream);
/* x += v dt */
int gc_cuda_launch_drift(float *d_pos, const float *d_vel, size_t n, float dt, void *stream);
/* v += a dt_close (none when 0), v += a dt_open, then x += v dt_drift, in one pass over the
 * bodies, each kick rounded as gc_cuda_launch_kick rounds it. */
int gc_cuda_launch_kick_drift(float *d_pos, float *d_vel, const float *d_acc, size_t n,
                              float dt_close, float dt_open, float dt_drift, void *stream);

/* ---- Hermite block time steps (hermite.cu) ---- */

/* Device-side control block of the block-step loop: written by the kernels, read by the
 * next kernel and, for counters, by the host. */
struct gc_cuda_hermite_ctl {
    long long t_min;   /* min over bodies of t_i + dt_i (ticks): the next block's tick */
    long long t_rest;  /* LLONG_MAX between block steps; during one, the min of t_i + dt_i
                        * over the bodies not due (selection) and the corrected ones */
    long long t_next;  /* tick of the selected block */
    long long t_limit; /* latest tick the current advance may reach */
    int due;           /* 1 while the selected block is to be computed */
    int count;         /* bodies in the active list: the due bodies of this rank's range;
                        * 0 from the correction to the next selection */
    int error;         /* 0 or GC_HERMITE_ERR_* (first one wins) */
    int count_all;     /* due bodies of every rank (the counters count these) */
    int last_count;    /* count of the latest block (what pack sends) */
    unsigned done;     /* blocks of the running pass finished (the last one closes it) */
    int looped;        /* 1: the selected block was selected inside the graph's loop */
    long long error_i, error_j;
    unsigned long long blocks, body_steps, last_active;
    long long t_last;
    /* device-loop timing: global timer at the end of the latest looped block step (0: none
     * yet), block steps and nanoseconds per bin of log2(bodies advanced) */
    unsigned long long stamp;
    unsigned long long loop_steps[GC_HERMITE_TIME_BINS], loop_ns[GC_HERMITE_TIME_BINS];
};

/* gc_cuda_hermite.key's flag for a tick off its level's grid (tested by the tick), and
 * its padding past n (never due). */
#define GC_CUDA_KEY_OFF 0x80u
#define GC_CUDA_KEY_PAD 0xffu

/* Device arrays and settings, passed to every kernel by value. */
struct gc_cuda_hermite {
    double *x, *v, *a, *j, *s, *c; /* 3n each: state at each body's own time */
    double *m;                     /* n masses */
    float *jr;                     /* 16n (mixed hermite4 only, else NULL): each body as a
                                    * source, 4 float4s (hermite.cu's jrec) */
    long long *t;                  /* n ticks */
    unsigned char *level;          /* n levels */
    unsigned char *key;            /* n, padded to 16 with GC_CUDA_KEY_PAD: the level, or
                                    * GC_CUDA_KEY_OFF where the tick is off its step's grid
                                    * (hermite.cu's key_of): what the selection reads */
    int *active;                   /* active list (count in ctl) */
    double *part;                  /* j-slice partial sums, gc_cuda_hermite_part_doubles */
    double *xv, *vv;               /* 3n each: the view (every body at one time) */
    double *da, *dj;               /* 3n each: perturbations the next correction adds */
    unsigned char *dset;           /* n: 1 where da, dj hold one (all NULL until the first) */
    struct gc_cuda_hermite_ctl *ctl;
    int n, order, grid, fixed_level;
    int mixed;  /* 1: the force kernel's mixed arithmetic (hermite.cu); 0: double */
    int i0, i1; /* this rank's bodies: force, correction and potential only for these */
    double eps2, eta, eta_start, dt_max;
    unsigned long long cond; /* cudaGraphConditionalHandle set by the selection; 0 = none */
    int pdl; /* 1: the force pass and the correction launch as programmatic dependents
              * (sm_90): each may start while the kernel before it drains */
    size_t l2_window; /* bytes of jr from its start kept in the L2's persisting part (0: no
                       * window): at 2^20 bodies the records (67 MB) pass the L2, and a
                       * stream over them would evict each before its reuse */
};

/* Blocks of the fixed launch shape for this order; negative: -cudaError_t. */
int gc_cuda_hermite_grid(int order, int mixed, int sm_count);
size_t gc_cuda_hermite_part_doubles(int n, int grid);
/* Active list = every body, due at tick 0; counters and error cleared. */
int gc_cuda_hermite_launch_reset(const struct gc_cuda_hermite *h, void *stream);
/* use_ctl = 0: t_limit given here (and stored); 1: the stored one (graph replays).
 * full = 1: first the minimum over every body, needed once the state has changed other than
 * by the selection and correction kernels (start-up, unpack) or after a selection that no
 * correction followed; 0: the minimum those kernels kept. */
int gc_cuda_hermite_launch_select(const struct gc_cuda_hermite *h, long long t_limit,
                                  int use_ctl, int full, void *stream);
int gc_cuda_hermite_launch_force(const struct gc_cuda_hermite *h, void *stream);
/* begin = 1: start-up (derivatives become the state, first steps); 0: correction. */
int gc_cuda_hermite_launch_correct(const struct gc_cuda_hermite *h, int begin, void *stream);
int gc_cuda_hermite_launch_view(const struct gc_cuda_hermite *h, long long t, float *d_pos,
                                float *d_vel, void *stream);
/* The latest block's bodies in the range (the active list) into d_rec[0..count); count is
 * ctl->last_count, which the host reads. */
int gc_cuda_hermite_launch_pack(const struct gc_cuda_hermite *h,
                                struct gc_hermite_record *d_rec, void *stream);
/* Every body's record, in body order, into d_rec[0..n). */
int gc_cuda_hermite_launch_state(const struct gc_cuda_hermite *h,
                                 struct gc_hermite_record *d_rec, void *stream);
/* Records d_rec[0..count) into the state (bodies of other ranks). */
int gc_cuda_hermite_launch_unpack(const struct gc_cuda_hermite *h,
                                  const struct gc_hermite_record *d_rec, int count,
                                  void *stream);
/* Perturbations for bodies idx[0..count): acceleration in val[0..3 count), jerk in
 * val[3 count..6 count); the next correction of each adds them to its new derivatives. */
int gc_cuda_hermite_launch_perturb(const struct gc_cuda_hermite *h, const long long *idx,
                                   const double *val, int count, void *stream);
/* Per-block partial sums of m_i sum_{j != i} m_j / r_ij (softened) into d_out[0..*blocks). */
int gc_cuda_hermite_launch_potential(const struct gc_cuda_hermite *h, double *d_out,
                                     int *blocks, void *stream);

/* ---- The Barnes-Hut tree (tree.cu) ---- */

/* The tree's control block on the device: written by one launch, read by the next, so the
 * host queues the whole build without waiting for it. */
struct gc_cuda_tree_ctl {
    float frame[4];     /* key frame: the cube's lowest corner and 2^21 / side */
    int cells, leaves;  /* cells made (may pass the store's size when it overflows), leaves */
    unsigned long long leaf_bodies; /* bodies in all leaves */
    float root_mass;    /* the root's mass, from the moments */
    int overflow;       /* cells left unsplit for want of room */
    int stack_full;     /* walks that summed a cell directly for want of stack */
    int gen[GC_TREE_LEVELS + 3];      /* first cell of each generation (gen[0] = the root) */
    unsigned done[GC_TREE_LEVELS + 3]; /* blocks finished of each generation's split */
    /* interactions of the latest walk, own bodies: with cells' quadrupoles, with bodies, with
     * far cells' masses */
    unsigned long long cell_int, body_int, mono_int;
    unsigned long long local_int; /* cells added to groups' local expansions, times the own
                         * bodies of each group */
    int local_full;     /* walks whose local list filled: their further cells went body by
                         * body (exact to the cells' expansions, slower) */
    int groups;         /* groups of the walk (tree_formulas.h) */
    unsigned next_group; /* the next group a walking warp takes */
    int stack_spills;   /* walks that moved part of their stack to their list area */
    /* the latest walk on the device's clock (ns): its first warp's start, when its last
     * group was taken, its last warp's end */
    unsigned long long walk_start, walk_last_taken, walk_end;
};

/* Device arrays and settings of one tree pass, passed to the launchers. Positions and cells
 * are float4s (x y z w), ranges int2s, given here as plain pointers. */
struct gc_cuda_tree {
    int n, cap;         /* bodies; cells the store holds */
    int i0, i1;         /* this rank's bodies: forces for these only */
    float theta, eps2;
    const float *pos;   /* n float4: x y z m, the bodies' order */
    float *acc;         /* n float4: accelerations out, the bodies' order */
    unsigned long long *keys[2]; /* n each: the sort's two key buffers */
    unsigned *idxs[2];  /* n each: the sort's two index buffers */
    unsigned long long *key; /* after the sort: the sorted keys (one of keys[]) */
    unsigned *idx;      /* after the sort: body index of each sorted slot */
    float *spos;        /* n float4: positions in sorted order */
    float *com, *quad, *quad2, *misc, *blo, *bhi; /* cap float4 each: centre of mass and
                         * mass; the quadrupole xx yy zz xy; xz yz, -eps^2 s2, s2 (the terms
                         * of gc_tree_cell_terms, and the trace s2); -, opening radius^2,
                         * first, count (int bits); the box of the cell's bodies (lo, hi) */
    int *range;         /* cap int2: the cell's bodies [begin, end) of the sorted order */
    unsigned char *begins; /* n: 1 where a group begins (sorted order) */
    int *group;         /* n: the groups' first bodies, ascending (ctl->groups of them) */
    int *local;         /* gc_cuda_tree_local_ints(): each walking warp's list area: the
                         * cells of its group's local expansion from the bottom, the part of
                         * its stack that shared memory cannot hold from the top */
    float *group_us;    /* n: each group's walk, microseconds (ctl->groups of them) */
    struct gc_cuda_tree_ctl *ctl;
};

/* Cells the store should hold for n bodies. */
size_t gc_cuda_tree_cell_cap(size_t n);
/* Bytes of the sort's scratch for n bodies (0: the query failed), and of the box pass's. */
size_t gc_cuda_tree_sort_bytes(int n);
size_t gc_cuda_tree_scratch_bytes(void);
/* Box, key frame, fresh control block and root, keys, the CUB radix sort, and the positions
 * gathered in sorted order; sets T->key and T->idx to the sorted buffers. */
int gc_cuda_tree_launch_sort(struct gc_cuda_tree *T, void *temp, size_t temp_bytes,
                             void *scratch, void *stream);
/* The cells, one generation per launch. */
int gc_cuda_tree_launch_build(const struct gc_cuda_tree *T, int sm_count, void *stream);
/* Bytes of the group selection's scratch for n bodies (0: the query failed). */
size_t gc_cuda_tree_group_bytes(int n);
/* The groups of the walk from the cells (after the moments: the packing reads the cells'
 * boxes): their first bodies into T->group, their count into the control block. */
int gc_cuda_tree_launch_groups(const struct gc_cuda_tree *T, void *temp, size_t temp_bytes,
                               int sm_count, void *stream);
/* Moments and opening radii, from the last generation up. */
int gc_cuda_tree_launch_moments(const struct gc_cuda_tree *T, int sm_count, void *stream);
/* Ints of the walking warps' list areas on a device of sm_count multiprocessors. */
size_t gc_cuda_tree_local_ints(int sm_count);
/* The group walks: accelerations of the range into T->acc, or with phi its potentials
 * (n floats, the bodies' order, self-pair included). */
int gc_cuda_tree_launch_walk(const struct gc_cuda_tree *T, float *phi, int sm_count,
                             void *stream);
/* Partial sums of m_i (phi_i + m_i / eps) over the range into part[0..blocks). */
int gc_cuda_tree_potential_blocks(void);
int gc_cuda_tree_launch_potential_sum(const struct gc_cuda_tree *T, const float *phi,
                                      double *part, void *stream);

/* ---- The picture drawn on the compute units (picture.cu) ---- */

#define GC_PICTURE_LEVELS 5 /* glow pyramid levels below the picture (the glow reads 2..5) */
struct gc_picture_job;      /* picture_job.h */

/* Device buffers of the picture; the backend owns them (backend_cuda_picture.c). */
struct gc_cuda_picture {
    float *light;          /* gc_cuda_picture_floats(w, h): w x h float4 light, then levels 1..5 */
    float *big;            /* 2 float4 per sprite too large for one thread; room for n */
    int *nbig;             /* how many of them this picture has */
    float *meter;          /* block maxima (job->meter_block); NULL = no metering */
    unsigned long long surface; /* a surface object of the mapped GL texture or renderbuffer;
                                 * 0 = meter only */
    const float *pos, *vel; /* n float4: the state handed to the renderer */
    const unsigned char *tag; /* n tags */
    int n;
};

/* Floats of the light buffer with its glow levels for a w x h picture. */
size_t gc_cuda_picture_floats(int w, int h);
/* Clears the light, splats the bodies, meters it (when job->meter_block and d->meter) and,
 * unless job->meter_sync, builds the glow levels and tone-maps into d->surface. */
int gc_cuda_picture_launch(const struct gc_cuda_picture *d, const struct gc_picture_job *job,
                           int sm_count, void *stream);

#ifdef __cplusplus
}
#endif
#endif
