/* Ranks: the small communication interface the force layer uses, one process or many (MPI). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_COMM_H
#define GC_COMM_H

#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_comm;

/* A table of collective operations plus a context pointer, like the backend table. Every slot
 * is collective: all ranks call it in the same order. Integrators never see this; the force
 * layer and the simulation's reductions do. */
struct gc_comm_iface {
    const char *name; /* "single", "mpi" */
    /* In place: rank r's `counts[r]` elements of `elem` bytes sit at element offset
     * displs[r] of buf; on return every rank holds every part. */
    enum gc_status (*allgatherv)(struct gc_comm *c, void *buf, const size_t *counts,
                                 const size_t *displs, size_t elem);
    /* Like allgatherv, but only `root` receives the other ranks' parts. */
    enum gc_status (*gatherv)(struct gc_comm *c, void *buf, const size_t *counts,
                              const size_t *displs, size_t elem, int root);
    /* v[0..n) summed over ranks, result on every rank. */
    enum gc_status (*allreduce_sum)(struct gc_comm *c, double *v, int n);
    /* bytes of buf copied from root to every rank. */
    enum gc_status (*bcast)(struct gc_comm *c, void *buf, size_t bytes, int root);
    /* Every rank passes its own status and gets back the first failure of any rank (by rank
     * order), GC_OK when all succeeded: a failure on one rank stops all of them. */
    enum gc_status (*agree)(struct gc_comm *c, enum gc_status mine);
    void (*destroy)(struct gc_comm *c);
};

struct gc_comm {
    const struct gc_comm_iface *iface;
    void *ctx;      /* implementation state */
    int rank;       /* this process, 0 .. size-1 */
    int size;       /* number of ranks, >= 1 */
    int local_rank; /* rank among the processes of this host: the default GPU index */
};

/* One process, no library: every collective is a copy or nothing. Never fails. */
struct gc_comm *gc_comm_single(void);

/* The bodies [i0, i1) rank r owns when n bodies are split over `size` ranks: contiguous
 * blocks, sizes differing by at most one, lower ranks first. */
void gc_comm_range(size_t n, int size, int r, size_t *i0, size_t *i1);

enum gc_status gc_comm_allgatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                  const size_t *displs, size_t elem);
enum gc_status gc_comm_gatherv(struct gc_comm *c, void *buf, const size_t *counts,
                               const size_t *displs, size_t elem, int root);
enum gc_status gc_comm_allreduce_sum(struct gc_comm *c, double *v, int n);
enum gc_status gc_comm_bcast(struct gc_comm *c, void *buf, size_t bytes, int root);
enum gc_status gc_comm_agree(struct gc_comm *c, enum gc_status mine);
void gc_comm_destroy(struct gc_comm *c);

#ifdef __cplusplus
}
#endif
#endif
