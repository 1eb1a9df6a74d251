/* The communication wrappers, the body decomposition, and the single-process implementation. */
/* SPDX-License-Identifier: MIT */
#include "comm.h"

void gc_comm_range(size_t n, int size, int r, size_t *i0, size_t *i1)
{
    /* Block decomposition: rank r starts at floor(r n / size). The multiplication is done in
     * two parts so it cannot overflow for any n <= GC_MAX_BODIES and size < 2^31. */
    const size_t k = (size_t)(size > 0 ? size : 1);
    const size_t q = n / k, rem = n % k, rr = (size_t)r;
    *i0 = rr * q + (rr < rem ? rr : rem);
    *i1 = *i0 + q + (rr < rem ? 1 : 0);
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

enum gc_status gc_comm_allreduce_sum(struct gc_comm *c, double *v, int n)
{
    return c->iface->allreduce_sum(c, v, n);
}

enum gc_status gc_comm_bcast(struct gc_comm *c, void *buf, size_t bytes, int root)
{
    return c->iface->bcast(c, buf, bytes, root);
}

enum gc_status gc_comm_agree(struct gc_comm *c, enum gc_status mine)
{
    return c->iface->agree(c, mine);
}

void gc_comm_destroy(struct gc_comm *c)
{
    if (c && c->iface && c->iface->destroy)
        c->iface->destroy(c);
}

/* ---- one process: the data is already where every collective would put it ---- */

static enum gc_status single_allgatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                        const size_t *displs, size_t elem)
{
    (void)c, (void)buf, (void)counts, (void)displs, (void)elem;
    return GC_OK;
}

static enum gc_status single_gatherv(struct gc_comm *c, void *buf, const size_t *counts,
                                     const size_t *displs, size_t elem, int root)
{
    (void)c, (void)buf, (void)counts, (void)displs, (void)elem, (void)root;
    return GC_OK;
}

static enum gc_status single_allreduce_sum(struct gc_comm *c, double *v, int n)
{
    (void)c, (void)v, (void)n;
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
    .allgatherv = single_allgatherv,
    .gatherv = single_gatherv,
    .allreduce_sum = single_allreduce_sum,
    .bcast = single_bcast,
    .agree = single_agree,
    .destroy = NULL, /* static: nothing to free */
};

struct gc_comm *gc_comm_single(void)
{
    /* Immutable and stateless, so one shared instance is safe (not application state). */
    static struct gc_comm single = {&single_iface, NULL, 0, 1, 0};
    return &single;
}
