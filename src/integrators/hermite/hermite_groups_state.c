/* The close groups' shared state and its primitives: predictions, a group's members and tide, forming and dropping groups, reaches, the grids. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups_state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hermite_formulas.h"

void gc_hermite_groups_predict(const struct gc_hermite_groups *g, int i, double t, double x[3],
                               double v[3], double a[3])
{
    const struct gc_hermite_record *r = &g->rec[i];
    gc_hermite_predict(g->order, t - (double)r->t * g->tick, r->x, r->v, r->a, r->j, r->s, r->c,
                       x, v, a);
}

/* The centre's Hermite state at the group's time plus the internal motion. */
void gc_hermite_groups_members(const struct gc_hermite_groups *g, const struct group *gr,
                               double *x, double *v)
{
    double cx[3], cv[3];
    gc_hermite_groups_predict(g, gr->cm, gc_ar_time(gr->ar), cx, cv, NULL);
    gc_ar_state(gr->ar, x, v);
    for (int q = 0; q < gr->k; q++)
        for (int d = 0; d < 3; d++) {
            x[3 * q + d] += cx[d];
            v[3 * q + d] += cv[d];
        }
}

/* ---- the tide on a group ---- */

struct tide {
    const struct gc_hermite_groups *g;
    const struct group *gr;
    int *near;   /* perturbing slots */
    size_t nnear;
};

/* The acceleration of the slots near the group on each member (ar_chain removes its mean,
 * which the centre of mass gets from the Hermite force). A slot that is another group's
 * centre pulls by that group's members: their offsets from the centre as of its latest
 * step, frozen, on the centre's prediction. As a point, a wide group (a body leaving a
 * binary) pulled this group's members from the wrong place while its centre felt those
 * members exactly, and the energy went astray. Frozen rather than drifted along the
 * members' velocities: drifted, a close pair's members part along their orbits. */
static void tide_accel(void *ctx, double t, size_t n, const double *q, double *acc)
{
    const struct tide *td = ctx;
    const struct gc_hermite_groups *g = td->g;
    double cx[3], cv[3];
    gc_hermite_groups_predict(g, td->gr->cm, t, cx, cv, NULL);
    for (size_t p = 0; p < td->nnear; p++) {
        const int s = td->near[p], grp = g->group_of[s];
        const struct group *S = grp >= 0 && g->groups[grp].cm == s ? &g->groups[grp] : NULL;
        const int k = S ? S->k : 1;
        const double *ms = S ? gc_ar_masses(S->ar) : &g->hm[s];
        double xp[3], vp[3];
        gc_hermite_groups_predict(g, s, t, xp, vp, NULL);
        for (int b = 0; b < k; b++)
            for (size_t i = 0; i < n; i++) {
                double r[3], r2, f;
                for (int d = 0; d < 3; d++)
                    r[d] = (S ? xp[d] + S->off[3 * b + d] : xp[d]) - cx[d] - q[3 * i + d];
                r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
                f = ms[b] / (r2 * sqrt(r2));
                for (int d = 0; d < 3; d++)
                    acc[3 * i + d] += f * r[d];
            }
    }
}

void gc_hermite_groups_offsets(struct gc_hermite_groups *g)
{
    for (size_t k = 0; k < g->ngroups; k++) {
        struct group *gr = &g->groups[k];
        double v[3 * GC_AR_MAX_BODIES];
        if (gr->alive && gr->off_t != gc_ar_time(gr->ar)) {
            gc_ar_state(gr->ar, gr->off, v);
            gr->off_t = gc_ar_time(gr->ar);
        }
    }
}

enum gc_status gc_hermite_groups_advance(const struct gc_hermite_groups *g,
                                         const struct group *gr, double t)
{
    struct tide td = {g, gr, NULL, 0};
    struct gc_ar_perturb p = {tide_accel, &td};
    enum gc_status st;
    size_t ncand;
    if (t <= gc_ar_time(gr->ar))
        return GC_OK;
    td.near = malloc((g->n + 1) * sizeof *td.near);
    if (!td.near)
        return GC_ERR_NOMEM;
    /* candidates in slot order: those in the cells around the centre where the grid
     * covers the reach, else every slot; the ones within reach are kept in place */
    if (g->slots_ok && g->slots.h >= gr->reach) {
        ncand = gc_groups_grid_near(&g->slots, g->rec[gr->cm].x, td.near);
        gc_groups_sort(td.near, ncand);
    } else {
        for (ncand = 0; ncand < g->n; ncand++)
            td.near[ncand] = (int)ncand;
    }
    for (size_t q = 0; q < ncand; q++) {
        const int s = td.near[q];
        if (s != gr->cm && g->hm[s] > 0.0 && gc_hermite_groups_near(g, gr, s))
            td.near[td.nnear++] = s;
    }
    st = gc_ar_advance(gr->ar, t, td.nnear ? &p : NULL);
    free(td.near);
    return st;
}

