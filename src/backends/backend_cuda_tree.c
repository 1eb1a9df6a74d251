/* The CUDA backend's tree force method: device arrays of the Barnes-Hut tree (kernels/tree.cu), one pass per force call queued without a host round trip, and its figures read back a pass late. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cuda_ctx.h"
#include "backend_tree.h"

/* Events of one pass: start, sorted, built, moments and groups, walked. */
enum { EV_START, EV_SORTED, EV_BUILT, EV_MOMENTS, EV_WALKED, EVENTS };

struct cuda_tree {
    struct gc_cuda_tree d;       /* device arrays and settings for the launchers */
    size_t n_cap;                /* bodies the body arrays hold */
    void *cub_temp, *scratch;   /* CUB's scratch (the sort's, then the group selection's);
                                  * the box pass's partial boxes */
    size_t cub_bytes;
    float *d_phi;                /* n potentials; made by the first potential pass */
    double *d_wpart, *h_wpart;   /* the potential's partial sums */
    /* Two slots, alternating: a pass's events and a pinned copy of its control block, read
     * once the pass has finished, so the host never waits for the figures. */
    cudaEvent_t ev[2][EVENTS];
    struct gc_cuda_tree_ctl *h_ctl; /* pinned, 2 */
    int slot;                    /* the slot of the next pass */
    int pending[2];              /* the slot's pass is queued and not read yet */
    struct gc_tree_stats last;   /* the latest pass read */
    int grow;                    /* the store overflowed: make it larger before the next pass */
};

static void tree_free(struct cuda_ctx *c)
{
    struct cuda_tree *t = c->tree;
    if (!t)
        return;
    cudaStreamSynchronize(c->stream);
    void *dev[] = {t->d.keys[0], t->d.keys[1], t->d.idxs[0], t->d.idxs[1], t->d.spos,
                   t->d.com,     t->d.quad,    t->d.quad2,   t->d.misc,    t->d.blo,
                   t->d.bhi,
                   t->d.range,   t->d.ctl,     t->cub_temp, t->scratch,   t->d_phi,
                   t->d_wpart,   t->d.begins,  t->d.group,   t->d.local,   t->d.group_us};
    for (size_t k = 0; k < sizeof dev / sizeof dev[0]; k++)
        cudaFree(dev[k]);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < EVENTS; k++)
            if (t->ev[s][k])
                cudaEventDestroy(t->ev[s][k]);
    cudaFreeHost(t->h_ctl);
    free(t->h_wpart);
    free(t);
    c->tree = NULL;
}

/* Bytes the tree keeps per body: keys and indices twice (the sort's two buffers), sorted
 * positions, group marks, starts and walk times, and the cell store (6 float4s and an int2
 * per cell). */
static double bytes_per_body(size_t n)
{
    const double cells = (double)gc_cuda_tree_cell_cap(n) / (double)(n ? n : 1);
    return 2.0 * (8 + 4) + 16 + 1 + 4 + 4 + cells * (6 * 16 + 8);
}

/* Device bytes the tree holds now (the walk's list areas are the same at any N). */
static size_t held_bytes(const struct cuda_tree *t, int sm_count)
{
    return t->n_cap * (2 * (8 + 4) + 16 + 1 + 4 + 4) + (size_t)t->d.cap * (6 * 16 + 8) +
           t->cub_bytes + gc_cuda_tree_scratch_bytes() + (t->d_phi ? t->n_cap * 4 : 0) +
           gc_cuda_tree_local_ints(sm_count) * sizeof(int);
}

/* An allocation failed: how many bodies this device could take with the tree. */
static void report_nomem(const struct cuda_ctx *c, size_t n)
{
    size_t free_b = 0, total_b = 0;
    const double per = bytes_per_body(n) + 3 * 16; /* and the state: x, v, a */
    cudaMemGetInfo(&free_b, &total_b);
    (void)cudaGetLastError();
    gc_log_error("cuda backend: out of device memory for the tree of %zu bodies (%.0f bytes a "
                 "body with the state; %s has %.2f of %.2f GB free): about %.0f bodies would "
                 "fit", n, per, c->name, (double)free_b / 1e9, (double)total_b / 1e9,
                 0.9 * ((double)free_b + (c->tree ? (double)c->tree->n_cap * per : 0.0) -
                        (double)(gc_cuda_tree_local_ints(c->sm_count) * sizeof(int))) / per);
}

