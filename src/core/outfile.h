/* Where an output's bytes go: a file written under "<path>.part" and renamed when complete, or a device or pipe written as it is. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_OUTFILE_H
#define GC_OUTFILE_H

#include <stdio.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One output being written (a table, a snapshot, a picture, a movie). Every writer goes
 * through this, so that no output ever replaces what it should write into: a name that is
 * new or a regular file gets the output only when it is complete (a full disk or a stop
 * leaves no half file under it); a device (/dev/null, /dev/stdout) or a FIFO that is
 * already there is written into directly, as `cat > /dev/null` would, never replaced by a
 * regular file. A symbolic link is followed: the file it names is replaced, the link
 * stays. */
struct gc_outfile {
    char path[4096];  /* the output's name as given, for messages */
    char final[4096]; /* what it becomes: path, or the regular file a link names */
    char write[4104]; /* what is written: final + ".part", or the device itself */
    int direct;       /* 1: a device or FIFO, written as it is (nothing renamed or removed) */
    int seekable;     /* 1 once opened when the target can seek (and be read back) */
    int fd;           /* the open target, -1 when closed */
};

/* 1 when path names an existing character device or FIFO (through links): an output there
 * is written as it is. */
int gc_outfile_is_direct(const char *path);
/* Why no output may go to path, in words to follow it ("is a folder; ..."), or NULL: a
 * folder, a block device (a picture written over a disk is not what anyone means) or a
 * socket (which takes no open()). */
const char *gc_outfile_refusal(const char *path);

/* Decides where path's output goes (fills f; opens nothing). GC_ERR_INVALID (logged) for
 * a name too long, a folder, a block device or a socket. */
enum gc_status gc_outfile_begin(struct gc_outfile *f, const char *path);

/* Opens what f writes into: the .part file (created, or emptied) or the device. A FIFO
 * that no one reads yet is waited for, saying so once, until a reader comes or a stop is
 * requested (stop.h; then GC_ERR_INTERRUPTED), so that a stop is heard while waiting.
 * Logged on failure (GC_ERR_IO). */
enum gc_status gc_outfile_open(struct gc_outfile *f);

/* Writes the n bytes at buf to f's open target, a short write continued; 0 with errno set
 * (not logged) on failure. */
int gc_outfile_write(struct gc_outfile *f, const void *buf, size_t n);

/* The same as a stdio stream ("wb"); closed by gc_outfile_end_file. NULL on failure
 * (logged). */
FILE *gc_outfile_open_file(struct gc_outfile *f, enum gc_status *st);

/* Ends the output. ok = 1: the writer wrote everything; what was written is flushed to
 * the disk and, for a file, renamed into place (GC_ERR_IO, logged, when that fails, and
 * the .part is removed). ok = 0: the .part is removed (a device keeps what it got).
 * Closes f's descriptor where it is still open. */
enum gc_status gc_outfile_end(struct gc_outfile *f, int ok);

/* gc_outfile_end for a stream from gc_outfile_open_file: flushes and closes it first; a
 * write error it met (a full disk, a closed pipe) is logged and makes ok 0. */
enum gc_status gc_outfile_end_file(struct gc_outfile *f, FILE *stream, int ok);

/* Ends an output that a stop request (stop.h) cut short: closes stream (may be NULL) and
 * f, removes the .part, and says so (a device keeps what it got). GC_ERR_INTERRUPTED. */
enum gc_status gc_outfile_stopped(struct gc_outfile *f, FILE *stream);

#ifdef __cplusplus
}
#endif
#endif
