/* The communication layer over MPI, run under mpiexec with 2 or 3 ranks: every collective against values each rank can predict. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "comm.h"
#include "log.h"

/* Element i of the test arrays: distinct per index, so a part in the wrong place shows. */
static double value(size_t i, int k) { return 1000.0 * (double)i + (double)k + 0.25; }

/* Each rank fills only its own part (the others' hold -1); after the exchange every rank
 * must hold every part, wherever gc_comm_range puts it, zero-sized parts included. */
/* Each rank's share of n items as gc_comm_range splits them: counts and offsets. */
static void rank_layout(const struct gc_comm *c, size_t n, size_t *counts, size_t *displs)
{
    for (int r = 0; r < c->size; r++) {
        size_t i0, i1;
        gc_comm_range(n, c->size, r, &i0, &i1);
        displs[r] = i0;
        counts[r] = i1 - i0;
    }
}

static void check_allgatherv(struct gc_comm *c, size_t n, int split)
{
    size_t *counts = malloc((size_t)c->size * sizeof *counts);
    size_t *displs = malloc((size_t)c->size * sizeof *displs);
    double *buf = malloc(3 * (n ? n : 1) * sizeof *buf);
    size_t i0, i1;
    rank_layout(c, n, counts, displs);
    gc_comm_range(n, c->size, c->rank, &i0, &i1);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            buf[3 * i + k] = i >= i0 && i < i1 ? value(i, k) : -1.0;
    if (split) {
        CHECK(gc_comm_allgatherv_start(c, buf, counts, displs, 3 * sizeof(double)) == GC_OK);
        /* Another collective while the exchange is in flight must not disturb it. */
        double one = 1.0;
        CHECK(gc_comm_allreduce_sum(c, &one, 1) == GC_OK);
        CHECK(one == (double)c->size);
        CHECK(gc_comm_allgatherv_wait(c) == GC_OK);
    } else {
        CHECK(gc_comm_allgatherv(c, buf, counts, displs, 3 * sizeof(double)) == GC_OK);
    }
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            CHECK(buf[3 * i + k] == value(i, k));
    free(buf);
    free(displs);
    free(counts);
}

static void check_gatherv(struct gc_comm *c, int root)
{
    const size_t n = 11;
    size_t counts[64], displs[64], i0, i1;
    float buf[11];
    rank_layout(c, n, counts, displs);
    gc_comm_range(n, c->size, c->rank, &i0, &i1);
    for (size_t i = 0; i < n; i++)
        buf[i] = i >= i0 && i < i1 ? (float)i : -1.0f;
    CHECK(gc_comm_gatherv(c, buf, counts, displs, sizeof(float), root) == GC_OK);
    for (size_t i = 0; i < n; i++)
        CHECK(buf[i] == (c->rank == root || (i >= i0 && i < i1) ? (float)i : -1.0f));
}

static void check_bodies(struct gc_comm *c, int with64)
{
    struct gc_bodies b = {0};
    const size_t n = 5;
    if (c->rank == 0) {
        CHECK(gc_bodies_alloc(&b, n) == GC_OK);
        for (size_t i = 0; i < 4 * n; i++) {
            b.pos[i] = (float)i;
            b.vel[i] = -(float)i;
        }
        for (size_t i = 0; i < n; i++)
            b.tag[i] = (uint8_t)(i + 1);
        if (with64) {
            CHECK(gc_bodies_alloc_f64(&b) == GC_OK);
            b.pos64[7] = 1.0 / 3.0; /* not a float: must arrive as written */
        }
    }
    CHECK(gc_comm_bcast_bodies(c, &b, 0) == GC_OK);
    CHECK(b.n == n);
    for (size_t i = 0; i < 4 * n && b.pos; i++)
        CHECK(b.pos[i] == (float)i && b.vel[i] == -(float)i);
    for (size_t i = 0; i < n && b.tag; i++)
        CHECK(b.tag[i] == i + 1);
    CHECK((b.pos64 != NULL) == with64);
    if (with64 && b.pos64)
        CHECK(b.pos64[7] == 1.0 / 3.0 && b.mass64[2] == (double)b.pos[4 * 2 + 3]);
    gc_bodies_free(&b);
}

int main(int argc, char **argv)
{
    struct gc_comm *c = NULL;
    double v[3];
    char text[32];
    if (gc_comm_create_world(&argc, &argv, &c) != GC_OK || !c)
        return 1;
    if (c->size < 2) {
        printf("SKIP: run it under mpiexec with 2 or more ranks\n");
        gc_comm_destroy(c);
        return CHECK_SKIP;
    }
    CHECK(strcmp(c->iface->name, "mpi") == 0);
    CHECK(c->local_rank >= 0 && c->local_rank < c->local_size && c->hosts >= 1);
    CHECK(c->library[0] != '\0');

    check_allgatherv(c, 10, 0);
    check_allgatherv(c, 10, 1);
    check_allgatherv(c, 2, 0); /* fewer bodies than ranks: some parts are empty */
    check_allgatherv(c, 1, 1);
    check_gatherv(c, 0);
    check_gatherv(c, c->size - 1);

    v[0] = c->rank + 1.0, v[1] = c->rank + 1.0, v[2] = c->rank + 1.0;
    CHECK(gc_comm_allreduce(c, v, 1, GC_COMM_SUM) == GC_OK);
    CHECK(gc_comm_allreduce(c, v + 1, 1, GC_COMM_MAX) == GC_OK);
    CHECK(gc_comm_allreduce(c, v + 2, 1, GC_COMM_MIN) == GC_OK);
    CHECK(v[0] == c->size * (c->size + 1) / 2.0 && v[1] == c->size && v[2] == 1.0);

    snprintf(text, sizeof text, "from rank %d", c->rank);
    CHECK(gc_comm_bcast(c, text, sizeof text, c->size - 1) == GC_OK);
    {
        char want[32];
        snprintf(want, sizeof want, "from rank %d", c->size - 1);
        CHECK(strcmp(text, want) == 0);
    }
    check_bodies(c, 0);
    check_bodies(c, 1);

    /* Agreement: all well; then the last rank fails and every rank learns its status, and
     * rank 0 prints its held message once (the test's log shows it). */
    CHECK(gc_comm_agree(c, GC_OK) == GC_OK);
    if (c->rank == c->size - 1) {
        gc_log_hold_errors(1);
        gc_log_error("planted failure of the last rank");
    }
    CHECK(gc_comm_agree(c, c->rank == c->size - 1 ? GC_ERR_NOMEM : GC_OK) == GC_ERR_NOMEM);
    {
        char held[64];
        CHECK(gc_log_take_held(held, sizeof held) == 0); /* taken by the agreement */
    }
    CHECK(gc_comm_barrier(c) == GC_OK);

    /* Every rank's verdict together: a failure on any rank fails the test on rank 0. */
    v[0] = check_failures;
    CHECK(gc_comm_allreduce(c, v, 1, GC_COMM_SUM) == GC_OK);
    if (c->rank == 0 && v[0] > 0 && !check_failures)
        check_failures = (int)v[0];
    gc_comm_destroy(c);
    return CHECK_DONE();
}
