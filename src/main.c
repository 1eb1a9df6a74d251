/* Entry point: parses options, builds the initial bodies, wires a backend and the ranks to the chosen mode. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "backend.h"
#include "bench.h"
#include "bodies.h"
#include "cli.h"
#include "comm.h"
#include "initial.h"
#include "log.h"
#include "outputs.h"
#include "plan.h"
#include "sim.h"
#include "sizing.h"
#include "steps.h"
#include "stop.h"

#ifndef GC_VERSION
#define GC_VERSION "0.1.0"
#endif

/* Exit codes: 0 success, 1 failure while running, 2 bad command line or input, 128 + N
 * stopped by signal N (129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 138 SIGUSR1, 141 SIGPIPE,
 * 143 SIGTERM), as a shell reports a process it ended. */
enum { EXIT_RUN = 1, EXIT_USAGE = 2, EXIT_SIGNAL = 128 };

static int exit_code(enum gc_status st)
{
    switch (st) {
    case GC_OK: return 0;
    case GC_ERR_PARSE:
    case GC_ERR_INVALID: return EXIT_USAGE;
    case GC_ERR_INTERRUPTED: return EXIT_SIGNAL + gc_stop_requested();
    default: return EXIT_RUN;
    }
}

/* --help, --help-man, --version. */
static void print_about(enum gc_mode mode)
{
    if (mode == GC_MODE_HELP)
        gc_cli_usage(stdout, GC_PROGRAM_GALAXY);
    else if (mode == GC_MODE_MAN)
        gc_cli_man(stdout, GC_PROGRAM_GALAXY);
    else
        printf("galaxy %s (backends: %s%s)\n", GC_VERSION, gc_backend_available(),
               gc_comm_have_mpi() ? "; MPI" : "");
}

/* Rank 0's start-up line: how many ranks, where, and how positions travel between them. */
static void report_ranks(const struct gc_comm *c, size_t n)
{
    size_t lo, hi, a, b;
    gc_comm_range(n, c->size, c->size - 1, &lo, &b);
    gc_comm_range(n, c->size, 0, &a, &hi);
    gc_log_info("mpi: %d ranks on %d host%s (%s), %zu to %zu of the %zu bodies each; "
                "exchanges staged through host memory (%s)", c->size, c->hosts,
                c->hosts == 1 ? "" : "s", c->library, b - lo, hi - a, n,
                c->device_aware ? "the MPI library is CUDA-aware; this build does not pass it "
                                  "device memory yet"
                                : "the MPI library is not CUDA-aware");
}

/* Rank 0 runs the mode; the other ranks follow its simulation calls. */
static enum gc_status run_mode(int *argc, char **argv, const struct gc_options *o,
                               struct gc_bodies *bodies, struct gc_backend *backend,
                               struct gc_comm *comm)
{
    enum gc_status st = GC_OK;
    if (comm->rank != 0)
        return gc_sim_follow(backend, comm);
    if (comm->size > 1)
        report_ranks(comm, bodies->n);
    switch (o->mode) {
    case GC_MODE_STEPS: st = gc_steps_run(o, bodies, backend, comm); break;
    case GC_MODE_BENCHMARK: st = gc_bench_run(o, bodies, backend); break;
    case GC_MODE_COMPARE: st = gc_bench_compare(o, bodies); break;
    case GC_MODE_HEADLESS: st = gc_app_run_headless(o, bodies, backend, comm); break;
    case GC_MODE_VIEWER: st = gc_app_run(argc, argv, o, bodies, backend, comm); break;
    default: break;
    }
    gc_sim_release(comm);
    return st;
}

/* Options each rank takes for itself (its own device and threads); every other one is rank
 * 0's to say, and another rank's would be ignored. */
static int own_option(const char *arg, int *takes_value)
{
    static const char *const own[] = {"--backend", "--device", "--threads", "--no-interop"};
    for (size_t k = 0; k < sizeof own / sizeof own[0]; k++) {
        const size_t len = strlen(own[k]);
        if (strncmp(arg, own[k], len) == 0 && (arg[len] == '\0' || arg[len] == '=')) {
            *takes_value = arg[len] == '\0' && k < 3;
            return 1;
        }
    }
    return 0;
}

/* Over several ranks every rank parsed its own command line: they go on only together, and
 * only with the same options (rank 0's run the simulation: another rank's would be ignored
 * silently), but for each rank's own (own_option). A rank that failed or differs holds its
 * message, which rank 0 prints (gc_comm_agree); every rank then ends with the same status. */
static enum gc_status agree_command_line(struct gc_comm *comm, int argc, char **argv,
                                         enum gc_status parsed)
{
    char mine[4096] = "", first[4096] = "";
    size_t len = 0;
    enum gc_status st = gc_comm_agree(comm, parsed);
    if (st != GC_OK || comm->size == 1)
        return st;
    for (int i = 1; i < argc && len < sizeof mine; i++) {
        int value = 0;
        if (own_option(argv[i], &value)) {
            i += value;
            continue;
        }
        len += (size_t)snprintf(mine + len, sizeof mine - len, "%s%s", len ? " " : "", argv[i]);
    }
    if (len >= sizeof mine) {
        gc_log_error("rank %d: the command line is longer than %zu characters", comm->rank,
                     sizeof mine - 1);
        st = GC_ERR_INVALID;
    }
    if (comm->rank == 0)
        memcpy(first, mine, sizeof first);
    if (gc_comm_bcast(comm, first, sizeof first, 0) != GC_OK)
        return GC_ERR_IO;
    if (st == GC_OK && strcmp(first, mine) != 0) {
        /* from the option where they part: the last word that starts with '-' there */
        size_t k = 0, w = 0;
        while (mine[k] && mine[k] == first[k]) {
            if (mine[k] == '-' && (k == 0 || mine[k - 1] == ' '))
                w = k;
            k++;
        }
        gc_log_error("started with other options than rank 0: '%.60s' where rank 0 has '%.60s' "
                     "(every rank runs the same command line)", mine + w, first + w);
        st = GC_ERR_INVALID;
    }
    return gc_comm_agree(comm, st);
}

