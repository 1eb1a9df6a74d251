/* A group split into its parts: found by friends of friends, kept together while any two of them couple strongly. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups_split.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each part's mean square radius about its centre (ps, at roots of par), at least what
 * its orbit reaches: a bound part's members swing out to about twice a = sum m_i m_j /
 * 2|E| (a binary's apocentre for e near 1), whatever their phase now. pv: the parts'
 * velocities. */
static void part_sizes(const struct gc_hermite_groups *g, const struct group *gr, int k,
                       int *par, const double *x, const double *v, const double *pm,
                       double (*pc)[3], double (*pv)[3], double *ps)
{
    double en[GC_AR_MAX_BODIES], mm[GC_AR_MAX_BODIES];
    memset(en, 0, sizeof en);
    memset(mm, 0, sizeof mm);
    for (int a = 0; a < k; a++) {
        const int r = gc_hermite_groups_root(par, a);
        const double ma = g->m[gr->slot[a]];
        for (int d = 0; d < 3; d++) {
            ps[r] += ma * (x[3 * a + d] - pc[r][d]) * (x[3 * a + d] - pc[r][d]) / pm[r];
            en[r] += 0.5 * ma * (v[3 * a + d] - pv[r][d]) * (v[3 * a + d] - pv[r][d]);
        }
        for (int b = a + 1; b < k; b++) {
            double d2 = 0.0;
            if (gc_hermite_groups_root(par, b) != r)
                continue;
            for (int d = 0; d < 3; d++)
                d2 += (x[3 * a + d] - x[3 * b + d]) * (x[3 * a + d] - x[3 * b + d]);
            en[r] -= ma * g->m[gr->slot[b]] / sqrt(d2);
            mm[r] += ma * g->m[gr->slot[b]];
        }
    }
    for (int r = 0; r < k; r++)
        if (gc_hermite_groups_root(par, r) == r && en[r] < 0.0) {
            const double a = mm[r] / (2.0 * -en[r]);
            ps[r] = fmax(ps[r], 4.0 * a * a * mm[r] / (pm[r] * pm[r]));
        }
}

/* Parts at centres c, velocities u, masses m escape each other: they recede on an unbound
 * two-body orbit, farther apart than any two units merge (so they do not merge again at
 * once). */
static int escaping(const struct gc_hermite_groups *g, const double ca[3], const double ua[3],
                    double ma, const double cb[3], const double ub[3], double mb)
{
    const double far = fmax(1.0, GC_GROUP_MERGE_RADII) * g->radius;
    double d2 = 0.0, u2 = 0.0, ru = 0.0;
    for (int d = 0; d < 3; d++) {
        d2 += (cb[d] - ca[d]) * (cb[d] - ca[d]);
        u2 += (ub[d] - ua[d]) * (ub[d] - ua[d]);
        ru += (cb[d] - ca[d]) * (ub[d] - ua[d]);
    }
    return d2 > far * far && ru > 0.0 && 0.5 * u2 > (ma + mb) / sqrt(d2);
}

