/* Entry point: parses options, builds the initial bodies, wires a backend to the chosen mode. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "app.h"
#include "backend.h"
#include "bench.h"
#include "bodies.h"
#include "cli.h"
#include "initial.h"
#include "log.h"
#include "steps.h"

#ifndef GC_VERSION
#define GC_VERSION "0.1.0"
#endif

/* Exit codes: 0 success, 1 failure while running, 2 bad command line or input. */
enum { EXIT_RUN = 1, EXIT_USAGE = 2 };

static int exit_code(enum gc_status st)
{
    switch (st) {
    case GC_OK: return 0;
    case GC_ERR_PARSE:
    case GC_ERR_INVALID: return EXIT_USAGE;
    default: return EXIT_RUN;
    }
}

int main(int argc, char **argv)
{
    struct gc_options o;
    struct gc_backend *backend = NULL;
    struct gc_bodies bodies = {0};
    enum gc_status st = gc_cli_parse(argc, argv, GC_PROGRAM_GALAXY, &o);

    if (st != GC_OK)
        return EXIT_USAGE;
    if (o.mode == GC_MODE_HELP) {
        gc_cli_usage(stdout, GC_PROGRAM_GALAXY);
        return 0;
    }
    if (o.mode == GC_MODE_MAN) {
        gc_cli_man(stdout, GC_PROGRAM_GALAXY);
        return 0;
    }
    if (o.mode == GC_MODE_VERSION) {
        printf("galaxy %s (backends: %s)\n", GC_VERSION, gc_backend_available());
        return 0;
    }
    if (o.quiet)
        gc_log_set_level(GC_LOG_ERROR);

    if (o.mode != GC_MODE_COMPARE) {
        struct gc_backend_options bo = {0};
        bo.threads = o.threads;
        bo.device = o.device;
        bo.no_interop = o.no_interop;
        st = gc_backend_create(o.backend, &bo, &backend);
        if (st != GC_OK)
            return exit_code(st);
    }
    st = gc_initial_bodies(&o, backend, &bodies);
    if (st == GC_OK) {
        switch (o.mode) {
        case GC_MODE_STEPS: st = gc_steps_run(&o, &bodies, backend); break;
        case GC_MODE_BENCHMARK: st = gc_bench_run(&o, &bodies, backend); break;
        case GC_MODE_COMPARE: st = gc_bench_compare(&o, &bodies); break;
        case GC_MODE_HEADLESS: st = gc_app_run_headless(&o, &bodies, backend); break;
        case GC_MODE_VIEWER: st = gc_app_run(&argc, argv, &o, &bodies, backend); break;
        default: break;
        }
    }
    gc_backend_destroy(backend);
    gc_bodies_free(&bodies);
    return exit_code(st);
}
