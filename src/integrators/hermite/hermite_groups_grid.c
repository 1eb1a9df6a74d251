/* A hashed grid of cells: items by the cell of side h their position lies in, so that finding what lies near a point costs its neighbourhood, not every item. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups_grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

void gc_groups_grid_cell(const double x[3], double h, int64_t c[3])
{
    for (int d = 0; d < 3; d++)
        c[d] = gc_groups_cell_of(x[d], h);
}

enum gc_status gc_groups_grid_reset(struct gc_groups_grid *G, double h, size_t count, int in)
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

void gc_groups_grid_link(struct gc_groups_grid *G, int e, const double x[3])
{
    size_t b;
    gc_groups_grid_cell(x, G->h, G->cell[e]);
    b = bucket_of(G->cell[e], G->nb);
    G->next[e] = G->head[b];
    G->head[b] = e;
}

void gc_groups_grid_unlink(struct gc_groups_grid *G, int e)
{
    int *p = &G->head[bucket_of(G->cell[e], G->nb)];
    while (*p >= 0 && *p != e)
        p = &G->next[*p];
    if (*p == e)
        *p = G->next[e];
    G->in[e] = 0;
}

size_t gc_groups_grid_near(const struct gc_groups_grid *G, const double x[3], int *out)
{
    size_t k = 0;
    int64_t c[3], q[3];
    if (!G->count)
        return 0;
    gc_groups_grid_cell(x, G->h, c);
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
