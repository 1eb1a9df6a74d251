/* The communication interface over MPI: one rank per process (per GPU), collectives on a duplicate of MPI_COMM_WORLD. */
/* SPDX-License-Identifier: MIT */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif

#include "comm.h"
#include "log.h"

/* Largest piece of one broadcast: MPI counts are int. */
#define BCAST_CHUNK ((size_t)1 << 30)
#define HELD_MAX 512

struct mpi_ctx {
    MPI_Comm world;       /* our duplicate of MPI_COMM_WORLD: errors return, not abort */
    MPI_Datatype type;    /* element type of the blocking collective under way */
    int *counts, *displs; /* size entries each: its counts and offsets in elements */
    MPI_Request req;      /* the allgatherv in flight; MPI_REQUEST_NULL when none */
    MPI_Datatype xtype;   /* its element type, counts and offsets (other collectives may */
    int *xcounts, *xdispls; /* run while it is in flight) */
    int finalize;         /* 1 = we initialised MPI, so we finalise it */
};

static enum gc_status check(int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (rc == MPI_SUCCESS)
        return GC_OK;
    if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS)
        snprintf(msg, sizeof msg, "error %d", rc);
    gc_log_error("mpi: %s failed: %s", what, msg);
    return GC_ERR_IO;
}

/* Element counts and offsets as MPI's ints (n <= GC_MAX_BODIES fits), and a type of `elem`
 * bytes, so that byte counts never overflow an int. */
static enum gc_status describe(int size, const size_t *counts, const size_t *displs,
                               size_t elem, int *icounts, int *idispls, MPI_Datatype *type)
{
    for (int r = 0; r < size; r++) {
        if (counts[r] > INT_MAX || displs[r] > INT_MAX) {
            gc_log_error("mpi: an exchange of %zu elements is too large", counts[r]);
            return GC_ERR_INVALID;
        }
        icounts[r] = (int)counts[r];
        idispls[r] = (int)displs[r];
    }
    if (check(MPI_Type_contiguous((int)elem, MPI_BYTE, type), "MPI_Type_contiguous") != GC_OK)
        return GC_ERR_IO;
    return check(MPI_Type_commit(type), "MPI_Type_commit");
}

static enum gc_status mpi_allgatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                     const size_t *displs, size_t elem)
{
    struct mpi_ctx *m = c->ctx;
    enum gc_status st = describe(c->size, counts, displs, elem, m->counts, m->displs, &m->type);
    if (st != GC_OK)
        return st;
    st = check(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, m->counts, m->displs,
                              m->type, m->world), "MPI_Allgatherv");
    MPI_Type_free(&m->type);
    return st;
}

static enum gc_status mpi_allgatherv_start(struct gc_comm *c, void *buf, const size_t *counts,
                                           const size_t *displs, size_t elem)
{
    struct mpi_ctx *m = c->ctx;
    enum gc_status st = GC_OK;
    if (m->req != MPI_REQUEST_NULL) {
        gc_log_error("mpi: an exchange is already in flight");
        st = GC_ERR_INVALID;
    }
    if (st == GC_OK)
        st = describe(c->size, counts, displs, elem, m->xcounts, m->xdispls, &m->xtype);
    if (st != GC_OK)
        return st;
    return check(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, m->xcounts,
                                 m->xdispls, m->xtype, m->world, &m->req), "MPI_Iallgatherv");
}

static enum gc_status mpi_allgatherv_wait(struct gc_comm *c)
{
    struct mpi_ctx *m = c->ctx;
    enum gc_status st;
    if (m->req == MPI_REQUEST_NULL)
        return GC_OK;
    st = check(MPI_Wait(&m->req, MPI_STATUS_IGNORE), "MPI_Wait (allgatherv)");
    MPI_Type_free(&m->xtype);
    return st;
}