#define TRY_ALLOC(ptr, bytes)                                                              \
    do {                                                                                   \
        if (cudaMalloc((void **)&(ptr), (bytes)) != cudaSuccess) {                         \
            (void)cudaGetLastError();                                                      \
            (ptr) = NULL;                                                                  \
            report_nomem(c, n);                                                            \
            tree_free(c);                                                                  \
            return GC_ERR_NOMEM;                                                           \
        }                                                                                  \
    } while (0)

static enum gc_status alloc_cells(struct cuda_ctx *c, size_t cap)
{
    struct cuda_tree *t = c->tree;
    const size_t n = c->n;
    float **f4[] = {&t->d.com, &t->d.quad, &t->d.quad2, &t->d.misc, &t->d.blo, &t->d.bhi};
    for (size_t k = 0; k < sizeof f4 / sizeof f4[0]; k++) {
        cudaFree(*f4[k]);
        *f4[k] = NULL;
    }
    cudaFree(t->d.range);
    t->d.range = NULL;
    for (size_t k = 0; k < sizeof f4 / sizeof f4[0]; k++)
        TRY_ALLOC(*f4[k], cap * 4 * sizeof(float));
    TRY_ALLOC(t->d.range, cap * 2 * sizeof(int));
    t->d.cap = (int)cap;
    return GC_OK;
}

/* New bodies or range: arrays too small for them go; the next pass makes them. */
static enum gc_status tree_resize(struct cuda_ctx *c)
{
    if (c->tree && c->n > c->tree->n_cap)
        tree_free(c);
    return GC_OK;
}

/* Arrays for c->n bodies, made by the first pass (a run without the tree needs none). */
static enum gc_status tree_alloc(struct cuda_ctx *c)
{
    struct cuda_tree *t;
    const size_t n = c->n;
    if (n > (size_t)1 << 30) {
        gc_log_error("cuda backend: the tree takes at most 2^30 bodies, not %zu", n);
        return GC_ERR_INVALID;
    }
    t = c->tree = calloc(1, sizeof *t);
    if (!t) {
        gc_log_error("cuda backend: out of memory");
        return GC_ERR_NOMEM;
    }
    for (int k = 0; k < 2; k++) {
        TRY_ALLOC(t->d.keys[k], n * sizeof(unsigned long long));
        TRY_ALLOC(t->d.idxs[k], n * sizeof(unsigned));
    }
    TRY_ALLOC(t->d.spos, n * 4 * sizeof(float));
    TRY_ALLOC(t->d.begins, n ? n : 1);
    TRY_ALLOC(t->d.group, (n ? n : 1) * sizeof(int));
    TRY_ALLOC(t->d.group_us, (n ? n : 1) * sizeof(float));
    TRY_ALLOC(t->d.ctl, sizeof *t->d.ctl);
    TRY_ALLOC(t->d.local, gc_cuda_tree_local_ints(c->sm_count) * sizeof(int));
    t->cub_bytes = gc_cuda_tree_sort_bytes((int)n);
    if (gc_cuda_tree_group_bytes((int)n) > t->cub_bytes)
        t->cub_bytes = gc_cuda_tree_group_bytes((int)n);
    TRY_ALLOC(t->cub_temp, t->cub_bytes ? t->cub_bytes : 1);
    TRY_ALLOC(t->scratch, gc_cuda_tree_scratch_bytes());
    if (alloc_cells(c, gc_cuda_tree_cell_cap(n)) != GC_OK)
        return GC_ERR_NOMEM;
    t = c->tree;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < EVENTS; k++)
            GC_CUDA_TRY(cudaEventCreate(&t->ev[s][k]));
    GC_CUDA_TRY(cudaMallocHost((void **)&t->h_ctl, 2 * sizeof *t->h_ctl));
    t->d.n = (int)n;
    t->n_cap = n;
    return GC_OK;
}

