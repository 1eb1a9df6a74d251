/* Encounters of the built-in galaxies: the orbit asked for, the disks' angles, tidal tails of prograde and not of retrograde passages, every preset, the default pair unchanged. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "clock.h"
#include "encounter.h"
#include "log.h"
#include "model_galaxy.h"
#include "scenario.h"
#include "sim.h"
#include "units.h"

#define PI 3.14159265358979323846

/* Under AddressSanitizer the all-pairs force runs ~15x slower: there the tails' runs take
 * fewer bodies and longer steps, and the orbit is checked on the close passage only. */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifdef SANITIZED
#define ORBIT_CASES 1 /* the preset's 16 kpc passage only */
#define TAILS_N 2048
#define TAILS_DT 0.04
#else
#define ORBIT_CASES 2
#define TAILS_N 4096
#define TAILS_DT 0.02
#endif


static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void cross(const double a[3], const double b[3], double c[3])
{
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

static double norm(const double a[3])
{
    return sqrt(dot(a, a));
}

static size_t env_size(const char *name, size_t def)
{
    const char *s = getenv(name);
    return s && *s ? (size_t)strtoull(s, NULL, 10) : def;
}

static double env_double(const char *name, double def)
{
    const char *s = getenv(name);
    return s && *s ? atof(s) : def;
}

/* ---- 1. the Keplerian start: two point masses integrated from it ---- */

/* Integrates the relative orbit r'' = -mu r / |r|^3 from (r, v) with RK4 in double until
 * well past pericentre (t_max), returning the closest approach, the speed there and when;
 * the largest separation over the run into *rmax. Independent of the formulas that set the
 * start: a wrong start shows as a wrong pericentre or pericentre speed. */
static void kepler_run(double mu, const double r0[3], const double v0[3], double t_max,
                       double *rmin, double *vmin, double *tmin, double *rmax)
{
    double y[6] = {r0[0], r0[1], r0[2], v0[0], v0[1], v0[2]}, t = 0.0;
    *rmin = INFINITY, *rmax = 0.0, *vmin = NAN, *tmin = NAN;
    while (t < t_max) {
        double r = norm(y);
        /* steps of 1/2000 of the local dynamical time: RK4 errors far below 1e-9 */
        double h = 5e-4 * sqrt(r * r * r / mu);
        double k[4][6], s[6];
        for (int stage = 0; stage < 4; stage++) {
            double c = stage == 0 ? 0.0 : stage == 3 ? 1.0 : 0.5;
            for (int i = 0; i < 6; i++)
                s[i] = y[i] + (stage ? c * h * k[stage - 1][i] : 0.0);
            double rs = norm(s), f = -mu / (rs * rs * rs);
            for (int i = 0; i < 3; i++) {
                k[stage][i] = s[3 + i];
                k[stage][3 + i] = f * s[i];
            }
        }
        for (int i = 0; i < 6; i++)
            y[i] += h / 6.0 * (k[0][i] + 2.0 * k[1][i] + 2.0 * k[2][i] + k[3][i]);
        t += h;
        r = norm(y);
        if (r < *rmin)
            *rmin = r, *vmin = norm(y + 3), *tmin = t;
        if (r > *rmax)
            *rmax = r;
    }
}

static void test_kepler_start(void)
{
    /* (q, pericentre kpc, e, separation kpc: 0 = default) */
    static const double cases[][4] = {
        {1.0, 16.0, 1.0, 0.0},   {0.1, 13.0, 1.0, 0.0},  {0.25, 0.5, 1.0, 0.0},
        {0.5, 20.0, 1.5, 150.0}, {1.0, 40.0, 0.6, 0.0},  {0.05, 60.0, 3.0, 400.0},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        struct gc_encounter e;
        char why[256];
        double m[2], r[3], v[3], rmin, vmin, tmin, rmax;
        gc_encounter_mw_m31(&e);
        e.legacy = 0;
        e.mass_ratio = cases[c][0];
        e.pericentre = cases[c][1] / GC_KPC_PER_LENGTH_UNIT;
        e.eccentricity = cases[c][2];
        e.separation = cases[c][3] / GC_KPC_PER_LENGTH_UNIT;
        CHECK(gc_encounter_check(&e, why, sizeof why) == GC_OK);
        gc_encounter_masses(&e, m);
        gc_encounter_orbit(&e, m[0], m[1], r, v);
        double mu = m[0] + m[1], t_peri = gc_encounter_time_to_pericentre(&e);
        CHECK(t_peri > 0.0);
        /* The start: the separation asked for (or the default), approaching. */
        CHECK_NEAR(norm(r), gc_encounter_separation(&e), 1e-9 * norm(r));
        CHECK(dot(r, v) < 0.0 || e.eccentricity < 1.0);
        /* a bound orbit: past pericentre and out to its apocentre (half a period later) */
        double a = e.pericentre / (1.0 - e.eccentricity);
        double t_max = e.eccentricity < 1.0 ? t_peri + 1.05 * PI * sqrt(a * a * a / mu)
                                            : 1.5 * t_peri;
        kepler_run(mu, r, v, t_max, &rmin, &vmin, &tmin, &rmax);
        CHECK_NEAR(rmin, e.pericentre, 1e-6 * e.pericentre);
        /* vis-viva at pericentre: v^2 = mu (1 + e) / rp, which the eccentricity decides */
        CHECK_NEAR(vmin * vmin * e.pericentre / mu - 1.0, e.eccentricity, 1e-6);
        CHECK_NEAR(tmin, t_peri, 1e-4 * t_peri);
        if (e.eccentricity < 1.0)
            CHECK_NEAR(rmax, e.pericentre * (1 + e.eccentricity) / (1 - e.eccentricity),
                       1e-6 * rmax);
    }
}

/* ---- 2. built bodies: the disks' angles, centres, the default pair ---- */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Centre of galaxy g: per-axis median of its bulge bodies (robust against tails). */
static void centre(const struct gc_bodies *b, int g, double c[3])
{
    double *v = malloc(b->n * sizeof *v);
    for (int k = 0; k < 3; k++) {
        size_t m = 0;
        for (size_t i = 0; i < b->n; i++)
            if ((int)GC_TAG_GALAXY(b->tag[i]) == g && GC_TAG_COMPONENT(b->tag[i]) == GC_BULGE)
                v[m++] = b->pos[4 * i + k];
        qsort(v, m, sizeof *v, cmp_double);
        c[k] = m ? v[m / 2] : NAN;
    }
    free(v);
}

/* Mass-weighted mean position and velocity of galaxy g (all its components). */
static void com(const struct gc_bodies *b, int g, double x[3], double v[3], double *mass)
{
    double m = 0.0;
    memset(x, 0, 3 * sizeof *x);
    memset(v, 0, 3 * sizeof *v);
    for (size_t i = 0; i < b->n; i++) {
        if ((int)GC_TAG_GALAXY(b->tag[i]) != g)
            continue;
        double mi = b->pos[4 * i + 3];
        m += mi;
        for (int k = 0; k < 3; k++)
            x[k] += mi * b->pos[4 * i + k], v[k] += mi * b->vel[4 * i + k];
    }
    for (int k = 0; k < 3; k++)
        x[k] /= m, v[k] /= m;
    *mass = m;
}

/* Unit spin of galaxy g's disk: its angular momentum about the galaxy's centre of mass. */
static void disk_spin(const struct gc_bodies *b, int g, double s[3])
{
    double c[3], cv[3], m, l[3] = {0, 0, 0};
    com(b, g, c, cv, &m);
    for (size_t i = 0; i < b->n; i++) {
        if ((int)GC_TAG_GALAXY(b->tag[i]) != g || GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
            continue;
        double x[3], v[3], li[3];
        for (int k = 0; k < 3; k++)
            x[k] = b->pos[4 * i + k] - c[k], v[k] = b->vel[4 * i + k] - cv[k];
        cross(x, v, li);
        for (int k = 0; k < 3; k++)
            l[k] += li[k];
    }
    for (int k = 0; k < 3; k++)
        s[k] = l[k] / norm(l);
}

/* The disks of built bodies have the (i, omega) asked for, measured against the orbit of
 * the two galaxies' centres of mass (Toomre & Toomre: the other galaxy's orbit seen from
 * each disk), with the orbit's pericentre from its Laplace-Runge-Lenz vector. */
static void test_disk_angles(void)
{
    static const double disks[][4] = {{0, 0, 180, 0},     {60, -30, 60, -30}, {90, 90, 0, 0},
                                      {15, -125, 25, -160}, {135, 45, 30, 170}};
    for (size_t c = 0; c < sizeof disks / sizeof disks[0]; c++) {
        struct gc_encounter e;
        struct gc_bodies b;
        gc_encounter_mw_m31(&e);
        e.legacy = 0;
        e.mass_ratio = 0.5;
        e.pericentre = 5.0;
        e.eccentricity = 1.0;
        e.primary.incl = disks[c][0], e.primary.omega = disks[c][1];
        e.companion.incl = disks[c][2], e.companion.omega = disks[c][3];
        e.sky[0] = 30.0 * (double)c, e.sky[1] = -20.0, e.sky[2] = 75.0; /* any view */
        CHECK(gc_encounter_build(&e, 40000, 5, &b) == GC_OK);
        if (b.n != 40000)
            continue;
        /* slot 1 = primary, slot 0 = companion */
        double xp[3], vp[3], xc[3], vc[3], mp, mc, r[3], v[3], h[3], ev[3], t[3];
        com(&b, 1, xp, vp, &mp);
        com(&b, 0, xc, vc, &mc);
        CHECK_NEAR(mc / mp, 0.5, 1e-5);
        for (int k = 0; k < 3; k++)
            r[k] = xc[k] - xp[k], v[k] = vc[k] - vp[k];
        cross(r, v, h);
        cross(v, h, t);
        for (int k = 0; k < 3; k++)
            ev[k] = t[k] / (mp + mc) - r[k] / norm(r);
        /* parabolic, from the sampled galaxies' centres of mass: their sampling noise
         * (sigma / sqrt(N) of the halos) leaves about a percent */
        CHECK_NEAR(norm(ev), 1.0, 0.03);
        for (int g = 0; g < 2; g++) {
            const double *want = g == 1 ? disks[c] : disks[c] + 2;
            double s[3], node[3], peri[3], lh[3], x[3];
            disk_spin(&b, g, s);
            for (int k = 0; k < 3; k++)
                lh[k] = h[k] / norm(h);
            /* a sampled disk's spin and a sampled orbit's plane: a degree or so of noise
             * (measured up to 1.3 degrees at this N) */
            double incl = acos(dot(s, lh)) * 180.0 / PI;
            CHECK_NEAR(incl, want[0], 2.0);
            if (want[0] < 20.0 || want[0] > 160.0)
                continue; /* the node's direction is noise / sin i: not measurable here */
            /* ascending node: where the other galaxy rises through this disk's plane */
            cross(s, lh, node);
            /* the other galaxy's pericentre seen from this one: +ev from the primary */
            for (int k = 0; k < 3; k++)
                peri[k] = (g == 1 ? 1.0 : -1.0) * ev[k];
            cross(node, peri, x);
            double omega = atan2(dot(x, lh), dot(node, peri)) * 180.0 / PI;
            double d = fmod(omega - want[1] + 540.0, 360.0) - 180.0;
            CHECK_NEAR(d, 0.0, 3.0);
        }
        gc_bodies_free(&b);
    }
}

/* The legacy encounter is today's builder, byte for byte (the CLI test compares those bytes
 * with the ones the code before encounters wrote). */
static void test_legacy_same(void)
{
    struct gc_encounter e;
    struct gc_bodies a, b;
    gc_encounter_mw_m31(&e);
    CHECK(e.legacy == 1);
    CHECK(gc_encounter_build(&e, 3000, 9, &a) == GC_OK);
    CHECK(gc_model_galaxy_build("mw-m31", 3000, 9, &b) == GC_OK);
    CHECK(a.n == 3000 && b.n == 3000 && memcmp(a.pos, b.pos, 16 * a.n) == 0 &&
          memcmp(a.vel, b.vel, 16 * a.n) == 0 && memcmp(a.tag, b.tag, a.n) == 0);
    gc_bodies_free(&a);
    gc_bodies_free(&b);
    /* Sizes follow mass as the pair's own: its mass ratio makes the companion galaxy A
     * again, the primary galaxy B (A with lengths x1.5, masses x2.09505). A's half-mass
     * radius here by bisection on the model's own mass profile. */
    struct gc_model_galaxy_params pa;
    double rh[2], m[2], lo = 0.0, hi = 50.0;
    gc_model_galaxy_params_mw(&pa);
    const double cm[3] = {pa.disk_mass, pa.bulge_mass, pa.halo_mass}, ma = cm[0] + cm[1] + cm[2];
    for (int it = 0; it < 100; it++) {
        double mid = 0.5 * (lo + hi), in = 0.0;
        for (int c = 0; c < 3; c++)
            in += cm[c] * gc_model_galaxy_mass_fraction(&pa, (enum gc_component)c, mid);
        *(in < 0.5 * ma ? &lo : &hi) = mid;
    }
    gc_encounter_half_mass(&e, rh);
    gc_encounter_masses(&e, m);
    CHECK_NEAR(rh[1], lo, 1e-9 * lo);
    CHECK_NEAR(rh[0], 1.5 * lo, 1e-9 * lo);
    CHECK_NEAR(m[1], ma, 1e-12 * ma);
    CHECK_NEAR(m[0], 2.09505 * ma, 1e-12 * ma);
    CHECK_NEAR(gc_encounter_alpha(), 0.548, 0.0005);
    /* Its derived values: Andromeda the primary, the Milky Way 1:2.095, the Dubinski orbit
     * (shared/data/README.md: pericentre 3.5, nearly parabolic). */
    CHECK_NEAR(e.mass_ratio, 1.0 / 2.09505, 1e-12);
    CHECK_NEAR(e.pericentre, 3.5, 0.01);
    CHECK_NEAR(e.eccentricity, 0.995, 0.001);
}

/* Bad values and geometries are refused with a reason. */
static void test_refused(void)
{
    struct gc_encounter e, ok;
    char why[256];
    gc_scenario_encounter(gc_scenario_find("prograde"), &ok);
    CHECK(gc_encounter_check(&ok, why, sizeof why) == GC_OK);
    e = ok, e.mass_ratio = 0.04;
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "1:20"));
    e = ok, e.pericentre = 250.0 / GC_KPC_PER_LENGTH_UNIT;
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "200 kpc"));
    e = ok, e.eccentricity = -0.1;
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID);
    e = ok, e.primary.incl = 181.0;
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "primary"));
    e = ok, e.separation = 20.0 / GC_KPC_PER_LENGTH_UNIT; /* inside two half-mass radii */
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "overlap"));
    e = ok, e.separation = 10.0 / GC_KPC_PER_LENGTH_UNIT;
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "pericentre"));
    e = ok, e.eccentricity = 0.5, e.separation = 100.0 / GC_KPC_PER_LENGTH_UNIT;
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "apocentre"));
    e = ok, e.eccentricity = 0.2; /* starts at its apocentre, 24 kpc: overlapping */
    CHECK(gc_encounter_check(&e, why, sizeof why) == GC_ERR_INVALID && strstr(why, "overlap"));
    struct gc_bodies b;
    CHECK(gc_encounter_build(&e, 1000, 1, &b) == GC_ERR_INVALID && b.n == 0);
}

