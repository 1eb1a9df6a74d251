/* The time line on the CPU backend: running backwards, going back to an earlier time (the same bits), the events found in a run, --start-at. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "models.h"
#include "sim.h"
#include "table.h"
#include "test_util.h"
#include "timeline.h"

static struct gc_backend *cpu_backend(void)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options bo;
    memset(&bo, 0, sizeof bo);
    bo.quiet = 1;
    CHECK(gc_backend_create("cpu", &bo, &be) == GC_OK);
    return be;
}

static void params(struct gc_sim_params *p, const char *force)
{
    gc_sim_params_default(p);
    p->force = force;
}

/* RMS distance of the bodies from their positions in ref, and RMS radius of ref (about its
 * centre of mass), in double. */
static void rms(const struct gc_bodies *a, const struct gc_bodies *ref, double *err,
                double *radius)
{
    double m = 0.0, c[3] = {0, 0, 0}, e = 0.0, r = 0.0;
    for (size_t i = 0; i < ref->n; i++) {
        m += ref->pos[4 * i + 3];
        for (int k = 0; k < 3; k++)
            c[k] += (double)ref->pos[4 * i + 3] * ref->pos[4 * i + k];
    }
    for (int k = 0; k < 3; k++)
        c[k] /= m;
    for (size_t i = 0; i < ref->n; i++)
        for (int k = 0; k < 3; k++) {
            double d = (double)a->pos[4 * i + k] - ref->pos[4 * i + k];
            double x = (double)ref->pos[4 * i + k] - c[k];
            e += d * d;
            r += x * x;
        }
    *err = sqrt(e / (double)ref->n);
    *radius = sqrt(r / (double)ref->n);
}

/* K steps forward, K back, through the time line (the leapfrog with -dt): every body
 * returns to its start, in real arithmetic exactly (the scheme is time-symmetric); in float
 * within rounding, which the chaotic N-body motion amplifies over the steps. */