static float elapsed(cudaEvent_t a, cudaEvent_t b)
{
    float ms = 0.0f;
    return cudaEventElapsedTime(&ms, a, b) == cudaSuccess ? ms : 0.0f;
}

/* Reads slot s's pass if it has finished (never waits). */
static void read_slot(struct cuda_ctx *c, int s)
{
    struct cuda_tree *t = c->tree;
    const struct gc_cuda_tree_ctl *k = &t->h_ctl[s];
    struct gc_tree_stats *o = &t->last;
    const double own = (double)(c->i1 > c->i0 ? c->i1 - c->i0 : 1);
    if (!t->pending[s] || cudaEventQuery(t->ev[s][EV_WALKED]) != cudaSuccess) {
        (void)cudaGetLastError();
        return;
    }
    t->pending[s] = 0;
    o->sort_ms = elapsed(t->ev[s][EV_START], t->ev[s][EV_SORTED]);
    o->build_ms = elapsed(t->ev[s][EV_SORTED], t->ev[s][EV_BUILT]);
    o->moments_ms = elapsed(t->ev[s][EV_BUILT], t->ev[s][EV_MOMENTS]);
    o->walk_ms = elapsed(t->ev[s][EV_MOMENTS], t->ev[s][EV_WALKED]);
    o->tail_ms = k->walk_end > k->walk_last_taken && k->walk_last_taken > 0
                     ? 1e-6 * (double)(k->walk_end - k->walk_last_taken)
                     : 0.0;
    o->cells = (uint64_t)(k->cells < t->d.cap ? k->cells : t->d.cap);
    o->leaves = (uint64_t)k->leaves;
    o->leaf_bodies = k->leaf_bodies;
    o->groups = (uint64_t)k->groups;
    o->bytes = held_bytes(t, c->sm_count);
    o->root_mass = k->root_mass;
    o->cell_interactions = (double)k->cell_int / own;
    o->body_interactions = (double)k->body_int / own;
    o->mono_interactions = (double)k->mono_int / own;
    o->local_cells = (double)k->local_int / own;
    o->local_full = (uint64_t)k->local_full;
    o->stack_spills = (uint64_t)k->stack_spills;
    o->complete = k->overflow == 0 && k->stack_full == 0;
    o->valid = 1;
    if (k->overflow > 0 && !t->grow) {
        gc_log_warn("cuda backend: the tree's store of %d cells was too small for %zu bodies "
                    "(%d cells summed directly); it grows for the next step", t->d.cap, c->n,
                    k->overflow);
        t->grow = 1;
    }
}

/* One pass: sort, build, moments, walk, queued on the stream with events between the phases
 * and the control block copied out behind them. */
static enum gc_status pass(struct cuda_ctx *c, const struct gc_force_params *fp, float *phi)
{
    struct cuda_tree *t = c->tree;
    int s, e;
    if (!t) {
        enum gc_status st = tree_alloc(c);
        if (st != GC_OK)
            return st;
        t = c->tree;
    }
    read_slot(c, 0);
    read_slot(c, 1);
    if (t->grow) {
        GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
        if (alloc_cells(c, (size_t)t->d.cap + t->d.cap / 2) != GC_OK)
            return GC_ERR_NOMEM;
        t = c->tree;
        t->grow = 0;
    }
    s = t->slot;
    if (t->pending[s]) { /* still unread two passes on: wait for it rather than lose it */
        GC_CUDA_TRY(cudaEventSynchronize(t->ev[s][EV_WALKED]));
        read_slot(c, s);
    }
    t->d.n = (int)c->n;
    t->d.i0 = (int)c->i0;
    t->d.i1 = (int)c->i1;
    t->d.theta = fp->theta;
    t->d.eps2 = fp->eps2;
    t->d.pos = c->d_pos;
    t->d.acc = c->d_acc;
    GC_CUDA_TRY(cudaEventRecord(t->ev[s][EV_START], c->stream));
    e = gc_cuda_tree_launch_sort(&t->d, t->cub_temp, t->cub_bytes, t->scratch, c->stream);
    if (e == 0)
        e = (int)cudaEventRecord(t->ev[s][EV_SORTED], c->stream);
    if (e == 0)
        e = gc_cuda_tree_launch_build(&t->d, c->sm_count, c->stream);
    if (e == 0)
        e = (int)cudaEventRecord(t->ev[s][EV_BUILT], c->stream);
    if (e == 0)
        e = gc_cuda_tree_launch_moments(&t->d, c->sm_count, c->stream);
    if (e == 0)
        e = gc_cuda_tree_launch_groups(&t->d, t->cub_temp, t->cub_bytes, c->sm_count,
                                       c->stream);
    if (e == 0)
        e = (int)cudaEventRecord(t->ev[s][EV_MOMENTS], c->stream);
    if (e == 0)
        e = gc_cuda_tree_launch_walk(&t->d, phi, c->sm_count, c->stream);
    if (e == 0)
        e = (int)cudaMemcpyAsync(&t->h_ctl[s], t->d.ctl, sizeof *t->d.ctl,
                                 cudaMemcpyDeviceToHost, c->stream);
    if (e == 0)
        e = (int)cudaEventRecord(t->ev[s][EV_WALKED], c->stream);
    if (e != 0) {
        gc_log_error("cuda backend: tree pass of %zu bodies: %s", c->n,
                     cudaGetErrorString((cudaError_t)e));
        return GC_ERR_CUDA;
    }
    t->pending[s] = 1;
    t->slot = s ^ 1;
    return GC_OK;
}

