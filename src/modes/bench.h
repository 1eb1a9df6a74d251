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

#ifdef __cplusplus
}
#endif
#endif