/* ---- forming and splitting ---- */

static struct group *new_group(struct gc_hermite_groups *g)
{
    for (size_t k = 0; k < g->ngroups; k++)
        if (!g->groups[k].alive)
            return &g->groups[k];
    if (g->ngroups == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        struct group *p = realloc(g->groups, cap * sizeof *p);
        if (!p)
            return NULL;
        g->groups = p;
        g->cap = cap;
    }
    memset(&g->groups[g->ngroups], 0, sizeof *g->groups);
    return &g->groups[g->ngroups++];
}

static void park(struct gc_hermite_groups *g, int s)
{
    struct gc_hermite_record *r = &g->rec[s];
    memset(r, 0, sizeof *r);
    r->i = s;
    r->t = GHOST_TICK;
    r->x[0] = GHOST_X;
    g->hm[s] = 0.0;
    gc_hermite_groups_moved(g, s);
}

void gc_hermite_groups_set_body(struct gc_hermite_groups *g, int s, int64_t t, const double x[3],
                                const double v[3], double mass)
{
    struct gc_hermite_record *r = &g->rec[s];
    memset(r, 0, sizeof *r);
    r->i = s;
    r->t = t;
    memcpy(r->x, x, sizeof r->x);
    memcpy(r->v, v, sizeof r->v);
    g->hm[s] = mass;
    g->fresh[s] = 1;
    gc_hermite_groups_moved(g, s);
}

/* A group of the k bodies in slots sl (states x, v at tick t). */
enum gc_status gc_hermite_groups_form(struct gc_hermite_groups *g, int k, int *sl,
                                      const double *x, const double *v, int64_t t)
{
    struct group *gr = new_group(g);
    double mm[GC_AR_MAX_BODIES], cx[3] = {0, 0, 0}, cv[3] = {0, 0, 0}, mt = 0.0;
    enum gc_status st;
    if (!gr)
        return GC_ERR_NOMEM;
    gr->slot = malloc((size_t)k * sizeof *gr->slot);
    gr->off = malloc(3 * (size_t)k * sizeof *gr->off);
    if (!gr->slot || !gr->off) {
        free(gr->slot);
        free(gr->off);
        gr->slot = NULL;
        gr->off = NULL;
        return GC_ERR_NOMEM;
    }
    for (int q = 0; q < k; q++) {
        mm[q] = g->m[sl[q]];
        mt += mm[q];
        for (int d = 0; d < 3; d++) {
            cx[d] += mm[q] * x[3 * q + d];
            cv[d] += mm[q] * v[3 * q + d];
        }
    }
    st = gc_ar_create((size_t)k, mm, x, v, (double)t * g->tick, g->tol, &gr->ar);
    if (st != GC_OK) {
        free(gr->slot);
        free(gr->off);
        gr->slot = NULL;
        gr->off = NULL;
        return st;
    }
    {
        double w[3 * GC_AR_MAX_BODIES];
        gc_ar_state(gr->ar, gr->off, w);
        gr->off_t = gc_ar_time(gr->ar);
    }
    memcpy(gr->slot, sl, (size_t)k * sizeof *sl);
    gr->k = k;
    gr->cm = sl[0];
    gr->alive = 1;
    for (int d = 0; d < 3; d++) {
        cx[d] /= mt;
        cv[d] /= mt;
    }
    for (int q = 0; q < k; q++) {
        g->group_of[sl[q]] = (int)(gr - g->groups);
        park(g, sl[q]);
    }
    gc_hermite_groups_set_body(g, gr->cm, t, cx, cv, mt);
    gc_hermite_groups_update_reach(g, gr);
    g->formed++;
    return GC_OK;
}

void gc_hermite_groups_drop(struct gc_hermite_groups *g, struct group *gr)
{
    for (int q = 0; q < gr->k; q++)
        g->group_of[gr->slot[q]] = -1;
    free(gr->slot);
    free(gr->off);
    gc_ar_destroy(gr->ar);
    memset(gr, 0, sizeof *gr);
    g->dissolved++;
}

