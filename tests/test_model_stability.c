/* Isolated built-in galaxy on the CPU backend: the disk must stay a disk. */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "diagnostics.h"
#include "model_galaxy.h"
#include "sim.h"

/* Under AddressSanitizer the all-pairs force runs ~10x slower (the full run would exceed
 * CI's budget), so sanitizer builds, which are there to check memory, integrate only the
 * first EARLY time units: every check still runs, the 10% radius bound over 2.5 units
 * instead of 10. */
#if defined(__SANITIZE_ADDRESS__)
#define DEFAULT_STEPS 100
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DEFAULT_STEPS 100
#endif
#endif
#ifndef DEFAULT_STEPS
#define DEFAULT_STEPS 400
#endif

/* Time over which the initial vertical balance is judged (see main). */
#define EARLY 2.5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Disk half-mass radius (median cylindrical radius: disk bodies have equal masses) and
 * thickness (median |z|), in the disk's own frame: about its centre of mass, z along its
 * angular momentum, so a drift or a slight tilt of the whole disk is not taken for growth. */
static void disk_shape(const struct gc_bodies *b, double *rhalf, double *zmed)
{
    double c[3] = {0}, cv[3] = {0}, l[3] = {0}, m = 0.0;
    size_t nd = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
            continue;
        double mi = b->pos[4 * i + 3];
        for (int k = 0; k < 3; k++) {
            c[k] += mi * b->pos[4 * i + k];
            cv[k] += mi * b->vel[4 * i + k];
        }
        m += mi;
        nd++;
    }
    for (int k = 0; k < 3; k++)
        c[k] /= m, cv[k] /= m;
    for (size_t i = 0; i < b->n; i++) {
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
            continue;
        double x[3], v[3];
        for (int k = 0; k < 3; k++)
            x[k] = b->pos[4 * i + k] - c[k], v[k] = b->vel[4 * i + k] - cv[k];
        l[0] += x[1] * v[2] - x[2] * v[1];
        l[1] += x[2] * v[0] - x[0] * v[2];
        l[2] += x[0] * v[1] - x[1] * v[0];
    }
    double ln = sqrt(l[0] * l[0] + l[1] * l[1] + l[2] * l[2]);
    double *r = malloc(nd * sizeof *r), *z = malloc(nd * sizeof *z);
    *rhalf = *zmed = NAN;
    if (r && z && ln > 0.0) {
        size_t j = 0;
        for (size_t i = 0; i < b->n; i++) {
            if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
                continue;
            double x[3], zz = 0.0, rr = 0.0;
            for (int k = 0; k < 3; k++) {
                x[k] = b->pos[4 * i + k] - c[k];
                zz += x[k] * l[k] / ln;
                rr += x[k] * x[k];
            }
            r[j] = sqrt(fmax(rr - zz * zz, 0.0));
            z[j] = fabs(zz);
            j++;
        }
        qsort(r, nd, sizeof *r, cmp_double);
        qsort(z, nd, sizeof *z, cmp_double);
        *rhalf = r[nd / 2];
        *zmed = z[nd / 2];
    }
    free(r);
    free(z);
}

/* Virial ratios of the disk alone in the field of all bodies (softened direct sums in
 * double, disk frame = the build's: centre 0, spin +z): vertical sum m vz^2 / -sum m z az
 * and in-plane sum m (vx^2 + vy^2) / -sum m (x ax + y ay). Both are 1 for a disk in
 * equilibrium (tensor virial theorem, d^2 I / dt^2 = 0), at t = 0, before any evolution. */