/* ---- 3. the galaxies' own orbit, and the tails ---- */

struct run {
    struct gc_backend *be;
    struct gc_sim *sim;
    struct gc_bodies b;
};

static int run_start(struct run *r, const struct gc_encounter *e, size_t n, float dt)
{
    struct gc_backend_options bo;
    struct gc_sim_params sp;
    memset(r, 0, sizeof *r);
    memset(&bo, 0, sizeof bo);
    bo.quiet = 1;
    if (gc_encounter_build(e, n, 3, &r->b) != GC_OK ||
        gc_backend_create("cpu", &bo, &r->be) != GC_OK)
        return 0;
    gc_sim_params_default(&sp);
    sp.dt = dt;
    sp.force = "allpairs";
    return gc_sim_create(r->be, NULL, &r->b, &sp, NULL, &r->sim) == GC_OK;
}

static void run_end(struct run *r)
{
    gc_sim_destroy(r->sim);
    gc_backend_destroy(r->be);
    gc_bodies_free(&r->b);
}

/* Separation of the galaxies' centres (bulge medians) at time t. */
static double separation_at(struct run *r, double t)
{
    double a[3], b[3], d[3];
    if (gc_sim_advance(r->sim, t) != GC_OK || gc_sim_download(r->sim, &r->b) != GC_OK)
        return NAN;
    centre(&r->b, 0, a);
    centre(&r->b, 1, b);
    for (int k = 0; k < 3; k++)
        d[k] = a[k] - b[k];
    return norm(d);
}

