/* Keyframes: a jump back restores the nearest keyframe and steps on to the very bits of the
 * first pass (leapfrog with all pairs and with the tree, a dt changed on the way, a budget
 * that forces thinning; Hermite's state), and a budget beyond the memory is refused. On the
 * CPU backend by default; "test_keyframes cuda" runs the same on the GPU, the keyframes in
 * its memory (skipped without a device). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "keyframes.h"
#include "models.h"
#include "sim.h"

static const char *backend_name = "cpu";

/* The simulation's positions and velocities now (float arrays; pos64/vel64 when double). */
static void snap(struct gc_sim *s, struct gc_bodies *out)
{
    CHECK(gc_sim_download(s, out) == GC_OK);
}

static int same_bits(const struct gc_bodies *a, const struct gc_bodies *b)
{
    int same = memcmp(a->pos, b->pos, 4 * a->n * sizeof(float)) == 0 &&
               memcmp(a->vel, b->vel, 4 * a->n * sizeof(float)) == 0;
    if (a->pos64 && b->pos64)
        same = same && memcmp(a->pos64, b->pos64, 3 * a->n * sizeof(double)) == 0 &&
               memcmp(a->vel64, b->vel64, 3 * a->n * sizeof(double)) == 0;
    return same;
}

/* A run to t_end in frame-sized advances with keyframes noted after each, the state
 * downloaded at t_probe[k] on the way (the first pass); then seeks to each probe, from the
 * end and in a mixed order, must give those bits again. dt_change: a time at which dt is
 * halved through the store (0: none). budget: bytes for keyframes. */
static void check_seeks(const char *model, size_t n, const char *force, const char *integrator,
                        double frame, double t_end, double dt_change, size_t budget)
{
    enum { NP = 4 };
    const double probe[NP] = {0.3 * t_end, 0.55 * t_end, 0.8 * t_end, 0.97 * t_end};
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    struct gc_bodies init = {0}, ref[NP], now = {0};
    double t_ref[NP] = {0};
    struct gc_sim_params p;
    struct gc_sim *s = NULL;
    struct gc_keyframes *k = NULL;
    struct gc_keyframes_info info;
    int next = 0, all_same = 1;
    opt.quiet = 1;
    gc_sim_params_default(&p);
    p.force = force;
    p.integrator = integrator;
    if (strcmp(integrator, "leapfrog") != 0)
        p.eps = 1.0f / 64.0f;
    CHECK(gc_backend_create(backend_name, &opt, &be) == GC_OK);
    CHECK(gc_models_build(model, n, 7, &init) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &init, &p, NULL, &s) == GC_OK);
    CHECK(gc_keyframes_create(s, budget, &k) == GC_OK);
    if (!k) {
        gc_sim_destroy(s);
        gc_backend_destroy(be);
        gc_bodies_free(&init);
        return;
    }
    for (int q = 0; q < NP; q++) {
        memset(&ref[q], 0, sizeof ref[q]);
        CHECK(gc_bodies_alloc(&ref[q], n) == GC_OK);
    }
    CHECK(gc_bodies_alloc(&now, n) == GC_OK);
    for (double t = 0.0; t < t_end - 1e-9;) {
        double to = fmin(t + frame, t_end);
        if (next < NP && to >= probe[next])
            to = probe[next];
        if (dt_change > 0.0 && t < dt_change && to >= dt_change) {
            CHECK(gc_sim_advance(s, dt_change) == GC_OK);
            CHECK(gc_keyframes_note(k) == GC_OK);
            CHECK(gc_keyframes_set_dt(k, 0.5f * gc_sim_params(s)->dt) == GC_OK);
        }
        CHECK(gc_sim_advance(s, to) == GC_OK);
        CHECK(gc_keyframes_note(k) == GC_OK);
        t = to;
        if (next < NP && t >= probe[next]) {
            t_ref[next] = gc_sim_time(s);
            snap(s, &ref[next++]);
        }
    }
    CHECK(next == NP);
    /* from the end back to each probe, then forward and back again in a mixed order */
    const int order[] = {0, 2, 1, 3, 0, 3, 2};
    for (size_t q = 0; q < sizeof order / sizeof order[0]; q++) {
        const int i = order[q];
        CHECK(gc_keyframes_seek(k, probe[i]) == GC_OK);
        CHECK(gc_sim_time(s) == t_ref[i]);
        snap(s, &now);
        if (!same_bits(&now, &ref[i])) {
            all_same = 0;
            printf("  seek %zu to t = %g: NOT the first pass's bits\n", q, probe[i]);
        }
    }
    gc_keyframes_info(k, &info);
    printf("%s %s %s N=%zu to t = %g%s: %zu keyframes (capacity %zu, every %g, %zu bytes "
           "each), seeks %s\n", model, integrator, force, n, t_end,
           dt_change > 0.0 ? " (dt halved on the way)" : "", info.count, info.capacity,
           info.every, info.bytes_each, all_same ? "give the first pass's bits" : "DIFFER");
    CHECK(all_same);
    CHECK(info.count >= 2 && info.count <= info.capacity);
    CHECK(fabs(info.reached - t_end) < 1e-6);
    gc_keyframes_destroy(k);
    gc_sim_destroy(s);
    gc_backend_destroy(be);
    for (int q = 0; q < NP; q++)
        gc_bodies_free(&ref[q]);
    gc_bodies_free(&now);
    gc_bodies_free(&init);
}

