/* What a reader of bodies may read: a regular file. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INFILE_H
#define GC_INFILE_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* GC_OK when path names a regular file (or a link to one). A folder, a device (/dev/zero),
 * a FIFO or a socket is refused, saying which it is (GC_ERR_INVALID); a path that cannot be
 * looked up is GC_ERR_IO with the system's reason. Logged. */
enum gc_status gc_infile_check(const char *path);

#ifdef __cplusplus
}
#endif
#endif
