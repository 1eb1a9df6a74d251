/* Routes all diagnostic output through one function so format and verbosity stay uniform. */
/* SPDX-License-Identifier: MIT */
#include "log.h"

#include <stdarg.h>
#include <stdio.h>

/* The only file-scope state in the project: a process-wide verbosity, like stderr itself. */
static enum gc_log_level max_level = GC_LOG_INFO;

void gc_log_set_level(enum gc_log_level level) { max_level = level; }

static void emit(enum gc_log_level level, const char *prefix, const char *fmt, va_list ap)
{
    if (level > max_level)
        return;
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
