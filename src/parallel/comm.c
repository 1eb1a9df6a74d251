/* The communication wrappers, the body decomposition, the broadcast of a body set, and the single-process implementation. */
/* SPDX-License-Identifier: MIT */
#include "comm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

void gc_comm_range(size_t n, int size, int r, size_t *i0, size_t *i1)
{
    /* Block decomposition: rank r starts at floor(r n / size). The multiplication is done in
     * two parts so it cannot overflow for any n <= GC_MAX_BODIES and size < 2^31. */
    const size_t k = (size_t)(size > 0 ? size : 1);
    const size_t q = n / k, rem = n % k, rr = (size_t)r;
    *i0 = rr * q + (rr < rem ? rr : rem);
    *i1 = *i0 + q + (rr < rem ? 1 : 0);
}

enum gc_status gc_comm_allgatherv_start(struct gc_comm *c, void *buf, const size_t *counts,
                                        const size_t *displs, size_t elem)
{
    return c->iface->allgatherv_start(c, buf, counts, displs, elem);
}

enum gc_status gc_comm_allgatherv_wait(struct gc_comm *c)
{
    return c->iface->allgatherv_wait(c);
}

enum gc_status gc_comm_allgatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                  const size_t *displs, size_t elem)
{
    return c->iface->allgatherv(c, buf, counts, displs, elem);
}

enum gc_status gc_comm_gatherv(struct gc_comm *c, void *buf, const size_t *counts,
                               const size_t *displs, size_t elem, int root)
{
    return c->iface->gatherv(c, buf, counts, displs, elem, root);
}

enum gc_status gc_comm_allreduce(struct gc_comm *c, double *v, int n, enum gc_comm_op op)
{
    return c->iface->allreduce(c, v, n, op);
}

enum gc_status gc_comm_allreduce_sum(struct gc_comm *c, double *v, int n)
{
    return c->iface->allreduce(c, v, n, GC_COMM_SUM);
}

enum gc_status gc_comm_bcast(struct gc_comm *c, void *buf, size_t bytes, int root)
{
    return c->iface->bcast(c, buf, bytes, root);
}

enum gc_status gc_comm_agree(struct gc_comm *c, enum gc_status mine)
{
    return c->iface->agree(c, mine);
}

enum gc_status gc_comm_barrier(struct gc_comm *c)
{
    return c->iface->barrier(c);
}

void gc_comm_abort(struct gc_comm *c, int code)
{
    if (c && c->iface && c->iface->abort)
        c->iface->abort(c, code);
}

void gc_comm_destroy(struct gc_comm *c)
{
    if (c && c->iface && c->iface->destroy)
        c->iface->destroy(c);
}

enum gc_status gc_comm_bcast_bodies(struct gc_comm *c, struct gc_bodies *b, int root)
{
    /* Header first: the receivers size their arrays from it. */
    uint64_t head[2] = {b->n, b->pos64 != NULL};
    enum gc_status st;
    if (c->size == 1)
        return GC_OK;
    st = gc_comm_bcast(c, head, sizeof head, root);
    if (st != GC_OK)
        return st;
    if (c->rank != root) {
        st = gc_bodies_alloc(b, (size_t)head[0]);
        if (st == GC_OK && head[1])
            st = gc_bodies_alloc_f64(b);
    }
    /* An allocation failure on one rank must not leave the others waiting in a broadcast. */
    st = gc_comm_agree(c, st);
    if (st == GC_OK)
        st = gc_comm_bcast(c, b->pos, 4 * b->n * sizeof *b->pos, root);
    if (st == GC_OK)
        st = gc_comm_bcast(c, b->vel, 4 * b->n * sizeof *b->vel, root);
    if (st == GC_OK)
        st = gc_comm_bcast(c, b->tag, b->n * sizeof *b->tag, root);
    if (st == GC_OK && head[1])
        st = gc_comm_bcast(c, b->pos64, 3 * b->n * sizeof *b->pos64, root);
    if (st == GC_OK && head[1])
        st = gc_comm_bcast(c, b->vel64, 3 * b->n * sizeof *b->vel64, root);
    if (st == GC_OK && head[1])
        st = gc_comm_bcast(c, b->mass64, b->n * sizeof *b->mass64, root);
    if (st != GC_OK && c->rank != root)
        gc_bodies_free(b);
    return st;
}

