/* Status codes returned by every fallible function in the project. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_STATUS_H
#define GC_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

enum gc_status {
    GC_OK = 0,
    GC_ERR_IO,          /* file missing, unreadable, truncated */
    GC_ERR_PARSE,       /* malformed content */
    GC_ERR_NOMEM,       /* allocation failed or request too large */
    GC_ERR_CUDA,        /* CUDA runtime error or no usable device */
    GC_ERR_GL,          /* OpenGL / window / EGL failure */
    GC_ERR_INVALID,     /* argument out of range */
    GC_ERR_UNSUPPORTED, /* feature not compiled in or not available here */
    GC_ERR_INTERRUPTED  /* stopped on request (SIGINT, SIGTERM: stop.h), not a failure */
};

const char *gc_status_str(enum gc_status s);

#ifdef __cplusplus
}
#endif
#endif
