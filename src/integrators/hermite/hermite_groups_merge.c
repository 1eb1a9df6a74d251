/* Groups made from the close bodies of a block: the pairs found through a grid of cells (groups' members included), joined by a union-find, and each part of two or more units formed into one group. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups_merge.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

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
    int p;        /* the point */
};

static int by_cell(const void *pa, const void *pb)
{
    const struct cell_key *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->p > b->p) - (a->p < b->p);
}

/* Whether units a and b of the block are close enough to be one group, by their slots'
 * positions (a group's: its centre). */
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

/* The points the search links: each unit's slot (a body, or a group's centre) and each
 * member of a group. A group's members can lie far from its centre (a body bound to a
 * binary, or leaving it, several radii out, until its split), and a body or a member of
 * another group passing close to such a member must join the group: judged by the
 * centres alone it stayed out, and its encounter went to the tide, which holds every
 * other slot a point (Burrau's problem of binaries: a binary through a member of a group
 * four units wide, at a fifth of the radius, put 0.19 into the energy). */
struct points {
    size_t np;
    double *x;           /* 3 np: positions (members at the group's time, the block's) */
    int *u;              /* the unit */
    unsigned char *kind; /* SLOT_BODY, SLOT_CENTRE or MEMBER */
};

enum { SLOT_BODY, SLOT_CENTRE, MEMBER };

static enum gc_status collect_points(const struct gc_hermite_groups *g, size_t nu,
                                     struct points *P)
{
    size_t cap = nu;
    for (size_t a = 0; a < nu; a++) {
        const int grp = g->group_of[g->units[a]];
        if (grp >= 0)
            cap += (size_t)g->groups[grp].k;
    }
    P->np = 0;
    P->x = malloc(3 * cap * sizeof *P->x);
    P->u = malloc(cap * sizeof *P->u);
    P->kind = malloc(cap);
    if (!P->x || !P->u || !P->kind)
        return GC_ERR_NOMEM;
    for (size_t a = 0; a < nu; a++) {
        const int s = g->units[a], grp = g->group_of[s];
        memcpy(&P->x[3 * P->np], g->rec[s].x, 3 * sizeof *P->x);
        P->u[P->np] = (int)a;
        P->kind[P->np++] = grp >= 0 ? SLOT_CENTRE : SLOT_BODY;
        if (grp >= 0) {
            const struct group *gr = &g->groups[grp];
            double v[3 * GC_AR_MAX_BODIES];
            gc_hermite_groups_members(g, gr, &P->x[3 * P->np], v);
            for (int q = 0; q < gr->k; q++) {
                P->u[P->np] = (int)a;
                P->kind[P->np++] = MEMBER;
            }
        }
    }
    return GC_OK;
}

/* Whether points i and j (of different units) link their units: two slots as linked()
 * says; two bodies (members or bodies of their own) closer than the radius, two members of
 * two groups closer than linked() takes for those groups' centres. */
static int points_linked(const struct gc_hermite_groups *g, const struct points *P, size_t i,
                         size_t j)
{
    const double *xi = &P->x[3 * i], *xj = &P->x[3 * j];
    double d2, dm = g->radius;
    if (P->kind[i] != MEMBER && P->kind[j] != MEMBER)
        return linked(g, P->u[i], P->u[j]);
    if (P->kind[i] == SLOT_CENTRE || P->kind[j] == SLOT_CENTRE)
        return 0;
    d2 = (xi[0] - xj[0]) * (xi[0] - xj[0]) + (xi[1] - xj[1]) * (xi[1] - xj[1]) +
         (xi[2] - xj[2]) * (xi[2] - xj[2]);
    if (P->kind[i] == MEMBER && P->kind[j] == MEMBER) {
        const struct group *a = &g->groups[g->group_of[g->units[P->u[i]]]];
        const struct group *b = &g->groups[g->group_of[g->units[P->u[j]]]];
        dm = fmax(dm, fmin(GC_GROUP_MERGE_SIZES * (a->size + b->size),
                           GC_GROUP_MERGE_RADII * g->radius));
    }
    return d2 < dm * dm;
}

/* The union-find of the block's nu units over every linked pair of their points. Pairs
 * lie within max(1, GC_GROUP_MERGE_RADII) radii, so each point is tested against the
 * points of its own and the 26 neighbouring cells of a grid that wide (cells hashed, the
 * points sorted by hash): O(np log np) for a block of all n bodies, where testing every
 * pair took seconds at n = 65,536. */
static enum gc_status link_units(struct gc_hermite_groups *g, size_t nu)
{
    const double h = g->radius * fmax(1.0, GC_GROUP_MERGE_RADII) * (1.0 + 1e-9);
    struct points P = {0};
    struct cell_key *ck = NULL;
    enum gc_status st = collect_points(g, nu, &P);
    if (st == GC_OK && !(ck = malloc((P.np + 1) * sizeof *ck)))
        st = GC_ERR_NOMEM;
    if (st != GC_OK) {
        free(P.x);
        free(P.u);
        free(P.kind);
        return st;
    }
    for (size_t i = 0; i < P.np; i++) {
        for (int d = 0; d < 3; d++)
            ck[i].c[d] = gc_groups_cell_of(P.x[3 * i + d], h);
        ck[i].key = gc_groups_cell_hash(ck[i].c[0], ck[i].c[1], ck[i].c[2]);
        ck[i].p = (int)i;
    }
    qsort(ck, P.np, sizeof *ck, by_cell);
    /* in sorted order; the parts do not depend on the order (unite) */
    for (size_t i = 0; i < P.np; i++) {
        const size_t a = (size_t)ck[i].p;
        const int64_t *c = ck[i].c;
        for (int o = 0; o < 27; o++) {
            const uint64_t key = gc_groups_cell_hash(c[0] + o % 3 - 1, c[1] + o / 3 % 3 - 1,
                                           c[2] + o / 9 - 1);
            size_t lo = 0, hi = P.np;
            while (lo < hi) { /* the first point of the cell */
                const size_t mid = lo + (hi - lo) / 2;
                if (ck[mid].key < key)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (size_t q = lo; q < P.np && ck[q].key == key; q++) {
                const size_t b = (size_t)ck[q].p;
                if (b > a && P.u[b] != P.u[a] && points_linked(g, &P, a, b))
                    unite(g->parent, P.u[a], P.u[b]);
            }
        }
    }
    free(ck);
    free(P.x);
    free(P.u);
    free(P.kind);
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
            gc_groups_sort(idx, (size_t)k);
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
