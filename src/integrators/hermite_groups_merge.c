/* Groups made from the close bodies of a block: the pairs found through a grid of cells, joined by a union-find, and each part of two or more units formed into one group. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hermite_groups_impl.h"
#include "log.h"

int gc_hermite_groups_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

static int by_slot(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Joins the parts of a and b; the smaller index becomes the root, so the parts and their
 * roots do not depend on the order in which pairs are found. */
static void unite(int *parent, int a, int b)
{
    a = gc_hermite_groups_root(parent, a);
    b = gc_hermite_groups_root(parent, b);
    if (a < b)
        parent[b] = a;
    else if (b < a)
        parent[a] = b;
}

struct cell_key {
    uint64_t key;
    int64_t c[3]; /* the cell's coordinates */
    int u;        /* the unit */
};

static int by_cell(const void *pa, const void *pb)
{
    const struct cell_key *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->u > b->u) - (a->u < b->u);
}

/* A cell coordinate of the grid, bounded so that far or non-finite positions still map. */
static int64_t cell_of(double x, double h)
{
    const double q = floor(x / h);
    return q > -1e15 && q < 1e15 ? (int64_t)q : (int64_t)1e15;
}

static uint64_t cell_hash(int64_t ix, int64_t iy, int64_t iz)
{
    uint64_t k = (uint64_t)ix * 0x9e3779b97f4a7c15ull;
    k ^= (uint64_t)iy * 0xc2b2ae3d27d4eb4full + (k << 6) + (k >> 2);
    k ^= (uint64_t)iz * 0x165667b19e3779f9ull + (k << 6) + (k >> 2);
    return k;
}

/* Whether units a and b of the block are close enough to be one group. */
static int linked(const struct gc_hermite_groups *g, int a, int b)
{
    const double r2max = g->radius * g->radius;
    const double *xa = g->rec[g->units[a]].x, *xb = g->rec[g->units[b]].x;
    const double d2 = (xa[0] - xb[0]) * (xa[0] - xb[0]) + (xa[1] - xb[1]) * (xa[1] - xb[1]) +
                      (xa[2] - xb[2]) * (xa[2] - xb[2]);
    const int ga = g->group_of[g->units[a]], gb = g->group_of[g->units[b]];
    const double dm = ga >= 0 && gb >= 0
                          ? fmin(GC_GROUP_MERGE_SIZES * (g->groups[ga].size + g->groups[gb].size),
                                 GC_GROUP_MERGE_RADII * g->radius)
                          : 0.0;
    return d2 < r2max || d2 < dm * dm;
}

/* The union-find of the block's nu units over every linked pair. Pairs lie within
 * max(1, GC_GROUP_MERGE_RADII) radii, so each unit is tested against the units of its own
 * and the 26 neighbouring cells of a grid that wide (cells hashed, the units sorted by
 * hash): O(nu log nu) for a block of all n bodies, where testing every pair took seconds
 * at n = 65,536. */
