/* Turns status codes into words for messages. */
/* SPDX-License-Identifier: MIT */
#include "status.h"

const char *gc_status_str(enum gc_status s)
{
    switch (s) {
    case GC_OK: return "ok";
    case GC_ERR_IO: return "input/output error";
    case GC_ERR_PARSE: return "parse error";
    case GC_ERR_NOMEM: return "out of memory";
    case GC_ERR_CUDA: return "CUDA error";
    case GC_ERR_GL: return "OpenGL error";
    case GC_ERR_INVALID: return "invalid argument";
    case GC_ERR_UNSUPPORTED: return "not supported";
    case GC_ERR_INTERRUPTED: return "interrupted";
    }
    return "unknown status";
}
