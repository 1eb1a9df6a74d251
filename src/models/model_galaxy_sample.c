/* One disk + bulge + halo galaxy in equilibrium: profiles, potential and Jeans tables, body draws. */
/* SPDX-License-Identifier: MIT */
#include "model_galaxy_sample.h"

#include <math.h>
#include <stdlib.h>

#include "log.h"
#include "units.h"

#define PI 3.14159265358979323846

/* Radial tables: the potential, the Jeans integrals and the disk kinematics are tabulated
 * once per build on NGRID points and interpolated, so sampling is O(1) per body and the
 * cost is O(N) overall. 4096 points keep interpolation errors below 1e-4 relative. */
#define NGRID 4096

/* ---- analytic profiles ---- */

/* Truncated Hernquist sphere: M(<r) / M(<rt). */
static double hern_frac(double r, double a, double rt)
{
    if (r >= rt)
        return 1.0;
    double q = r / (r + a), qt = rt / (rt + a);
    return (q * q) / (qt * qt);
}

/* Density of a Hernquist sphere holding mass m inside rt, zero outside. */
static double hern_rho(double r, double m, double a, double rt)
{
    if (r > rt)
        return 0.0;
    double qt = rt / (rt + a);
    double x = r + a;
    return m / (qt * qt) * a / (2.0 * PI * r * x * x * x);
}

/* Exponential disk: fraction of the untruncated mass inside x = R / h. */
static double expo_frac(double x)
{
    return 1.0 - (1.0 + x) * exp(-x);
}

static double disk_frac(const struct gc_model_galaxy_params *p, double r)
{
    if (r >= p->disk_rmax)
        return 1.0;
    return expo_frac(r / p->disk_h) / expo_frac(p->disk_rmax / p->disk_h);
}

double gc_model_galaxy_mass_fraction(const struct gc_model_galaxy_params *p,
                                     enum gc_component c, double r)
{
    if (r <= 0.0)
        return 0.0;
    switch (c) {
    case GC_DISK: return disk_frac(p, r);
    case GC_BULGE: return hern_frac(r, p->bulge_a, p->bulge_rt);
    case GC_HALO: return hern_frac(r, p->halo_a, p->halo_rt);
    case GC_STAR: break; /* not a component of a galaxy */
    }
    return 0.0;
}

/* Mass inside spherical radius r, the disk counted by its cylindrical enclosed mass. This
 * spherical approximation of the disk is used for the bulge and halo Jeans integrals only;
 * the disk is ~7% of the galaxy's mass, so the error it makes in their dispersions is small. */
static double mass_sph(const struct gc_model_galaxy_params *p, double r)
{
    return p->bulge_mass * hern_frac(r, p->bulge_a, p->bulge_rt) +
           p->halo_mass * hern_frac(r, p->halo_a, p->halo_rt) + p->disk_mass * disk_frac(p, r);
}

/* Complete elliptic integral of the first kind K(m), m = k^2 < 1, by the arithmetic-
 * geometric mean: K = pi / (2 AGM(1, sqrt(1 - m))); converges quadratically. */
static double ellip_k(double m)
{
    double a = 1.0, b = sqrt(1.0 - m);
    while (fabs(a - b) > 1e-12 * a) {
        double t = 0.5 * (a + b);
        b = sqrt(a * b);
        a = t;
    }
    return PI / (2.0 * a);
}

/* Rings and heights of the disk quadrature, and the radii where its potential is taken. */
#define DISK_RINGS 512
#define DISK_LAYERS 16
#define DISK_TARGETS 512

/* Midplane potential of the disk as the N-body code sees it: the sech^2 layer (not a razor-
 * thin sheet) with Plummer softening GC_DEFAULT_EPS, summed over DISK_RINGS annuli of exact
 * mass, each split into DISK_LAYERS equal-mass heights (the midpoints of the sech^2
 * cumulative). A softened ring of mass dm and radius R' at height z' has, in the plane at
 * radius R, potential -(2 dm / pi) K(m) / sqrt(s) with s = (R + R')^2 + z'^2 + eps^2 and
 * m = 4 R R' / s. A razor-thin Freeman disk would put the circular speed 2-4% too high
 * (measured against direct summation over sampled bodies) and the disk would expand. */