/* ---- one process: the data is already where every collective would put it ---- */

static enum gc_status single_allgatherv_start(struct gc_comm *c, void *buf,
                                              const size_t *counts, const size_t *displs,
                                              size_t elem)
{
    (void)c, (void)buf, (void)counts, (void)displs, (void)elem;
    return GC_OK;
}

static enum gc_status single_wait(struct gc_comm *c)
{
    (void)c;
    return GC_OK;
}

static enum gc_status single_gatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                     const size_t *displs, size_t elem, int root)
{
    (void)c, (void)buf, (void)counts, (void)displs, (void)elem, (void)root;
    return GC_OK;
}

static enum gc_status single_allreduce(struct gc_comm *c, double *v, int n,
                                       enum gc_comm_op op)
{
    (void)c, (void)v, (void)n, (void)op;
    return GC_OK;
}

static enum gc_status single_bcast(struct gc_comm *c, void *buf, size_t bytes, int root)
{
    (void)c, (void)buf, (void)bytes, (void)root;
    return GC_OK;
}

static enum gc_status single_agree(struct gc_comm *c, enum gc_status mine)
{
    (void)c;
    return mine;
}

static const struct gc_comm_iface single_iface = {
    .name = "single",
    .allgatherv = single_allgatherv_start,
    .allgatherv_start = single_allgatherv_start,
    .allgatherv_wait = single_wait,
    .gatherv = single_gatherv,
    .allreduce = single_allreduce,
    .bcast = single_bcast,
    .agree = single_agree,
    .barrier = single_wait,
    .abort = NULL,   /* one process: main's own exit code ends the run */
    .destroy = NULL, /* static: nothing to free */
};

struct gc_comm *gc_comm_single(void)
{
    /* Immutable and stateless, so one shared instance is safe (not application state). */
    static struct gc_comm single = {&single_iface, NULL, 0, 1, 0, 1, 1, 0, 0, ""};
    return &single;
}

/* ---- the run's communicator ---- */

int gc_comm_have_mpi(void)
{
#ifdef GC_HAVE_MPI
    return 1;
#else
    return 0;
#endif
}

/* Processes the launcher says it started together (0 when no launcher): Open MPI, MPICH's
 * Hydra and Slurm's PMI, or PMIx. */
static long launched_size(int *any)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE",
                                       "MPI_LOCALNRANKS"};
    *any = getenv("PMIX_RANK") != NULL;
    for (size_t k = 0; k < sizeof vars / sizeof vars[0]; k++) {
        const char *v = getenv(vars[k]);
        if (v && *v) {
            *any = 1;
            return strtol(v, NULL, 10);
        }
    }
    return *any ? 1 : 0;
}

enum gc_status gc_comm_create_world(int *argc, char ***argv, struct gc_comm **out)
{
    int launched = 0;
    const long size = launched_size(&launched);
    *out = gc_comm_single();
    /* A process started alone never initialises MPI: the one-process run stays exactly what
     * it was, with no library start-up and nothing of it in the sanitizers' reports. */
    if (!launched)
        return GC_OK;
#ifdef GC_HAVE_MPI
    (void)size;
    return gc_comm_mpi_create(argc, argv, out);
#else
    (void)argc, (void)argv;
    if (size > 1) {
        gc_log_error("started by an MPI launcher for %ld processes, but this build has no MPI: "
                     "each would run alone (install libopenmpi-dev and configure with "
                     "-DGC_MPI=ON)", size);
        return GC_ERR_UNSUPPORTED;
    }
    return GC_OK;
#endif
}
