/* A hashed cell grid of the slots and of the groups' centres, so that finding what lies within a group's reach costs the neighbourhood, not every slot. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hermite_groups_impl.h"

/* Cells past 2^50 in any direction share the last one: far bodies only add candidates,
 * which the exact tests then drop. */
static int64_t cell_of(double x, double h)
{
    const double c = floor(x / h), lim = 1125899906842624.0;
    return (int64_t)(c > lim ? lim : c < -lim ? -lim : c);
}

static size_t bucket_of(const int64_t c[3], size_t nb)
{
    uint64_t k = (uint64_t)c[0] * 0x9E3779B97F4A7C15ull;
    k ^= (uint64_t)c[1] * 0xC2B2AE3D27D4EB4Full + (k >> 29);
    k ^= (uint64_t)c[2] * 0x165667B19E3779F9ull + (k >> 32);
    return (size_t)(k ^ (k >> 31)) & (nb - 1);
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

enum gc_status gc_groups_grid_build(struct gc_groups_grid *G, double h, size_t count,
                                    const int *items, const struct gc_hermite_record *rec,
                                    const int *where)
{
    size_t nb = 16;
    while (nb < 2 * count)
        nb <<= 1;
    if (count > G->cap || nb > G->nb) {
        gc_groups_grid_free(G);
        G->head = malloc(nb * sizeof *G->head);
        G->next = malloc((count + 1) * sizeof *G->next);
        G->item = malloc((count + 1) * sizeof *G->item);
        G->cell = malloc((count + 1) * sizeof *G->cell);
        if (!G->head || !G->next || !G->item || !G->cell) {
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
    for (size_t e = 0; e < count; e++) {
        const double *x = rec[where ? where[e] : items[e]].x;
        size_t b;
        for (int d = 0; d < 3; d++)
            G->cell[e][d] = cell_of(x[d], h);
        b = bucket_of(G->cell[e], G->nb);
        G->item[e] = items[e];
        G->next[e] = G->head[b];
        G->head[b] = (int)e;
    }
    return GC_OK;
}

/* ---- the slots' grid: entry s is slot s, in its cell's list while its mass is > 0, so
 * that a block's moved bodies are moved in it instead of the grid being made anew ---- */

static void slot_link(struct gc_hermite_groups *g, int s)
{
    struct gc_groups_grid *G = &g->slots;
    size_t b;
    for (int d = 0; d < 3; d++)
        G->cell[s][d] = cell_of(g->rec[s].x[d], G->h);
    b = bucket_of(G->cell[s], G->nb);
    G->next[s] = G->head[b];
    G->head[b] = s;
    G->in[s] = 1;
}

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
        for (int d = 0; d < 3; d++)
            c[d] = cell_of(g->rec[s].x[d], G->h);
        if (g->hm[s] > 0.0 && c[0] == G->cell[s][0] && c[1] == G->cell[s][1] &&
            c[2] == G->cell[s][2])
            return;
        slot_unlink(g, s);
    }
    if (g->hm[s] > 0.0)
        slot_link(g, s);
}

static enum gc_status slots_build(struct gc_hermite_groups *g, double h)
{
    struct gc_groups_grid *G = &g->slots;
    size_t nb = 16;
    while (nb < 2 * g->n)
        nb <<= 1;
    if (!G->in) {
        gc_groups_grid_free(G);
        G->head = malloc(nb * sizeof *G->head);
        G->next = malloc((g->n + 1) * sizeof *G->next);
        G->item = malloc((g->n + 1) * sizeof *G->item);
        G->cell = malloc((g->n + 1) * sizeof *G->cell);
        G->in = malloc(g->n + 1);
        if (!G->head || !G->next || !G->item || !G->cell || !G->in) {
            gc_groups_grid_free(G);
            return GC_ERR_NOMEM;
        }
        G->nb = nb;
        G->cap = g->n;
        for (size_t e = 0; e < g->n; e++)
            G->item[e] = (int)e;
    }
    G->h = h;
    G->count = g->n;
    for (size_t b = 0; b < G->nb; b++)
        G->head[b] = -1;
    for (size_t e = 0; e < g->n; e++) {
        G->in[e] = 0;
        if (g->hm[e] > 0.0)
            slot_link(g, (int)e);
    }
    return GC_OK;
}

size_t gc_groups_grid_near(const struct gc_groups_grid *G, const double x[3], int *out)
{
    size_t k = 0;
    int64_t c[3], q[3];
    if (!G->count)
        return 0;
    for (int d = 0; d < 3; d++)
        c[d] = cell_of(x[d], G->h);
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
    st = gc_groups_grid_build(&g->centres, h, nc, g->gidx, g->rec, g->gcm);
    if (st != GC_OK || (g->slots_ok && g->slots.h >= h))
        return st;
    /* made anew with room to grow: reaches change a little every block */
    st = slots_build(g, 1.25 * h);
    g->slots_ok = st == GC_OK;
    return st;
}
