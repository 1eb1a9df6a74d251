/* Before any work: every file and folder the options will write, checked to be writable. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_OUTPUTS_H
#define GC_OUTPUTS_H

#include "cli.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks that the outputs options o will write can be written, so that a bad path is told
 * before minutes of frames or steps, not after them: --save, --record, --screenshot (their
 * folder exists and takes new files; the path is not a folder), --snapshot-dir with
 * --snapshot-every (a folder that takes new files, or one that can be created there) and a
 * given --screenshot-dir (an existing folder that takes new files). The first problem is
 * logged naming the option, the path as given and the system's reason; GC_ERR_IO (a file
 * problem: exit status 1, as when a write fails later). A device or FIFO is checked to take
 * writes itself (it is written into, outfile.h). Two outputs naming the same file (the
 * same inode, or the same name in the same folder) are refused naming both options:
 * GC_ERR_INVALID. Nothing is created. */
enum gc_status gc_outputs_check(const struct gc_options *o);

#ifdef __cplusplus
}
#endif
#endif
