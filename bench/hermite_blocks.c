/* Time per Hermite block step against the number of active bodies m, on a real Plummer run: each block step driven and timed from the host, then the same interval replayed by the backend's own loop. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_hermite.h"
#include "clock.h"
#include "model_cluster.h"

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

struct run {
    struct gc_backend *be;
    int64_t limit;
};

static enum gc_status block(void *ctx)
{
    struct run *r = ctx;
    enum gc_status st = gc_backend_hermite_select(r->be, r->limit, NULL);
    if (st == GC_OK)
        st = gc_backend_hermite_predict(r->be);
    if (st == GC_OK)
        st = gc_backend_hermite_force(r->be);
    if (st == GC_OK)
        st = gc_backend_hermite_correct(r->be);
    return st;
}

static enum gc_status start(struct gc_backend *be, const struct gc_hermite_config *cfg,
                            const struct gc_bodies *b)
{
    enum gc_status st = gc_backend_upload(be, b);
    if (st == GC_OK)
        st = gc_backend_hermite_init(be, cfg, b);
    for (int p = 0; p < 2 && st == GC_OK; p++) { /* as integrator_hermite.c starts */
        st = gc_backend_hermite_predict(be);
        if (st == GC_OK)
            st = gc_backend_hermite_force(be);
        if (st == GC_OK)
            st = gc_backend_hermite_begin(be);
    }
    return st == GC_OK ? gc_backend_sync(be) : st;
}

int main(int argc, char **argv)
{
    const size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) : 65536;
    const int order = argc > 2 ? atoi(argv[2]) : 4;
    const double t_end = argc > 3 ? atof(argv[3]) : 0.125;
    const char *backend = argc > 4 ? argv[4] : "cuda";
    const char *precision = argc > 5 ? argv[5] : "mixed";
    struct gc_hermite_config cfg = {order, 1.0 / 65536.0, order == 6 ? 0.15 : 0.01, 0.01,
                                    0.125, -1, strcmp(precision, "double") != 0};
    struct gc_backend_options opt = {0};
    struct gc_backend *be = NULL;
    struct gc_bodies b;
    struct gc_hermite_counters c0, c1;
    const int nbins = 64;
    double *times[64] = {0};
    size_t count[64] = {0}, cap = 1 << 20;
    double msum[64] = {0}, tsum[64] = {0};
    double host_total = 0.0, t0, graph_s;
    uint64_t blocks = 0;
    struct run r;
    int due = 1;

    if (n < 2 || (order != 4 && order != 6) || !(t_end > 0.0) ||
        (strcmp(precision, "mixed") != 0 && strcmp(precision, "double") != 0)) {
        fprintf(stderr, "usage: %s [N] [4|6] [t_end] [cuda|cpu] [mixed|double]\n", argv[0]);
        return 2;
    }
    opt.quiet = 1;
    if (gc_backend_create(backend, &opt, &be) != GC_OK ||
        gc_model_plummer_build(n, 1, &b) != GC_OK)
        return 1;
    for (int k = 0; k < nbins; k++)
        times[k] = malloc(cap * sizeof(double));
    r.be = be;
    r.limit = (int64_t)llround(t_end / ldexp(cfg.dt_max, -GC_HERMITE_LEVELS));

    /* Host-driven: one block step at a time, synchronised, timed. */
    if (start(be, &cfg, &b) != GC_OK)
        return 1;
    for (;;) {
        int k;
        t0 = gc_clock_seconds();
        if (gc_backend_hermite_select(be, r.limit, &due) != GC_OK)
            return 1;
        if (!due)
            break;
        if (gc_backend_hermite_predict(be) != GC_OK || gc_backend_hermite_force(be) != GC_OK ||
            gc_backend_hermite_correct(be) != GC_OK || gc_backend_sync(be) != GC_OK)
            return 1;
        t0 = gc_clock_seconds() - t0;
        host_total += t0;
        if (gc_backend_hermite_counters(be, &c1) != GC_OK || c1.error)
            return 1;
        k = (int)floor(log2((double)c1.last_active));
        msum[k] += (double)c1.last_active;
        tsum[k] += t0;
        if (count[k] < cap)
            times[k][count[k]++] = t0;
        blocks++;
    }
    /* The backend's own loop (CUDA: a graph with a device-side while loop) over the same
     * interval from the same start. */
    if (start(be, &cfg, &b) != GC_OK || gc_backend_hermite_counters(be, &c0) != GC_OK)
        return 1;
    t0 = gc_clock_seconds();
    if (gc_backend_hermite_has_repeat(be)) {
        if (gc_backend_hermite_repeat(be, block, &r) != GC_OK)
            return 1;
    } else {
        do
            if (block(&r) != GC_OK || gc_backend_hermite_select(be, r.limit, &due) != GC_OK)
                return 1;
        while (due);
    }
    if (gc_backend_sync(be) != GC_OK || gc_backend_hermite_counters(be, &c1) != GC_OK)
        return 1;
    graph_s = gc_clock_seconds() - t0;

    printf("# Hermite %d block steps vs active count m: Plummer N = %zu, eps 1/256, eta %g, "
           "t = 0..%g, backend %s, %s force pass\n", order, n, cfg.eta, t_end,
           gc_backend_device_name(be), precision);
    printf("# host-driven (each block step synchronised): %llu block steps in %.3f s\n",
           (unsigned long long)blocks, host_total);
    printf("# backend loop%s: %llu block steps in %.3f s, %.2f us per block step\n",
           gc_backend_hermite_has_repeat(be) ? " (CUDA graph, device-side while)" : "",
           (unsigned long long)(c1.blocks - c0.blocks), graph_s,
           1e6 * graph_s / (double)(c1.blocks - c0.blocks));
    printf("# host-driven columns: each block step launched and synchronised from the host "
           "(median, min); loop columns: the backend's device loop, each block step timed on "
           "the device's clock from the end of the previous one (mean; zero where the "
           "backend has no device loop)\n");
    printf("# %10s %10s %8s %14s %14s %16s %10s %12s\n", "m_lo", "m_hi", "blocks", "median_us",
           "min_us", "interactions/s", "loop_steps", "loop_mean_us");
    /* interactions/s of a bin: its sum of m x N over its summed time. */
    for (int k = 0; k < nbins; k++) {
        double med;
        if (!count[k])
            continue;
        qsort(times[k], count[k], sizeof(double), cmp_double);
        med = times[k][count[k] / 2];
        const uint64_t ls = k < GC_HERMITE_TIME_BINS ? c1.loop_steps[k] - c0.loop_steps[k] : 0;
        const uint64_t lns = k < GC_HERMITE_TIME_BINS ? c1.loop_ns[k] - c0.loop_ns[k] : 0;
        printf("  %10.0f %10.0f %8zu %14.2f %14.2f %16.4e %10llu %12.2f\n", ldexp(1.0, k),
               ldexp(1.0, k + 1) - 1, count[k], 1e6 * med, 1e6 * times[k][0],
               msum[k] * (double)n / tsum[k], (unsigned long long)ls,
               ls ? 1e-3 * (double)lns / (double)ls : 0.0);
    }
    for (int k = 0; k < nbins; k++)
        free(times[k]);
    gc_bodies_free(&b);
    gc_backend_destroy(be);
    return 0;
}
