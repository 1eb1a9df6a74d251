/* Ranks: the small communication interface the force layer uses, one process or many (MPI). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_COMM_H
#define GC_COMM_H

#include <stddef.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_comm;

enum gc_comm_op { GC_COMM_SUM, GC_COMM_MAX, GC_COMM_MIN };

/* A table of collective operations plus a context pointer, like the backend table. Every slot
 * except abort is collective: all ranks call it in the same order. Integrators never see
 * this; the force layer and the simulation's reductions do. */
struct gc_comm_iface {
    const char *name; /* "single", "mpi" */
    /* In place: rank r's `counts[r]` elements of `elem` bytes sit at element offset
     * displs[r] of buf; on return every rank holds every part. */
    enum gc_status (*allgatherv)(struct gc_comm *c, void *buf, const size_t *counts,
                                 const size_t *displs, size_t elem);
    /* The same in two halves, so that work needing no other rank's part can run while the
     * parts travel: after the matching allgatherv_wait every rank holds every part. Between
     * start and wait the caller must not touch buf; at most one exchange is in flight per
     * communicator; counts and displs must stay valid until the wait. */
    enum gc_status (*allgatherv_start)(struct gc_comm *c, void *buf, const size_t *counts,
                                       const size_t *displs, size_t elem);
    enum gc_status (*allgatherv_wait)(struct gc_comm *c);
    /* Like allgatherv, but only `root` receives the other ranks' parts. */
    enum gc_status (*gatherv)(struct gc_comm *c, void *buf, const size_t *counts,
                              const size_t *displs, size_t elem, int root);
    /* v[0..n) combined over ranks by op, result on every rank. */
    enum gc_status (*allreduce)(struct gc_comm *c, double *v, int n, enum gc_comm_op op);
    /* bytes of buf copied from root to every rank. */
    enum gc_status (*bcast)(struct gc_comm *c, void *buf, size_t bytes, int root);
    /* Every rank passes its own status and gets back the first failure of any rank (by rank
     * order), GC_OK when all succeeded: a failure on one rank stops all of them. The failing
     * rank's held error message (gc_log_hold) is printed by rank 0, so the run reports it
     * once. */
    enum gc_status (*agree)(struct gc_comm *c, enum gc_status mine);
    enum gc_status (*barrier)(struct gc_comm *c);
    /* Not collective: ends every rank of the run at once with exit code `code` (MPI_Abort).
     * For a rank that failed inside a collective sequence the others are still waiting in;
     * only main calls it (gc_comm_abort), after printing this rank's message. */
    void (*abort)(struct gc_comm *c, int code);
    void (*destroy)(struct gc_comm *c);
};

struct gc_comm {
    const struct gc_comm_iface *iface;
    void *ctx;       /* implementation state */
    int rank;        /* this process, 0 .. size-1 */
    int size;        /* number of ranks, >= 1 */
    int local_rank;  /* rank among the processes of this host: the default GPU index */
    int local_size;  /* processes on this host */
    int hosts;       /* hosts the ranks run on */
    int device_aware; /* 1 = the library takes GPU pointers (CUDA-aware MPI); 0 = stage
                       * exchanges through host memory */
    int broken;      /* set by a layer above when a collective sequence failed on this rank
                      * out of step with the others: only gc_comm_abort can end the run */
    char library[96]; /* e.g. "Open MPI v4.1.4"; "" for one process */
};

/* One process, no library: every collective is a copy or nothing. Never fails. */
struct gc_comm *gc_comm_single(void);

/* The run's communicator: with MPI when this process was started by an MPI launcher
 * (mpirun, mpiexec, srun: their environment says so) in a build with MPI, else one
 * process. Started by a launcher for several ranks in a build without MPI is an error
 * (each process would run alone). argc/argv go to MPI_Init. Free with gc_comm_destroy. */
enum gc_status gc_comm_create_world(int *argc, char ***argv, struct gc_comm **out);
/* 1 when this build can run over MPI. */
int gc_comm_have_mpi(void);

/* The bodies [i0, i1) rank r owns when n bodies are split over `size` ranks: contiguous
 * blocks, sizes differing by at most one, lower ranks first. */
void gc_comm_range(size_t n, int size, int r, size_t *i0, size_t *i1);

enum gc_status gc_comm_allgatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                  const size_t *displs, size_t elem);
enum gc_status gc_comm_allgatherv_start(struct gc_comm *c, void *buf, const size_t *counts,
                                        const size_t *displs, size_t elem);
enum gc_status gc_comm_allgatherv_wait(struct gc_comm *c);
enum gc_status gc_comm_gatherv(struct gc_comm *c, void *buf, const size_t *counts,
                               const size_t *displs, size_t elem, int root);
enum gc_status gc_comm_allreduce(struct gc_comm *c, double *v, int n, enum gc_comm_op op);
enum gc_status gc_comm_allreduce_sum(struct gc_comm *c, double *v, int n);
enum gc_status gc_comm_bcast(struct gc_comm *c, void *buf, size_t bytes, int root);
enum gc_status gc_comm_agree(struct gc_comm *c, enum gc_status mine);
enum gc_status gc_comm_barrier(struct gc_comm *c);
/* Copies root's bodies to every rank: `b` is the source on root and must be empty (zeroed)
 * elsewhere, where it is allocated to match (double-precision arrays too when root has
 * them). On failure b is empty on the ranks that allocated. */
enum gc_status gc_comm_bcast_bodies(struct gc_comm *c, struct gc_bodies *b, int root);
/* Ends every rank of the run (MPI_Abort with `code`); returns only for one process. */
void gc_comm_abort(struct gc_comm *c, int code);
void gc_comm_destroy(struct gc_comm *c);

#ifdef GC_HAVE_MPI
/* The MPI implementation over MPI_COMM_WORLD (comm_mpi.c); initialises MPI. */
enum gc_status gc_comm_mpi_create(int *argc, char ***argv, struct gc_comm **out);
#endif

#ifdef __cplusplus
}
#endif
#endif
