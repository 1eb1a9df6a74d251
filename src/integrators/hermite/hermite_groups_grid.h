/* A hashed grid of cells for the close groups' searches: items by the cell of side h that their position lies in. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_GRID_H
#define GC_HERMITE_GROUPS_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

/* Items hashed by the cell of side h of a position: a query gives the items of the 27 cells
 * around a point, so all within h of it (and some farther). */
struct gc_groups_grid {
    double h;
    size_t nb, count, cap;  /* buckets (a power of two), entries, room */
    int *head, *next, *item; /* bucket lists of entries; each entry's item */
    int64_t (*cell)[3];     /* each entry's cell */
    unsigned char *in;      /* with in-flags: 1 where the entry is in its cell's list */
};

/* The cell of side h holding coordinate x; past 1e15 cells (or not finite) the last one on
 * that side, so that far positions only add candidates, which exact tests then drop. */
int64_t gc_groups_cell_of(double x, double h);
void gc_groups_grid_cell(const double x[3], double h, int64_t c[3]);
uint64_t gc_groups_cell_hash(int64_t ix, int64_t iy, int64_t iz);

/* Room for count entries (with their in-flags when in), side h, every bucket empty. */
enum gc_status gc_groups_grid_reset(struct gc_groups_grid *G, double h, size_t count, int in);
/* Entry e at position x: into its cell's list. */
void gc_groups_grid_link(struct gc_groups_grid *G, int e, const double x[3]);
/* Entry e out of its cell's list (a grid with in-flags). */
void gc_groups_grid_unlink(struct gc_groups_grid *G, int e);
/* The items of the 27 cells around x into out (room for every item); returns how many. */
size_t gc_groups_grid_near(const struct gc_groups_grid *G, const double x[3], int *out);
void gc_groups_grid_free(struct gc_groups_grid *G);
/* Ascending order: the searches' results in the order a scan of every slot would give. */
void gc_groups_sort(int *v, size_t k);

#endif
