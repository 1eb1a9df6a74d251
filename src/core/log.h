/* The one place that prints messages: errors and warnings to stderr, info to stderr too
 * so stdout stays clean for machine-readable output (--json, --steps tables). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_LOG_H
#define GC_LOG_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum gc_log_level { GC_LOG_ERROR = 0, GC_LOG_WARN = 1, GC_LOG_INFO = 2, GC_LOG_DEBUG = 3 };

/* Messages above this level are dropped; default GC_LOG_INFO. */
void gc_log_set_level(enum gc_log_level level);
/* on = 1: errors are kept instead of printed (ranks other than 0, so that a run over many
 * ranks reports a problem once, from rank 0: see gc_comm_agree); the first one is kept. */
void gc_log_hold_errors(int on);
/* Copies the held error (without the "galaxy: error: " prefix; "" when none) into buf and
 * forgets it. Returns 1 when there was one. */
int gc_log_take_held(char *buf, size_t cap);

#if defined(__GNUC__)
#define GC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GC_PRINTF(a, b)
#endif

/* 1 when a status line can be shown in place: stderr is a terminal and info messages are
 * printed (not --quiet). */
int gc_log_status_wanted(void);
/* Shows text as the status line, in place of the previous one (a carriage return, the text,
 * the rest of the line erased); NULL clears it. Any other message clears it first, so that
 * messages never run into it. Does nothing where gc_log_status_wanted() is 0. */
void gc_log_status(const char *text);

/* "s" unless n is 1: "1 frame", "2 frames". */
static inline const char *gc_log_plural(unsigned long long n)
{
    return n == 1 ? "" : "s";
}

void gc_log_error(const char *fmt, ...) GC_PRINTF(1, 2);
void gc_log_warn(const char *fmt, ...) GC_PRINTF(1, 2);
void gc_log_info(const char *fmt, ...) GC_PRINTF(1, 2);
void gc_log_debug(const char *fmt, ...) GC_PRINTF(1, 2);

#ifdef __cplusplus
}
#endif
#endif
