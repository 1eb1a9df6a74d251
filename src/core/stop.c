/* The stop flag that SIGINT, SIGTERM and SIGUSR1 set, and nothing else: the run loops decide what to do with it. */
/* SPDX-License-Identifier: MIT */
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The one piece of state a signal handler may touch (C11 7.14.1.1: a volatile
 * sig_atomic_t, written once per signal). */
static volatile sig_atomic_t requested;

/* SIGUSR1 besides the usual two: MPI launchers pass it on to the ranks and let them end on
 * their own (Open MPI 5's mpiexec ends them itself on SIGINT and SIGTERM, 0.25 s after
 * passing SIGTERM on, and shows none of their output after it), and batch systems send it
 * to ask a job to stop before its time is up. */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGUSR1};

static void on_signal(int sig)
{
    struct sigaction dfl;
    requested = sig;
    /* A second Ctrl-C (or a SIGTERM after a SIGINT) ends the process at once: the user
     * does not want to wait for the step in progress. sigaction is async-signal-safe. */
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (size_t k = 0; k < sizeof stop_signals / sizeof *stop_signals; k++)
        sigaction(stop_signals[k], &dfl, NULL);
}

void gc_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* System calls the signal interrupts go on (a snapshot being written, MPI's waits). */
    sa.sa_flags = SA_RESTART;
    requested = 0;
    for (size_t k = 0; k < sizeof stop_signals / sizeof *stop_signals; k++) {
        const int sig = stop_signals[k];
        struct sigaction old;
        /* A signal ignored by whoever started us stays ignored (nohup, a shell's
         * background job, which must not stop on the terminal's Ctrl-C). */
        if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(sig, &sa, NULL);
    }
}

int gc_stop_requested(void)
{
    return (int)requested;
}

void gc_stop_request(int sig)
{
    requested = sig;
}

const char *gc_stop_name(int sig)
{
    static char other[24];
    if (sig == SIGINT)
        return "SIGINT";
    if (sig == SIGTERM)
        return "SIGTERM";
    if (sig == SIGUSR1)
        return "SIGUSR1";
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}
