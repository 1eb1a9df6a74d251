/* How far a long run without a window has got: a line refreshed in place on a terminal, or a log line now and then. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_PROGRESS_H
#define GC_PROGRESS_H

#ifdef __cplusplus
extern "C" {
#endif

struct gc_progress {
    const char *noun;         /* what is counted: "frame", "step"; not owned */
    unsigned long long total; /* how many the run has; 0 = not known beforehand */
    int live;                 /* a line refreshed in place (stderr is a terminal, not --quiet) */
    double log_every_s;       /* elsewhere, a log line this often, seconds; 0 = none */
    double start_s, last_s;   /* wall clock at the start and at the last line shown */
};

/* Starts counting now. On a terminal the line is refreshed in place at most every
 * GC_PROGRESS_REFRESH_S, from GC_PROGRESS_FIRST_S on (a short run shows none); elsewhere a
 * "progress:" log line every log_every_s seconds, or nothing when it is 0. */
void gc_progress_begin(struct gc_progress *p, const char *noun, unsigned long long total,
                       double log_every_s);
/* 1 when gc_progress_show would print now: the caller then works out what it shows (the
 * simulated time as text costs a little). */
int gc_progress_due(const struct gc_progress *p);
/* Shows `done` of the total (frames, steps) at simulated time `when`: on a terminal
 * "frame 120/300 (40%), t = 2.16 Myr, 4.6 frames/s, 39 s left", elsewhere a log line. Call
 * when gc_progress_due says so. */
void gc_progress_show(struct gc_progress *p, unsigned long long done, const char *when);
/* Before the caller prints something itself (a table row): clears the line from the
 * terminal, and elsewhere the next log line waits a full interval from now. */
void gc_progress_pause(struct gc_progress *p);
/* Clears the line from the terminal (what follows is the run's summary). */
void gc_progress_end(struct gc_progress *p);

#define GC_PROGRESS_REFRESH_S 0.25
#define GC_PROGRESS_FIRST_S 1.0

#ifdef __cplusplus
}
#endif
#endif
