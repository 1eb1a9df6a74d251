/* The tree table of a backend: what its Barnes-Hut force method measured in its latest pass, reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_TREE_H
#define GC_BACKEND_TREE_H

#include <stdint.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Figures of the latest tree force pass (milliseconds of the device's or host's own clock). */
struct gc_tree_stats {
    double sort_ms;      /* box, keys and the sort of the bodies by key */
    double build_ms;     /* cells from the sorted keys */
    double moments_ms;   /* masses, centres of mass, quadrupoles, opening radii, and the
                          * groups of the walk (cut once the cells' boxes are known) */
    double walk_ms;      /* the group walks: interaction lists and forces */
    double tail_ms;      /* of walk_ms, the time after the last group was taken: the walks
                          * still going then, alone on a device that has run out of work */
    uint64_t cells;      /* cells of the tree */
    uint64_t leaves;     /* of which leaves */
    uint64_t leaf_bodies; /* bodies in all leaves: N when the leaves hold every body once */
    uint64_t groups;     /* groups walked (each shares one walk: N / groups bodies a walk) */
    double root_mass;    /* the root cell's mass: the total mass when none is lost */
    uint64_t bytes;      /* memory the tree holds (device or host), beside the bodies' state */
    double cell_interactions; /* body-cell interactions per body (mean over the bodies) */
    double body_interactions; /* body-body interactions per body */
    double mono_interactions; /* interactions with far cells' masses alone, per body */
    double local_cells;  /* cells added to their group's local expansion, per body (each
                          * costs its group one addition, not one interaction a body) */
    uint64_t local_full; /* groups whose list of such cells filled (the device's): their
                          * further cells went body by body, slower */
    uint64_t stack_spills; /* groups whose walk moved part of its stack to slower memory (the
                          * device's; same forces) */
    int complete;        /* 1: every cell that should have been split was (0: the cell store
                          * ran out and some cells were summed directly; slower, exact) */
    int valid;           /* 0 until a pass has been measured */
};

struct gc_backend_tree {
    /* The figures of the latest pass that has finished (the device's may be a step late,
     * so that reading them never waits for the GPU); GC_OK with valid = 0 before any. */
    enum gc_status (*stats)(struct gc_backend *b, struct gc_tree_stats *out);
    /* How long each group's walk took in the latest pass, microseconds, in the groups' key
     * order: up to cap of them into us, how many there are into *count (0 before any pass).
     * Waits for the pass; for benchmarks, not for every step. */
    enum gc_status (*group_times)(struct gc_backend *b, float *us, size_t cap, size_t *count);
};

/* The backend's tree table; NULL when it has no tree method. */
const struct gc_backend_tree *gc_backend_tree(const struct gc_backend *b);

#ifdef __cplusplus
}
#endif
#endif
