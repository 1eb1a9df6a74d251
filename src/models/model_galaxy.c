/* Built-in galaxy models: galaxy A's parameters, body counts, one galaxy or the pair on the Dubinski orbit. */
/* SPDX-License-Identifier: MIT */
#include "model_galaxy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "model_galaxy_sample.h"
#include "rng.h"
#include "stop.h"

/* Bodies per random-number stream. Each chunk of a block gets its own stream seeded from
 * (seed, block, chunk), so chunks can run on any thread in any order and the bytes do not
 * depend on the thread count. */
#define CHUNK 8192

/* Geometry of the encounter, measured from the Dubinski table by tools/measure_dubinski.py
 * (also in shared/data/README.md, "Block layout"): galaxy B relative to galaxy A starts
 * 29.975 apart and approaches at 1.5225 (1.4289 radial, 0.5254 tangential), a bound orbit
 * (point-mass specific energy -0.025, Kepler pericentre 3.5). Disk A spins about -z (it
 * lies in the x-y plane, 22 degrees from the orbital plane, whose normal is
 * (0.190, -0.315, -0.930)); disk B is tilted, spin axis (-0.445, -0.766, -0.464). */
static const double orbit_dr[3] = {-0.83322 - 1.74563, 9.08733 + 19.03839, -3.24400 - 6.79634};
static const double orbit_dv[3] = {0.20574 + 0.43104, -0.40879 - 0.85644, 0.18037 + 0.37788};
static const double spin_a[3] = {0.0, 0.0, -1.0};
static const double spin_b[3] = {-0.44489, -0.76598, -0.46406};

/* Galaxy A of the table. Masses are the README's block masses. Sizes are fits to the
 * table's particles (tools/measure_dubinski.py, about each galaxy's bulge centre):
 * - disk: half-mass radius R_1/2 = 1.616 gives h = R_1/2 / 1.678 = 0.963; median |z| =
 *   0.0538 gives the sech^2 height z0 = 0.0538 / atanh(1/2) = 0.098; outermost disk
 *   particle at 6.06 = 6.3 h. The table's disk has Q ~ 1.5 at 1.7-2.2 h, rising outwards.
 * - bulge and halo: the table's are not Hernquist spheres (the bulge has a core and a steep
 *   edge, log slopes -0.55 at 0.06 to -4.8 at 0.46). We keep Hernquist profiles (a live,
 *   standard model), and choose a and the truncation radius rt so that the half-mass and
 *   90%-mass radii equal the measured ones: bulge 0.248 and 0.483 -> a = 0.271, rt = 0.563;
 *   halo 6.89 and 14.65 -> a = 6.38, rt = 17.63. Enclosed mass, and so the rotation curve
 *   and the tidal field, then follow the table closely: v_c = 1.00-1.01 from r = 1 to 5
 *   and 0.95, 0.88, 0.76, 0.62 at r = 8, 12, 20, 30 (the table: 0.95-0.98, then 0.95,
 *   0.89, 0.75, 0.62; measured on 81,920 bodies of each). */
void gc_model_galaxy_params_mw(struct gc_model_galaxy_params *p)
{
    p->disk_mass = 0.817421;
    p->disk_h = 0.963;
    p->disk_z0 = 0.098;
    p->disk_rmax = 6.06;
    p->disk_q = 1.5; /* Toomre Q >= 1.5, the table's minimum (docs/model.md) */
    p->bulge_mass = 0.430641;
    p->bulge_a = 0.271;
    p->bulge_rt = 0.563;
    p->halo_mass = 10.215096;
    p->halo_a = 6.38;
    p->halo_rt = 17.63;
}

/* ---- placement ---- */

/* Where and how a galaxy sits in the output: scales, orientation, centre and velocity. */
struct placement {
    double lscale, mscale, vscale;
    double e1[3], e2[3], n[3];  /* galaxy x, y, z (spin) axes in the output frame */
    double centre[3], vel[3];
};

static void place(struct placement *pl, const struct gc_model_galaxy_place *g)
{
    pl->lscale = g->lscale;
    pl->mscale = g->mscale;
    pl->vscale = sqrt(g->mscale / g->lscale);
    double s = sqrt(g->spin[0] * g->spin[0] + g->spin[1] * g->spin[1] + g->spin[2] * g->spin[2]);
    for (int k = 0; k < 3; k++) {
        pl->n[k] = g->spin[k] / s;
        pl->centre[k] = g->centre[k];
        pl->vel[k] = g->vel[k];
    }
    /* e1: any unit vector normal to n; e2 = n x e1, so (e1, e2, n) is right-handed. */
    double ref[3] = {1.0, 0.0, 0.0};
    if (fabs(pl->n[0]) > 0.9)
        ref[0] = 0.0, ref[1] = 1.0;
    double d = ref[0] * pl->n[0] + ref[1] * pl->n[1] + ref[2] * pl->n[2], l = 0.0;
    for (int k = 0; k < 3; k++) {
        pl->e1[k] = ref[k] - d * pl->n[k];
        l += pl->e1[k] * pl->e1[k];
    }
    l = sqrt(l);
    for (int k = 0; k < 3; k++)
        pl->e1[k] /= l;
    pl->e2[0] = pl->n[1] * pl->e1[2] - pl->n[2] * pl->e1[1];
    pl->e2[1] = pl->n[2] * pl->e1[0] - pl->n[0] * pl->e1[2];
    pl->e2[2] = pl->n[0] * pl->e1[1] - pl->n[1] * pl->e1[0];
}