static void disk_virial(const struct gc_bodies *b, double eps, double *vert, double *plane)
{
    double kz = 0.0, wz = 0.0, kp = 0.0, wp = 0.0, eps2 = eps * eps;
    for (size_t i = 0; i < b->n; i++) {
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
            continue;
        const float *xi = &b->pos[4 * i], *vi = &b->vel[4 * i];
        double a[3] = {0.0, 0.0, 0.0};
        for (size_t j = 0; j < b->n; j++) {
            double d[3] = {b->pos[4 * j] - xi[0], b->pos[4 * j + 1] - xi[1],
                           b->pos[4 * j + 2] - xi[2]};
            double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
            double f = b->pos[4 * j + 3] / (r2 * sqrt(r2));
            a[0] += f * d[0], a[1] += f * d[1], a[2] += f * d[2];
        }
        double m = xi[3];
        kz += m * vi[2] * vi[2];
        wz += m * xi[2] * a[2];
        kp += m * (vi[0] * vi[0] + vi[1] * vi[1]);
        wp += m * (xi[0] * a[0] + xi[1] * a[1]);
    }
    *vert = kz / -wz;
    *plane = kp / -wp;
}

static size_t env_size(const char *name, size_t def)
{
    const char *s = getenv(name);
    return s && *s ? (size_t)strtoull(s, NULL, 10) : def;
}

