/* The force layer: the force method, decomposition of the bodies over ranks, the exchanges between them, and the force and potential passes. */
/* SPDX-License-Identifier: MIT */
#include "force.h"

#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"

/* Phase timing for --profile: the backend is drained at each mark, so asynchronous work is
 * charged to the phase that queued it. Off, a mark costs nothing and changes nothing. */
static double mark(struct gc_force *f)
{
    if (!f->profile)
        return 0.0;
    gc_backend_sync(f->backend);
    return gc_clock_seconds();
}

static const char *const method_names[GC_FORCE_METHODS] = {
    [GC_FORCE_ALLPAIRS] = "allpairs",
    [GC_FORCE_TREE] = "tree",
};

const char *gc_force_method_name(enum gc_force_method m)
{
    return (unsigned)m < GC_FORCE_METHODS ? method_names[m] : "?";
}

enum gc_status gc_force_method_choose(const char *request, size_t n,
                                      const struct gc_backend *backend,
                                      enum gc_force_method *out)
{
    if (!request || strcmp(request, "auto") == 0) {
        const size_t own = gc_backend_tree_above(backend);
        *out = n > (own ? own : GC_FORCE_AUTO_TREE_N) ? GC_FORCE_TREE : GC_FORCE_ALLPAIRS;
        return GC_OK;
    }
    for (int m = 0; m < GC_FORCE_METHODS; m++)
        if (strcmp(request, method_names[m]) == 0) {
            *out = (enum gc_force_method)m;
            return GC_OK;
        }
    gc_log_error("unknown force method '%s'; available: %s", request, GC_FORCE_METHOD_NAMES);
    return GC_ERR_INVALID;
}

enum gc_status gc_force_init(struct gc_force *f, struct gc_backend *backend,
                             struct gc_comm *comm, size_t n, enum gc_force_method method,
                             float theta)
{
    const int size = comm->size;
    memset(f, 0, sizeof *f);
    f->backend = backend;
    f->method = method;
    f->theta = theta;
    f->comm = comm;
    f->n = n;
    gc_comm_range(n, size, comm->rank, &f->i0, &f->i1);
    if (size > 1) {
        f->counts = malloc((size_t)size * sizeof *f->counts);
        f->displs = malloc((size_t)size * sizeof *f->displs);
        f->part_displs = malloc((size_t)size * sizeof *f->part_displs);
        f->ones = malloc((size_t)size * sizeof *f->ones);
        f->iota = malloc((size_t)size * sizeof *f->iota);
        f->h_pos = malloc(4 * n * sizeof *f->h_pos);
        if (!f->counts || !f->displs || !f->part_displs || !f->ones || !f->iota || !f->h_pos) {
            gc_log_error("force: out of memory for the exchange of %zu bodies", n);
            gc_force_free(f);
            return GC_ERR_NOMEM;
        }
        for (int r = 0; r < size; r++) {
            size_t a, b;
            gc_comm_range(n, size, r, &a, &b);
            f->displs[r] = a;
            f->counts[r] = b - a;
            f->ones[r] = 1;
            f->iota[r] = (size_t)r;
        }
    }
    return gc_backend_set_range(backend, f->i0, f->i1);
}

void gc_force_free(struct gc_force *f)
{
    free(f->counts);
    free(f->displs);
    free(f->h_pos);
    free(f->part_displs);
    free(f->ones);
    free(f->iota);
    memset(f, 0, sizeof *f);
}

void gc_force_set_profile(struct gc_force *f, int on)
{
    f->profile = on;
    memset(&f->times, 0, sizeof f->times);
}

/* Every rank's own positions to every other rank, staged through host memory (the backends'
 * get/set_positions copy there; a CUDA-aware MPI could take device memory instead). */
static enum gc_status exchange_positions(struct gc_force *f)
{
    enum gc_status st;
    if (f->comm->size == 1)
        return GC_OK;
    st = gc_backend_get_positions(f->backend, f->i0, f->i1, f->h_pos + 4 * f->i0);
    /* Where a backend can sum forces over a range of sources, the pairs among this rank's
     * own bodies could run between an allgatherv_start and its wait, under the exchange;
     * with whole-range force passes only, the exchange is one blocking collective. */
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
    const struct gc_force_params fp = {.method = f->method, .eps2 = eps2, .theta = f->theta};
    const double t0 = mark(f);
    enum gc_status st = exchange_positions(f);
    const double t1 = mark(f);
    if (st == GC_OK)
        st = gc_backend_accel(f->backend, &fp);
    /* All pairs: N^2 each pass. The tree counts its own, read back a pass late on a device
     * (gc_force_tree_stats): each pass is charged the latest count measured. */
    if (st == GC_OK && f->method == GC_FORCE_ALLPAIRS) {
        f->interactions += (double)f->n * (double)f->n;
    } else if (st == GC_OK) {
        struct gc_tree_stats ts;
        if (gc_force_tree_stats(f, &ts) == GC_OK && ts.valid)
            f->interactions += (double)f->n * (ts.cell_interactions + ts.body_interactions +
                                                ts.mono_interactions);
    }
    if (f->profile) {
        const double t2 = mark(f);
        f->times.exchange_s += t1 - t0;
        f->times.force_s += t2 - t1;
        f->times.passes++;
    }
    return st;
}