static void disk_potential(const struct gc_model_galaxy_params *p, double *phi, double dr)
{
    const double eps2 = (double)GC_DEFAULT_EPS * (double)GC_DEFAULT_EPS;
    double zl2[DISK_LAYERS];
    for (int l = 0; l < DISK_LAYERS; l++) {
        double z = p->disk_z0 * atanh(2.0 * (l + 0.5) / DISK_LAYERS - 1.0);
        zl2[l] = z * z + eps2;
    }
    double ring = p->disk_rmax / DISK_RINGS, dm[DISK_RINGS], rp[DISK_RINGS];
    for (int k = 0; k < DISK_RINGS; k++) {
        double r0 = k * ring, r1 = (k + 1) * ring;
        dm[k] = p->disk_mass * (disk_frac(p, r1) - disk_frac(p, r0)) / DISK_LAYERS;
        rp[k] = 0.5 * (r0 + r1);
    }
    /* Each radius sums its rings in the same order on any thread: the same bits. */
#pragma omp parallel for schedule(dynamic, 16)
    for (int i = 0; i < DISK_TARGETS; i++) {
        double r = i * dr, sum = 0.0;
        for (int k = 0; k < DISK_RINGS; k++) {
            double acc = 0.0;
            for (int l = 0; l < DISK_LAYERS; l++) {
                double s = (r + rp[k]) * (r + rp[k]) + zl2[l];
                acc += ellip_k(4.0 * r * rp[k] / s) / sqrt(s);
            }
            sum -= 2.0 / PI * dm[k] * acc;
        }
        phi[i] = sum;
    }
}

/* ---- tables ---- */

/* A quantity tabulated on a logarithmic radius grid r_i = exp(lr0 + i dlr). */
struct loggrid {
    double lr0, dlr;
    double v[NGRID];
};

static void loggrid_init(struct loggrid *g, double rlo, double rhi)
{
    g->lr0 = log(rlo);
    g->dlr = (log(rhi) - g->lr0) / (NGRID - 1);
}

static double loggrid_r(const struct loggrid *g, int i)
{
    return exp(g->lr0 + g->dlr * i);
}

/* Linear interpolation in ln r, clamped to the grid's ends. */
static double loggrid_at(const struct loggrid *g, double r)
{
    double t = (log(r > 1e-30 ? r : 1e-30) - g->lr0) / g->dlr;
    if (t <= 0.0)
        return g->v[0];
    if (t >= NGRID - 1)
        return g->v[NGRID - 1];
    int i = (int)t;
    double f = t - i;
    return g->v[i] * (1.0 - f) + g->v[i + 1] * f;
}

struct gc_model_galaxy_tables {
    struct loggrid sig[2];   /* Maxwellian dispersion of bulge [0] and halo [1] (see
                              * truncate_maxwellian); holds sigma^2 while it is built */
    struct loggrid phi;      /* potential (spherical approximation), for escape speeds */
    double rmax_all;         /* outer edge of the galaxy; phi = -M/r beyond */
    double mass_all;         /* total mass of the galaxy */
    /* disk, on a linear grid R_j = j dR, j < NGRID */
    double dR;
    double cdf[NGRID];                       /* enclosed disk mass fraction */
    double vphi[NGRID], sigr[NGRID], sigp[NGRID], sigz[NGRID];
};

/* Isotropic Jeans equation for a spheroid of density rho in the galaxy's total mass
 * profile: rho sigma^2 (r) = int_r^rt rho(r') M(<r') / r'^2 dr' (Binney & Tremaine 4.216
 * with beta = 0). Trapezoid rule in ln r on a grid that ends exactly at rt. */
