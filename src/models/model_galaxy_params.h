/* The structure of one built-in galaxy (disk, bulge, halo) and the analytic profiles it gives. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_GALAXY_PARAMS_H
#define GC_MODEL_GALAXY_PARAMS_H

#include "bodies.h"

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

#ifdef __cplusplus
}
#endif
#endif
