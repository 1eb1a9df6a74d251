/* The encounter's events without a simulation: passages and the merger found in measured separations, and the Kepler prediction of the next passage, against orbits written down here. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "events.h"

#define PI 3.14159265358979323846

/* Two galaxies of disk bodies on rings of radius 1 (half-mass radius 1 each: merger radius
 * 0.6), 20 apart, masses ma and mb: what gc_events_init measures. */
static void pair(struct gc_bodies *b, double ma, double mb)
{
    const size_t n = 64;
    CHECK(gc_bodies_alloc(b, n) == GC_OK);
    for (size_t i = 0; i < n; i++) {
        const unsigned g = i < n / 2;
        const double phi = 2.0 * PI * (double)(i % (n / 2)) / (double)(n / 2);
        b->pos[4 * i + 0] = (float)(cos(phi) + (g ? 20.0 : 0.0));
        b->pos[4 * i + 1] = (float)sin(phi);
        b->pos[4 * i + 3] = (float)((g ? mb : ma) / (double)(n / 2));
        b->vel[4 * i + 0] = (float)-sin(phi);
        b->vel[4 * i + 1] = (float)cos(phi);
        b->tag[i] = GC_TAG(g, GC_DISK);
    }
}

/* A measurement with galaxy 0 at the origin at rest and galaxy 1 at d moving at u. */
static void track_at(const double d[3], const double u[3], struct gc_track *t)
{
    memset(t, 0, sizeof *t);
    t->galaxies = 2;
    for (int k = 0; k < 3; k++) {
        t->centre[1][k] = (float)d[k];
        t->vel[1][k] = (float)u[k];
    }
    t->separation = (float)sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    t->half_mass[0] = t->half_mass[1] = 1.0f;
}

/* The relative orbit of two point masses m: ellipse of semi-major axis a, eccentricity e,
 * pericentre at time tp on +x; position and velocity at t (Kepler's equation by Newton). */
static void ellipse(double m, double a, double e, double tp, double t, double d[3], double u[3])
{
    const double n = sqrt(m / (a * a * a)), mean = n * (t - tp);
    double ea = mean, b = a * sqrt(1.0 - e * e), edot;
    for (int k = 0; k < 50; k++)
        ea -= (ea - e * sin(ea) - mean) / (1.0 - e * cos(ea));
    edot = n / (1.0 - e * cos(ea));
    d[0] = a * (cos(ea) - e);
    d[1] = b * sin(ea);
    d[2] = 0.0;
    u[0] = -a * sin(ea) * edot;
    u[1] = b * cos(ea) * edot;
    u[2] = 0.0;
}

/* Sampled every GC_EVENTS_SAMPLE_T along two orbits of an eccentric ellipse: two passages,
 * each at its pericentre time, no other event; the prediction from the start is the time of
 * the first. */
static void test_ellipse(void)
{
    const double m = 10.0, a = 10.0, e = 0.8, tp = 20.1;
    const double period = 2.0 * PI * sqrt(a * a * a / m);
    struct gc_bodies b;
    struct gc_events ev;
    struct gc_track t;
    double d[3], u[3];
    pair(&b, 4.0, 6.0);
    gc_events_init(&ev, &b);
    CHECK(ev.pair == 1);
    CHECK_NEAR(ev.mass[0] + ev.mass[1], m, 1e-5);
    CHECK_NEAR(ev.merge_radius, GC_EVENTS_MERGER_RADIUS * 2.0, 0.05);
    ellipse(m, a, e, tp, 0.0, d, u);
    track_at(d, u, &t);
    CHECK_NEAR(gc_events_predict(&ev, &t), tp, 1e-6 * tp);
    for (int k = 0; k * GC_EVENTS_SAMPLE_T <= tp + 2.0 * period - 5.0; k++) {
        ellipse(m, a, e, tp, k * GC_EVENTS_SAMPLE_T, d, u);
        track_at(d, u, &t);
        gc_events_observe(&ev, k * GC_EVENTS_SAMPLE_T, &t);
        /* The same measurement again (a run that went back over computed time): nothing. */
        CHECK(gc_events_observe(&ev, k * GC_EVENTS_SAMPLE_T, &t) == 0);
    }
    printf("ellipse: %d events, passages at %.4f and %.4f (pericentres at %.4f and %.4f)\n",
           ev.count, ev.list[0].t, ev.list[1].t, tp, tp + period);
    CHECK(ev.count == 2);
    /* The radial velocity, interpolated linearly between measurements 0.25 apart, crosses
     * zero within a few thousandths of the pericentre on this orbit (passage time scale
     * q / v_p = 0.67). */
    CHECK_NEAR(ev.list[0].t, tp, 0.01);
    CHECK_NEAR(ev.list[1].t, tp + period, 0.01);
    CHECK(ev.list[0].kind == GC_EVENT_PASSAGE && ev.list[0].number == 1);
    CHECK(ev.list[1].kind == GC_EVENT_PASSAGE && ev.list[1].number == 2);
    CHECK_NEAR(ev.list[0].separation, a * (1.0 - e), 0.1);
    CHECK(!gc_events_over(&ev, &t)); /* bound: it comes back */
    CHECK(gc_events_next(&ev, 0.0, 0.0) == &ev.list[0]);
    CHECK(gc_events_next(&ev, tp, 0.01) == &ev.list[1]);
    CHECK(gc_events_prev(&ev, tp + period, 0.01) == &ev.list[0]);
    CHECK(gc_events_prev(&ev, tp - 1.0, 0.0) == NULL);
    /* Past the pericentre, on the way out: no prediction. */
    ellipse(m, a, e, tp, tp + 1.0, d, u);
    track_at(d, u, &t);
    CHECK(gc_events_predict(&ev, &t) < 0.0);
    gc_bodies_free(&b);
}

