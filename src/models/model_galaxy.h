/* Built-in galaxy models: a Milky Way/Andromeda-like colliding pair, or one isolated galaxy. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_GALAXY_H
#define GC_MODEL_GALAXY_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Structure of one galaxy in its own frame (disk in the x-y plane, spinning about +z), N-body
 * units (G = 1). Defaults (gc_model_galaxy_params_mw) are galaxy A of the Dubinski table as
 * measured by tools/measure_dubinski.py; galaxy B is the same galaxy scaled (see below). */
struct gc_model_galaxy_params {
    double disk_mass;   /* exponential disk mass; 0.817421 */
    double disk_h;      /* exponential scale length; 0.963 */
    double disk_z0;     /* sech^2(z/z0) scale height; 0.098 */
    double disk_rmax;   /* cylindrical truncation radius; 6.06 (6.3 h) */
    double disk_q;      /* minimum Toomre Q of the disk; 1.5 */
    double bulge_mass;  /* Hernquist bulge mass (inside bulge_rt); 0.430641 */
    double bulge_a;     /* Hernquist scale radius; 0.271 */
    double bulge_rt;    /* sharp truncation radius; 0.563 */
    double halo_mass;   /* Hernquist halo mass (inside halo_rt); 10.215096 */
    double halo_a;      /* Hernquist scale radius; 6.38 */
    double halo_rt;     /* sharp truncation radius; 17.63 */
};

/* Galaxy B of the table is galaxy A with lengths x1.5 and masses x2.09505 (velocities then
 * scale by sqrt(2.09505 / 1.5)): measured ratios of every component's half-mass radius,
 * disk scale length and height, and block mass agree to 4 digits (tools/measure_dubinski.py). */
#define GC_MODEL_B_LENGTH_SCALE 1.5
#define GC_MODEL_B_MASS_SCALE 2.09505

/* Fills p with galaxy A of the Dubinski table ("Milky Way"). */
void gc_model_galaxy_params_mw(struct gc_model_galaxy_params *p);

/* Fraction of component c's mass inside radius r: spherical radius for bulge and halo,
 * cylindrical radius for the disk (the analytic profile the sampler draws from). */
double gc_model_galaxy_mass_fraction(const struct gc_model_galaxy_params *p,
                                     enum gc_component c, double r);

/* Body counts per block in the loader's order (disk A, disk B, bulge A, bulge B, halo A,
 * halo B; gc_layout_tags) for model `name` and n bodies. Each galaxy gets half the bodies,
 * split 40% disk, 20% bulge, 40% halo (the Dubinski table's proportions), at least one per
 * component; "single" fills only galaxy A's blocks. GC_ERR_INVALID (logged) for an unknown
 * name, n below the number of components, or n above GC_MAX_BODIES. */
enum gc_status gc_model_galaxy_counts(const char *name, size_t n,
                                      size_t counts[6]);

/* Builds `n` bodies of model `name` ("mw-m31" or "single") from `seed` into `out` (which
 * must be empty). Same name, n and seed give the same bytes, whatever the thread count.
 * Bodies come in block order (gc_model_galaxy_counts); the result is in its centre-of-mass
 * frame (total momentum zero to float rounding). */
enum gc_status gc_model_galaxy_build(const char *name, size_t n, uint64_t seed,
                                     struct gc_bodies *out);

/* The mw-m31 pair's orbit and disks as placed by gc_model_galaxy_build: Andromeda's position
 * and velocity relative to the Milky Way (dr, dv) and the two disks' spin axes, in its
 * output frame (from tools/measure_dubinski.py). */
void gc_model_galaxy_pair_orbit(double dr[3], double dv[3], double spin_mw[3],
                                double spin_m31[3]);

#ifdef __cplusplus
}
#endif
#endif