int gc_hermite_groups_near(const struct gc_hermite_groups *g, const struct group *gr, int s)
{
    double d2 = 0.0;
    for (int d = 0; d < 3; d++)
        d2 += (g->rec[s].x[d] - g->rec[gr->cm].x[d]) * (g->rec[s].x[d] - g->rec[gr->cm].x[d]);
    return d2 < gr->reach * gr->reach;
}

void gc_hermite_groups_update_reach(const struct gc_hermite_groups *g, struct group *gr)
{
    double x[3 * GC_AR_MAX_BODIES], v[3 * GC_AR_MAX_BODIES], size = 0.0, mm = 0.0;
    const double *m = gc_ar_masses(gr->ar), e = gc_ar_energy(gr->ar);
    gc_ar_state(gr->ar, x, v);
    for (int q = 0; q < gr->k; q++) {
        size = fmax(size, sqrt(x[3 * q] * x[3 * q] + x[3 * q + 1] * x[3 * q + 1] +
                               x[3 * q + 2] * x[3 * q + 2]));
        for (int r = q + 1; r < gr->k; r++)
            mm += m[q] * m[r];
    }
    if (e < 0.0)
        size = fmax(size, mm / -e); /* twice the a of a bound group: its apocentre */
    gr->size = size;
    gr->reach = fmax(GC_GROUP_PERTURBER_RADII * g->radius,
                     size * cbrt(1.0 / GC_GROUP_TIDE_GAMMA));
}

size_t gc_hermite_groups_alive(const struct gc_hermite_groups *g)
{
    size_t c = 0;
    for (size_t k = 0; k < g->ngroups; k++)
        c += g->groups[k].alive != 0;
    return c;
}

/* ---- the grids ---- */

/* The alive groups' centres: entry e is group items[e], at slot where[e]. */
static enum gc_status centres_build(struct gc_groups_grid *G, double h, size_t count,
                                    const int *items, const struct gc_hermite_record *rec,
                                    const int *where)
{
    const enum gc_status st = gc_groups_grid_reset(G, h, count, 0);
    for (size_t e = 0; e < count && st == GC_OK; e++) {
        G->item[e] = items[e];
        gc_groups_grid_link(G, (int)e, rec[where[e]].x);
    }
    return st;
}

/* ---- the slots' grid: entry s is slot s, in its cell's list while its mass is > 0, so
 * that a block's moved bodies are moved in it instead of the grid being made anew ---- */

void gc_hermite_groups_moved(struct gc_hermite_groups *g, int s)
{
    struct gc_groups_grid *G = &g->slots;
    if (!g->slots_ok)
        return;
    if (G->in[s]) {
        int64_t c[3];
        gc_groups_grid_cell(g->rec[s].x, G->h, c);
        if (g->hm[s] > 0.0 && c[0] == G->cell[s][0] && c[1] == G->cell[s][1] &&
            c[2] == G->cell[s][2])
            return;
        gc_groups_grid_unlink(G, s);
    }
    if (g->hm[s] > 0.0) {
        gc_groups_grid_link(G, s, g->rec[s].x);
        G->in[s] = 1;
    }
}

static enum gc_status slots_build(struct gc_hermite_groups *g, double h)
{
    struct gc_groups_grid *G = &g->slots;
    const enum gc_status st = gc_groups_grid_reset(G, h, g->n, 1);
    for (size_t e = 0; e < g->n && st == GC_OK; e++) {
        G->item[e] = (int)e;
        G->in[e] = g->hm[e] > 0.0;
        if (G->in[e])
            gc_groups_grid_link(G, (int)e, g->rec[e].x);
    }
    return st;
}

enum gc_status gc_hermite_groups_index(struct gc_hermite_groups *g)
{
    double h = 0.0;
    size_t nc = 0;
    enum gc_status st;
    for (size_t k = 0; k < g->ngroups; k++)
        if (g->groups[k].alive) {
            h = fmax(h, g->groups[k].reach);
            g->gcm[nc] = g->groups[k].cm;
            g->gidx[nc++] = (int)k;
        }
    if (!(h > 0.0) || !isfinite(h)) {
        g->centres.count = 0;
        g->slots_ok = 0;
        return GC_OK;
    }
    st = centres_build(&g->centres, h, nc, g->gidx, g->rec, g->gcm);
    if (st != GC_OK || (g->slots_ok && g->slots.h >= h))
        return st;
    /* made anew with room to grow: reaches change a little every block */
    st = slots_build(g, 1.25 * h);
    g->slots_ok = st == GC_OK;
    return st;
}

int gc_hermite_groups_root(int *parent, int i)
{
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}