/* First pericentre of the built galaxies' centres against the Keplerian one asked for: the
 * point-mass orbit holds while the galaxies are apart and bends once their halos overlap
 * (docs/model.md). Measured at 2048 bodies, dt 0.04, equal masses: asked 60 kpc at 398 Myr,
 * got 56.5 kpc at 342 Myr (-6%, -14%: the halos overlap from the start, 120 kpc apart);
 * asked 16 kpc at 245 Myr, got 17.2 kpc at 260 Myr (+7.5%, +6%). Allowed: 15% in distance,
 * 20% in time. */
static void test_first_pericentre(void)
{
    size_t n = env_size("GC_ENCOUNTER_ORBIT_N", 2048);
    static const double rp_kpc[2] = {16.0, 60.0};
    for (size_t c = 0; c < ORBIT_CASES; c++) {
        struct gc_encounter e;
        struct run r;
        gc_scenario_encounter(gc_scenario_find("prograde"), &e);
        e.pericentre = rp_kpc[c] / GC_KPC_PER_LENGTH_UNIT;
        double t_peri = gc_encounter_time_to_pericentre(&e), best = INFINITY, t_best = 0.0;
        double t0 = gc_clock_seconds();
        if (!run_start(&r, &e, n, 0.04f)) {
            CHECK(0);
            continue;
        }
        for (double t = 0.5 * t_peri; t < 1.3 * t_peri; t += 0.02 * t_peri) {
            double d = separation_at(&r, t);
            if (d < best)
                best = d, t_best = t;
        }
        printf("first pericentre, asked %.1f kpc at %.0f Myr: measured %.1f kpc at %.0f Myr "
               "(%.1f s)\n", rp_kpc[c], t_peri * GC_MYR_PER_TIME_UNIT,
               best * GC_KPC_PER_LENGTH_UNIT, t_best * GC_MYR_PER_TIME_UNIT,
               gc_clock_seconds() - t0);
        CHECK_NEAR(best / e.pericentre, 1.0, 0.15);
        CHECK_NEAR(t_best / t_peri, 1.0, 0.2);
        run_end(&r);
    }
}