static void jeans(const struct gc_model_galaxy_params *p, double m, double a, double rt,
                  struct loggrid *g)
{
    loggrid_init(g, 1e-4 * a, rt);
    double integral = 0.0, prev = 0.0;
    for (int i = NGRID - 1; i >= 0; i--) {
        double r = loggrid_r(g, i);
        double rho = hern_rho(r, m, a, rt);
        double cur = rho * mass_sph(p, r) / r; /* integrand times r, for d ln r */
        if (i < NGRID - 1)
            integral += 0.5 * (cur + prev) * g->dlr;
        prev = cur;
        g->v[i] = rho > 0.0 ? integral / rho : 0.0;
    }
}

/* Second moment of a 3D Maxwellian of dispersion s cut at speed k s, over 3 s^2. */
static double trunc_moment(double k)
{
    double e = exp(-0.5 * k * k), f = erf(k / sqrt(2.0)), c = sqrt(2.0 / PI);
    double m2 = f - c * k * e, m4 = f - c * e * (k + k * k * k / 3.0);
    return m2 > 0.0 ? m4 / m2 : k * k / 5.0;
}

/* Turns the Jeans dispersion^2 table into the dispersion s of the Maxwellian that, once
 * cut at VCUT times the escape speed (as sample_spheroid does), keeps the Jeans second
 * moment 3 sigma^2. Without this the cut removes ~10% of the halo's kinetic energy (the
 * outer halo's sigma is close to the truncated potential's escape speed) and the galaxy
 * starts at 2K/|W| ~ 0.9. Where even a uniform fill of the velocity sphere (moment
 * vmax^2 / 5) is too cold, the largest useful s is kept. Bisection in s / sigma. */
#define VCUT 0.95
static void truncate_maxwellian(struct loggrid *g, const struct gc_model_galaxy_tables *t)
{
    for (int i = 0; i < NGRID; i++) {
        double r = loggrid_r(g, i), s2 = g->v[i];
        if (s2 <= 0.0)
            continue;
        double phi = r < t->rmax_all ? loggrid_at(&t->phi, r) : -t->mass_all / r;
        double vmax = VCUT * sqrt(-2.0 * phi), sig = sqrt(s2);
        double lo = 1.0, hi = 20.0;
        if (trunc_moment(vmax / (hi * sig)) * hi * hi < 1.0) {
            g->v[i] = hi * sig;
            continue;
        }
        for (int it = 0; it < 60; it++) {
            double mid = 0.5 * (lo + hi);
            if (trunc_moment(vmax / (mid * sig)) * mid * mid < 1.0)
                lo = mid;
            else
                hi = mid;
        }
        g->v[i] = 0.5 * (lo + hi) * sig;
    }
}

/* Equal-mass heights of the sech^2 layer used for vertical averages. */
#define VLAYERS 64

/* Self-gravity vertical virial <z g_z> of a sech^2(z / z0) layer with Plummer softening
 * GC_DEFAULT_EPS, over its unsoftened value pi G Sigma z0. Two softened infinite sheets at
 * separation d attract with 2 pi G Sigma d / sqrt(d^2 + eps^2); the layer is VLAYERS^2 such
 * pairs. 0.96 for z0 = 0.098, eps = 0.025. */
static double sheet_softening(double z0)
{
    const double eps2 = (double)GC_DEFAULT_EPS * (double)GC_DEFAULT_EPS;
    double z[VLAYERS], w = 0.0;
    for (int l = 0; l < VLAYERS; l++)
        z[l] = z0 * atanh(2.0 * (l + 0.5) / VLAYERS - 1.0);
    for (int i = 0; i < VLAYERS; i++)
        for (int k = 0; k < VLAYERS; k++) {
            double d = z[i] - z[k];
            w += z[i] * 2.0 * PI * d / sqrt(d * d + eps2);
        }
    return w / ((double)VLAYERS * VLAYERS) / (PI * z0);
}

