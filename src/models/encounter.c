/* Encounters of two built-in galaxies: scaling by mass, the Keplerian start, the Toomre & Toomre disk angles, checks, build. */
/* SPDX-License-Identifier: MIT */
#include "encounter.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "model_galaxy.h"
#include "model_galaxy_sample.h"
#include "units.h"

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

/* Where the mw-m31 pair starts, and the default start of any other encounter at least. */
#define DEFAULT_SEPARATION 30.0

/* ---- the two galaxies ---- */

double gc_encounter_alpha(void)
{
    return log(GC_MODEL_B_LENGTH_SCALE) / log(GC_MODEL_B_MASS_SCALE);
}

/* Mass and length scale of each galaxy relative to the model's galaxy A: the primary is the
 * table's Andromeda (B), the companion B scaled to mass_ratio times its mass, lengths by
 * mass^alpha. The mw-m31 ratio 1 / 2.09505 gives the table's Milky Way (A) back. */
static void scales(const struct gc_encounter *e, double mscale[2], double lscale[2])
{
    mscale[0] = GC_MODEL_B_MASS_SCALE;
    lscale[0] = GC_MODEL_B_LENGTH_SCALE;
    mscale[1] = e->mass_ratio * GC_MODEL_B_MASS_SCALE;
    lscale[1] = GC_MODEL_B_LENGTH_SCALE * pow(e->mass_ratio, gc_encounter_alpha());
}

/* Galaxy A's structure scaled homologously to mass ms and length ls (in N-body units: the
 * softening, which does not scale, is then accounted for at the galaxy's own size). */
static void scaled_params(double ms, double ls, struct gc_model_galaxy_params *p)
{
    gc_model_galaxy_params_mw(p);
    p->disk_mass *= ms, p->bulge_mass *= ms, p->halo_mass *= ms;
    p->disk_h *= ls, p->disk_z0 *= ls, p->disk_rmax *= ls;
    p->bulge_a *= ls, p->bulge_rt *= ls, p->halo_a *= ls, p->halo_rt *= ls;
}

static double total_mass(const struct gc_model_galaxy_params *p)
{
    return p->disk_mass + p->bulge_mass + p->halo_mass;
}


/* Radius holding half of galaxy p's mass (the disk's cylindrical fraction counted as if
 * spherical, as the model's Jeans integrals do), by bisection. */
