/* The stop flag that SIGINT and SIGTERM set, and nothing else: the run loops decide what to do with it. */
/* SPDX-License-Identifier: MIT */
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The one piece of state a signal handler may touch (C11 7.14.1.1: a volatile
 * sig_atomic_t, written once per signal). */
static volatile sig_atomic_t requested;

static void on_signal(int sig)
{
    struct sigaction dfl;
    requested = sig;
    /* A second Ctrl-C (or a SIGTERM after a SIGINT) ends the process at once: the user
     * does not want to wait for the step in progress. sigaction is async-signal-safe. */
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGINT, &dfl, NULL);
    sigaction(SIGTERM, &dfl, NULL);
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
    for (int k = 0; k < 2; k++) {
        const int sig = k ? SIGTERM : SIGINT;
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
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}