/* Fraction of the disk bodies farther than 3 disk scale lengths from their own galaxy's
 * centre (bulge median): stars thrown into tails and bridges. */
static double far_fraction(const struct gc_bodies *b, double h)
{
    double c[2][3];
    size_t far = 0, disk = 0;
    centre(b, 0, c[0]);
    centre(b, 1, c[1]);
    for (size_t i = 0; i < b->n; i++) {
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
            continue;
        int g = GC_TAG_GALAXY(b->tag[i]);
        double d[3];
        for (int k = 0; k < 3; k++)
            d[k] = b->pos[4 * i + k] - c[g][k];
        disk++;
        far += norm(d) > 3.0 * h;
    }
    return disk ? (double)far / (double)disk : NAN;
}

/* Toomre & Toomre's experiment with live galaxies: equal masses, parabolic, both disks in
 * the orbit plane turning with the orbit (prograde) or against it (retrograde), the same
 * bodies otherwise. 150 Myr after the Keplerian pericentre the prograde disks have thrown
 * out tails and the retrograde ones have not. The measure is the fraction of disk bodies
 * beyond 3 disk scale lengths from their galaxy's centre. An exponential disk starts with
 * 20% there, (1 + 3) e^-3, and at 4096 bodies two-body heating by the halo bodies moves
 * more out with no encounter at all: so each passage is measured against the same
 * galaxies run apart (the control: 1000 kpc, pericentre 200 kpc, never meeting in that
 * time). Measured at 4096 bodies, dt 0.02 (docs/model.md): prograde 0.408, retrograde
 * 0.284, control 0.278, so 0.129 against 0.006 thrown out by the passage; at 2048 bodies
 * and dt 0.04 (the sanitizer build's run) 0.093 against 0.007. */