static enum gc_status run(int *argc, char **argv, struct gc_options *o, struct gc_comm *comm)
{
    struct gc_backend *backend = NULL;
    struct gc_bodies bodies = {0};
    struct gc_restart restart;
    enum gc_status st = GC_OK;

    if (comm->size > 1 && (o->mode == GC_MODE_BENCHMARK || o->mode == GC_MODE_COMPARE)) {
        gc_log_error("--benchmark and --compare run on one rank; under mpirun use --steps or "
                     "--t-end with --profile");
        return GC_ERR_INVALID;
    }
    /* A path that cannot be written is told now, not after the frames or steps. */
    if (comm->rank == 0)
        st = gc_outputs_check(o);
    if (st == GC_OK && o->mode != GC_MODE_COMPARE) {
        struct gc_backend_options bo = {0};
        /* The window without a GPU and without -n is sized to the machine: its first line
         * says what it chose, and which backend and why. */
        const int size_it = comm->size == 1 && gc_sizing_wanted(o);
        bo.threads = o->threads;
        bo.device = gc_cli_device(o, comm->local_rank);
        bo.no_interop = o->no_interop;
        bo.quiet = size_it;
        st = gc_backend_create(o->backend, &bo, &backend);
        if (st == GC_OK && size_it)
            st = gc_sizing_apply(o, backend);
    }
    /* Every rank has its device (or says why not); then rank 0 reads or builds the bodies
     * (it sends them to the others with the simulation's start). */
    st = gc_comm_agree(comm, st);
    memset(&restart, 0, sizeof restart);
    if (st == GC_OK && comm->rank == 0)
        st = gc_initial_run(o, backend, &bodies, &restart);
    /* A run whose steps take minutes is told so before it starts, one that cannot fit in
     * memory refused. */
    if (st == GC_OK && comm->rank == 0 &&
        (o->mode == GC_MODE_STEPS || o->mode == GC_MODE_HEADLESS || o->mode == GC_MODE_VIEWER))
        st = gc_plan_check(o, &bodies, backend, comm->size, NULL);
    st = gc_comm_agree(comm, st);
    if (st == GC_OK)
        st = run_mode(argc, argv, o, &bodies, backend, comm);
    gc_backend_destroy(backend);
    gc_bodies_free(&bodies);
    gc_restart_free(&restart);
    return st;
}

int main(int argc, char **argv)
{
    struct gc_options o;
    struct gc_comm *comm = NULL;
    enum gc_status st = gc_comm_create_world(&argc, &argv, &comm);
    int code;

    if (st != GC_OK)
        return EXIT_RUN;
    /* Ranks other than 0 print nothing: their errors reach rank 0 at the next agreement. */
    if (comm->rank != 0) {
        gc_log_set_level(GC_LOG_ERROR);
        gc_log_hold_errors(1);
    }
    st = gc_cli_parse(argc, argv, GC_PROGRAM_GALAXY, &o);
    if (st == GC_OK && o.quiet)
        gc_log_set_level(GC_LOG_ERROR);
    st = agree_command_line(comm, argc, argv, st != GC_OK ? GC_ERR_INVALID : GC_OK);
    if (st != GC_OK) {
        st = st == GC_ERR_IO ? st : GC_ERR_INVALID;
    } else if (o.mode == GC_MODE_HELP || o.mode == GC_MODE_MAN || o.mode == GC_MODE_VERSION) {
        if (comm->rank == 0)
            print_about(o.mode);
    } else {
        /* From here the stop signals (stop.h) stop the run between steps or frames, and
         * cut the start-up short; a second one ends the process at once. */
        gc_stop_install();
        /* Only rank 0 cuts work short: the others follow its calls, and a force pass
         * abandoned on one rank alone would leave the others waiting for it. */
        gc_stop_startup(comm->rank == 0);
        st = run(&argc, argv, &o, comm);
        if (st == GC_ERR_INTERRUPTED && !gc_stop_was_told() && comm->rank == 0)
            gc_log_warn("stopped by %s during start-up, before the first step",
                        gc_stop_name(gc_stop_requested()));
    }
    code = exit_code(st);
    /* A rank that failed while the others wait in a collective: end them all (its message
     * is printed here, as the agreement that would have carried it to rank 0 never comes). */
    if (comm->broken) {
        char msg[512];
        if (gc_log_take_held(msg, sizeof msg))
            fprintf(stderr, "galaxy: error: rank %d: %s\n", comm->rank, msg);
        fflush(stderr);
        gc_comm_abort(comm, code ? code : EXIT_RUN);
    }
    gc_comm_destroy(comm);
    return code;
}
