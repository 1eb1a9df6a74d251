/* The CUDA backend's all-pairs force method: the launch plan per N, the tiled force kernel and the potential-energy pass (kernels/gravity.cu). */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>

#include "backend_cuda_ctx.h"

struct cuda_allpairs {
    struct gc_cuda_accel_plan plan; /* force-pass split for the current n and range */
    char plan_str[64];
    double *d_part;                 /* j-split partial sums (double), part_cap doubles */
    size_t part_cap;
    double *d_wpart, *h_wpart;      /* potential per-block partial sums, wpart_cap each */
    int wpart_cap;
};

static void allpairs_free(struct cuda_ctx *c)
{
    struct cuda_allpairs *a = c->allpairs;
    if (!a)
        return;
    cudaFree(a->d_part);
    cudaFree(a->d_wpart);
    free(a->h_wpart);
    free(a);
    c->allpairs = NULL;
}

/* The force pass's split for this rank's i1 - i0 bodies against all n, its scratch, and
 * room for the potential's partial sums. */
static enum gc_status allpairs_resize(struct cuda_ctx *c)
{
    static const int any_variant[5] = {0, 0, 0, 0, 0};
    struct cuda_allpairs *a = c->allpairs;
    const int nw = gc_cuda_potential_blocks(c->i1 - c->i0 > 0 ? c->i1 - c->i0 : 1);
    size_t need;
    if (!a) {
        a = c->allpairs = calloc(1, sizeof *a);
        if (!a) {
            gc_log_error("cuda backend: out of memory");
            return GC_ERR_NOMEM;
        }
    }
    GC_CUDA_TRY(gc_cuda_accel_plan_range(c->i1 - c->i0 > 0 ? c->i1 - c->i0 : 1, c->n,
                                         c->sm_count, any_variant, &a->plan));
    snprintf(a->plan_str, sizeof a->plan_str,
             "T=%d B=%d U=%d M=%d P=%d blocks=%dx%d tiles/slice=%d", a->plan.threads, a->plan.bodies_per_thread, a->plan.unroll, a->plan.min_blocks,
             a->plan.soft_period, a->plan.blocks_i, a->plan.jsplit, a->plan.tiles_per_slice);
    need = gc_cuda_accel_scratch(&a->plan, c->n);
    if (need > a->part_cap) {
        cudaFree(a->d_part);
        a->d_part = NULL;
        a->part_cap = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&a->d_part, need * sizeof(double)));
        a->part_cap = need;
    }
    if (nw > a->wpart_cap) {
        cudaFree(a->d_wpart);
        free(a->h_wpart);
        a->d_wpart = NULL;
        a->wpart_cap = 0;
        a->h_wpart = malloc((size_t)nw * sizeof(double));
        if (!a->h_wpart) {
            gc_log_error("cuda backend: out of host memory for %d potential partial sums", nw);
            return GC_ERR_NOMEM;
        }
        GC_CUDA_TRY(cudaMalloc((void **)&a->d_wpart, (size_t)nw * sizeof(double)));
        a->wpart_cap = nw;
    }
    return GC_OK;
}

static enum gc_status allpairs_accel(struct cuda_ctx *c, const struct gc_force_params *fp)
{
    struct cuda_allpairs *a = c->allpairs;
    GC_CUDA_TRY(gc_cuda_launch_accel_range(c->d_pos, c->d_acc, a->d_part, c->n, c->i0, c->i1,
                                           fp->eps2, &a->plan, c->stream));
    return GC_OK;
}

static enum gc_status allpairs_potential(struct cuda_ctx *c, const struct gc_force_params *fp,
                                         double *w)
{
    struct cuda_allpairs *a = c->allpairs;
    const int nb = gc_cuda_potential_blocks(c->i1 - c->i0);
    double sum = 0.0;
    if (!(fp->eps2 > 0.0f)) {
        gc_log_error("cuda backend: potential needs softening > 0");
        return GC_ERR_INVALID;
    }
    GC_CUDA_TRY(gc_cuda_launch_potential_range(c->d_pos, a->d_wpart, c->n, c->i0, c->i1,
                                               fp->eps2, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(a->h_wpart, a->d_wpart, (size_t)nb * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    for (int k = 0; k < nb; k++)
        sum += a->h_wpart[k];
    *w = -0.5 * sum;
    return GC_OK;
}

enum gc_status gc_cuda_allpairs_kernel(struct cuda_ctx *c, float eps2, int reference)
{
    struct gc_force_params fp = {.method = GC_FORCE_ALLPAIRS, .eps2 = eps2};
    if (!reference)
        return allpairs_accel(c, &fp);
    GC_CUDA_TRY(gc_cuda_launch_accel_reference(c->d_pos, c->d_acc, c->n, eps2, c->stream));
    return GC_OK;
}

const char *gc_cuda_allpairs_plan(const struct cuda_ctx *c)
{
    return c->allpairs ? c->allpairs->plan_str : "";
}

const struct cuda_force_method gc_cuda_allpairs = {
    .accel = allpairs_accel,
    .potential = allpairs_potential,
    .resize = allpairs_resize,
    .free = allpairs_free,
};
