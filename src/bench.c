/* --benchmark and --compare (placeholder until the GPU path lands). */
/* SPDX-License-Identifier: MIT */
#include "bench.h"

#include "log.h"

enum gc_status gc_bench_run(const struct gc_options *opt, const struct gc_bodies *initial,
                            struct gc_backend *backend)
{
    (void)opt; (void)initial; (void)backend;
    gc_log_error("--benchmark is not implemented yet");
    return GC_ERR_UNSUPPORTED;
}

enum gc_status gc_bench_compare(const struct gc_options *opt, const struct gc_bodies *initial)
{
    (void)opt; (void)initial;
    gc_log_error("--compare is not implemented yet");
    return GC_ERR_UNSUPPORTED;
}
