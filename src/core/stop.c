/* The stop flag that the stop signals set, and nothing else: the run loops decide what to do with it. */
/* SPDX-License-Identifier: MIT */
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The signals that ask for a stop. SIGQUIT's default core dump and SIGHUP's, SIGUSR1's and
 * SIGPIPE's silent exit would each leave a .part behind and say nothing. */
static const struct {
    int sig;
    const char *name;
} stops[] = {{SIGINT, "SIGINT"},   {SIGTERM, "SIGTERM"}, {SIGHUP, "SIGHUP"},
             {SIGQUIT, "SIGQUIT"}, {SIGUSR1, "SIGUSR1"}, {SIGPIPE, "SIGPIPE"}};
#define NSTOPS ((int)(sizeof stops / sizeof stops[0]))

/* The one piece of state a signal handler may touch (C11 7.14.1.1: a volatile
 * sig_atomic_t, written once per signal). The others are the run's own, set outside
 * handlers. */
static volatile sig_atomic_t requested;
static volatile sig_atomic_t startup;
static int told;

static void on_signal(int sig)
{
    struct sigaction dfl;
    requested = sig;
    /* A second stop signal ends the process at once: the user does not want to wait for
     * the step in progress. sigaction is async-signal-safe. A signal that was ignored at
     * start keeps being ignored (see gc_stop_install): only those handled here go back. */
    memset(&dfl, 0, sizeof dfl);
    sigemptyset(&dfl.sa_mask);
    for (int k = 0; k < NSTOPS; k++) {
        struct sigaction now;
        /* A closed pipe is not someone asking twice: later writes to it fail with EPIPE
         * (and are reported) instead of ending the process in silence. */
        dfl.sa_handler = stops[k].sig == SIGPIPE ? SIG_IGN : SIG_DFL;
        if (sigaction(stops[k].sig, NULL, &now) == 0 && now.sa_handler == on_signal)
            sigaction(stops[k].sig, &dfl, NULL);
    }
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
    told = 0;
    for (int k = 0; k < NSTOPS; k++) {
        struct sigaction old;
        /* A signal ignored by whoever started us stays ignored (nohup, a shell's
         * background job, which must not stop on the terminal's Ctrl-C). */
        if (sigaction(stops[k].sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(stops[k].sig, &sa, NULL);
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
    for (int k = 0; k < NSTOPS; k++)
        if (stops[k].sig == sig)
            return stops[k].name;
    snprintf(other, sizeof other, "signal %d", sig);
    return other;
}

void gc_stop_startup(int on)
{
    startup = on;
}

int gc_stop_cut(void)
{
    return startup && requested;
}

void gc_stop_told(void)
{
    told = 1;
}

int gc_stop_was_told(void)
{
    return told;
}