/* Hyperbolic and near-parabolic approaches: the time to pericentre from the orbit's own
 * equations written forwards (time from the anomaly), not inverted as the predictor does. */
static void test_open_orbits(void)
{
    const double m = 5.0;
    /* Hyperbola: a = 4, e = 1.5, H = -1.2 (on the way in): r = a (e cosh H - 1), and
     * t - tp = (e sinh H - H) / n. */
    {
        const double a = 4.0, e = 1.5, h = -1.2, n = sqrt(m / (a * a * a));
        const double b = a * sqrt(e * e - 1.0), hdot = n / (e * cosh(h) - 1.0);
        double d[3] = {a * (e - cosh(h)), b * sinh(h), 0.0};
        double u[3] = {-a * sinh(h) * hdot, b * cosh(h) * hdot, 0.0};
        CHECK_NEAR(gc_kepler_time_to_pericentre(d, u, m), -(e * sinh(h) - h) / n, 1e-9);
    }
    /* Parabola: q = 2, D = tan(f/2) = -2: r = q (1 + D^2), t - tp = sqrt(2 q^3 / m) (D + D^3 / 3). */
    {
        const double q = 2.0, dd = -2.0, f = 2.0 * atan(dd), r = q * (1.0 + dd * dd);
        const double h = sqrt(2.0 * m * q);
        double d[3] = {r * cos(f), r * sin(f), 0.0};
        double u[3] = {-m / h * sin(f), m / h * (1.0 + cos(f)), 0.0};
        CHECK_NEAR(gc_kepler_time_to_pericentre(d, u, m),
                   -sqrt(2.0 * q * q * q / m) * (dd + dd * dd * dd / 3.0), 1e-6);
    }
    /* Receding: none. */
    {
        double d[3] = {5.0, 0.0, 0.0}, u[3] = {0.3, 0.5, 0.0};
        CHECK(gc_kepler_time_to_pericentre(d, u, m) < 0.0);
    }
}

/* A separation written as smooth swings between given extremes: a passage at 3, a close one
 * at 0.4 after which the nuclei part again (a passage, known as such once they do), then
 * one at 0.3 after which they stay within the merger radius (0.6): the merger, from when
 * they came inside; the jitter after it is no passage. */
