/* Steps a table on the CPU and prints the encounter's course: separation, disk sizes, extent. */
/* SPDX-License-Identifier: MIT */
/* Usage: measure_encounter DATA.tab.gz N HALO DT T_END EVERY
 * Thins DATA to N bodies (HALO = 1: halos included, 0: disk + bulge only, as --no-halo),
 * steps it with the leapfrog at DT on the CPU backend (eps = 0.025) to T_END and prints, every
 * EVERY time units, the galaxy separation, each disk's half-mass radius about its centre and
 * the 90% radius of the stars (src/view/track.c, the measurements the camera tour uses),
 * plus the relative energy drift. Times in N-body units and Myr (18 Myr per unit). The
 * README's halo/no-halo comparison and the tour's timetable (src/view/tour.c) come from it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "diagnostics.h"
#include "sim.h"
#include "table.h"
#include "thin.h"
#include "track.h"

int main(int argc, char **argv)
{
    struct gc_bodies all, b, cur;
    struct gc_backend *be = NULL;
    struct gc_backend_options bo;
    struct gc_sim_params sp;
    struct gc_sim *sim = NULL;
    struct gc_diagnostics d0, d1;
    struct gc_track tr;
    double t_end, every;
    if (argc != 7) {
        fprintf(stderr, "usage: %s DATA.tab.gz N HALO DT T_END EVERY\n", argv[0]);
        return 2;
    }
    if (gc_table_read(argv[1], &all) != GC_OK ||
        gc_thin_select(&all, (size_t)strtoull(argv[2], NULL, 10), atoi(argv[3]), &b) != GC_OK)
        return 1;
    gc_bodies_free(&all);
    memset(&bo, 0, sizeof bo);
    bo.quiet = 1;
    gc_sim_params_default(&sp);
    sp.dt = (float)atof(argv[4]);
    t_end = atof(argv[5]);
    every = atof(argv[6]);
    if (gc_bodies_copy(&cur, &b) != GC_OK || gc_backend_create("cpu", &bo, &be) != GC_OK ||
        gc_sim_create(be, NULL, &b, &sp, NULL, &sim) != GC_OK || !(every > 0.0))
        return 1;
    gc_diagnostics_compute(&b, sp.eps, &d0);
    printf("# N = %zu (%s), dt = %g, eps = %g\n", b.n, atoi(argv[3]) ? "with halos" : "no halos",
           sp.dt, sp.eps);
    printf("#     t    Myr   separation  r_half_A  r_half_B  extent90  dE/|E0|\n");
    for (int k = 0;; k++) {
        double t = k * every;
        if (t > t_end + 1e-9)
            break;
        if (gc_sim_advance(sim, t) != GC_OK || gc_sim_download(sim, &cur) != GC_OK ||
            gc_track_measure(&cur, 0, &tr) != GC_OK)
            return 1;
        gc_diagnostics_compute(&cur, sp.eps, &d1);
        printf("%7.2f %6.0f %11.3f %9.3f %9.3f %9.3f  %.2e\n", gc_sim_time(sim),
               gc_sim_time_myr(sim), tr.separation, tr.half_mass[0], tr.half_mass[1],
               tr.extent, (d1.energy - d0.energy) / fabs(d0.energy));
        fflush(stdout);
    }
    gc_sim_destroy(sim);
    gc_backend_destroy(be);
    gc_bodies_free(&b);
    gc_bodies_free(&cur);
    return 0;
}
