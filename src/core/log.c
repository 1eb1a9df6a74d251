/* Routes all diagnostic output through one function so format and verbosity stay uniform. */
/* SPDX-License-Identifier: MIT */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* File-scope state (with stop.c's signal flag, the only in the project): a process-wide
 * verbosity, on ranks other than 0 the first error held back for rank 0 to report, and
 * whether a status line is on the terminal: all of it about stderr, itself one per process. */
static enum gc_log_level max_level = GC_LOG_INFO;
static int hold_errors;
static char held[512];
static int status_shown;

int gc_log_status_wanted(void)
{
    return max_level >= GC_LOG_INFO && !hold_errors && isatty(STDERR_FILENO);
}

/* "\r" returns to the line's start, "\033[K" erases to its end (ANSI, every terminal
 * emulator in use). */
static void status_clear(void)
{
    if (status_shown)
        fputs("\r\033[K", stderr);
    status_shown = 0;
}

void gc_log_status(const char *text)
{
    if (!text || !*text) {
        status_clear();
        fflush(stderr);
        return;
    }
    if (!gc_log_status_wanted())
        return;
    fprintf(stderr, "\r%s\033[K", text);
    fflush(stderr);
    status_shown = 1;
}

void gc_log_set_level(enum gc_log_level level) { max_level = level; }

void gc_log_hold_errors(int on) { hold_errors = on; }

int gc_log_take_held(char *buf, size_t cap)
{
    const int had = held[0] != '\0';
    if (cap > 0)
        snprintf(buf, cap, "%s", held);
    held[0] = '\0';
    return had;
}

static void emit(enum gc_log_level level, const char *prefix, const char *fmt, va_list ap)
{
    if (level == GC_LOG_ERROR && hold_errors) {
        /* The first error is the cause; later ones are usually its consequences. */
        if (!held[0])
            vsnprintf(held, sizeof held, fmt, ap);
        return;
    }
    if (level > max_level)
        return;
    status_clear();
    fputs(prefix, stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

#define GC_LOG_FN(fn, level, prefix)        \
    void fn(const char *fmt, ...)           \
    {                                       \
        va_list ap;                         \
        va_start(ap, fmt);                  \
        emit(level, prefix, fmt, ap);       \
        va_end(ap);                         \
    }

GC_LOG_FN(gc_log_error, GC_LOG_ERROR, "galaxy: error: ")
GC_LOG_FN(gc_log_warn, GC_LOG_WARN, "galaxy: warning: ")
GC_LOG_FN(gc_log_info, GC_LOG_INFO, "galaxy: ")
GC_LOG_FN(gc_log_debug, GC_LOG_DEBUG, "galaxy: debug: ")
