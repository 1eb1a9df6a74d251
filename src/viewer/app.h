/* The interactive viewer: window, input, per-frame stepping and drawing. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_APP_H
#define GC_APP_H

#include "backend.h"
#include "bodies.h"
#include "cli.h"
#include "comm.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Opens the window and runs until the user quits. `initial` is kept for the reset key.
 * argc/argv are passed to glutInit. comm: the run's ranks (NULL = one process; over
 * several, this is rank 0 and the others follow its simulation). Returns GC_OK on a normal
 * quit. */
enum gc_status gc_app_run(int *argc, char **argv, const struct gc_options *opt,
                          const struct gc_bodies *initial, struct gc_backend *backend,
                          struct gc_comm *comm);

/* Offscreen rendering through EGL: --headless --frames K [--screenshot FILE]. */
enum gc_status gc_app_run_headless(const struct gc_options *opt, const struct gc_bodies *initial,
                                   struct gc_backend *backend, struct gc_comm *comm);

#ifdef __cplusplus
}
#endif
#endif
