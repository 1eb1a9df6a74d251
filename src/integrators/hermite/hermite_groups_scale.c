/* The groups' scales from the initial bodies: the regularisation radius and the energy of the split criterion. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups_scale.h"

#include <math.h>
#include <stdlib.h>

/* -W of the pair i, j (mutual nearest neighbours, d2nd_*: each one's next neighbour's
 * squared distance) if it is a binary, bound and closer than a tenth of those; else 0 */
static double binary_term(const struct gc_hermite_groups *g, long i, long j, double d2nd_i,
                          double d2nd_j)
{
    double r2 = 0.0, v2 = 0.0;
    for (int d = 0; d < 3; d++) {
        const double dx = g->rec[j].x[d] - g->rec[i].x[d];
        const double dv = g->rec[j].v[d] - g->rec[i].v[d];
        r2 += dx * dx;
        v2 += dv * dv;
    }
    const double r = sqrt(r2);
    if (!(r2 < 0.01 * d2nd_i && r2 < 0.01 * d2nd_j) || !(v2 * r < 2.0 * (g->m[i] + g->m[j])))
        return 0.0;
    return g->m[i] * g->m[j] / r;
}

/* g->energy (|K + W|) and, unless given, g->radius: 2 <m> / v^2, v^2 = |W| / M. */
enum gc_status gc_hermite_groups_scale(struct gc_hermite_groups *g)
{
    /* W in double over all pairs (collisional runs are small), each row summed apart and
     * the rows in order: the same sum for any number of threads. The radius takes v^2
     * from W less the binaries' own terms: a hard binary's binding energy can dwarf the
     * system's (each binary of pythagorean-binaries holds 4-12 times the outer orbit's),
     * and would shrink the radius to the binaries' scale. A binary here is a bound pair
     * closer than a tenth of either member's next neighbour. */
    const long n = (long)g->n;
    double *row = malloc((size_t)n * sizeof *row), w = 0.0, wb = 0.0, k = 0.0, mt = 0.0;
    double *second = malloc((size_t)n * sizeof *second); /* next neighbour's squared distance */
    long *near = malloc((size_t)n * sizeof *near);
    if (!row || !second || !near) {
        free(row);
        free(second);
        free(near);
        return GC_ERR_NOMEM;
    }
#pragma omp parallel for schedule(dynamic, 16) num_threads(g->threads)
    for (long i = 0; i < n; i++) {
        double d1 = INFINITY, d2nd = INFINITY;
        long j1 = -1;
        row[i] = 0.0;
        for (long j = 0; j < n; j++) {
            double d2 = 0.0;
            if (j == i)
                continue;
            for (int d = 0; d < 3; d++) {
                const double dx = g->rec[j].x[d] - g->rec[i].x[d];
                d2 += dx * dx;
            }
            if (d2 < d1) {
                d2nd = d1;
                d1 = d2;
                j1 = j;
            } else if (d2 < d2nd) {
                d2nd = d2;
            }
            if (j > i)
                row[i] += g->m[i] * g->m[j] / sqrt(d2);
        }
        near[i] = j1;
        second[i] = d2nd;
    }
    for (long i = 0; i < n; i++) {
        const double *v = g->rec[i].v;
        const long j = near[i];
        w += row[i];
        k += 0.5 * g->m[i] * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        mt += g->m[i];
        if (j > i && near[j] == i)
            wb += binary_term(g, i, j, second[i], second[j]);
    }
    free(row);
    free(second);
    free(near);
    g->energy = fabs(k - w);
    /* 2 <m> / v^2, v^2 = |W| / M, W without the binaries unless they are all of it */
    if (w - wb > 0.0)
        w -= wb;
    g->radius = g->radius_given > 0.0 ? g->radius_given : 2.0 * mt * mt / ((double)n * w);
    return GC_OK;
}
