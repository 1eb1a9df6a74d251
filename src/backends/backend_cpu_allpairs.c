/* The CPU backend's all-pairs force method: softened gravity of every pair, and the potential energy, in float with blocked double sums (OpenMP over bodies). */
/* SPDX-License-Identifier: MIT */
#include <math.h>

#include "backend_cpu.h"
#include "log.h"
#include "stop.h"

/* j-block length for the partial float sums: each SIMD lane sums at most BLOCK/8 terms in
 * float before the block is added into a double, which keeps the force error ~1e-7
 * relative even at a million bodies while the hot loop stays single precision. */
#define BLOCK 2048

/* The loop is over i only: each thread writes its own a_i, so there are no write races,
 * and the j summation order is fixed, so results repeat exactly run to run. */
static enum gc_status accel(struct cpu_ctx *c, const struct gc_force_params *fp)
{
    const float eps2 = fp->eps2;
    const long n = (long)c->n, i0 = (long)c->i0, i1 = (long)c->i1;
    const float *restrict x = c->x, *restrict y = c->y, *restrict z = c->z, *restrict m = c->m;
    long cut = 0;

#pragma omp parallel for schedule(dynamic, 16) reduction(+ : cut) num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        double ax = 0.0, ay = 0.0, az = 0.0;
        /* A pass over millions of bodies takes minutes: a stop during start-up is heard
         * within one body's row (stop.h). */
        if (gc_stop_cut()) {
            cut++;
            continue;
        }
        for (long j0 = 0; j0 < n; j0 += BLOCK) {
            const long j1 = j0 + BLOCK < n ? j0 + BLOCK : n;
            float bx = 0.0f, by = 0.0f, bz = 0.0f;
#pragma omp simd reduction(+ : bx, by, bz)
            for (long j = j0; j < j1; j++) {
                const float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
                const float r2 = dx * dx + dy * dy + dz * dz + eps2;
                const float inv = 1.0f / sqrtf(r2);
                const float s = m[j] * inv * inv * inv;
                bx += dx * s;
                by += dy * s;
                bz += dz * s;
            }
            ax += bx;
            ay += by;
            az += bz;
        }
        c->ax[i] = (float)ax;
        c->ay[i] = (float)ay;
        c->az[i] = (float)az;
    }
    return cut ? GC_ERR_INTERRUPTED : GC_OK;
}

/* W = -1/2 sum_i m_i sum_{j != i} m_j / sqrt(r^2 + eps^2). Pairs in float (as the forces),
 * sums in double; the j = i term (m_i / eps) is included by the vector loop and removed
 * exactly afterwards so the loop needs no branch. */
static enum gc_status potential(struct cpu_ctx *c, const struct gc_force_params *fp, double *w)
{
    const float eps2 = fp->eps2;
    const long n = (long)c->n, i0 = (long)c->i0, i1 = (long)c->i1;
    const float *restrict x = c->x, *restrict y = c->y, *restrict z = c->z, *restrict m = c->m;
    double total = 0.0;
    long cut = 0;
    if (!(eps2 > 0.0f)) {
        gc_log_error("cpu backend: potential needs softening > 0");
        return GC_ERR_INVALID;
    }
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total, cut) \
    num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        const float xi = x[i], yi = y[i], zi = z[i];
        double phi = 0.0;
        if (gc_stop_cut()) {
            cut++;
            continue;
        }
        for (long j0 = 0; j0 < n; j0 += BLOCK) {
            const long j1 = j0 + BLOCK < n ? j0 + BLOCK : n;
            float p = 0.0f;
#pragma omp simd reduction(+ : p)
            for (long j = j0; j < j1; j++) {
                const float dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
                p += m[j] / sqrtf(dx * dx + dy * dy + dz * dz + eps2);
            }
            phi += p;
        }
        phi -= (double)m[i] / sqrt((double)eps2);
        total += (double)m[i] * phi;
    }
    *w = -0.5 * total;
    return cut ? GC_ERR_INTERRUPTED : GC_OK;
}

const struct cpu_force_method gc_cpu_allpairs = {
    .accel = accel,
    .potential = potential,
};
