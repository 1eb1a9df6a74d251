/* Private to the CPU backend's tree method: the tree's arrays, shared by its build (backend_cpu_tree_build.c) and its walk (backend_cpu_tree.c). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CPU_TREE_H
#define GC_BACKEND_CPU_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "backend_cpu.h"
#include "backend_tree.h"
#include "tree_formulas.h"

/* One cell, as the walk reads it: the test (centre of mass, opening radius, children) and
 * the interaction's terms in one 64-byte line. Children of a cell are stored together, in
 * key order, and every cell comes after its parent, generation by generation, so moments
 * are computed backwards. */
struct node {
    int32_t first, count; /* internal: first child and children (> 0); leaf: first body and
                           * minus the bodies */
    int32_t begin, end;   /* its bodies, [begin, end) of the sorted order */
    float com[3], ropen2; /* centre of mass, opening radius squared */
    float m, nsoft, q6[6]; /* mass and the interactions' terms (gc_tree_cell_terms) */
};

struct keyed {
    uint64_t key;
    uint32_t i; /* body index */
};

/* One thread's interaction lists: bodies and far cells' masses, cells with their
 * quadrupoles, cells for the group's local expansion. */
struct cpu_walk {
    struct cpu_list bodies, cells, local;
};

struct cpu_tree {
    size_t cap;             /* bodies the arrays hold */
    struct keyed *order;    /* bodies sorted by key (ties by index) */
    struct keyed *spare;    /* the radix sort's other buffer */
    float *spos;            /* 4 per body in sorted order: x, y, z, m */
    float *sx, *sy, *sz, *sm; /* the same as arrays (interaction lists copy from them) */
    size_t *hist;           /* the sort's counts: 256 per thread */
    int hist_threads;
    struct node *node;
    struct gc_tree_moments *mo; /* the cells' moments */
    float *test;            /* what the walk tests of each cell, as arrays: com x, y, z and
                             * ropen2, node_cap + GC_CPU_PAD each (struct cpu_cell_tests) */
    int32_t *kids;          /* children of each cell of a generation (the build's) */
    size_t nodes, node_cap;
    int32_t gen[2 * GC_TREE_LEVELS + 4]; /* first cell of each generation, then nodes */
    int gens;
    unsigned char *begins;  /* per sorted body: 1 where a group begins */
    int32_t *group;         /* the groups' first bodies, ascending, then n */
    float *group_us;        /* each group's walk, microseconds (written by the walk) */
    size_t groups;
    struct cpu_walk *walk;  /* one a thread */
    int walks;
    struct gc_tree_stats stats;
};

/* Builds the tree of c's bodies for the walk (the arrays of c->tree, made or grown to fit):
 * keys and their sort, cells, moments and the walk's tests, then groups, timed into the
 * stats. GC_ERR_INTERRUPTED: a stop came between phases (gc_stop_cut). */
enum gc_status gc_cpu_tree_build(struct cpu_ctx *c, float theta, float eps2, int threads);

#endif