static void put(const struct placement *pl, const double x[3], const double v[3], double m,
                float *pos, float *vel)
{
    for (int k = 0; k < 3; k++) {
        double xo = x[0] * pl->e1[k] + x[1] * pl->e2[k] + x[2] * pl->n[k];
        double vo = v[0] * pl->e1[k] + v[1] * pl->e2[k] + v[2] * pl->n[k];
        pos[k] = (float)(pl->centre[k] + pl->lscale * xo);
        vel[k] = (float)(pl->vel[k] + pl->vscale * vo);
    }
    pos[3] = (float)m;
    vel[3] = 0.0f;
}

enum gc_status gc_model_galaxy_counts(const char *name, size_t n, size_t counts[6])
{
    int pair;
    if (!name || strcmp(name, "mw-m31") == 0) {
        pair = 1;
    } else if (strcmp(name, "single") == 0) {
        pair = 0;
    } else {
        gc_log_error("unknown model '%s'; available: mw-m31, single", name);
        return GC_ERR_INVALID;
    }
    size_t need = pair ? 6 : 3;
    if (n < need) {
        gc_log_error("model %s needs at least %zu bodies (one per component), got %zu",
                     pair ? "mw-m31" : "single", need, n);
        return GC_ERR_INVALID;
    }
    if (n > GC_MAX_BODIES) {
        gc_log_error("model %s: %zu bodies is more than the limit of %zu (%.1f GiB of host "
                     "memory)", pair ? "mw-m31" : "single", n, GC_MAX_BODIES,
                     (double)n * 33.0 / (1024.0 * 1024.0 * 1024.0));
        return GC_ERR_INVALID;
    }
    size_t ng[2] = {pair ? n / 2 : n, pair ? n - n / 2 : 0};
    for (int g = 0; g < 2; g++) {
        size_t disk = 0, bulge = 0, halo = 0;
        if (ng[g]) {
            /* 40% disk, 20% bulge, 40% halo by number (the Dubinski table's proportions),
             * rounded, with at least one body per component. */
            disk = (2 * ng[g] + 2) / 5;
            bulge = (ng[g] + 2) / 5;
            if (disk < 1)
                disk = 1;
            if (bulge < 1)
                bulge = 1;
            if (disk + bulge > ng[g] - 1) { /* only when ng < 5 */
                disk = ng[g] - 2;
                bulge = 1;
            }
            halo = ng[g] - disk - bulge;
        }
        counts[0 + g] = disk;
        counts[2 + g] = bulge;
        counts[4 + g] = halo;
    }
    return GC_OK;
}

struct task {
    size_t first, count;  /* body range */
    int block;
    size_t chunk;
};

enum gc_status gc_model_galaxy_assemble(const struct gc_model_galaxy_place g[2],
                                        const size_t counts[6], uint64_t seed,
                                        struct gc_bodies *out)
{
    size_t n = 0;
    enum gc_status st;
    memset(out, 0, sizeof *out);
    for (int b = 0; b < 6; b++)
        n += counts[b];
    struct placement pl[2];
    for (int k = 0; k < 2; k++)
        if (counts[k] > 0)
            place(&pl[k], &g[k]);

    /* Linux overcommits: a request larger than the machine's memory would be granted and
     * the process killed while the bodies are written. Refuse it here, with the numbers. */
#ifdef _SC_PHYS_PAGES
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGESIZE);
    double need = (double)n * (double)(8 * sizeof(float) + 1);
    if (pages > 0 && psize > 0 && need > (double)pages * (double)psize) {
        gc_log_error("model: %zu bodies need %.1f GiB of host memory; this machine has %.1f GiB",
                     n, need / 1073741824.0, (double)pages * (double)psize / 1073741824.0);
        return GC_ERR_NOMEM;
    }
#endif
    st = gc_bodies_alloc(out, n);
    if (st != GC_OK)
        return st;

    /* Equal masses within a component (of one galaxy): each body of a block carries the
     * block's mass / count, as in the Dubinski table, so every block has exactly its mass
     * whatever N, and no component is sampled more finely in mass than another. */
    size_t ntask = 0, first[6];
    for (int b = 0; b < 6; b++) {
        first[b] = b ? first[b - 1] + counts[b - 1] : 0;
        ntask += (counts[b] + CHUNK - 1) / CHUNK;
    }
    struct task *tasks = malloc(sizeof *tasks * (ntask ? ntask : 1));
    if (!tasks) {
        gc_log_error("model: cannot allocate the task list");
        gc_bodies_free(out);
        return GC_ERR_NOMEM;
    }
    size_t k = 0;
    for (int b = 0; b < 6; b++)
        for (size_t c = 0; c * CHUNK < counts[b]; c++) {
            tasks[k].first = first[b] + c * CHUNK;
            tasks[k].count = counts[b] - c * CHUNK < CHUNK ? counts[b] - c * CHUNK : CHUNK;
            tasks[k].block = b;
            tasks[k].chunk = c;
            k++;
        }

    long long nt = (long long)ntask;
