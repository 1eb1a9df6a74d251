/* Draws bodies of one disk + bulge + halo galaxy in equilibrium, in its own frame (private to models). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_MODEL_GALAXY_SAMPLE_H
#define GC_MODEL_GALAXY_SAMPLE_H

/* Private to src/models: model_galaxy.c places and assembles the galaxies it samples. */
#include "bodies.h"
#include "model_galaxy.h"
#include "rng.h"
#include "status.h"

/* The potential, Jeans dispersions and disk kinematics of one galaxy on radial grids. */
struct gc_model_galaxy_tables;

/* Builds the tables of galaxy p into *out. GC_ERR_NOMEM (logged) when memory runs out. */
enum gc_status gc_model_galaxy_tables_new(const struct gc_model_galaxy_params *p,
                                          struct gc_model_galaxy_tables **out);

void gc_model_galaxy_tables_free(struct gc_model_galaxy_tables *t);

/* One body of component comp (GC_DISK, GC_BULGE or GC_HALO) of galaxy p: position x and
 * velocity v in the galaxy's frame (disk in the x-y plane, spinning about +z), drawn from
 * g. The draws from g are the same for the same tables and stream. */
void gc_model_galaxy_sample(const struct gc_model_galaxy_params *p,
                            const struct gc_model_galaxy_tables *t, enum gc_component comp,
                            struct rng *g, double x[3], double v[3]);

/* One galaxy as gc_model_galaxy_assemble places it. */
struct gc_model_galaxy_place {
    const struct gc_model_galaxy_params *p;     /* its structure, in its own units */
    const struct gc_model_galaxy_tables *t;     /* tables of p */
    double lscale, mscale;  /* homologous scaling applied on output: lengths, masses
                             * (velocities by sqrt(mscale / lscale)); 1 = p as it is */
    double spin[3];         /* disk spin axis in the output frame (need not be unit) */
    double centre[3], vel[3]; /* where it is and how it moves in the output frame */
};

/* Draws counts[] bodies (block order of gc_model_galaxy_counts: disk, bulge, halo of
 * galaxies g[0] and g[1]; a galaxy with no bodies may leave its slot unset) from seed into
 * out, then moves them into their centre-of-mass frame. Same inputs, same bytes, whatever
 * the thread count. GC_ERR_NOMEM (logged) when the bodies do not fit in memory. */
enum gc_status gc_model_galaxy_assemble(const struct gc_model_galaxy_place g[2],
                                        const size_t counts[6], uint64_t seed,
                                        struct gc_bodies *out);

#endif
