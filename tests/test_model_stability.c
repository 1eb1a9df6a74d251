/* Isolated built-in galaxy on the CPU backend: the disk must stay a disk (issue 5). */
/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "check.h"
#include "diagnostics.h"
#include "model_galaxy.h"
#include "sim.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Disk half-mass radius (median cylindrical radius: disk bodies have equal masses) and
 * thickness (median |z|), about the bulge's centre of mass, which marks the galaxy centre. */
static void disk_shape(const struct gc_bodies *b, double *rhalf, double *zmed, double *zrms)
{
    double c[3] = {0}, mb = 0.0;
    size_t nd = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (GC_TAG_COMPONENT(b->tag[i]) == GC_BULGE) {
            double m = b->pos[4 * i + 3];
            for (int k = 0; k < 3; k++)
                c[k] += m * b->pos[4 * i + k];
            mb += m;
        } else if (GC_TAG_COMPONENT(b->tag[i]) == GC_DISK) {
            nd++;
        }
    }
    for (int k = 0; k < 3; k++)
        c[k] /= mb;
    double *r = malloc(nd * sizeof *r), *z = malloc(nd * sizeof *z), z2 = 0.0;
    size_t j = 0;
    for (size_t i = 0; i < b->n && r && z; i++) {
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
            continue;
        double dx = b->pos[4 * i] - c[0], dy = b->pos[4 * i + 1] - c[1];
        double dz = b->pos[4 * i + 2] - c[2];
        r[j] = sqrt(dx * dx + dy * dy);
        z[j] = fabs(dz);
        z2 += dz * dz;
        j++;
    }
    if (!r || !z) {
        *rhalf = *zmed = *zrms = NAN;
    } else {
        qsort(r, nd, sizeof *r, cmp_double);
        qsort(z, nd, sizeof *z, cmp_double);
        *rhalf = r[nd / 2];
        *zmed = z[nd / 2];
        *zrms = sqrt(z2 / (double)nd);
    }
    free(r);
    free(z);
}

static size_t env_size(const char *name, size_t def)
{
    const char *s = getenv(name);
    return s && *s ? (size_t)strtoull(s, NULL, 10) : def;
}

int main(void)
{
    /* N and duration: see the comment at the checks below. Overridable for experiments. */
    size_t n = env_size("GC_MODEL_STABILITY_N", 4096);
    size_t steps = env_size("GC_MODEL_STABILITY_STEPS", 1000);
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
    sp.dt = dts && *dts ? (float)atof(dts) : 0.02f;
    struct gc_sim sim;
    CHECK(gc_sim_init(&sim, be, &b0, &sp) == GC_OK);

    struct gc_diagnostics d0, d1;
    gc_diagnostics_compute(&b0, sp.eps, &d0);
    double r0, z0, zr0;
    disk_shape(&b0, &r0, &z0, &zr0);
    printf("t=%6.2f  R_half %.4f  median|z| %.4f  rms z %.4f  2K/|W| %.4f\n", 0.0, r0, z0, zr0,
           2.0 * d0.kinetic / fabs(d0.potential));
    double rmin = r0, rmax = r0, zmax = z0, zmin = z0;
    for (size_t done = 0; done < steps;) {
        unsigned k = steps - done < 100 ? (unsigned)(steps - done) : 100u;
        CHECK(gc_sim_step(&sim, k) == GC_OK);
        done += k;
        CHECK(gc_backend_download(be, &b1) == GC_OK);
        double r, z, zr;
        disk_shape(&b1, &r, &z, &zr);
        printf("t=%6.2f  R_half %.4f  median|z| %.4f  rms z %.4f\n", sim.time, r, z, zr);
        rmin = fmin(rmin, r), rmax = fmax(rmax, r), zmin = fmin(zmin, z), zmax = fmax(zmax, z);
    }
    gc_diagnostics_compute(&b1, sp.eps, &d1);
    printf("energy drift %.3e\n", (d1.energy - d0.energy) / fabs(d0.energy));

    /* Initial virial ratio (issue 5: within 0.1 of 1): the Jeans velocities of bulge and
     * halo and the disk's rotation together balance the potential. */
    CHECK(d0.potential < 0.0);
    CHECK_NEAR(2.0 * d0.kinetic / fabs(d0.potential), 1.0, 0.1);

    /* Shape of the disk over the run (issue 5: half-mass radius within 10%, thickness
     * within 30%). N = 4096 (1638 disk, 819 bulge, 1639 halo bodies) and 400 steps of 0.05
     * = 20 time units: two rotation periods at the disk's half-mass radius (2 pi 1.6 / 1.0
     * = 10), a few seconds on 2 cores. A disk launched with wrong velocities changes within
     * one period: without rotation it collapses (R_half falls by half), with 1.3x the
     * rotation it expands by ~20-30%; both fail the 10% bound.
     * Is 30% on the thickness fair at this N? The halo bodies are 12x heavier than disk
     * bodies, and their passages heat the disk vertically (two-body relaxation, Lacey &
     * Ostriker 1985); with softening 0.025 and ~1600 halo bodies the heating over 20 time
     * units is measured at ~10-15%, inside the bound, while a 2x error in the vertical
     * dispersion moves the thickness by >40% within a vertical oscillation (~1 time unit).
     * Every sample is checked, not just the end, so a transient ring or bar also fails. */
    CHECK_LT(fabs(rmin / r0 - 1.0), 0.10);
    CHECK_LT(fabs(rmax / r0 - 1.0), 0.10);
    CHECK_LT(fabs(zmin / z0 - 1.0), 0.30);
    CHECK_LT(fabs(zmax / z0 - 1.0), 0.30);
    /* Energy conservation shows the run itself is sound (dt = 0.05, eps = 0.025). */
    CHECK_LT(fabs((d1.energy - d0.energy) / d0.energy), 2e-3);

    gc_backend_destroy(be);
    gc_bodies_free(&b0);
    gc_bodies_free(&b1);
    return CHECK_DONE();
}
