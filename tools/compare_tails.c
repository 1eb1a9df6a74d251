/* Steps the Dubinski table and the built-in model side by side; snapshots for compare_tails.py. */
/* SPDX-License-Identifier: MIT */
/* Usage: compare_tails DATA.tab.gz OUTDIR [N] [DT] [T1,T2,...]
 * Both initial conditions at about N bodies with halos (the table thinned by gc_thin_select,
 * the model built with seed 1), stepped on the CPU backend with eps = 0.025; at each time
 * (N-body units; default 0,25,50,75) writes OUTDIR/{dubinski,model}_t<T>.csv with one line
 * "x,y,z,galaxy,component" per disk or bulge body. Halo bodies are stepped, not written. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "diagnostics.h"
#include "table.h"
#include "log.h"
#include "model_galaxy.h"
#include "sim.h"
#include "thin.h"

static int write_csv(const char *dir, const char *label, double t, const struct gc_bodies *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s_t%g.csv", dir, label, t);
    FILE *f = fopen(path, "w");
    if (!f) {
        gc_log_error("%s: cannot open for writing", path);
        return 1;
    }
    for (size_t i = 0; i < b->n; i++) {
        unsigned c = GC_TAG_COMPONENT(b->tag[i]);
        if (c == GC_HALO)
            continue;
        fprintf(f, "%.5g,%.5g,%.5g,%u,%u\n", b->pos[4 * i], b->pos[4 * i + 1],
                b->pos[4 * i + 2], GC_TAG_GALAXY(b->tag[i]), c);
    }
    return fclose(f) != 0;
}

static int run(const char *dir, const char *label, const struct gc_bodies *init, float dt,
               const double *times, int nt)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options bo;
    memset(&bo, 0, sizeof bo);
    bo.quiet = 1;
    struct gc_sim_params sp;
    gc_sim_params_default(&sp);
    sp.dt = dt;
    struct gc_sim *sim = NULL;
    struct gc_bodies cur;
    if (gc_bodies_copy(&cur, init) != GC_OK)
        return 1;
    if (gc_backend_create("cpu", &bo, &be) != GC_OK || gc_sim_create(be, NULL, init, &sp, NULL, &sim) != GC_OK)
        return 1;
    struct gc_diagnostics d0, d1;
    gc_diagnostics_compute(init, sp.eps, &d0);
    int err = 0;
    for (int k = 0; k < nt && !err; k++) {
        err |= gc_sim_advance(sim, times[k]) != GC_OK;
        err |= gc_sim_download(sim, &cur) != GC_OK;
        err |= write_csv(dir, label, times[k], &cur);
        gc_diagnostics_compute(&cur, sp.eps, &d1);
        printf("%s t=%g: energy drift %.2e\n", label, gc_sim_time(sim),
               (d1.energy - d0.energy) / fabs(d0.energy));
        fflush(stdout);
    }
    gc_sim_destroy(sim);
    gc_sim_destroy(sim);
    gc_backend_destroy(be);
    gc_bodies_free(&cur);
    return err;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s DATA.tab.gz OUTDIR [N] [DT] [T1,T2,...]\n", argv[0]);
        return 2;
    }
    size_t n = argc > 3 ? (size_t)strtoull(argv[3], NULL, 10) : 8192;
    float dt = argc > 4 ? (float)atof(argv[4]) : 0.05f;
    double times[32] = {0, 25, 50, 75};
    int nt = 4;
    if (argc > 5) {
        nt = 0;
        for (char *s = argv[5]; *s && nt < 32; s++) {
            times[nt++] = strtod(s, &s);
            if (*s != ',')
                break;
        }
    }
    struct gc_bodies all, data, model;
    if (gc_table_read(argv[1], &all) != GC_OK ||
        gc_thin_select(&all, n, 1, &data) != GC_OK ||
        gc_model_galaxy_build("mw-m31", n, 1, &model) != GC_OK)
        return 1;
    gc_bodies_free(&all);
    int err = run(argv[2], "dubinski", &data, dt, times, nt);
    err |= run(argv[2], "model", &model, dt, times, nt);
    gc_bodies_free(&data);
    gc_bodies_free(&model);
    return err;
}
