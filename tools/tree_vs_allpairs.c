/* The built-in pair stepped with the tree and with all pairs side by side: energy envelopes, and the stars' density maps at given times compared (and written as PGM pictures). */
/* SPDX-License-Identifier: MIT */
/* Usage: tree_vs_allpairs N T_END OUTDIR [T1,T2,...] [BACKEND]
 * Both runs start from the same bodies (built-in pair, seed 1), leapfrog, dt 0.01, eps
 * 0.025; the tree at the default opening angle. Every 0.5 time units both measure the
 * energy (exact where gc_sim_potential_exact, which the output says); at each Tk (N-body
 * units) both map the disk and bulge bodies' surface density in the orbital (x, y) plane,
 * 128 x 128 cells over +-60 units about the stars' centre of mass, compare the maps by
 * their L1 difference (sum |a - b| / sum a: 0 same, 2 disjoint) and write them as
 * OUTDIR/{tree,allpairs}_t<Tk>.pgm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "diagnostics.h"
#include "log.h"
#include "models.h"
#include "sim.h"
#include "tree_formulas.h"

#define GRID 128
#define HALF 60.0
#define ENERGY_EVERY 0.5

struct run {
    const char *name;
    struct gc_sim *sim;
    struct gc_bodies scratch;
    double e0, worst;
    double map[GRID * GRID];
    double seconds;
};

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int energy(struct run *r)
{
    struct gc_diagnostics d;
    if (gc_sim_measure(r->sim, &r->scratch, &d) != GC_OK)
        return 1;
    if (r->e0 == 0.0)
        r->e0 = d.energy;
    r->worst = fmax(r->worst, fabs((d.energy - r->e0) / r->e0));
    return 0;
}

/* Stars' surface density about their centre of mass (scratch holds a download). */
static void map_of(struct run *r)
{
    const struct gc_bodies *b = &r->scratch;
    double c[2] = {0, 0}, m = 0.0;
    memset(r->map, 0, sizeof r->map);
    for (size_t i = 0; i < b->n; i++)
        if (GC_TAG_COMPONENT(b->tag[i]) != GC_HALO) {
            m += b->pos[4 * i + 3];
            c[0] += b->pos[4 * i + 3] * b->pos[4 * i];
            c[1] += b->pos[4 * i + 3] * b->pos[4 * i + 1];
        }
    c[0] /= m;
    c[1] /= m;
    for (size_t i = 0; i < b->n; i++) {
        const int gx = (int)floor((b->pos[4 * i] - c[0] + HALF) / (2 * HALF) * GRID);
        const int gy = (int)floor((b->pos[4 * i + 1] - c[1] + HALF) / (2 * HALF) * GRID);
        if (GC_TAG_COMPONENT(b->tag[i]) == GC_HALO || gx < 0 || gy < 0 || gx >= GRID ||
            gy >= GRID)
            continue;
        r->map[gy * GRID + gx] += b->pos[4 * i + 3];
    }
}

/* A log-scaled grey picture of a map (the same scale for both runs: the reference's peak). */
static int write_pgm(const char *dir, const char *name, double t, const double *map,
                     double peak)
{
    char path[4096];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s_t%g.pgm", dir, name, t);
    f = fopen(path, "wb");
    if (!f) {
        gc_log_error("%s: cannot open for writing", path);
        return 1;
    }
    fprintf(f, "P5\n%d %d\n255\n", GRID, GRID);
    for (int y = GRID - 1; y >= 0; y--)
        for (int x = 0; x < GRID; x++) {
            const double v = map[y * GRID + x] > 0.0 ? log10(map[y * GRID + x] / peak) : -9.0;
            const double g = fmin(fmax((v + 4.0) / 4.0, 0.0), 1.0); /* 4 decades */
            fputc((int)(255.0 * g + 0.5), f);
        }
    return fclose(f) != 0;
}

