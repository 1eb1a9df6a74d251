/* A hashed cell grid of the slots and of the groups' centres, so that finding what lies within a group's reach costs the neighbourhood, not every slot. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hermite_groups_impl.h"

int64_t gc_groups_cell_of(double x, double h)
{
    const double q = floor(x / h), lim = 1e15;
    return q >= -lim && q <= lim ? (int64_t)q : q < -lim ? (int64_t)-lim : (int64_t)lim;
}

uint64_t gc_groups_cell_hash(int64_t ix, int64_t iy, int64_t iz)
{
    uint64_t k = (uint64_t)ix * 0x9e3779b97f4a7c15ull;
    k ^= (uint64_t)iy * 0xc2b2ae3d27d4eb4full + (k << 6) + (k >> 2);
    k ^= (uint64_t)iz * 0x165667b19e3779f9ull + (k << 6) + (k >> 2);
    return k;
}

static size_t bucket_of(const int64_t c[3], size_t nb)
{
    return (size_t)gc_groups_cell_hash(c[0], c[1], c[2]) & (nb - 1);
}

void gc_groups_grid_free(struct gc_groups_grid *G)
{
    free(G->head);
    free(G->next);
    free(G->item);
    free(G->cell);
    free(G->in);
    memset(G, 0, sizeof *G);
}

static void cell3(const double x[3], double h, int64_t c[3])
{
    for (int d = 0; d < 3; d++)
        c[d] = gc_groups_cell_of(x[d], h);
}

/* Room for count entries (with their in-flags when in), side h, every bucket empty. */
static enum gc_status grid_reset(struct gc_groups_grid *G, double h, size_t count, int in)
{
    size_t nb = 16;
    while (nb < 2 * count)
        nb <<= 1;
    if (count > G->cap || nb > G->nb || (in && !G->in)) {
        gc_groups_grid_free(G);
        G->head = malloc(nb * sizeof *G->head);
        G->next = malloc((count + 1) * sizeof *G->next);
        G->item = malloc((count + 1) * sizeof *G->item);
        G->cell = malloc((count + 1) * sizeof *G->cell);
        G->in = in ? malloc(count + 1) : NULL;
        if (!G->head || !G->next || !G->item || !G->cell || (in && !G->in)) {
            gc_groups_grid_free(G);
            return GC_ERR_NOMEM;
        }
        G->cap = count;
        G->nb = nb;
    }
    G->h = h;
    G->count = count;
    for (size_t b = 0; b < G->nb; b++)
        G->head[b] = -1;
    return GC_OK;
}

/* Entry e at position x: into its cell's list. */
static void link_entry(struct gc_groups_grid *G, int e, const double x[3])
{
    size_t b;
    cell3(x, G->h, G->cell[e]);
    b = bucket_of(G->cell[e], G->nb);
    G->next[e] = G->head[b];
    G->head[b] = e;
}

/* The alive groups' centres: entry e is group items[e], at slot where[e]. */
static enum gc_status centres_build(struct gc_groups_grid *G, double h, size_t count,
                                    const int *items, const struct gc_hermite_record *rec,
                                    const int *where)
{
    const enum gc_status st = grid_reset(G, h, count, 0);
    for (size_t e = 0; e < count && st == GC_OK; e++) {
        G->item[e] = items[e];
        link_entry(G, (int)e, rec[where[e]].x);
    }
    return st;
}

/* ---- the slots' grid: entry s is slot s, in its cell's list while its mass is > 0, so
 * that a block's moved bodies are moved in it instead of the grid being made anew ---- */

static void slot_unlink(struct gc_hermite_groups *g, int s)
{
    struct gc_groups_grid *G = &g->slots;
    int *p = &G->head[bucket_of(G->cell[s], G->nb)];
    while (*p >= 0 && *p != s)
        p = &G->next[*p];
    if (*p == s)
        *p = G->next[s];
    G->in[s] = 0;
}

void gc_hermite_groups_moved(struct gc_hermite_groups *g, int s)
{
    struct gc_groups_grid *G = &g->slots;
    if (!g->slots_ok)
        return;
    if (G->in[s]) {
        int64_t c[3];
        cell3(g->rec[s].x, G->h, c);
        if (g->hm[s] > 0.0 && c[0] == G->cell[s][0] && c[1] == G->cell[s][1] &&
            c[2] == G->cell[s][2])
            return;
        slot_unlink(g, s);
    }
    if (g->hm[s] > 0.0) {
        link_entry(G, s, g->rec[s].x);
        G->in[s] = 1;
    }
}

static enum gc_status slots_build(struct gc_hermite_groups *g, double h)
{
    struct gc_groups_grid *G = &g->slots;
    const enum gc_status st = grid_reset(G, h, g->n, 1);
    for (size_t e = 0; e < g->n && st == GC_OK; e++) {
        G->item[e] = (int)e;
        G->in[e] = g->hm[e] > 0.0;
        if (G->in[e])
            link_entry(G, (int)e, g->rec[e].x);
    }
    return st;
}

size_t gc_groups_grid_near(const struct gc_groups_grid *G, const double x[3], int *out)
{
    size_t k = 0;
    int64_t c[3], q[3];
    if (!G->count)
        return 0;
    cell3(x, G->h, c);
    for (int dx = -1; dx <= 1; dx++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dz = -1; dz <= 1; dz++) {
                q[0] = c[0] + dx;
                q[1] = c[1] + dy;
                q[2] = c[2] + dz;
                for (int e = G->head[bucket_of(q, G->nb)]; e >= 0; e = G->next[e])
                    if (G->cell[e][0] == q[0] && G->cell[e][1] == q[1] &&
                        G->cell[e][2] == q[2])
                        out[k++] = G->item[e];
            }
    return k;
}

static int ascending(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void gc_groups_sort(int *v, size_t k)
{
    qsort(v, k, sizeof *v, ascending);
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
