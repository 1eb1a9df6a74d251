/* galaxy-bench: --benchmark and --compare without the viewer's GL/GLUT dependencies (for GPU hosts with no display stack). */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "bench.h"
#include "bodies.h"
#include "cli.h"
#include "initial.h"
#include "log.h"
#include "outputs.h"
#include "plan.h"
#include "steps.h"
#include "stop.h"

/* Same options and exit codes as `galaxy --benchmark` / `--compare` / `--steps` / `--t-end`:
 * 0 success, 1 failure while running (or --compare beyond tolerance), 2 bad usage, 128 + N
 * stopped by signal N. */
int main(int argc, char **argv)
{
    struct gc_options o;
    struct gc_backend *backend = NULL;
    struct gc_bodies bodies = {0};
    struct gc_restart restart;
    enum gc_status st = gc_cli_parse(argc, argv, GC_PROGRAM_BENCH, &o);

    if (st != GC_OK)
        return 2;
    if (o.mode == GC_MODE_HELP) {
        gc_cli_usage(stdout, GC_PROGRAM_BENCH);
        return 0;
    }
    if (o.mode == GC_MODE_MAN) {
        gc_cli_man(stdout, GC_PROGRAM_BENCH);
        return 0;
    }
    if (o.mode == GC_MODE_VERSION) {
        printf("galaxy-bench %s (backends: %s)\n", GC_VERSION, gc_backend_available());
        return 0;
    }
    if (o.quiet)
        gc_log_set_level(GC_LOG_ERROR);
    gc_stop_install(); /* the stop signals (stop.h): stop between steps, exit 128 + the signal */
    gc_stop_startup(1);
    st = gc_outputs_check(&o);
    if (st != GC_OK)
        return st == GC_ERR_INVALID ? 2 : 1;
    if (o.mode != GC_MODE_COMPARE) {
        struct gc_backend_options bo = {0};
        bo.threads = o.threads;
        bo.device = gc_cli_device(&o, 0);
        bo.no_interop = 1;
        st = gc_backend_create(o.backend, &bo, &backend);
        if (st != GC_OK)
            return st == GC_ERR_INVALID ? 2 : 1;
    }
    memset(&restart, 0, sizeof restart);
    if (!(o.mode == GC_MODE_BENCHMARK && (o.sweep || o.distributions) && !o.data))
        st = gc_initial_run(&o, backend, &bodies, &restart);
    if (st == GC_OK && o.mode == GC_MODE_STEPS)
        st = gc_plan_check(&o, &bodies, backend, 1, NULL);
    if (st == GC_OK)
        st = o.mode == GC_MODE_BENCHMARK ? gc_bench_run(&o, &bodies, backend)
             : o.mode == GC_MODE_STEPS   ? gc_steps_run(&o, &bodies, backend, NULL)
                                         : gc_bench_compare(&o, &bodies);
    gc_backend_destroy(backend);
    gc_bodies_free(&bodies);
    gc_restart_free(&restart);
    if (st == GC_ERR_INTERRUPTED && !gc_stop_was_told())
        gc_log_warn("stopped by %s during start-up, before the first step",
                    gc_stop_name(gc_stop_requested()));
    if (st == GC_ERR_INTERRUPTED)
        return 128 + gc_stop_requested();
    return st == GC_OK ? 0 : (st == GC_ERR_INVALID || st == GC_ERR_PARSE) ? 2 : 1;
}