static void test_prograde_retrograde(void)
{
    static const char *const runs[3] = {"prograde", "retrograde", "control"};
    size_t n = env_size("GC_ENCOUNTER_TAILS_N", TAILS_N);
    double frac[3], start[3];
    struct gc_model_galaxy_params p;
    gc_model_galaxy_params_mw(&p);
    /* the primary's (and, equal masses, the companion's) disk scale length */
    const double h = p.disk_h * GC_MODEL_B_LENGTH_SCALE;
    struct gc_encounter pro;
    gc_scenario_encounter(gc_scenario_find("prograde"), &pro);
    const double t = gc_encounter_time_to_pericentre(&pro) + 150.0 / GC_MYR_PER_TIME_UNIT;
    for (int k = 0; k < 3; k++) {
        struct gc_encounter e;
        struct run r;
        double t0 = gc_clock_seconds();
        gc_scenario_encounter(gc_scenario_find(k == 1 ? "retrograde" : "prograde"), &e);
        if (k == 2) {
            e.pericentre = 200.0 / GC_KPC_PER_LENGTH_UNIT;
            e.separation = 1000.0 / GC_KPC_PER_LENGTH_UNIT;
        }
        frac[k] = start[k] = NAN;
        if (!run_start(&r, &e, n, (float)env_double("GC_ENCOUNTER_TAILS_DT", TAILS_DT))) {
            CHECK(0);
            continue;
        }
        start[k] = far_fraction(&r.b, h);
        if (gc_sim_advance(r.sim, t) == GC_OK && gc_sim_download(r.sim, &r.b) == GC_OK)
            frac[k] = far_fraction(&r.b, h);
        printf("%s, %zu bodies: disk beyond 3 h: %.4f at the start, %.4f at %.0f Myr (%.1f s)\n",
               runs[k], n, start[k], frac[k], t * GC_MYR_PER_TIME_UNIT, gc_clock_seconds() - t0);
        run_end(&r);
    }
    /* the same bodies at the start, whichever the spin */
    CHECK(start[0] == start[1] && start[1] == start[2]);
    double pro_out = frac[0] - frac[2], retro_out = frac[1] - frac[2];
    printf("thrown out by the passage: prograde %.4f, retrograde %.4f\n", pro_out, retro_out);
    CHECK(pro_out > 0.04);
    CHECK(pro_out >= 3.0 * retro_out);
}