static enum gc_status link_units(struct gc_hermite_groups *g, size_t nu)
{
    const double h = g->radius * fmax(1.0, GC_GROUP_MERGE_RADII) * (1.0 + 1e-9);
    struct cell_key *ck = malloc(nu * sizeof *ck);
    if (!ck)
        return GC_ERR_NOMEM;
    for (size_t a = 0; a < nu; a++) {
        const double *x = g->rec[g->units[a]].x;
        for (int d = 0; d < 3; d++)
            ck[a].c[d] = cell_of(x[d], h);
        ck[a].key = cell_hash(ck[a].c[0], ck[a].c[1], ck[a].c[2]);
        ck[a].u = (int)a;
    }
    qsort(ck, nu, sizeof *ck, by_cell);
    /* in sorted order; the parts do not depend on the order (unite) */
    for (size_t i = 0; i < nu; i++) {
        const size_t a = (size_t)ck[i].u;
        const int64_t *c = ck[i].c;
        for (int o = 0; o < 27; o++) {
            const uint64_t key = cell_hash(c[0] + o % 3 - 1, c[1] + o / 3 % 3 - 1,
                                           c[2] + o / 9 - 1);
            size_t lo = 0, hi = nu;
            while (lo < hi) { /* the first unit of the cell */
                const size_t mid = lo + (hi - lo) / 2;
                if (ck[mid].key < key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (size_t q = lo; q < nu && ck[q].key == key; q++)
                if ((size_t)ck[q].u > a && linked(g, (int)a, ck[q].u))
                    unite(g->parent, (int)a, ck[q].u);
        }
    }
    free(ck);
    return GC_OK;
}

/* Bodies of the block (tick t) closer than the radius, joined transitively, become one
 * group with the members of any group among them. */
enum gc_status gc_hermite_groups_merge(struct gc_hermite_groups *g, int64_t t, int *changed)
{
    size_t nu = 0;
    int *head = NULL, *next = NULL;
    enum gc_status st = GC_OK;
    for (size_t i = 0; i < g->n; i++)
        if (g->rec[i].t == t && g->hm[i] > 0.0) {
            g->parent[nu] = (int)nu;
            g->units[nu++] = (int)i;
        }
    if (nu < 2)
        return GC_OK;
    st = link_units(g, nu);
    head = malloc(nu * sizeof *head);
    next = malloc(nu * sizeof *next);
    if (st != GC_OK || !head || !next) {
        free(head);
        free(next);
        gc_log_error("regularisation: out of memory for a block of %zu bodies", nu);
        return GC_ERR_NOMEM;
    }
    /* each part's units in ascending order, listed from its root (its smallest unit) */
    for (size_t a = 0; a < nu; a++)
        head[a] = -1;
    for (size_t b = nu; b-- > 0;) {
        const int r = gc_hermite_groups_root(g->parent, (int)b);
        next[b] = head[r];
        head[r] = (int)b;
    }
    for (size_t a = 0; a < nu && st == GC_OK; a++) {
        int sl[GC_AR_MAX_BODIES], k = 0, units = 0, fits = 1;
        double x[3 * GC_AR_MAX_BODIES], v[3 * GC_AR_MAX_BODIES];
        if (head[a] != (int)a || next[a] < 0)
            continue; /* not a root, or a part of one unit */
        for (int b = head[a]; b >= 0; b = next[b]) {
            const int u = g->units[b], grp = g->group_of[u];
            units++;
            fits &= k + (grp >= 0 ? g->groups[grp].k : 1) <= GC_AR_MAX_BODIES;
            if (!fits)
                break;
            if (grp >= 0) {
                const struct group *gr = &g->groups[grp];
                gc_hermite_groups_members(g, gr, &x[3 * k], &v[3 * k]);
                memcpy(&sl[k], gr->slot, (size_t)gr->k * sizeof *sl);
                k += gr->k;
            } else {
                memcpy(&x[3 * k], g->rec[u].x, 3 * sizeof *x);
                memcpy(&v[3 * k], g->rec[u].v, 3 * sizeof *v);
                sl[k++] = u;
            }
        }
        if (units < 2 || !fits)
            continue;
        for (int b = head[a]; b >= 0; b = next[b]) {
            const int grp = g->group_of[g->units[b]];
            if (grp >= 0)
                gc_hermite_groups_drop(g, &g->groups[grp]);
        }
        {
            /* members in slot order: the same group, whatever order they were found in */
            int idx[GC_AR_MAX_BODIES], s2[GC_AR_MAX_BODIES];
            double x2[3 * GC_AR_MAX_BODIES], v2[3 * GC_AR_MAX_BODIES];
            for (int q = 0; q < k; q++)
                idx[q] = sl[q] * GC_AR_MAX_BODIES + q;
            qsort(idx, (size_t)k, sizeof *idx, by_slot);
            for (int q = 0; q < k; q++) {
                const int o = idx[q] % GC_AR_MAX_BODIES;
                s2[q] = sl[o];
                memcpy(&x2[3 * q], &x[3 * o], 3 * sizeof *x2);
                memcpy(&v2[3 * q], &v[3 * o], 3 * sizeof *v2);
            }
            st = gc_hermite_groups_form(g, k, s2, x2, v2, t);
        }
        *changed = 1;
    }
    free(head);
    free(next);
    return st;
}