static void test_merger(void)
{
    static const double ext[][2] = {{0, 20}, {10, 3}, {20, 12}, {30, 0.4}, {40, 2.0},
                                    {50, 0.3}, {60, 0.5}, {70, 0.35}, {80, 0.45}};
    const int next = (int)(sizeof ext / sizeof ext[0]);
    struct gc_bodies b;
    struct gc_events ev;
    struct gc_track t;
    double inside = -1.0;
    pair(&b, 1.0, 1.0);
    gc_events_init(&ev, &b);
    for (double time = 0.0; time <= 80.0; time += GC_EVENTS_SAMPLE_T) {
        int k = 0;
        double d[3] = {0, 0.0, 0}, u[3] = {0, 0, 0}, w;
        while (k + 2 < next && time >= ext[k + 1][0])
            k++;
        w = (time - ext[k][0]) / (ext[k + 1][0] - ext[k][0]);
        d[0] = ext[k][1] + (ext[k + 1][1] - ext[k][1]) * 0.5 * (1.0 - cos(PI * w));
        u[0] = (ext[k + 1][1] - ext[k][1]) * 0.5 * PI * sin(PI * w) / (ext[k + 1][0] - ext[k][0]);
        if (time > 45.0 && inside < 0.0 && d[0] < ev.merge_radius)
            inside = time;
        track_at(d, u, &t);
        gc_events_observe(&ev, time, &t);
        if (time < 52.0)
            CHECK(!gc_events_over(&ev, &t));
    }
    printf("merger: %d events:", ev.count);
    for (int k = 0; k < ev.count; k++) {
        char name[32];
        gc_event_name(&ev.list[k], name, sizeof name);
        printf(" %s at %.3f (%.2f);", name, ev.list[k].t, ev.list[k].separation);
    }
    printf(" inside the merger radius from %.2f\n", inside);
    CHECK(ev.count == 3);
    CHECK(ev.list[0].kind == GC_EVENT_PASSAGE && ev.list[0].number == 1);
    CHECK_NEAR(ev.list[0].t, 10.0, 0.05);
    CHECK(ev.list[1].kind == GC_EVENT_PASSAGE && ev.list[1].number == 2);
    CHECK_NEAR(ev.list[1].t, 30.0, 0.05);
    CHECK(ev.list[2].kind == GC_EVENT_MERGER);
    /* Came inside between two measurements: interpolated, so before the first one inside. */
    CHECK(ev.list[2].t <= inside && ev.list[2].t > inside - GC_EVENTS_SAMPLE_T);
    CHECK(gc_events_over(&ev, &t));
    CHECK(gc_events_find(&ev, GC_EVENT_MERGER, 1) == &ev.list[2]);
    CHECK(gc_events_find(&ev, GC_EVENT_PASSAGE, 3) == NULL);
    gc_bodies_free(&b);
}

/* Galaxies flying apart on an unbound orbit: no further event can come. */
static void test_flyby(void)
{
    struct gc_bodies b;
    struct gc_events ev;
    struct gc_track t;
    double d[3] = {-20.0, 2.0, 0.0}, u[3] = {3.0, 0.0, 0.0};
    pair(&b, 1.0, 1.0);
    gc_events_init(&ev, &b);
    track_at(d, u, &t);
    gc_events_observe(&ev, 0.0, &t);
    CHECK(!gc_events_over(&ev, &t)); /* approaching */
    d[0] = 25.0;
    track_at(d, u, &t);
    gc_events_observe(&ev, 15.0, &t);
    CHECK(gc_events_over(&ev, &t)); /* receding, unbound, farther than ever */
    gc_bodies_free(&b);
}

/* A star cluster (no galaxies) has nothing to detect. */
static void test_cluster(void)
{
    struct gc_bodies b;
    struct gc_events ev;
    pair(&b, 1.0, 1.0);
    for (size_t i = 0; i < b.n; i++)
        b.tag[i] = GC_TAG(0, GC_STAR);
    gc_events_init(&ev, &b);
    CHECK(ev.pair == 0);
    gc_bodies_free(&b);
}

static void test_names(void)
{
    static const char *const good[] = {"first-passage", "second-passage", "fifth-passage",
                                       "passage-7", "merger", "coalescence"};
    static const char *const bad[] = {"", "first", "passage-0", "passage-", "passage-3x",
                                      "sixth-passage", "Merger", "passage-99"};
    enum gc_event_kind kind;
    int number;
    char name[32];
    for (size_t k = 0; k < sizeof good / sizeof good[0]; k++)
        CHECK(gc_event_parse(good[k], &kind, &number));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        CHECK(!gc_event_parse(bad[k], &kind, &number));
    CHECK(gc_event_parse("second-passage", &kind, &number) && kind == GC_EVENT_PASSAGE &&
          number == 2);
    CHECK(gc_event_parse("passage-7", &kind, &number) && number == 7);
    CHECK(gc_event_parse("coalescence", &kind, &number) && kind == GC_EVENT_MERGER);
    {
        struct gc_event e = {GC_EVENT_PASSAGE, 2, 0.0, 0.0f};
        gc_event_name(&e, name, sizeof name);
        CHECK(strcmp(name, "second passage") == 0);
        e.number = 9;
        gc_event_name(&e, name, sizeof name);
        CHECK(strcmp(name, "passage 9") == 0);
    }
}

int main(void)
{
    test_ellipse();
    test_open_orbits();
    test_merger();
    test_flyby();
    test_cluster();
    test_names();
    return CHECK_DONE();
}