int main(int argc, char **argv)
{
    struct gc_backend *be = NULL;
    struct gc_backend_options opt = {0};
    struct gc_bodies init = {0};
    struct run runs[2] = {{.name = "tree"}, {.name = "allpairs"}};
    double times[16];
    int ntimes = 0, next = 0;
    size_t n;
    double t_end;
    if (argc < 4 || (n = (size_t)atol(argv[1])) < 64 || !((t_end = atof(argv[2])) > 0.0)) {
        fprintf(stderr, "usage: tree_vs_allpairs N T_END OUTDIR [T1,T2,...] [BACKEND]\n");
        return 2;
    }
    for (char *s = argc > 4 ? argv[4] : NULL; s && *s && ntimes < 16;) {
        times[ntimes++] = strtod(s, &s);
        if (*s == ',')
            s++;
        else
            break;
    }
    opt.quiet = 1;
    if (gc_backend_create(argc > 5 ? argv[5] : "auto", &opt, &be) != GC_OK ||
        gc_models_build("mw-m31", n, 1, &init) != GC_OK)
        return 1;
    printf("# %zu bodies on %s; leapfrog dt 0.01, eps 0.025; tree theta %g\n", n,
           gc_backend_device_name(be), (double)GC_TREE_DEFAULT_THETA);
    /* One run after the other (a backend holds one simulation at a time). */
    for (int k = 0; k < 2; k++) {
        struct gc_sim_params p;
        double t = 0.0, t0 = now_s();
        gc_sim_params_default(&p);
        p.force = k == 0 ? "tree" : "allpairs";
        if (gc_sim_create(be, NULL, &init, &p, NULL, &runs[k].sim) != GC_OK ||
            gc_bodies_alloc(&runs[k].scratch, n) != GC_OK)
            return 1;
        memcpy(runs[k].scratch.tag, init.tag, n * sizeof *init.tag);
        printf("# %s: potential %s\n", runs[k].name,
               gc_sim_potential_exact(runs[k].sim) ? "exact (all pairs)" : "the tree's");
        if (energy(&runs[k]))
            return 1;
        next = 0;
        /* Leapfrog lands on its own grid of float dt steps, which misses 0.5 or T_END by
         * rounding: targets within half a step count as reached. */
        const double half = 0.5 * (double)p.dt;
        while (t < t_end - half) {
            double step_to = fmin(t + ENERGY_EVERY, t_end), was = t;
            if (next < ntimes && times[next] < step_to - half)
                step_to = times[next];
            if (gc_sim_advance(runs[k].sim, step_to) != GC_OK)
                return 1;
            t = gc_sim_time(runs[k].sim);
            if (!(t > was)) {
                gc_log_error("%s: the clock stays at t = %.9g on the way to %g", runs[k].name,
                             t, step_to);
                return 1;
            }
            if (energy(&runs[k]))
                return 1;
            if (next < ntimes && fabs(t - times[next]) < half) {
                char path[4096];
                map_of(&runs[k]);
                snprintf(path, sizeof path, "%s/%s_t%g.map", argv[3], runs[k].name, times[next]);
                FILE *f = fopen(path, "wb");
                if (!f || fwrite(runs[k].map, sizeof runs[k].map, 1, f) != 1) {
                    gc_log_error("%s: cannot write", path);
                    return 1;
                }
                fclose(f);
                next++;
            }
        }
        runs[k].seconds = now_s() - t0;
        gc_sim_destroy(runs[k].sim);
        printf("%s: t = 0..%g (%.0f Myr) in %.1f s; largest |dE/E| %.3e\n", runs[k].name,
               t_end, t_end * GC_MYR_PER_TIME_UNIT, runs[k].seconds, runs[k].worst);
        fflush(stdout);
    }
    printf("energy: tree's largest |dE/E| / all pairs' = %.3f (target <= 2)\n",
           runs[0].worst / runs[1].worst);
    for (int k = 0; k < ntimes; k++) {
        double a[GRID * GRID], b[GRID * GRID], diff = 0.0, sum = 0.0, peak = 0.0;
        char path[4096];
        for (int r = 0; r < 2; r++) {
            FILE *f;
            snprintf(path, sizeof path, "%s/%s_t%g.map", argv[3], runs[r].name, times[k]);
            f = fopen(path, "rb");
            if (!f || fread(r ? b : a, sizeof a, 1, f) != 1) {
                gc_log_error("%s: cannot read", path);
                return 1;
            }
            fclose(f);
            remove(path);
        }
        for (int c = 0; c < GRID * GRID; c++) {
            diff += fabs(a[c] - b[c]);
            sum += b[c];
            peak = fmax(peak, b[c]);
        }
        printf("t = %g (%.0f Myr): star density maps, tree vs all pairs: L1 difference %.4f\n",
               times[k], times[k] * GC_MYR_PER_TIME_UNIT, diff / sum);
        if (write_pgm(argv[3], "tree", times[k], a, peak) ||
            write_pgm(argv[3], "allpairs", times[k], b, peak))
            return 1;
    }
    gc_bodies_free(&init);
    for (int k = 0; k < 2; k++)
        gc_bodies_free(&runs[k].scratch);
    gc_backend_destroy(be);
    return 0;
}