static void test_reverse(const char *force, size_t n, unsigned k, float dt)
{
    struct gc_backend *be = cpu_backend();
    struct gc_bodies b, cur, scratch;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_timeline tl;
    double err, radius, t0, t1;
    params(&p, force);
    p.dt = dt;
    CHECK(gc_models_build("mw-m31", n, 1, &b) == GC_OK);
    CHECK(gc_bodies_copy(&cur, &b) == GC_OK);
    CHECK(gc_bodies_copy(&scratch, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_timeline_init(&tl, sim, &b, &scratch) == GC_OK);
    t0 = test_now();
    CHECK(gc_timeline_advance(&tl, sim, NULL, k * (double)p.dt) == GC_OK);
    CHECK(gc_sim_download(sim, &cur) == GC_OK);
    rms(&cur, &b, &err, &radius);
    /* Never vacuous: the bodies moved far more than the bound below. */
    CHECK(err > 1e-2 * radius);
    printf("%s, %zu bodies: %u steps moved the bodies by %.3g RMS (RMS radius %.3g)\n", force,
           n, k, err, radius);
    CHECK(gc_timeline_advance(&tl, sim, NULL, 0.0) == GC_OK);
    t1 = test_now();
    CHECK(gc_sim_params(sim)->dt < 0.0f); /* it went back with -dt */
    CHECK(gc_sim_download(sim, &cur) == GC_OK);
    rms(&cur, &b, &err, &radius);
    printf("%s, %zu bodies: %u steps forward and %u back: RMS position error %.3g = %.3g of "
           "the RMS radius (%.1f s)\n", force, n, k, k, err, err / radius, t1 - t0);
    CHECK_LT(err, 1e-5 * radius);
    CHECK_NEAR(gc_sim_time(sim), 0.0, 1e-9);
    gc_sim_destroy(sim);
    gc_backend_destroy(be);
    gc_bodies_free(&b);
    gc_bodies_free(&cur);
    gc_bodies_free(&scratch);
}

/* The built-in pair (seed 1) at n bodies; with closer = 1 the second encounter: galaxy B
 * moved halfway towards A along the line between their centres of mass, with the same
 * velocities (a more bound orbit: its first passage comes sooner and closer). */
static void encounter(size_t n, int closer, struct gc_bodies *b)
{
    double m[2] = {0, 0}, c[2][3] = {{0, 0, 0}, {0, 0, 0}};
    CHECK(gc_models_build("mw-m31", n, 1, b) == GC_OK);
    if (!closer)
        return;
    for (size_t i = 0; i < b->n; i++) {
        const unsigned g = GC_TAG_GALAXY(b->tag[i]);
        m[g] += b->pos[4 * i + 3];
        for (int k = 0; k < 3; k++)
            c[g][k] += (double)b->pos[4 * i + 3] * b->pos[4 * i + k];
    }
    for (size_t i = 0; i < b->n; i++)
        if (GC_TAG_GALAXY(b->tag[i]) == 1)
            for (int k = 0; k < 3; k++)
                b->pos[4 * i + k] -= (float)(0.5 * (c[1][k] / m[1] - c[0][k] / m[0]));
}

/* Runs an encounter through the time line until it has seen the first passage; when it was,
 * N-body units (-1: not by t_max). */
static double first_passage(const char *force, const struct gc_bodies *b, double t_max)
{
    struct gc_backend *be = cpu_backend();
    struct gc_bodies scratch;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_timeline tl;
    const struct gc_event *ev = NULL;
    params(&p, force);
    CHECK(gc_bodies_copy(&scratch, b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_timeline_init(&tl, sim, b, &scratch) == GC_OK);
    CHECK(tl.events.pair == 1);
    while (!(ev = gc_events_find(&tl.events, GC_EVENT_PASSAGE, 1)) && gc_sim_time(sim) < t_max)
        CHECK(gc_timeline_advance(&tl, sim, NULL, gc_sim_time(sim) + 1.0) == GC_OK);
    gc_sim_destroy(sim);
    gc_backend_destroy(be);
    gc_bodies_free(&scratch);
    return ev ? ev->t : -1.0;
}

/* The first passage found as the run goes, against tools/measure_encounter on the same bodies
 * (written with `test_timeline table N CLOSER FILE`; `measure_encounter FILE N 1 0.01 T 0.25`
 * steps them in pieces of 0.25 as the time line does, so both see the same trajectory, and
 * prints the separation of the nuclei every 0.25: its minimum, fitted by a parabola through
 * the three smallest, is the pericentre). The default pair at 2,048 bodies: 4.219, 4.186,
 * 4.300 at t = 15.0, 15.25, 15.5, so 15.18 (273 Myr). The second encounter: 2.769, 2.709,
 * 2.753 at t = 6.5, 6.75, 7.0, so 6.77 (122 Myr); both with the CPU backend's AVX-512 loops.
 * (A few thousand bodies are chaotic: a change in the last bits of the steps, such as other
 * vector loops, moves these minima by up to a measurement interval, so they are measured
 * again whenever the steps change.) The time line interpolates the radial
 * velocity's zero: within one measurement interval of it. */
static void test_events(void)
{
    static const struct {
        const char *name;
        int closer;
        double measured;
    } cases[] = {{"default pair", 0, 15.18}, {"second encounter", 1, 6.77}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        struct gc_bodies b;
        double t;
        encounter(2048, cases[k].closer, &b);
        t = first_passage("allpairs", &b, 20.0);
        printf("%s, 2048 bodies: first passage at t = %.3f (%.1f Myr; measured %.2f)\n",
               cases[k].name, t, t * GC_MYR_PER_TIME_UNIT, cases[k].measured);
        CHECK_NEAR(t, cases[k].measured, GC_EVENTS_SAMPLE_T);
        gc_bodies_free(&b);
    }
}

static int same_bodies(const struct gc_bodies *a, const struct gc_bodies *b)
{
    return a->n == b->n && memcmp(a->pos, b->pos, 4 * a->n * sizeof *a->pos) == 0 &&
           memcmp(a->vel, b->vel, 4 * a->n * sizeof *a->vel) == 0;
}

/* Run to t, go back to an earlier time, run to t again: the same bits; and the state at the
 * earlier time is that of a run that went straight there. Also after running backwards for
 * a while (the step's sign flipped). */
static void test_same_bits(const char *force)
{
    struct gc_backend *be = cpu_backend();
    struct gc_bodies b, first, again, ref, scratch, scratch2;
    struct gc_sim *sim = NULL, *straight = NULL;
    struct gc_sim_params p;
    struct gc_timeline tl, tl2;
    int events;
    params(&p, force);
    encounter(1024, 1, &b);
    CHECK(gc_bodies_copy(&first, &b) == GC_OK);
    CHECK(gc_bodies_copy(&again, &b) == GC_OK);
    CHECK(gc_bodies_copy(&ref, &b) == GC_OK);
    CHECK(gc_bodies_copy(&scratch, &b) == GC_OK);
    CHECK(gc_bodies_copy(&scratch2, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_timeline_init(&tl, sim, &b, &scratch) == GC_OK);
    CHECK(gc_timeline_advance(&tl, sim, NULL, 1.0) == GC_OK);
    CHECK(gc_timeline_advance(&tl, sim, NULL, 3.0) == GC_OK);
    CHECK(gc_sim_download(sim, &first) == GC_OK);
    events = tl.events.count;
    /* Whole steps of the float dt: within half a step of the times asked for. */
    CHECK_NEAR(gc_timeline_horizon(&tl), 3.0, 0.5 * p.dt);
    CHECK(gc_timeline_seek(&tl, sim, NULL, &b, 1.5) == GC_OK);
    CHECK_NEAR(gc_sim_time(sim), 1.5, 0.5 * p.dt);
    CHECK_NEAR(gc_timeline_horizon(&tl), 3.0, 0.5 * p.dt); /* computed time is kept */
    CHECK(gc_sim_download(sim, &again) == GC_OK);
    /* Straight to 1.5 on a simulation of its own. */
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &straight) == GC_OK);
    CHECK(gc_timeline_init(&tl2, straight, &b, &scratch2) == GC_OK);
    CHECK(gc_timeline_advance(&tl2, straight, NULL, 1.5) == GC_OK);
    CHECK(gc_sim_download(straight, &ref) == GC_OK);
    CHECK(!same_bodies(&ref, &first)); /* never vacuous: the bodies moved */
    CHECK(same_bodies(&again, &ref));
    CHECK(gc_timeline_advance(&tl, sim, NULL, 3.0) == GC_OK);
    CHECK(gc_sim_download(sim, &again) == GC_OK);
    CHECK(same_bodies(&again, &first));
    CHECK(tl.events.count == events); /* nothing found twice */
    /* Backwards a while (leapfrog with -dt), then a jump back: the first pass's bits. */
    CHECK(gc_timeline_advance(&tl, sim, NULL, 2.0) == GC_OK);
    CHECK(gc_sim_params(sim)->dt < 0.0f);
    CHECK(gc_timeline_seek(&tl, sim, NULL, &b, 1.5) == GC_OK);
    CHECK(gc_sim_params(sim)->dt > 0.0f);
    CHECK(gc_sim_download(sim, &again) == GC_OK);
    CHECK(same_bodies(&again, &ref));
    printf("%s: run to t = 3, back to 1.5 and on to 3 again: %s bits\n", force,
           same_bodies(&again, &ref) ? "the same" : "different");
    gc_sim_destroy(straight);
    gc_sim_destroy(sim);
    gc_backend_destroy(be);
    gc_bodies_free(&b);
    gc_bodies_free(&first);
    gc_bodies_free(&again);
    gc_bodies_free(&ref);
    gc_bodies_free(&scratch);
    gc_bodies_free(&scratch2);
}

/* --start-at: an event lands on its time, a time on itself; what cannot be is refused. */
static void test_start_at(void)
{
    struct gc_backend *be = cpu_backend();
    struct gc_bodies b, scratch;
    struct gc_sim *sim = NULL;
    struct gc_sim_params p;
    struct gc_timeline tl;
    const struct gc_event *ev;
    params(&p, "allpairs");
    encounter(1024, 1, &b);
    CHECK(gc_bodies_copy(&scratch, &b) == GC_OK);
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_timeline_init(&tl, sim, &b, &scratch) == GC_OK);
    CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "first-passage", 0) == GC_OK);
    ev = gc_events_find(&tl.events, GC_EVENT_PASSAGE, 1);
    CHECK(ev != NULL);
    if (ev) {
        printf("start at the first passage: t = %.3f, the passage at %.3f\n",
               gc_sim_time(sim), ev->t);
        CHECK_NEAR(gc_sim_time(sim), ev->t, 0.5 * p.dt + 1e-9);
        CHECK(gc_timeline_horizon(&tl) > ev->t); /* it was seen from beyond */
    }
    /* A time, in Myr: 90 Myr = 5 units, computed already, so reached by going back. */
    CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "90", 0) == GC_OK);
    CHECK_NEAR(gc_sim_time(sim), 5.0, 0.5 * p.dt + 1e-9);
    CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "-3", 0) == GC_ERR_INVALID);
    CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "soon", 0) == GC_ERR_INVALID);
    gc_sim_destroy(sim);
    /* Receding on an unbound orbit from the start: no passage ever comes. Galaxy B's
     * bodies get -3 times the relative velocity of the centres of mass added, so the
     * galaxies recede at twice the speed they approached at (specific energy +3.5). */
    {
        double m[2] = {0, 0}, v[2][3] = {{0, 0, 0}, {0, 0, 0}};
        for (size_t i = 0; i < b.n; i++) {
            const unsigned g = GC_TAG_GALAXY(b.tag[i]);
            m[g] += b.pos[4 * i + 3];
            for (int k = 0; k < 3; k++)
                v[g][k] += (double)b.pos[4 * i + 3] * b.vel[4 * i + k];
        }
        for (size_t i = 0; i < b.n; i++)
            if (GC_TAG_GALAXY(b.tag[i]) == 1)
                for (int k = 0; k < 3; k++)
                    b.vel[4 * i + k] -= (float)(3.0 * (v[1][k] / m[1] - v[0][k] / m[0]));
    }
    CHECK(gc_sim_create(be, NULL, &b, &p, NULL, &sim) == GC_OK);
    CHECK(gc_timeline_init(&tl, sim, &b, &scratch) == GC_OK);
    CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "second-passage", 0) == GC_ERR_INVALID);
    CHECK(gc_sim_time(sim) < 1.0); /* said at once, not after a long search */
    gc_sim_destroy(sim);
    gc_bodies_free(&b);
    gc_bodies_free(&scratch);
    /* A star cluster has no events; a run continuing from t = 1 cannot start before it. */
    {
        struct gc_sim_restart r;
        CHECK(gc_models_build("plummer", 64, 1, &b) == GC_OK);
        CHECK(gc_bodies_copy(&scratch, &b) == GC_OK);
        p.integrator = "hermite4";
        p.eps = 1.0f / 256.0f;
        memset(&r, 0, sizeof r);
        r.time = 1.0;
        CHECK(gc_sim_create(be, NULL, &b, &p, &r, &sim) == GC_OK);
        CHECK(gc_timeline_init(&tl, sim, &b, &scratch) == GC_OK);
        CHECK(tl.events.pair == 0);
        CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "merger", 1) == GC_ERR_INVALID);
        CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "0.5", 1) == GC_ERR_INVALID);
        CHECK(gc_timeline_start_at(&tl, sim, NULL, &b, "1.25", 1) == GC_OK);
        CHECK_NEAR(gc_sim_time(sim), 1.25, 1e-9);
        /* Block steps cannot run backwards, but can go back (by starting over). */
        CHECK(gc_timeline_advance(&tl, sim, NULL, 1.1) == GC_ERR_UNSUPPORTED);
        CHECK(gc_timeline_seek(&tl, sim, NULL, &b, 1.1) == GC_OK);
        CHECK_NEAR(gc_sim_time(sim), 1.1, 1e-9);
        gc_sim_destroy(sim);
        gc_bodies_free(&b);
        gc_bodies_free(&scratch);
    }
    gc_backend_destroy(be);
}