static enum gc_status mpi_gatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                  const size_t *displs, size_t elem, int root)
{
    struct mpi_ctx *m = c->ctx;
    enum gc_status st = describe(c->size, counts, displs, elem, m->counts, m->displs, &m->type);
    char *own = (char *)buf + displs[c->rank] * elem;
    if (st != GC_OK)
        return st;
    /* The root's part is already in place; the others send theirs from where it lies. */
    if (c->rank == root)
        st = check(MPI_Gatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, m->counts, m->displs,
                               m->type, root, m->world), "MPI_Gatherv");
    else
        st = check(MPI_Gatherv(own, m->counts[c->rank], m->type, NULL, NULL, NULL, m->type,
                               root, m->world), "MPI_Gatherv");
    MPI_Type_free(&m->type);
    return st;
}

static enum gc_status mpi_allreduce(struct gc_comm *c, double *v, int n, enum gc_comm_op op)
{
    const struct mpi_ctx *m = c->ctx;
    MPI_Op o = op == GC_COMM_MAX ? MPI_MAX : op == GC_COMM_MIN ? MPI_MIN : MPI_SUM;
    return check(MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_DOUBLE, o, m->world), "MPI_Allreduce");
}

static enum gc_status mpi_bcast(struct gc_comm *c, void *buf, size_t bytes, int root)
{
    const struct mpi_ctx *m = c->ctx;
    char *p = buf;
    enum gc_status st = GC_OK;
    for (size_t off = 0; off < bytes && st == GC_OK; off += BCAST_CHUNK) {
        const size_t len = bytes - off < BCAST_CHUNK ? bytes - off : BCAST_CHUNK;
        st = check(MPI_Bcast(p + off, (int)len, MPI_BYTE, root, m->world), "MPI_Bcast");
    }
    return st;
}

/* Everyone learns everyone's status; the first failing rank's message travels to rank 0,
 * which prints it (its own errors it has printed already). */
static enum gc_status mpi_agree(struct gc_comm *c, enum gc_status mine)
{
    const struct mpi_ctx *m = c->ctx;
    int code = (int)mine, first = -1, *all;
    char msg[HELD_MAX] = "";
    enum gc_status st;
    all = malloc((size_t)c->size * sizeof *all);
    if (!all) {
        gc_log_error("mpi: out of memory");
        return GC_ERR_NOMEM; /* the others wait: the caller's failure path ends the run */
    }
    st = check(MPI_Allgather(&code, 1, MPI_INT, all, 1, MPI_INT, m->world), "MPI_Allgather");
    for (int r = 0; r < c->size && st == GC_OK && first < 0; r++)
        if (all[r] != GC_OK)
            first = r;
    if (st == GC_OK && first >= 0) {
        code = all[first];
        gc_log_take_held(msg, sizeof msg); /* the others' own messages are consequences */
        if (c->rank != first)
            msg[0] = '\0';
        st = check(MPI_Bcast(msg, (int)sizeof msg, MPI_CHAR, first, m->world), "MPI_Bcast");
        msg[sizeof msg - 1] = '\0';
        if (st == GC_OK && c->rank == 0 && first != 0)
            gc_log_error("rank %d: %s", first,
                         msg[0] ? msg : gc_status_str((enum gc_status)code));
        if (st == GC_OK)
            st = (enum gc_status)code;
    }
    free(all);
    return st;
}

static enum gc_status mpi_barrier(struct gc_comm *c)
{
    const struct mpi_ctx *m = c->ctx;
    return check(MPI_Barrier(m->world), "MPI_Barrier");
}

static void mpi_abort(struct gc_comm *c, int code)
{
    MPI_Abort(MPI_COMM_WORLD, code);
    (void)c;
}

static void mpi_destroy(struct gc_comm *c)
{
    struct mpi_ctx *m;
    if (!c)
        return;
    m = c->ctx;
    if (m) {
        if (m->req != MPI_REQUEST_NULL)
            MPI_Wait(&m->req, MPI_STATUS_IGNORE);
        if (m->world != MPI_COMM_NULL)
            MPI_Comm_free(&m->world);
        free(m->counts);
        free(m->displs);
        free(m->xcounts);
        free(m->xdispls);
        if (m->finalize)
            MPI_Finalize();
        free(m);
    }
    free(c);
}