static double half_mass(const struct gc_model_galaxy_params *p)
{
    const double m[3] = {p->disk_mass, p->bulge_mass, p->halo_mass};
    double lo = 0.0, hi = p->halo_rt, half = 0.5 * total_mass(p);
    for (int it = 0; it < 60; it++) {
        double mid = 0.5 * (lo + hi), in = 0.0;
        for (int c = 0; c < 3; c++)
            in += m[c] * gc_model_galaxy_mass_fraction(p, (enum gc_component)c, mid);
        if (in < half)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Galaxy A's total mass (which = 0) or half-mass radius (1), scaled to the primary [0] and
 * the companion [1]: both scale homologously. */
static void scaled(const struct gc_encounter *e, int which, double out[2])
{
    double ms[2], ls[2];
    struct gc_model_galaxy_params a;
    gc_model_galaxy_params_mw(&a);
    scales(e, ms, ls);
    for (int k = 0; k < 2; k++)
        out[k] = which ? half_mass(&a) * ls[k] : total_mass(&a) * ms[k];
}

void gc_encounter_masses(const struct gc_encounter *e, double m[2])
{
    scaled(e, 0, m);
}

void gc_encounter_half_mass(const struct gc_encounter *e, double r[2])
{
    scaled(e, 1, r);
}

/* ---- orbit and orientations ---- */

static double apocentre(const struct gc_encounter *e)
{
    return e->eccentricity < 1.0 ? e->pericentre * (1.0 + e->eccentricity) /
                                       (1.0 - e->eccentricity)
                                 : INFINITY;
}

double gc_encounter_separation(const struct gc_encounter *e)
{
    double rh[2], d;
    if (e->separation > 0.0)
        return e->separation;
    gc_encounter_half_mass(e, rh);
    d = fmax(DEFAULT_SEPARATION, fmax(1.5 * (rh[0] + rh[1]), 2.0 * e->pericentre));
    return fmin(d, apocentre(e));
}

void gc_encounter_orbit(const struct gc_encounter *e, double m_primary, double m_companion,
                        double r[3], double v[3])
{
    const double mu = m_primary + m_companion, ecc = e->eccentricity;
    const double p = e->pericentre * (1.0 + ecc); /* semi-latus rectum */
    double r0 = gc_encounter_separation(e), f = 0.0;
    /* True anomaly on the way in (f < 0) where r = p / (1 + e cos f) = r0; a circular orbit
     * starts anywhere: at pericentre. */
    if (ecc > 0.0) {
        double c = (p / r0 - 1.0) / ecc;
        f = -acos(fmax(-1.0, fmin(1.0, c)));
    }
    double rr = p / (1.0 + ecc * cos(f)), vs = sqrt(mu / p);
    r[0] = rr * cos(f), r[1] = rr * sin(f), r[2] = 0.0;
    v[0] = -vs * sin(f), v[1] = vs * (ecc + cos(f)), v[2] = 0.0;
}

double gc_encounter_time_to_pericentre(const struct gc_encounter *e)
{
    double m[2], r[3], v[3];
    const double ecc = e->eccentricity, rp = e->pericentre;
    gc_encounter_masses(e, m);
    const double mu = m[0] + m[1], p = rp * (1.0 + ecc);
    gc_encounter_orbit(e, m[0], m[1], r, v);
    double f = atan2(r[1], r[0]); /* <= 0 on the way in */
    if (fabs(ecc - 1.0) < 1e-9) { /* Barker's equation */
        double d = tan(0.5 * f);
        return -0.5 * sqrt(p * p * p / mu) * (d + d * d * d / 3.0);
    }
    if (ecc < 1.0) { /* eccentric anomaly */
        double a = rp / (1.0 - ecc);
        double ea = 2.0 * atan(sqrt((1.0 - ecc) / (1.0 + ecc)) * tan(0.5 * f));
        return -(ea - ecc * sin(ea)) * sqrt(a * a * a / mu);
    }
    double a = rp / (ecc - 1.0); /* hyperbolic anomaly */
    double ha = 2.0 * atanh(sqrt((ecc - 1.0) / (ecc + 1.0)) * tan(0.5 * f));
    return -(ecc * sinh(ha) - ha) * sqrt(a * a * a / mu);
}

/* The other galaxy's pericentre seen from the primary lies on +x, from the companion on -x:
 * the same (i, omega) turn the two spins into mirror images about the z axis. */
void gc_encounter_spin(const struct gc_encounter *e, int which, double s[3])
{
    const struct gc_encounter_disk *d = which ? &e->companion : &e->primary;
    double si = sin(d->incl * DEG), sign = which ? -1.0 : 1.0;
    s[0] = sign * si * sin(d->omega * DEG);
    s[1] = sign * si * cos(d->omega * DEG);
    s[2] = cos(d->incl * DEG);
}

void gc_encounter_sky_matrix(const struct gc_encounter *e, double m[9])
{
    double cx = cos(e->sky[0] * DEG), sx = sin(e->sky[0] * DEG);
    double cy = cos(e->sky[1] * DEG), sy = sin(e->sky[1] * DEG);
    double cz = cos(e->sky[2] * DEG), sz = sin(e->sky[2] * DEG);
    /* Rz * Ry * Rx: about x first, then y, then z. */
    const double rx[9] = {1, 0, 0, 0, cx, -sx, 0, sx, cx};
    const double ry[9] = {cy, 0, sy, 0, 1, 0, -sy, 0, cy};
    const double rz[9] = {cz, -sz, 0, sz, cz, 0, 0, 0, 1};
    double t[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            t[3 * i + j] = 0.0;
            for (int k = 0; k < 3; k++)
                t[3 * i + j] += ry[3 * i + k] * rx[3 * k + j];
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            m[3 * i + j] = 0.0;
            for (int k = 0; k < 3; k++)
                m[3 * i + j] += rz[3 * i + k] * t[3 * k + j];
        }
}

/* Orbit frame -> output frame: into the sky frame (x right, y up, z towards the viewer),
 * then sky x, y, z to world x, z, -y: the viewer's camera keeps world z up, and looks along
 * +y from the -y side. */
static void to_world(const double m[9], const double a[3], double out[3])
{
    double sky[3];
    for (int i = 0; i < 3; i++)
        sky[i] = m[3 * i] * a[0] + m[3 * i + 1] * a[1] + m[3 * i + 2] * a[2];
    out[0] = sky[0];
    out[1] = -sky[2];
    out[2] = sky[1];
}

/* ---- today's pair as an encounter ---- */

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

static void unit(double a[3])
{
    double l = sqrt(dot(a, a));
    for (int k = 0; k < 3; k++)
        a[k] /= l;
}

/* (i, omega) of a spin s given in the orbit frame's axes x, y, z (sign: +1 primary, -1
 * companion; gc_encounter_spin inverted). */
static void disk_angles(const double s_in[3], const double x[3], const double y[3],
                        const double z[3], double sign, struct gc_encounter_disk *d)
{
    double s[3] = {dot(s_in, x), dot(s_in, y), dot(s_in, z)};
    unit(s);
    d->incl = acos(fmax(-1.0, fmin(1.0, s[2]))) / DEG;
    d->omega = atan2(sign * s[0], sign * s[1]) / DEG;
}

void gc_encounter_mw_m31(struct gc_encounter *e)
{
    double dr[3], dv[3], s_mw[3], s_m31[3], r[3], v[3], h[3], ev[3], vxh[3], y[3];
    struct gc_model_galaxy_params a;
    memset(e, 0, sizeof *e);
    gc_model_galaxy_pair_orbit(dr, dv, s_mw, s_m31);
    gc_model_galaxy_params_mw(&a);
    e->legacy = 1;
    e->mass_ratio = 1.0 / GC_MODEL_B_MASS_SCALE;
    /* The companion (Milky Way) relative to the primary (Andromeda): -dr, -dv. */
    for (int k = 0; k < 3; k++)
        r[k] = -dr[k], v[k] = -dv[k];
    double mu = total_mass(&a) * (1.0 + GC_MODEL_B_MASS_SCALE), rl = sqrt(dot(r, r));
    cross(r, v, h);
    cross(v, h, vxh);
    for (int k = 0; k < 3; k++)
        ev[k] = vxh[k] / mu - r[k] / rl; /* Laplace-Runge-Lenz: towards pericentre */
    e->eccentricity = sqrt(dot(ev, ev));
    e->pericentre = dot(h, h) / mu / (1.0 + e->eccentricity);
    /* It starts 29.975 apart; as an encounter it keeps the default start (30), so that a
     * changed orbit starts where it can (a bound one at most at its apocentre). */
    e->separation = 0.0;
    unit(h);
    unit(ev);
    cross(h, ev, y);
    disk_angles(s_m31, ev, y, h, 1.0, &e->primary);
    disk_angles(s_mw, ev, y, h, -1.0, &e->companion);
}

int gc_encounter_same(const struct gc_encounter *a, const struct gc_encounter *b)
{
    if (a->legacy || b->legacy)
        return a->legacy == b->legacy;
    return a->mass_ratio == b->mass_ratio && a->pericentre == b->pericentre &&
           a->eccentricity == b->eccentricity && a->separation == b->separation &&
           a->primary.incl == b->primary.incl && a->primary.omega == b->primary.omega &&
           a->companion.incl == b->companion.incl && a->companion.omega == b->companion.omega &&
           a->sky[0] == b->sky[0] && a->sky[1] == b->sky[1] && a->sky[2] == b->sky[2];
}

/* ---- checks ---- */

static int outside(double v, double lo, double hi)
{
    return !(v >= lo && v <= hi);
}

enum gc_status gc_encounter_check(const struct gc_encounter *e, char *why, size_t size)
{
    const double kpc = GC_KPC_PER_LENGTH_UNIT;
    double rh[2], d;
    if (e->legacy)
        return GC_OK;
    if (outside(e->mass_ratio, GC_ENCOUNTER_Q_MIN, GC_ENCOUNTER_Q_MAX)) {
        snprintf(why, size, "the mass ratio %g is outside 1:20 to 1:1 (0.05 to 1)",
                 e->mass_ratio);
        return GC_ERR_INVALID;
    }
    if (outside(e->pericentre * kpc, GC_ENCOUNTER_RP_MIN_KPC, GC_ENCOUNTER_RP_MAX_KPC)) {
        snprintf(why, size, "the pericentre %g kpc is outside %g to %g kpc", e->pericentre * kpc,
                 GC_ENCOUNTER_RP_MIN_KPC, GC_ENCOUNTER_RP_MAX_KPC);
        return GC_ERR_INVALID;
    }
    if (outside(e->eccentricity, GC_ENCOUNTER_E_MIN, GC_ENCOUNTER_E_MAX)) {
        snprintf(why, size, "the eccentricity %g is outside %g to %g", e->eccentricity,
                 GC_ENCOUNTER_E_MIN, GC_ENCOUNTER_E_MAX);
        return GC_ERR_INVALID;
    }
    if (outside(e->separation * kpc, 0.0, GC_ENCOUNTER_SEP_MAX_KPC)) {
        snprintf(why, size, "the starting separation %g kpc is outside 0 (the default) to %g kpc",
                 e->separation * kpc, GC_ENCOUNTER_SEP_MAX_KPC);
        return GC_ERR_INVALID;
    }
    for (int k = 0; k < 2; k++) {
        const struct gc_encounter_disk *dk = k ? &e->companion : &e->primary;
        if (outside(dk->incl, 0.0, 180.0) || outside(dk->omega, -180.0, 180.0)) {
            snprintf(why, size, "the %s disk's angles (i %g, omega %g) are outside i 0 to 180 "
                     "and omega -180 to 180 degrees", k ? "companion" : "primary", dk->incl,
                     dk->omega);
            return GC_ERR_INVALID;
        }
    }
    for (int k = 0; k < 3; k++)
        if (outside(e->sky[k], -360.0, 360.0)) {
            snprintf(why, size, "the viewing angle %g is outside -360 to 360 degrees",
                     e->sky[k]);
            return GC_ERR_INVALID;
        }
    gc_encounter_half_mass(e, rh);
    d = gc_encounter_separation(e);
    if (e->separation > 0.0 && d < e->pericentre) {
        snprintf(why, size, "the starting separation %.4g kpc is inside the pericentre %.4g kpc: "
                 "the galaxies start apart and approach", d * kpc, e->pericentre * kpc);
        return GC_ERR_INVALID;
    }
    if (e->separation > 0.0 && d > apocentre(e) * (1.0 + 1e-12)) {
        snprintf(why, size, "a bound orbit (eccentricity %g) with pericentre %.4g kpc is never "
                 "farther apart than its apocentre %.4g kpc; the starting separation %.4g kpc "
                 "is beyond it", e->eccentricity, e->pericentre * kpc, apocentre(e) * kpc,
                 d * kpc);
        return GC_ERR_INVALID;
    }
    if (d < rh[0] + rh[1]) {
        snprintf(why, size, "the galaxies would start overlapping: at %.4g kpc apart their "
                 "half-mass radii (%.3g and %.3g kpc) add up to more%s", d * kpc, rh[0] * kpc,
                 rh[1] * kpc, e->separation > 0.0 ? "; start them farther apart"
                 : " (a bound orbit starts at its apocentre: a larger pericentre or "
                   "eccentricity takes them farther)");
        return GC_ERR_INVALID;
    }
    return GC_OK;
}

/* ---- build ---- */

enum gc_status gc_encounter_build(const struct gc_encounter *e, size_t n, uint64_t seed,
                                  struct gc_bodies *out)
{
    struct gc_model_galaxy_params p[2];
    struct gc_model_galaxy_tables *t[2] = {NULL, NULL};
    struct gc_model_galaxy_place g[2];
    double ms[2], ls[2], m[2], r[3], v[3], sky[9];
    size_t counts[6];
    char why[256];
    enum gc_status st;
    memset(out, 0, sizeof *out);
    if (e->legacy)
        return gc_model_galaxy_build("mw-m31", n, seed, out);
    if (gc_encounter_check(e, why, sizeof why) != GC_OK) {
        gc_log_error("encounter: %s", why);
        return GC_ERR_INVALID;
    }
    st = gc_model_galaxy_counts("mw-m31", n, counts);
    if (st != GC_OK)
        return st;
    scales(e, ms, ls);
    for (int k = 0; k < 2; k++)
        scaled_params(ms[k], ls[k], &p[k]);
    /* Each galaxy's tables at its own size (the softening does not scale with it); an
     * equal-mass pair shares one set. */
    int same = e->mass_ratio == 1.0;
    for (int k = 0; k < 2 && st == GC_OK; k++)
        if (k == 0 || !same)
            st = gc_model_galaxy_tables_new(&p[k], &t[k]);
    if (st != GC_OK) {
        gc_model_galaxy_tables_free(t[0]);
        gc_model_galaxy_tables_free(t[1]);
        return st;
    }
    if (same)
        t[1] = t[0];

    /* The Keplerian orbit of the two total masses, each galaxy at its place about their
     * centre of mass; everything turned from the orbit frame into the sky frame. */
    m[0] = total_mass(&p[0]);
    m[1] = total_mass(&p[1]);
    gc_encounter_orbit(e, m[0], m[1], r, v);
    gc_encounter_sky_matrix(e, sky);
    memset(g, 0, sizeof g);
    for (int k = 0; k < 2; k++) {
        /* slot 0 (A) = companion = k 1; slot 1 (B) = primary = k 0 */
        struct gc_model_galaxy_place *gk = &g[1 - k];
        double s[3], c[3], w[3], f = k == 0 ? -m[1] / (m[0] + m[1]) : m[0] / (m[0] + m[1]);
        gk->p = &p[k];
        gk->t = t[k];
        gk->lscale = gk->mscale = 1.0;
        gc_encounter_spin(e, k, s);
        for (int d = 0; d < 3; d++)
            c[d] = f * r[d], w[d] = f * v[d];
        to_world(sky, s, gk->spin);
        to_world(sky, c, gk->centre);
        to_world(sky, w, gk->vel);
    }
    st = gc_model_galaxy_assemble(g, counts, seed, out);
    gc_model_galaxy_tables_free(t[0]);
    if (!same)
        gc_model_galaxy_tables_free(t[1]);
    return st;
}
