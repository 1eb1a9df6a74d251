/* Stop requests: the signals that ask a run to end set a flag that the run loops read between steps and frames. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_STOP_H
#define GC_STOP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Handles SIGINT, SIGTERM, SIGHUP (the terminal closed), SIGQUIT, SIGUSR1 and SIGPIPE (a
 * pipe written to was closed) alike: the first of them only records itself (the run stops
 * at its next step or frame, finishes or removes what it was writing and says where it
 * stopped) and gives the others back their default action, so that a second one ends the
 * process at once; SIGPIPE is ignored from then on (later writes to the closed pipe fail
 * with EPIPE, which the writers report). A signal ignored when the process started (nohup,
 * a shell's background job) stays ignored. main calls this once, before a run; the rank
 * layer can carry the signal to other ranks with gc_stop_request. */
void gc_stop_install(void);
/* The signal that asked the run to stop, or 0. Async-signal-safe to read; cheap enough to
 * poll between steps. */
int gc_stop_requested(void);
/* Records a stop request as if signal sig had come (0 clears it): the ranks that rank 0
 * tells to stop, and tests. */
void gc_stop_request(int sig);
/* "SIGINT", "SIGTERM", "SIGHUP", ..., or "signal N". */
const char *gc_stop_name(int sig);

/* Start-up work (building a model, the first forces, the first energy) loses nothing when
 * abandoned half way, so a stop need not wait for it: main turns this on before a run and
 * the simulation turns it off at its first step. Long loops below (models, a backend's
 * force passes) poll gc_stop_cut() and give up (GC_ERR_INTERRUPTED) when it is 1: a stop
 * was requested while the work in progress may be abandoned. Cheap to poll. */
void gc_stop_startup(int on);
int gc_stop_cut(void);

/* The run said where it stopped (the modes' "stopped by ..." lines): main adds a line of
 * its own only for a stop that nothing reported (one during start-up). */
void gc_stop_told(void);
int gc_stop_was_told(void);

#ifdef __cplusplus
}
#endif
#endif