int main(int argc, char **argv)
{
    const char *part = argc > 1 ? argv[1] : "all";
    if (strcmp(part, "reverse") == 0 && argc > 2) {
        /* 8,192 bodies, 1,000 steps each way; fewer bodies where GC_TIMELINE_TEST_N says so
         * (the sanitizer run, several times slower). dt = 0.002: over the 10 time units of
         * 1,000 default steps (dt = 0.01) the encounter's chaos, which doubles a difference
         * every ~0.5 time units here, grows the rounding of float arithmetic to 6e-3 of
         * the RMS radius (measured: 1.1e-1 RMS at 8,192 bodies); over 2 units it stays at
         * the rounding's own scale. */
        const char *nenv = getenv("GC_TIMELINE_TEST_N");
        size_t n = argc > 3 ? (size_t)atol(argv[3]) : nenv ? (size_t)atol(nenv) : 8192;
        unsigned k = argc > 4 ? (unsigned)atol(argv[4]) : 1000;
        float dt = argc > 5 ? (float)atof(argv[5]) : 0.002f;
        test_reverse(argv[2], n, k, dt);
        return CHECK_DONE();
    }
    if (strcmp(part, "table") == 0 && argc > 4) {
        struct gc_bodies b;
        encounter((size_t)atol(argv[2]), atoi(argv[3]), &b);
        CHECK(gc_table_write(argv[4], &b) == GC_OK);
        gc_bodies_free(&b);
        return CHECK_DONE();
    }
    if (strcmp(part, "events") == 0 || strcmp(part, "all") == 0)
        test_events();
    if (strcmp(part, "seek") == 0 || strcmp(part, "all") == 0) {
        test_same_bits("allpairs");
        test_same_bits("tree");
    }
    if (strcmp(part, "start") == 0 || strcmp(part, "all") == 0)
        test_start_at();
    return CHECK_DONE();
}
