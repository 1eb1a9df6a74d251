/* The CPU backend's all-pairs force method: softened gravity of every pair, and the potential energy, by the vector loops of backend_cpu_kernels.c over tiles of bodies (OpenMP, dynamic). */
/* SPDX-License-Identifier: MIT */
#include "backend_cpu.h"
#include "log.h"
#include "stop.h"

/* Tiles are taken one at a time as threads free up: a thread that loses its core to another
 * process holds back only the tile it is in, not a fixed share of the pass. Each tile writes
 * its own a_i and sums j in a fixed order, so results repeat exactly run to run and do not
 * depend on the number of threads. */
static enum gc_status accel(struct cpu_ctx *c, const struct gc_force_params *fp)
{
    const struct cpu_soa s = {c->x, c->y, c->z, c->m, c->n};
    const long i0 = (long)c->i0, tiles = ((long)c->i1 - i0 + GC_CPU_TILE - 1) / GC_CPU_TILE;
    long cut = 0;

#pragma omp parallel for schedule(dynamic, 1) reduction(+ : cut) num_threads(gc_cpu_threads(c))
    for (long t = 0; t < tiles; t++) {
        const size_t a = (size_t)(i0 + t * GC_CPU_TILE);
        const size_t b = a + GC_CPU_TILE < c->i1 ? a + GC_CPU_TILE : c->i1;
        /* A pass over millions of bodies takes minutes: a stop during start-up is heard
         * within one tile (stop.h). */
        if (gc_stop_cut()) {
            cut++;
            continue;
        }
        c->kernels->allpairs_accel(&s, a, b, fp->eps2, c->ax + a, c->ay + a, c->az + a);
    }
    return cut ? GC_ERR_INTERRUPTED : GC_OK;
}

/* W = -1/2 sum_i m_i sum_{j != i} m_j / sqrt(r^2 + eps^2): pairs in float (as the forces),
 * sums in double. */
static enum gc_status potential(struct cpu_ctx *c, const struct gc_force_params *fp, double *w)
{
    const struct cpu_soa s = {c->x, c->y, c->z, c->m, c->n};
    const long i0 = (long)c->i0, tiles = ((long)c->i1 - i0 + GC_CPU_TILE - 1) / GC_CPU_TILE;
    double total = 0.0;
    long cut = 0;
    if (!(fp->eps2 > 0.0f)) {
        gc_log_error("cpu backend: potential needs softening > 0");
        return GC_ERR_INVALID;
    }
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : total, cut) \
    num_threads(gc_cpu_threads(c))
    for (long t = 0; t < tiles; t++) {
        const size_t a = (size_t)(i0 + t * GC_CPU_TILE);
        const size_t b = a + GC_CPU_TILE < c->i1 ? a + GC_CPU_TILE : c->i1;
        if (gc_stop_cut()) {
            cut++;
            continue;
        }
        total += c->kernels->allpairs_potential(&s, a, b, fp->eps2);
    }
    *w = -0.5 * total;
    return cut ? GC_ERR_INTERRUPTED : GC_OK;
}

const struct cpu_force_method gc_cpu_allpairs = {
    .accel = accel,
    .potential = potential,
};