static void build_tables(const struct gc_model_galaxy_params *p, struct gc_model_galaxy_tables *t)
{
    double rout = fmax(p->halo_rt, fmax(p->bulge_rt, p->disk_rmax));
    t->rmax_all = rout;
    t->mass_all = p->disk_mass + p->bulge_mass + p->halo_mass;
    struct loggrid *g = &t->phi;
    loggrid_init(g, 1e-4 * fmin(p->bulge_a, p->disk_h), rout);
    double phi = -t->mass_all / rout, prev = 0.0;
    for (int i = NGRID - 1; i >= 0; i--) {
        double r = loggrid_r(g, i);
        double cur = mass_sph(p, r) / r; /* dphi/dr = M/r^2, times r for d ln r */
        if (i < NGRID - 1)
            phi -= 0.5 * (cur + prev) * g->dlr;
        prev = cur;
        g->v[i] = phi;
    }
    jeans(p, p->bulge_mass, p->bulge_a, p->bulge_rt, &t->sig[0]);
    jeans(p, p->halo_mass, p->halo_a, p->halo_rt, &t->sig[1]);
    truncate_maxwellian(&t->sig[0], t);
    truncate_maxwellian(&t->sig[1], t);

    /* Disk. Circular speed of the total potential in the midplane: bulge and halo (exact,
     * spherical) plus the softened sech^2 disk (disk_potential). */
    double h = p->disk_h;
    double sigma0 = p->disk_mass / (2.0 * PI * h * h * expo_frac(p->disk_rmax / h));
    static const int nj = NGRID;
    t->dR = p->disk_rmax / (nj - 1);
    double *vc2 = malloc(sizeof(double) * nj), *gam2 = malloc(sizeof(double) * nj);
    double *kap = malloc(sizeof(double) * nj), *zpull = malloc(sizeof(double) * nj);
    if (!vc2 || !gam2 || !kap || !zpull) {
        /* the caller sees dR = NaN and reports GC_ERR_NOMEM */
        free(vc2), free(gam2), free(kap), free(zpull);
        t->dR = NAN;
        return;
    }
    /* Disk circular speed^2 = R dphi/dR from the quadrature, by central differences on
     * DISK_TARGETS radii spanning the disk and a little beyond, interpolated onto the table. */
    double pd[DISK_TARGETS], vd[DISK_TARGETS];
    double dr = 1.02 * p->disk_rmax / (DISK_TARGETS - 1);
    disk_potential(p, pd, dr);
    vd[0] = 0.0;
    for (int i = 1; i < DISK_TARGETS; i++) {
        int ih = i + 1 < DISK_TARGETS ? i + 1 : i;
        vd[i] = i * dr * (pd[ih] - pd[i - 1]) / ((ih - i + 1) * dr);
    }
    for (int j = 0; j < nj; j++) {
        double r = j * t->dR;
        double msph = p->bulge_mass * hern_frac(r, p->bulge_a, p->bulge_rt) +
                      p->halo_mass * hern_frac(r, p->halo_a, p->halo_rt);
        double u = r / dr;
        int i = (int)u < DISK_TARGETS - 1 ? (int)u : DISK_TARGETS - 2;
        double f = u - i;
        vc2[j] = (j ? msph / r : 0.0) + vd[i] * (1.0 - f) + vd[i + 1] * f;
        /* Vertical virial term of the bulge and halo pull, <z g_z> over the layer, with
         * g_z = M_sph(<r) z / r^3 at r = sqrt(R^2 + z^2): mean over VLAYERS equal-mass
         * heights (exact in the bulge's cusp too, where M / r^3 changes along z). */
        double acc = 0.0;
        for (int l = 0; l < VLAYERS; l++) {
            double z = p->disk_z0 * atanh(2.0 * (l + 0.5) / VLAYERS - 1.0);
            double rr = sqrt(r * r + z * z);
            acc += z * z * (p->bulge_mass * hern_frac(rr, p->bulge_a, p->bulge_rt) +
                            p->halo_mass * hern_frac(rr, p->halo_a, p->halo_rt)) / (rr * rr * rr);
        }
        zpull[j] = acc / VLAYERS;
        t->cdf[j] = disk_frac(p, r);
    }
    /* kappa^2 = R dOmega^2/dR + 4 Omega^2 = (dv^2/dR) / R + 2 v^2 / R^2. */
    for (int j = 1; j < nj; j++) {
        double r = j * t->dR;
        int jl = j - 1, jh = j + 1 < nj ? j + 1 : j;
        double dv2 = (vc2[jh] - vc2[jl]) / ((jh - jl) * t->dR);
        double k2 = dv2 / r + 2.0 * vc2[j] / (r * r);
        kap[j] = sqrt(fmax(k2, 0.0));
        gam2[j] = vc2[j] > 0.0 ? k2 * r * r / (4.0 * vc2[j]) : 1.0;
        /* epicycle theory bounds kappa^2 / 4 Omega^2 between 1/4 (Kepler) and 1 (solid body) */
        gam2[j] = fmin(fmax(gam2[j], 0.25), 1.0);
    }
    gam2[0] = gam2[1];
    kap[0] = kap[1];
    /* Radial dispersion sigma_R^2 = c exp(-R/h) (Hernquist 1993, ApJS 86, 389: sigma_R
     * proportional to sigma_z, both following the surface density), with c set so the
     * minimum of Q = sigma_R kappa / (3.36 Sigma) over the disk is disk_q. */
    double qmin = INFINITY;
    for (int j = 1; j < nj; j++) {
        double r = j * t->dR;
        double sig = sigma0 * exp(-r / h);
        double q = exp(-0.5 * r / h) * kap[j] / (3.36 * sig);
        if (q < qmin)
            qmin = q;
    }
    double sr0 = p->disk_q / qmin;
    double soft = sheet_softening(p->disk_z0);
    for (int j = 0; j < nj; j++) {
        double r = j * t->dR;
        double sig = sigma0 * exp(-r / h);
        double sr2 = sr0 * sr0 * exp(-r / h);
        /* Vertical virial balance of the layer rho = Sigma / (2 z0) sech^2(z / z0),
         * sigma_z^2 = <z g_z>: its own gravity needs pi G Sigma z0 (isothermal sheet,
         * Spitzer 1942) times soft (Plummer softening weakens it); the bulge and halo pull
         * adds zpull, +25-30% in sigma_z^2 near R_1/2 (without it the disk first contracts,
         * then rings vertically) and most of sigma_z inside R ~ 0.3, in the bulge. */
        t->sigz[j] = sqrt(PI * sig * p->disk_z0 * soft + zpull[j]);
        t->sigr[j] = sqrt(sr2);
        /* Epicyclic ratio sigma_phi^2 / sigma_R^2 = kappa^2 / 4 Omega^2. */
        t->sigp[j] = sqrt(sr2 * gam2[j]);
        /* Asymmetric drift (Binney & Tremaine 4.228, no tilt term), Sigma sigma_R^2 ~ exp(-2R/h):
         * vphi^2 = vc^2 + sigma_R^2 (1 - kappa^2 / 4 Omega^2 - 2 R / h). */
        double vm2 = vc2[j] + sr2 * (1.0 - gam2[j] - 2.0 * r / h);
        t->vphi[j] = sqrt(fmax(vm2, 0.0));
    }
    free(vc2);
    free(gam2);
    free(kap);
    free(zpull);
}

