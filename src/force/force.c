/* The force layer: decomposition of the bodies over ranks, position exchange, and the force and potential passes. */
/* SPDX-License-Identifier: MIT */
#include "force.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

enum gc_status gc_force_init(struct gc_force *f, struct gc_backend *backend,
                             struct gc_comm *comm, size_t n)
{
    const int size = comm->size;
    memset(f, 0, sizeof *f);
    f->backend = backend;
    f->comm = comm;
    f->n = n;
    gc_comm_range(n, size, comm->rank, &f->i0, &f->i1);
    if (size > 1) {
        f->counts = malloc((size_t)size * sizeof *f->counts);
        f->displs = malloc((size_t)size * sizeof *f->displs);
        f->h_pos = malloc(4 * n * sizeof *f->h_pos);
        if (!f->counts || !f->displs || !f->h_pos) {
            gc_log_error("force: out of memory for the exchange of %zu bodies", n);
            gc_force_free(f);
            return GC_ERR_NOMEM;
        }
        for (int r = 0; r < size; r++) {
            size_t a, b;
            gc_comm_range(n, size, r, &a, &b);
            f->displs[r] = a;
            f->counts[r] = b - a;
        }
    }
    return gc_backend_set_range(backend, f->i0, f->i1);
}

void gc_force_free(struct gc_force *f)
{
    free(f->counts);
    free(f->displs);
    free(f->h_pos);
    memset(f, 0, sizeof *f);
}

/* Every rank's own positions to every other rank, through host memory. */
static enum gc_status exchange_positions(struct gc_force *f)
{
    enum gc_status st;
    if (f->comm->size == 1)
        return GC_OK;
    st = gc_backend_get_positions(f->backend, f->i0, f->i1, f->h_pos + 4 * f->i0);
    if (st == GC_OK)
        st = gc_comm_allgatherv(f->comm, f->h_pos, f->counts, f->displs, 4 * sizeof(float));
    /* Write back the other ranks' parts only: ours is already on the backend. */
    if (st == GC_OK)
        st = gc_backend_set_positions(f->backend, 0, f->i0, f->h_pos);
    if (st == GC_OK)
        st = gc_backend_set_positions(f->backend, f->i1, f->n, f->h_pos + 4 * f->i1);
    return st;
}

enum gc_status gc_force_accel(struct gc_force *f, float eps2)
{
    enum gc_status st = exchange_positions(f);
    if (st == GC_OK)
        st = gc_backend_accel(f->backend, eps2);
    if (st == GC_OK)
        f->interactions += (double)f->n * (double)f->n;
    return st;
}

enum gc_status gc_force_hermite(struct gc_force *f)
{
    return gc_backend_hermite_force(f->backend);
}

enum gc_status gc_force_hermite_share(struct gc_force *f)
{
    if (f->comm->size == 1)
        return GC_OK;
    gc_log_error("force: the Hermite schemes do not run over several ranks yet");
    return GC_ERR_UNSUPPORTED;
}

int gc_force_loop_on_backend(const struct gc_force *f)
{
    return f->comm->size == 1 && gc_backend_has_repeat(f->backend);
}

enum gc_status gc_force_repeat(struct gc_force *f, enum gc_status (*body)(void *ctx),
                               void *ctx, const int *due)
{
    enum gc_status st;
    if (gc_force_loop_on_backend(f))
        return gc_backend_repeat(f->backend, body, ctx);
    do
        st = body(ctx);
    while (st == GC_OK && *due);
    return st;
}

enum gc_status gc_force_potential(struct gc_force *f, float eps2, double *w)
{
    enum gc_status st = gc_backend_potential(f->backend, eps2, w);
    if (st == GC_OK)
        st = gc_comm_allreduce_sum(f->comm, w, 1);
    return st;
}