/* A budget beyond the free memory, and one too small for two keyframes, are refused. */
static void check_budgets(void)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    struct gc_bodies init = {0};
    struct gc_sim_params p;
    struct gc_sim *s = NULL;
    struct gc_keyframes *k = NULL;
    opt.quiet = 1;
    gc_sim_params_default(&p);
    CHECK(gc_backend_create(backend_name, &opt, &be) == GC_OK);
    CHECK(gc_models_build("mw-m31", 512, 3, &init) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &init, &p, NULL, &s) == GC_OK);
    CHECK(gc_keyframes_create(s, (size_t)1 << 62, &k) == GC_ERR_INVALID && !k);
    CHECK(gc_keyframes_create(s, 1000, &k) == GC_ERR_INVALID && !k);
    CHECK(gc_keyframes_create(s, 0, &k) == GC_OK && k);
    gc_keyframes_destroy(k);
    gc_sim_destroy(s);
    gc_backend_destroy(be);
    gc_bodies_free(&init);
}

int main(int argc, char **argv)
{
    /* 40 bytes a body for the leapfrog on the CPU backend (ten float arrays) */
    const size_t lots = (size_t)256 << 20, few = 6 * 1024 * 40;
    if (argc > 1 && strcmp(argv[1], "cuda") == 0) {
        struct gc_backend *be = NULL;
        struct gc_backend_options opt = {0};
        opt.quiet = 1;
        if (gc_backend_create("cuda", &opt, &be) != GC_OK) {
            printf("SKIP: no usable CUDA device\n");
            return CHECK_SKIP;
        }
        gc_backend_destroy(be);
        backend_name = "cuda";
    }
    check_seeks("mw-m31", 1024, "allpairs", "leapfrog", 0.05, 2.0, 0.0, lots);
    check_seeks("mw-m31", 1024, "tree", "leapfrog", 0.07, 2.0, 0.0, lots);
    check_seeks("mw-m31", 1024, "allpairs", "leapfrog", 0.05, 2.0, 0.9, lots);
    check_seeks("mw-m31", 1024, "allpairs", "leapfrog", 0.05, 3.0, 0.0, few);
    check_seeks("plummer", 256, "allpairs", "hermite4", 0.03125, 1.0, 0.0, lots);
    check_budgets();
    return CHECK_DONE();
}