enum gc_status gc_model_galaxy_tables_new(const struct gc_model_galaxy_params *p,
                                          struct gc_model_galaxy_tables **out)
{
    struct gc_model_galaxy_tables *t = malloc(sizeof *t);
    *out = NULL;
    if (!t) {
        gc_log_error("model: cannot allocate %zu bytes of tables", sizeof *t);
        return GC_ERR_NOMEM;
    }
    build_tables(p, t);
    if (!isfinite(t->dR)) {
        gc_log_error("model: cannot allocate disk tables");
        free(t);
        return GC_ERR_NOMEM;
    }
    *out = t;
    return GC_OK;
}

void gc_model_galaxy_tables_free(struct gc_model_galaxy_tables *t)
{
    free(t);
}

/* ---- sampling ---- */

static void sample_disk(const struct gc_model_galaxy_params *p,
                        const struct gc_model_galaxy_tables *t, struct rng *g, double x[3],
                        double v[3])
{
    /* Cylindrical radius by inverting the tabulated enclosed-mass fraction. */
    double u = uniform(g);
    int lo = 0, hi = NGRID - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t->cdf[mid] <= u)
            lo = mid;
        else
            hi = mid;
    }
    double f = (u - t->cdf[lo]) / (t->cdf[hi] - t->cdf[lo]);
    double r = (lo + f) * t->dR;
    double phi = 2.0 * PI * uniform(g);
    /* sech^2 profile: cumulative (1 + tanh(z / z0)) / 2. */
    double z = p->disk_z0 * atanh(2.0 * uniform(g) - 1.0);
    double c = cos(phi), s = sin(phi);
    double vr = t->sigr[lo] * (1.0 - f) + t->sigr[hi] * f;
    double vp = t->sigp[lo] * (1.0 - f) + t->sigp[hi] * f;
    double vz = t->sigz[lo] * (1.0 - f) + t->sigz[hi] * f;
    double vm = t->vphi[lo] * (1.0 - f) + t->vphi[hi] * f;
    vr *= gaussian(g);
    vp = vm + vp * gaussian(g);
    vz *= gaussian(g);
    x[0] = r * c, x[1] = r * s, x[2] = z;
    v[0] = vr * c - vp * s, v[1] = vr * s + vp * c, v[2] = vz;
}