#pragma omp parallel for schedule(dynamic, 1)
    for (long long i = 0; i < nt; i++) {
        const struct task *tk = &tasks[i];
        if (gc_stop_cut()) /* a stop heard within a chunk, not after millions of bodies */
            continue;
        int gal = tk->block % 2, comp = tk->block / 2;
        const struct gc_model_galaxy_params *p = g[gal].p;
        const double cmass[3] = {p->disk_mass, p->bulge_mass, p->halo_mass};
        const struct placement *pp = &pl[gal];
        double m = cmass[comp] * pp->mscale / (double)counts[tk->block];
        struct rng r;
        rng_seed(&r, seed, (uint64_t)tk->block, (uint64_t)tk->chunk);
        for (size_t j = tk->first; j < tk->first + tk->count; j++) {
            double x[3], v[3];
            gc_model_galaxy_sample(p, g[gal].t, (enum gc_component)comp, &r, x, v);
            put(pp, x, v, m, &out->pos[4 * j], &out->vel[4 * j]);
            out->tag[j] = GC_TAG(gal, comp);
        }
    }
    free(tasks);
    if (gc_stop_cut()) {
        gc_bodies_free(out);
        return GC_ERR_INTERRUPTED;
    }

    /* Centre-of-mass frame: the random sample's own centre and mean velocity are off by
     * ~sigma / sqrt(N); remove them (serial sums, so the result is thread-independent). */
    double msum = 0.0, xs[3] = {0}, vs[3] = {0};
    for (size_t j = 0; j < n; j++) {
        double m = out->pos[4 * j + 3];
        msum += m;
        for (int d = 0; d < 3; d++) {
            xs[d] += m * out->pos[4 * j + d];
            vs[d] += m * out->vel[4 * j + d];
        }
    }
    for (int d = 0; d < 3; d++)
        xs[d] /= msum, vs[d] /= msum;
    for (size_t j = 0; j < n; j++)
        for (int d = 0; d < 3; d++) {
            out->pos[4 * j + d] = (float)(out->pos[4 * j + d] - xs[d]);
            out->vel[4 * j + d] = (float)(out->vel[4 * j + d] - vs[d]);
        }
    return GC_OK;
}

void gc_model_galaxy_pair_orbit(double dr[3], double dv[3], double spin_mw[3],
                                double spin_m31[3])
{
    for (int k = 0; k < 3; k++) {
        dr[k] = orbit_dr[k];
        dv[k] = orbit_dv[k];
        spin_mw[k] = spin_a[k];
        spin_m31[k] = spin_b[k];
    }
}

enum gc_status gc_model_galaxy_build(const char *name, size_t n, uint64_t seed,
                                     struct gc_bodies *out)
{
    size_t counts[6];
    memset(out, 0, sizeof *out);
    enum gc_status st = gc_model_galaxy_counts(name, n, counts);
    if (st != GC_OK)
        return st;
    int pair = counts[1] > 0;

    struct gc_model_galaxy_params p;
    gc_model_galaxy_params_mw(&p);
    struct gc_model_galaxy_tables *t;
    st = gc_model_galaxy_tables_new(&p, &t);
    if (st != GC_OK)
        return st;

    /* Galaxy A ("Milky Way") and B ("Andromeda", A scaled), on the table's orbit, each
     * placed at its position relative to the pair's centre of mass. */
    struct gc_model_galaxy_place g[2];
    double ma = p.disk_mass + p.bulge_mass + p.halo_mass, mb = ma * GC_MODEL_B_MASS_SCALE;
    memset(g, 0, sizeof g);
    g[0].p = g[1].p = &p;
    g[0].t = g[1].t = t;
    g[0].lscale = g[0].mscale = 1.0;
    g[1].lscale = GC_MODEL_B_LENGTH_SCALE;
    g[1].mscale = GC_MODEL_B_MASS_SCALE;
    for (int k = 0; k < 3; k++) {
        g[0].spin[k] = spin_a[k];
        g[1].spin[k] = spin_b[k];
    }
    if (pair) {
        for (int k = 0; k < 3; k++) {
            g[0].centre[k] = -mb / (ma + mb) * orbit_dr[k];
            g[1].centre[k] = ma / (ma + mb) * orbit_dr[k];
            g[0].vel[k] = -mb / (ma + mb) * orbit_dv[k];
            g[1].vel[k] = ma / (ma + mb) * orbit_dv[k];
        }
    } else {
        g[0].spin[0] = g[0].spin[1] = 0.0;
        g[0].spin[2] = 1.0;
    }
    st = gc_model_galaxy_assemble(g, counts, seed, out);
    gc_model_galaxy_tables_free(t);
    return st;
}
