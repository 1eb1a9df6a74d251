/* Outputs: a regular file through "<path>.part" and a rename, a device or FIFO written as it is. */
/* SPDX-License-Identifier: MIT */
/* realpath() is an X/Open call. */
#define _XOPEN_SOURCE 700
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "stop.h"

int gc_outfile_is_direct(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode));
}

const char *gc_outfile_refusal(const char *path)
{
    struct stat sb;
    const size_t len = strlen(path);
    if ((len && path[len - 1] == '/') || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)))
        return "is a folder; give a file name";
    if (stat(path, &sb) == 0 && S_ISBLK(sb.st_mode))
        return "is a block device (a disk): not written into";
    if (stat(path, &sb) == 0 && S_ISSOCK(sb.st_mode))
        return "is a socket: not written into";
    return NULL;
}

enum gc_status gc_outfile_begin(struct gc_outfile *f, const char *path)
{
    struct stat sb;
    const size_t len = strlen(path);
    const char *why = gc_outfile_refusal(path);
    memset(f, 0, sizeof *f);
    f->fd = -1;
    if (len == 0 || len >= sizeof f->path) {
        gc_log_error("%s: %s", len ? path : "output", len ? "path too long" : "no file name given");
        return GC_ERR_INVALID;
    }
    if (why) {
        gc_log_error("%s: %s", path, why);
        return GC_ERR_INVALID;
    }
    memcpy(f->path, path, len + 1);
    memcpy(f->final, path, len + 1);
    if (stat(path, &sb) == 0) {
        if (S_ISCHR(sb.st_mode) || S_ISFIFO(sb.st_mode)) {
            f->direct = 1;
            memcpy(f->write, path, len + 1);
            return GC_OK;
        }
        /* A link to a regular file: the file is replaced, the link kept. */
        {
            char *real = realpath(path, NULL);
            if (real && strlen(real) < sizeof f->final)
                snprintf(f->final, sizeof f->final, "%s", real);
            free(real);
        }
    }
    snprintf(f->write, sizeof f->write, "%s.part", f->final);
    return GC_OK;
}

/* A FIFO opened for writing blocks until someone reads it: opened without blocking and
 * retried, so that a stop request is heard while no reader has come. */
static int open_fifo(struct gc_outfile *f)
{
    const struct timespec pause = {0, 50 * 1000 * 1000};
    int told = 0;
    for (;;) {
        int fd = open(f->write, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd >= 0) {
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            return fd;
        }
        if (errno != ENXIO)
            return -1;
        if (gc_stop_requested()) {
            errno = EINTR;
            return -2;
        }
        if (!told)
            gc_log_info("%s: waiting for a reader of this pipe", f->path);
        told = 1;
        nanosleep(&pause, NULL);
    }
}

enum gc_status gc_outfile_open(struct gc_outfile *f)
{
    struct stat sb;
    if (!f->direct)
        f->fd = open(f->write, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    else if (stat(f->write, &sb) == 0 && S_ISFIFO(sb.st_mode))
        f->fd = open_fifo(f);
    else
        f->fd = open(f->write, O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (f->fd == -2) {
        f->fd = -1;
        return GC_ERR_INTERRUPTED;
    }
    if (f->fd < 0) {
        gc_log_error("%s: cannot create %s: %s", f->path, f->write, strerror(errno));
        return GC_ERR_IO;
    }
    f->seekable = lseek(f->fd, 0, SEEK_CUR) >= 0;
    return GC_OK;
}

int gc_outfile_write(struct gc_outfile *f, const void *buf, size_t n)
{
    const unsigned char *p = buf;
    while (n > 0) {
        const ssize_t w = write(f->fd, p, n < ((size_t)1 << 30) ? n : (size_t)1 << 30);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (w == 0)
                errno = EIO;
            return 0;
        }
        p += w;
        n -= (size_t)w;
    }
    return 1;
}

FILE *gc_outfile_open_file(struct gc_outfile *f, enum gc_status *st)
{
    FILE *s;
    *st = gc_outfile_open(f);
    if (*st != GC_OK)
        return NULL;
    s = fdopen(f->fd, "wb");
    if (!s) {
        gc_log_error("%s: cannot write %s: %s", f->path, f->write, strerror(errno));
        gc_outfile_end(f, 0);
        *st = GC_ERR_NOMEM;
        return NULL;
    }
    f->fd = -1; /* the stream owns it now */
    return s;
}

/* Removes the .part of a failed file output; 1 when there was one to remove. */
static int discard(struct gc_outfile *f)
{
    return !f->direct && unlink(f->write) == 0;
}

enum gc_status gc_outfile_end(struct gc_outfile *f, int ok)
{
    int err = 0;
    if (f->fd >= 0) {
        /* On the disk before the rename: a crash then leaves the old file or the whole new
         * one. A device or a pipe has nothing to sync (EINVAL). */
        if (ok && !f->direct && fsync(f->fd) != 0 && errno != EINVAL)
            err = errno;
        if (close(f->fd) != 0 && ok && !err)
            err = errno;
        f->fd = -1;
        if (err) {
            gc_log_error("%s: write failed: %s%s%s%s", f->path, strerror(err),
                         f->direct ? "" : " (removed the partial ", f->direct ? "" : f->write,
                         f->direct ? "" : ")");
            ok = 0;
            discard(f);
            return GC_ERR_IO;
        }
    }
    if (!ok) {
        discard(f);
        return GC_ERR_IO;
    }
    if (!f->direct && rename(f->write, f->final) != 0) {
        gc_log_error("%s: cannot rename %s into place: %s (removed it)", f->path, f->write,
                     strerror(errno));
        discard(f);
        return GC_ERR_IO;
    }
    return GC_OK;
}

enum gc_status gc_outfile_end_file(struct gc_outfile *f, FILE *stream, int ok)
{
    int err = 0;
    if (stream) {
        errno = 0;
        if (fflush(stream) != 0 || ferror(stream))
            err = errno ? errno : EIO;
        /* On the disk before the rename (see gc_outfile_end). */
        if (!err && ok && !f->direct && fileno(stream) >= 0 && fsync(fileno(stream)) != 0 &&
            errno != EINVAL)
            err = errno;
        if (fclose(stream) != 0 && !err)
            err = errno;
        if (err && ok) {
            gc_log_error("%s: write failed: %s%s%s%s", f->path, strerror(err),
                         f->direct ? "" : " (removed the partial ", f->direct ? "" : f->write,
                         f->direct ? "" : ")");
            ok = 0;
        }
    }
    return gc_outfile_end(f, ok);
}

enum gc_status gc_outfile_stopped(struct gc_outfile *f, FILE *stream)
{
    if (stream)
        fclose(stream);
    if (f->fd >= 0)
        close(f->fd);
    f->fd = -1;
    gc_stop_told();
    if (discard(f))
        gc_log_warn("%s: not written: stopped by %s (removed the partial %s)", f->path,
                    gc_stop_name(gc_stop_requested()), f->write);
    else
        gc_log_warn("%s: stopped by %s before the output was complete", f->path,
                    gc_stop_name(gc_stop_requested()));
    return GC_ERR_INTERRUPTED;
}
