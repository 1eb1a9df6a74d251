/* The initial bodies the command line asks for: a data file (thinned to N) or a built-in model. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INITIAL_H
#define GC_INITIAL_H

#include "backend.h"
#include "bodies.h"
#include "cli.h"
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

#ifdef __cplusplus
}
#endif
#endif