int main(void)
{
    /* N, step and duration: see the comment at the checks below; overridable (environment)
     * for experiments. */
    size_t n = env_size("GC_MODEL_STABILITY_N", 8192);
    size_t steps = env_size("GC_MODEL_STABILITY_STEPS", DEFAULT_STEPS);
    const char *dts = getenv("GC_MODEL_STABILITY_DT");
    struct gc_bodies b0, b1;
    CHECK(gc_model_galaxy_build("single", n, 7, &b0) == GC_OK);
    /* Downloads bring positions and velocities back; tags stay those of the build. */
    CHECK(gc_bodies_copy(&b1, &b0) == GC_OK);

    struct gc_backend *be = NULL;
    struct gc_backend_options bo;
    memset(&bo, 0, sizeof bo);
    bo.quiet = 1;
    CHECK(gc_backend_create("cpu", &bo, &be) == GC_OK);
    struct gc_sim_params sp;
    gc_sim_params_default(&sp);
    sp.dt = dts && *dts ? (float)atof(dts) : 0.025f;
    struct gc_sim *sim = NULL;
    CHECK(gc_sim_create(be, NULL, &b0, &sp, NULL, &sim) == GC_OK);

    struct gc_diagnostics d0, d1;
    gc_diagnostics_compute(&b0, sp.eps, &d0);
    double r0, z0;
    disk_shape(&b0, &r0, &z0);
    printf("t=%6.2f  R_half %.4f  median|z| %.4f  2K/|W| %.4f\n", 0.0, r0, z0,
           2.0 * d0.kinetic / fabs(d0.potential));
    double rlo = r0, rhi = r0, zlo_early = z0, zhi_early = z0, zhi = z0;
    for (size_t done = 0; done < steps;) {
        unsigned k = steps - done < 25 ? (unsigned)(steps - done) : 25u;
        CHECK(gc_sim_advance(sim, gc_sim_time(sim) + (double)(k) * gc_sim_params(sim)->dt) ==
          GC_OK);
        done += k;
        CHECK(gc_sim_download(sim, &b1) == GC_OK);
        double r, z;
        disk_shape(&b1, &r, &z);
        printf("t=%6.2f  R_half %.4f  median|z| %.4f\n", gc_sim_time(sim), r, z);
        rlo = fmin(rlo, r), rhi = fmax(rhi, r), zhi = fmax(zhi, z);
        if (gc_sim_time(sim) <= EARLY + 1e-6)
            zlo_early = fmin(zlo_early, z), zhi_early = fmax(zhi_early, z);
    }
    gc_diagnostics_compute(&b1, sp.eps, &d1);
    printf("energy drift %.3e\n", (d1.energy - d0.energy) / fabs(d0.energy));

    /* Initial virial ratio (within 0.1 of 1): the Jeans velocities of bulge and
     * halo and the disk's rotation together balance the potential. */
    CHECK(d0.potential < 0.0);
    CHECK_NEAR(2.0 * d0.kinetic / fabs(d0.potential), 1.0, 0.1);

    /* Disk equilibrium at t = 0. In-plane: rotation plus dispersion balance the radial pull;
     * measured 1.03 (the Dubinski table's galaxy A thinned to the same N: 0.99); 1.3x the
     * rotation gives 1.7, none 0.04. Vertical: measured 1.05 (the table's galaxy A: 1.22,
     * its centre is vertically hot); sigma_z halved gives ~0.26, doubled ~4. The 0.1 and
     * 0.3 bounds leave room for sampling noise (K_z is dominated by the few hundred bodies
     * inside R ~ 0.3) and admit the reference galaxy. */
    double vv, vp;
    disk_virial(&b0, sp.eps, &vv, &vp);
    printf("disk virial ratios: vertical %.4f, in-plane %.4f\n", vv, vp);
    CHECK_NEAR(vp, 1.0, 0.1);
    CHECK_NEAR(vv, 1.0, 0.3);

    /* The run: N = 8192 (3277 disk, 1638 bulge, 3277 halo bodies), dt = 0.025 (energy
     * drift ~1e-4), 400 steps = 10 time units: one rotation at the disk's half-mass
     * radius (2 pi 1.6 / 1.0), 1.6 at R = h, 3 at R = 0.5. A disk launched with
     * wrong velocities shows it within one epicycle (~7 time units at R_1/2): without
     * rotation R_1/2 falls by more than half, with 1.3x the rotation it grows by >15%.
     *
     * Half-mass radius (within 10%), at every sample, so a transient ring or bar
     * fails too. Measured: +7% at most (the Dubinski table's own galaxy A, thinned to the
     * same N: +6%). */
    CHECK_LT(1.0 - rlo / r0, 0.10);
    CHECK_LT(rhi / r0 - 1.0, 0.10);

    /* Thickness (within 30%). At this N the disk thickens steadily for a reason
     * that is not the initial conditions: halo bodies are 12.5x heavier than disk bodies and
     * their passages heat the thin disk (two-body heating, Lacey & Ostriker 1985; rate ~
     * m_halo, so ~1/N). Measured at N = 8192 over 10 time units: the Dubinski table's
     * galaxy A thinned to 8192 bodies thickens by 72%, this model by 90%; at 20480 bodies
     * both by ~35% in 6 units; at 32768 (GC_MODEL_STABILITY_N=32768, a manual run) this model
     * by 32% in 10 units, with R_1/2 within -3.5% / +5.3%. A 30% bound over the whole run
     * would fail on the reference galaxy itself, so it is applied where the initial
     * vertical balance shows: the first EARLY = 2.5 time units, more than half a vertical
     * oscillation (period ~4.5), when a layer launched too hot has expanded (2x sigma_z:
     * +100%; measured here +19%). A layer launched too cold (sigma_z / 2) contracts by only
     * ~25% before the heating takes over, inside the bound: the vertical virial ratio above
     * is what catches it. Over the whole run the thickness must
     * stay below 2.5x its start: heating, not an explosion (measured 1.92x; the reference
     * galaxy 1.72x; the margin covers run-to-run chaos across compilers and CPUs). */
    CHECK_LT(1.0 - zlo_early / z0, 0.30);
    CHECK_LT(zhi_early / z0 - 1.0, 0.30);
    CHECK_LT(zhi / z0, 2.5);
    /* The integration itself is sound: measured 7e-4 (dt = 0.025 against the bulge's
     * fastest orbits), bound 2e-3. */
    CHECK_LT(fabs((d1.energy - d0.energy) / d0.energy), 2e-3);

    gc_sim_destroy(sim);
    gc_backend_destroy(be);
    gc_bodies_free(&b0);
    gc_bodies_free(&b1);
    return CHECK_DONE();
}
