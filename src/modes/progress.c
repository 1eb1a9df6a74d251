/* Progress of a run without a window on stderr: in place on a terminal, a log line elsewhere. */
/* SPDX-License-Identifier: MIT */
#include "progress.h"

#include <stdio.h>

#include "clock.h"
#include "log.h"

/* "39 s", "12 min", "3.2 h". */
static void duration(double s, char *buf, size_t cap)
{
    if (s < 90.0)
        snprintf(buf, cap, "%.0f s", s);
    else if (s < 5400.0)
        snprintf(buf, cap, "%.0f min", s / 60.0);
    else
        snprintf(buf, cap, "%.1f h", s / 3600.0);
}

void gc_progress_begin(struct gc_progress *p, const char *noun, unsigned long long total,
                       double log_every_s)
{
    p->noun = noun;
    p->total = total;
    p->live = gc_log_status_wanted();
    p->log_every_s = log_every_s;
    p->start_s = p->last_s = gc_clock_seconds();
}

int gc_progress_due(const struct gc_progress *p)
{
    const double now = gc_clock_seconds();
    if (p->live)
        return now - p->start_s >= GC_PROGRESS_FIRST_S &&
               (p->last_s == p->start_s || now - p->last_s >= GC_PROGRESS_REFRESH_S);
    return p->log_every_s > 0.0 && now - p->last_s >= p->log_every_s;
}

void gc_progress_show(struct gc_progress *p, unsigned long long done, const char *when)
{
    const double now = gc_clock_seconds(), elapsed = now - p->start_s;
    const double rate = elapsed > 0.0 ? (double)done / elapsed : 0.0;
    char line[256], left[32] = "", of[32] = "";
    int k;
    p->last_s = now;
    if (!p->live) {
        if (p->total)
            snprintf(of, sizeof of, " of %llu", p->total);
        gc_log_info("progress: %llu %s%s done%s, %.3g s a %s, t = %s", done, p->noun,
                    gc_log_plural(done), of, rate > 0.0 ? 1.0 / rate : 0.0, p->noun, when);
        return;
    }
    if (p->total && rate > 0.0 && done <= p->total) {
        duration((double)(p->total - done) / rate, left, sizeof left);
        k = snprintf(line, sizeof line, "%s %llu/%llu (%.0f%%), t = %s, %.3g %ss/s, %s left",
                     p->noun, done, p->total, 100.0 * (double)done / (double)p->total, when,
                     rate, p->noun, left);
    } else {
        k = snprintf(line, sizeof line, "%s %llu, t = %s, %.3g %ss/s", p->noun, done, when,
                     rate, p->noun);
    }
    if (k > 0)
        gc_log_status(line);
}

void gc_progress_pause(struct gc_progress *p)
{
    if (p->live)
        gc_log_status(NULL);
    else
        p->last_s = gc_clock_seconds();
}

void gc_progress_end(struct gc_progress *p)
{
    if (p->live)
        gc_log_status(NULL);
}
