/* The force layer: the force method, decomposition of the bodies over ranks, position and Hermite-state exchange, and the force and potential passes. */
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
    free(f->h_rec);
    free(f->heads);
    free(f->rec_counts);
    free(f->rec_displs);
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

enum gc_status gc_force_hermite(struct gc_force *f)
{
    const double t0 = mark(f);
    enum gc_status st = gc_backend_hermite_force(f->backend);
    if (f->profile) {
        f->times.force_s += mark(f) - t0;
        f->times.passes++;
    }
    return st;
}

static enum gc_status alloc_records(struct gc_force *f)
{
    const size_t size = (size_t)f->comm->size;
    if (f->h_rec)
        return GC_OK;
    f->h_rec = malloc((f->n ? f->n : 1) * sizeof *f->h_rec);
    f->heads = malloc(size * sizeof *f->heads);
    f->rec_counts = malloc(size * sizeof *f->rec_counts);
    f->rec_displs = malloc(size * sizeof *f->rec_displs);
    f->ones = malloc(size * sizeof *f->ones);
    f->iota = malloc(size * sizeof *f->iota);
    if (!f->h_rec || !f->heads || !f->rec_counts || !f->rec_displs || !f->ones || !f->iota) {
        gc_log_error("force: out of memory for the Hermite exchange of %zu bodies", f->n);
        return GC_ERR_NOMEM;
    }
    for (size_t r = 0; r < size; r++) {
        f->ones[r] = 1;
        f->iota[r] = r;
    }
    return GC_OK;
}

/* Two collectives: every rank's head (record count and error), then the records themselves,
 * each rank's block after the lower ranks'. Every rank then writes the others' records into
 * its backend, so each holds the whole state and the same schedule. */
static enum gc_status share(struct gc_force *f)
{
    const int rank = f->comm->rank, size = f->comm->size;
    struct gc_hermite_counters cnt;
    struct gc_force_rank_head *me;
    size_t mine = 0, total = 0;
    enum gc_status st = alloc_records(f);
    /* An allocation failure here is local: the caller's failure path ends the run. */
    if (st != GC_OK)
        return st;
    st = gc_backend_hermite_pack(f->backend, f->h_rec, &mine);
    if (st == GC_OK)
        st = gc_backend_hermite_counters(f->backend, &cnt);
    if (st != GC_OK)
        return st;
    me = &f->heads[rank];
    me->count = (int64_t)mine;
    me->error = cnt.error;
    me->error_i = cnt.error_i;
    me->error_j = cnt.error_j;
    st = gc_comm_allgatherv(f->comm, f->heads, f->ones, f->iota, sizeof *f->heads);
    if (st != GC_OK)
        return st;
    for (int r = 0; r < size; r++) {
        f->rec_counts[r] = (size_t)f->heads[r].count;
        f->rec_displs[r] = total;
        total += f->rec_counts[r];
        if (f->heads[r].error && !f->shared_error.error) {
            f->shared_error.error = (int)f->heads[r].error;
            f->shared_error.error_i = f->heads[r].error_i;
            f->shared_error.error_j = f->heads[r].error_j;
        }
    }
    if (total > f->n) {
        gc_log_error("force: ranks sent %zu Hermite records for %zu bodies", total, f->n);
        return GC_ERR_INVALID;
    }
    /* Packed at the front; the exchange wants this rank's block after the lower ranks'. */
    memmove(f->h_rec + f->rec_displs[rank], f->h_rec, mine * sizeof *f->h_rec);
    st = gc_comm_allgatherv(f->comm, f->h_rec, f->rec_counts, f->rec_displs, sizeof *f->h_rec);
    if (st == GC_OK)
        st = gc_backend_hermite_unpack(f->backend, f->h_rec, f->rec_displs[rank]);
    if (st == GC_OK)
        st = gc_backend_hermite_unpack(f->backend, f->h_rec + f->rec_displs[rank] + mine,
                                       total - f->rec_displs[rank] - mine);
    return st;
}

enum gc_status gc_force_hermite_share(struct gc_force *f)
{
    double t0;
    enum gc_status st;
    if (f->comm->size == 1)
        return GC_OK;
    t0 = mark(f);
    st = share(f);
    if (f->profile)
        f->times.exchange_s += mark(f) - t0;
    return st;
}

enum gc_status gc_force_hermite_select(struct gc_force *f, int64_t t_limit, int *due)
{
    double t0, agreed;
    enum gc_status st;
    if (f->comm->size == 1)
        return gc_backend_hermite_select(f->backend, t_limit, due);
    st = gc_backend_hermite_select(f->backend, t_limit, due);
    if (st != GC_OK)
        return st;
    /* Every rank holds the same schedule, so every rank finds the same block; a rank whose
     * backend has stopped on an error finds none, and then none runs anywhere. */
    t0 = mark(f);
    agreed = *due && !f->shared_error.error ? 1.0 : 0.0;
    st = gc_comm_allreduce(f->comm, &agreed, 1, GC_COMM_MIN);
    *due = agreed > 0.0;
    if (f->profile)
        f->times.exchange_s += mark(f) - t0;
    return st;
}

enum gc_status gc_force_hermite_counters(struct gc_force *f, struct gc_hermite_counters *out)
{
    enum gc_status st = gc_backend_hermite_counters(f->backend, out);
    if (st == GC_OK && f->shared_error.error) {
        out->error = f->shared_error.error;
        out->error_i = f->shared_error.error_i;
        out->error_j = f->shared_error.error_j;
    }
    return st;
}

int gc_force_loop_on_backend(const struct gc_force *f)
{
    return f->comm->size == 1 && gc_backend_hermite_has_repeat(f->backend);
}

enum gc_status gc_force_repeat(struct gc_force *f, enum gc_status (*body)(void *ctx),
                               void *ctx, const int *due)
{
    enum gc_status st;
    if (gc_force_loop_on_backend(f))
        return gc_backend_hermite_repeat(f->backend, body, ctx);
    do
        st = body(ctx);
    while (st == GC_OK && *due);
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