/* Every preset builds and runs a few steps; its values pass its own check. */
static void test_presets(void)
{
    for (size_t k = 0; k < gc_scenario_count(); k++) {
        const struct gc_scenario *s = gc_scenario_at(k);
        struct gc_encounter e;
        struct run r;
        char why[256];
        gc_scenario_encounter(s, &e);
        CHECK(gc_encounter_check(&e, why, sizeof why) == GC_OK);
        CHECK(s->title && s->source && *s->title && *s->source);
        if (!run_start(&r, &e, 512, 0.01f)) {
            CHECK(0);
            continue;
        }
        CHECK(gc_sim_advance(r.sim, 0.05) == GC_OK);
        CHECK(gc_sim_download(r.sim, &r.b) == GC_OK);
        for (size_t i = 0; i < r.b.n; i++)
            CHECK(isfinite(r.b.pos[4 * i] + r.b.pos[4 * i + 1] + r.b.pos[4 * i + 2]));
        run_end(&r);
    }
}

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    gc_log_set_level(GC_LOG_WARN);
    if (!only || strcmp(only, "start") == 0) {
        test_kepler_start();
        test_disk_angles();
        test_legacy_same();
        test_refused();
        test_presets();
    }
    if (!only || strcmp(only, "orbit") == 0)
        test_first_pericentre();
    if (!only || strcmp(only, "tails") == 0)
        test_prograde_retrograde();
    return check_failures ? 1 : 0;
}
