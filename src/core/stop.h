/* Stop requests: SIGINT, SIGTERM and SIGUSR1 set a flag that the run loops read between steps and frames. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_STOP_H
#define GC_STOP_H

#ifdef __cplusplus
extern "C" {
#endif

/* Handles SIGINT, SIGTERM and SIGUSR1: the first of them only records itself (the run
 * stops at its next step or frame, finishes what it was writing and says where it stopped)
 * and gives them back their default action, so that a second one ends the process at
 * once. A signal ignored when the process started (nohup, a shell's background job) stays
 * ignored. main calls this once, before a run. */
void gc_stop_install(void);
/* The signal that asked the run to stop (SIGINT, SIGTERM, SIGUSR1), or 0. Async-signal-safe to
 * read; cheap enough to poll between steps. */
int gc_stop_requested(void);
/* Records a stop request as if signal sig had come (0 clears it): the ranks that rank 0
 * tells to stop, and tests. */
void gc_stop_request(int sig);
/* "SIGINT", "SIGTERM", "SIGUSR1", or "signal N". */
const char *gc_stop_name(int sig);

#ifdef __cplusplus
}
#endif
#endif