enum gc_status gc_force_pass(struct gc_force *f, enum gc_status (*pass)(struct gc_backend *b))
{
    const double t0 = mark(f);
    enum gc_status st = pass(f->backend);
    if (f->profile) {
        f->times.force_s += mark(f) - t0;
        f->times.passes++;
    }
    return st;
}

int gc_force_ranks(const struct gc_force *f)
{
    return f->comm->size;
}

/* An exchange between ranks, timed as one when profiling. */
static enum gc_status exchanged(struct gc_force *f, double t0, enum gc_status st)
{
    if (f->profile)
        f->times.exchange_s += mark(f) - t0;
    return st;
}

enum gc_status gc_force_gather_one(struct gc_force *f, void *buf, size_t elem)
{
    if (f->comm->size == 1)
        return GC_OK;
    return exchanged(f, mark(f), gc_comm_allgatherv(f->comm, buf, f->ones, f->iota, elem));
}

enum gc_status gc_force_gather_parts(struct gc_force *f, void *buf, const size_t *counts,
                                     size_t elem, size_t *first)
{
    const int rank = f->comm->rank;
    size_t total = 0;
    double t0;
    *first = 0;
    if (f->comm->size == 1)
        return GC_OK;
    for (int r = 0; r < f->comm->size; r++) {
        f->part_displs[r] = total;
        total += counts[r];
    }
    *first = f->part_displs[rank];
    /* Given at the front; the exchange wants this rank's part after the lower ranks'. */
    memmove((char *)buf + *first * elem, buf, counts[rank] * elem);
    t0 = mark(f);
    return exchanged(f, t0, gc_comm_allgatherv(f->comm, buf, counts, f->part_displs, elem));
}

enum gc_status gc_force_all(struct gc_force *f, int *flag)
{
    double agreed = *flag ? 1.0 : 0.0;
    enum gc_status st;
    if (f->comm->size == 1)
        return GC_OK;
    st = exchanged(f, mark(f), gc_comm_allreduce(f->comm, &agreed, 1, GC_COMM_MIN));
    *flag = agreed > 0.0;
    return st;
}

enum gc_status gc_force_tree_stats(struct gc_force *f, struct gc_tree_stats *out)
{
    const struct gc_backend_tree *t = gc_backend_tree(f->backend);
    memset(out, 0, sizeof *out);
    return f->method == GC_FORCE_TREE && t ? t->stats(f->backend, out) : GC_OK;
}

/* Diagnostics want the potential energy of the bodies, not that of the force model: all
 * pairs, exact, wherever that costs a few tens of milliseconds (a device up to 2^18 bodies,
 * the host up to 2^14), so that measuring it never stalls a live picture; above, the tree's
 * own, within ~1e-5 of the exact one (test_tree; gc_force_potential_exact says which). */
#define EXACT_POTENTIAL_DEVICE_N ((size_t)1 << 18)
#define EXACT_POTENTIAL_HOST_N ((size_t)1 << 14)

int gc_force_potential_exact(const struct gc_force *f)
{
    const size_t cap = gc_backend_is_device(f->backend) ? EXACT_POTENTIAL_DEVICE_N
                                                        : EXACT_POTENTIAL_HOST_N;
    return f->method == GC_FORCE_ALLPAIRS || f->n <= cap;
}

enum gc_status gc_force_potential(struct gc_force *f, float eps2, double *w)
{
    const struct gc_force_params fp = {
        .method = gc_force_potential_exact(f) ? GC_FORCE_ALLPAIRS : f->method,
        .eps2 = eps2,
        .theta = f->theta};
    enum gc_status st = gc_backend_potential(f->backend, &fp, w);
    if (st == GC_OK)
        st = gc_comm_allreduce_sum(f->comm, w, 1);
    return st;
}