/* Spheroid (which = 0 bulge, 1 halo): radius from the inverse Hernquist cumulative mass,
 * isotropic direction, Maxwellian velocity with the local Jeans dispersion, redrawn when it
 * would exceed 95% of the local escape speed (such bodies would leave at once). */
static void sample_spheroid(const struct gc_model_galaxy_tables *t, double a, double rt,
                            int which, struct rng *g, double x[3], double v[3])
{
    double qt = rt / (rt + a);
    double q = sqrt(uniform(g)) * qt;
    double r = a * q / (1.0 - q);
    double cz = 2.0 * uniform(g) - 1.0, sz = sqrt(1.0 - cz * cz), ph = 2.0 * PI * uniform(g);
    x[0] = r * sz * cos(ph), x[1] = r * sz * sin(ph), x[2] = r * cz;
    double sig = loggrid_at(&t->sig[which], r);
    double phi = r < t->rmax_all ? loggrid_at(&t->phi, r) : -t->mass_all / r;
    double vmax2 = VCUT * VCUT * 2.0 * -phi;
    for (int tries = 0;; tries++) {
        v[0] = sig * gaussian(g), v[1] = sig * gaussian(g), v[2] = sig * gaussian(g);
        double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        if (v2 < vmax2)
            break;
        if (tries == 256) { /* only where s >> vmax; keep the direction */
            double s = sqrt(vmax2 / v2) * 0.99;
            v[0] *= s, v[1] *= s, v[2] *= s;
            break;
        }
    }
}

void gc_model_galaxy_sample(const struct gc_model_galaxy_params *p,
                            const struct gc_model_galaxy_tables *t, enum gc_component comp,
                            struct rng *g, double x[3], double v[3])
{
    if (comp == GC_DISK)
        sample_disk(p, t, g, x, v);
    else if (comp == GC_BULGE)
        sample_spheroid(t, p->bulge_a, p->bulge_rt, 0, g, x, v);
    else
        sample_spheroid(t, p->halo_a, p->halo_rt, 1, g, x, v);
}
