/* --benchmark and --compare: timed steps and cross-backend accuracy checks. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BENCH_H
#define GC_BENCH_H

#include "backend.h"
#include "bodies.h"
#include "cli.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_status gc_bench_run(const struct gc_options *opt, const struct gc_bodies *initial,
                            struct gc_backend *backend);
enum gc_status gc_bench_compare(const struct gc_options *opt, const struct gc_bodies *initial);
/* --benchmark --force tree (bench_tree.c): per N (--sweep) or per opening angle
 * (--theta-sweep), ms per step and its phases, interactions, memory, error against float64,
 * and all pairs at the same N up to 2^20 bodies. */
enum gc_status gc_bench_tree(const struct gc_options *opt, const struct gc_bodies *initial,
                             struct gc_backend *backend);

#ifdef __cplusplus
}
#endif
#endif