static enum gc_status tree_accel(struct cuda_ctx *c, const struct gc_force_params *fp)
{
    return pass(c, fp, NULL);
}

/* W = 1/2 sum_i m_i phi_i with the tree's potentials, the self-pair (summed directly: theta
 * <= 1 opens every cell that holds a body of the group) taken out exactly. */
static enum gc_status tree_potential(struct cuda_ctx *c, const struct gc_force_params *fp,
                                     double *w)
{
    struct cuda_tree *t;
    const int nb = gc_cuda_tree_potential_blocks();
    const size_t n = c->n;
    double sum = 0.0;
    enum gc_status st = c->tree ? GC_OK : tree_alloc(c);
    if (st != GC_OK)
        return st;
    t = c->tree;
    if (!t->d_phi) {
        TRY_ALLOC(t->d_phi, n * sizeof(float));
        TRY_ALLOC(t->d_wpart, (size_t)nb * sizeof(double));
        t->h_wpart = malloc((size_t)nb * sizeof(double));
        if (!t->h_wpart) {
            gc_log_error("cuda backend: out of host memory");
            return GC_ERR_NOMEM;
        }
    }
    st = pass(c, fp, t->d_phi);
    if (st != GC_OK)
        return st;
    GC_CUDA_TRY(gc_cuda_tree_launch_potential_sum(&t->d, t->d_phi, t->d_wpart, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(t->h_wpart, t->d_wpart, (size_t)nb * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    for (int k = 0; k < nb; k++)
        sum += t->h_wpart[k];
    *w = 0.5 * sum;
    return GC_OK;
}

enum gc_status gc_cuda_tree_stats(struct cuda_ctx *c, struct gc_tree_stats *out)
{
    memset(out, 0, sizeof *out);
    if (!c->tree)
        return GC_OK;
    read_slot(c, c->tree->slot ^ 1); /* the latest pass first, then the one before */
    read_slot(c, c->tree->slot);
    *out = c->tree->last;
    return GC_OK;
}

enum gc_status gc_cuda_tree_group_times(struct cuda_ctx *c, float *us, size_t cap,
                                        size_t *count)
{
    struct cuda_tree *t = c->tree;
    size_t groups;
    *count = 0;
    if (!t)
        return GC_OK;
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    read_slot(c, t->slot ^ 1);
    read_slot(c, t->slot);
    if (!t->last.valid)
        return GC_OK;
    groups = (size_t)t->last.groups;
    GC_CUDA_TRY(cudaMemcpy(us, t->d.group_us, (groups < cap ? groups : cap) * sizeof *us,
                           cudaMemcpyDeviceToHost));
    *count = groups;
    return GC_OK;
}

const struct cuda_force_method gc_cuda_tree = {
    .accel = tree_accel,
    .potential = tree_potential,
    .resize = tree_resize,
    .free = tree_free,
};