enum gc_status gc_hermite_groups_split(struct gc_hermite_groups *g, struct group *gr, int64_t t)
{
    const int k = gr->k;
    const double link = 2.0 * g->radius;
    double x[3 * GC_AR_MAX_BODIES], v[3 * GC_AR_MAX_BODIES], wq = 0.0, wq_esc = 0.0;
    double pm[GC_AR_MAX_BODIES], pc[GC_AR_MAX_BODIES][3], pv[GC_AR_MAX_BODIES][3];
    double ps[GC_AR_MAX_BODIES];
    int par[GC_AR_MAX_BODIES], roots = 0, sl[GC_AR_MAX_BODIES];
    enum gc_status st = GC_OK;
    gc_hermite_groups_members(g, gr, x, v);
    for (int a = 0; a < k; a++)
        par[a] = a;
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            double d2 = 0.0;
            for (int d = 0; d < 3; d++)
                d2 += (x[3 * a + d] - x[3 * b + d]) * (x[3 * a + d] - x[3 * b + d]);
            if (d2 < link * link)
                par[gc_hermite_groups_root(par, a)] = gc_hermite_groups_root(par, b);
        }
    memset(pm, 0, sizeof pm);
    memset(pc, 0, sizeof pc);
    memset(pv, 0, sizeof pv);
    memset(ps, 0, sizeof ps);
    for (int a = 0; a < k; a++) {
        const int r = gc_hermite_groups_root(par, a);
        roots += r == a;
        pm[r] += g->m[gr->slot[a]];
        for (int d = 0; d < 3; d++) {
            pc[r][d] += g->m[gr->slot[a]] * x[3 * a + d];
            pv[r][d] += g->m[gr->slot[a]] * v[3 * a + d];
        }
    }
    if (roots < 2)
        return GC_OK;
    for (int a = 0; a < k; a++)
        if (gc_hermite_groups_root(par, a) == a)
            for (int d = 0; d < 3; d++) {
                pc[a][d] /= pm[a];
                pv[a][d] /= pm[a];
            }
    part_sizes(g, gr, k, par, x, v, pm, pc, pv, ps);
    /* quadrupole energy of each two parts, m_A m_B (s_A^2 + s_B^2) / d^3: what the point
     * coupling misses once they are apart. Bound parts would miss it orbit after orbit, so
     * it must be small beside the group's own energy; parts that escape each other miss it
     * once, shrinking as they recede, so beside the whole system's energy will do (against
     * the group's alone a body leaving a cluster's binary stayed until a third of the
     * half-mass radius away). */
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            double d2 = 0.0, d;
            if (gc_hermite_groups_root(par, a) != a || gc_hermite_groups_root(par, b) != b)
                continue;
            for (int c = 0; c < 3; c++)
                d2 += (pc[a][c] - pc[b][c]) * (pc[a][c] - pc[b][c]);
            d = sqrt(d2);
            if (escaping(g, pc[a], pv[a], pm[a], pc[b], pv[b], pm[b]))
                wq_esc += pm[a] * pm[b] * (ps[a] + ps[b]) / (d2 * d);
            else
                wq += pm[a] * pm[b] * (ps[a] + ps[b]) / (d2 * d);
        }
    if (wq > GC_GROUP_SPLIT_GAMMA * fabs(gc_ar_energy(gr->ar)) ||
        wq_esc > GC_GROUP_SPLIT_GAMMA * fmax(fabs(gc_ar_energy(gr->ar)), g->energy))
        return GC_OK;
    {
        struct group old = *gr;
        int slots[GC_AR_MAX_BODIES];
        memcpy(slots, old.slot, (size_t)k * sizeof *slots);
        gc_ar_destroy(old.ar);
        free(old.slot);
        free(old.off);
        memset(gr, 0, sizeof *gr);
        g->dissolved++;
        for (int q = 0; q < k; q++)
            g->group_of[slots[q]] = -1;
        for (int r = 0; r < k && st == GC_OK; r++) {
            double mx[3 * GC_AR_MAX_BODIES], mv[3 * GC_AR_MAX_BODIES];
            int np = 0;
            if (gc_hermite_groups_root(par, r) != r)
                continue;
            for (int a = 0; a < k; a++)
                if (gc_hermite_groups_root(par, a) == r) {
                    sl[np] = slots[a];
                    memcpy(&mx[3 * np], &x[3 * a], 3 * sizeof *mx);
                    memcpy(&mv[3 * np], &v[3 * a], 3 * sizeof *mv);
                    np++;
                }
            if (np == 1)
                gc_hermite_groups_set_body(g, sl[0], t, mx, mv, g->m[sl[0]]);
            else
                st = gc_hermite_groups_form(g, np, sl, mx, mv, t);
        }
    }
    return st;
}
