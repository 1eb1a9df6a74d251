/* --steps: integrate without a window and print conserved quantities as a table. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_STEPS_H
#define GC_STEPS_H

#include "backend.h"
#include "bodies.h"
#include "cli.h"
#include "comm.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Runs --steps K (every --report-every steps a row of energy, drift, momenta) on stdout.
 * comm: the run's ranks (NULL = one process; over several, this is rank 0). */
enum gc_status gc_steps_run(const struct gc_options *o, const struct gc_bodies *initial,
                            struct gc_backend *backend, struct gc_comm *comm);

#ifdef __cplusplus
}
#endif
#endif
