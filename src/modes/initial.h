/* The initial bodies the command line asks for: a data file (thinned to N) or a built-in model. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INITIAL_H
#define GC_INITIAL_H

#include "backend.h"
#include "bodies.h"
#include "cli.h"
#include "sim.h"
#include "snapshot_hdf5.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Builds the bodies of --data/-n/--no-halo or --model/-n/--seed into out (empty on entry),
 * and writes them to --save when given. backend (may be NULL) picks the default N: what it
 * steps at interactive rates (a data file with halos: all of it on CUDA, 8,192 on the CPU;
 * --no-halo: every disk and bulge body; a built-in model: its own, gc_models_find). */
enum gc_status gc_initial_bodies(const struct gc_options *o, const struct gc_backend *backend,
                                 struct gc_bodies *out);

/* Builds n bodies of encounter e (of preset `scenario`, NULL = none) from seed into out and
 * logs what it built and how long that took. */
enum gc_status gc_initial_encounter(const char *scenario, const struct gc_encounter *e,
                                    size_t n, uint64_t seed, struct gc_bodies *out);

/* A run that continues from a snapshot (--data snapshot_NNN.hdf5, not thinned by -n). */
struct gc_restart {
    struct gc_snapshot_run run; /* the settings and integrator state the snapshot records */
    struct gc_sim_restart sim;  /* what the simulation starts from (points into run) */
    double time;                /* the snapshot's Time */
};

/* gc_initial_bodies for a run (galaxy, galaxy-bench). For an HDF5 snapshot it also takes
 * the physics settings the snapshot records (integrator, eps, dt, eta, dt_max, force,
 * theta, units) where the command line did not give them, and logs which given ones
 * differ from the snapshot's run; unless -n thinned it, the run continues from the
 * snapshot: o->restart points to *restart (freed with gc_restart_free after the run). */
enum gc_status gc_initial_run(struct gc_options *o, const struct gc_backend *backend,
                              struct gc_bodies *out, struct gc_restart *restart);
void gc_restart_free(struct gc_restart *r);

#ifdef __cplusplus
}
#endif
#endif