static const struct gc_comm_iface mpi_iface = {
    .name = "mpi",
    .allgatherv = mpi_allgatherv,
    .allgatherv_start = mpi_allgatherv_start,
    .allgatherv_wait = mpi_allgatherv_wait,
    .gatherv = mpi_gatherv,
    .allreduce = mpi_allreduce,
    .bcast = mpi_bcast,
    .agree = mpi_agree,
    .barrier = mpi_barrier,
    .abort = mpi_abort,
    .destroy = mpi_destroy,
};

/* Rank and size on the host (processes that share memory), the hosts, the library's name
 * and whether it moves GPU memory itself. */
static enum gc_status describe_world(struct gc_comm *c)
{
    struct mpi_ctx *m = c->ctx;
    MPI_Comm local;
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    double hosts;
    int len = 0;
    enum gc_status st = check(MPI_Comm_split_type(m->world, MPI_COMM_TYPE_SHARED, c->rank,
                                                  MPI_INFO_NULL, &local), "MPI_Comm_split_type");
    if (st != GC_OK)
        return st;
    MPI_Comm_rank(local, &c->local_rank);
    MPI_Comm_size(local, &c->local_size);
    MPI_Comm_free(&local);
    hosts = c->local_rank == 0;
    st = mpi_allreduce(c, &hosts, 1, GC_COMM_SUM);
    c->hosts = (int)hosts;
    if (MPI_Get_library_version(lib, &len) == MPI_SUCCESS) {
        /* "Open MPI v4.1.4, package: ..." -> "Open MPI v4.1.4" */
        const size_t k = strcspn(lib, ",\n");
        const size_t keep = k < sizeof c->library - 1 ? k : sizeof c->library - 1;
        memcpy(c->library, lib, keep);
        c->library[keep] = '\0';
    }
#if defined(MPIX_CUDA_AWARE_SUPPORT)
    c->device_aware = MPIX_Query_cuda_support() == 1;
#else
    c->device_aware = 0;
#endif
    return st;
}

enum gc_status gc_comm_mpi_create(int *argc, char ***argv, struct gc_comm **out)
{
    struct gc_comm *c = calloc(1, sizeof *c);
    struct mpi_ctx *m = calloc(1, sizeof *m);
    int inited = 0;
    enum gc_status st;
    *out = NULL;
    if (!c || !m) {
        free(c);
        free(m);
        gc_log_error("mpi: out of memory");
        return GC_ERR_NOMEM;
    }
    c->iface = &mpi_iface;
    c->ctx = m;
    m->world = MPI_COMM_NULL;
    m->req = MPI_REQUEST_NULL;
    MPI_Initialized(&inited);
    if (!inited) {
        st = check(MPI_Init(argc, argv), "MPI_Init");
        if (st != GC_OK) {
            free(m);
            free(c);
            return st;
        }
        m->finalize = 1;
    }
    /* Our own communicator, whose errors come back as codes: we report them once and end
     * the run through main, not from inside the library. */
    st = check(MPI_Comm_dup(MPI_COMM_WORLD, &m->world), "MPI_Comm_dup");
    if (st == GC_OK)
        st = check(MPI_Comm_set_errhandler(m->world, MPI_ERRORS_RETURN),
                   "MPI_Comm_set_errhandler");
    if (st == GC_OK) {
        MPI_Comm_rank(m->world, &c->rank);
        MPI_Comm_size(m->world, &c->size);
        const size_t bytes = (size_t)c->size * sizeof(int);
        m->counts = malloc(bytes);
        m->displs = malloc(bytes);
        m->xcounts = malloc(bytes);
        m->xdispls = malloc(bytes);
        if (!m->counts || !m->displs || !m->xcounts || !m->xdispls) {
            gc_log_error("mpi: out of memory");
            st = GC_ERR_NOMEM;
        }
    }
    if (st == GC_OK)
        st = describe_world(c);
    if (st != GC_OK) {
        mpi_destroy(c);
        return st;
    }
    *out = c;
    return GC_OK;
}
