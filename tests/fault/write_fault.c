/* LD_PRELOAD shim for fault-injection tests: a small disk that fills up, for files whose path contains a given text. */
/* SPDX-License-Identifier: MIT */
/*
 * GC_FAULT_PATH=TEXT  files whose path contains TEXT are on the "small disk"
 * GC_FAULT_BYTES=N    the disk holds N bytes: writes past them fail with ENOSPC, after a short
 *                     write of what still fits, as a real full disk does
 * GC_FAULT_ERRNO=E    the error given instead of ENOSPC (e.g. 5 for EIO); optional
 *
 * Covers what the program's writers use: open/openat + write/pwrite/writev (libhdf5's file
 * driver, FFmpeg's file protocol, our own writers) and fopen (stdio writes through libc's
 * internal calls, which a preload cannot see, so matching streams are rebuilt on
 * fopencookie over a write that counts); statvfs reports the budget left as the free space. For a test where mounting a small tmpfs is not
 * allowed (CI containers); where it is, the tests use a real one as well.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#define MAX_FD 4096

static unsigned char tracked[MAX_FD];
static long long budget = -1; /* bytes left; -1 = no limit configured */
static int fault_errno = ENOSPC;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void configure(void)
{
    static int done;
    const char *b, *e;
    if (done)
        return;
    done = 1;
    b = getenv("GC_FAULT_BYTES");
    e = getenv("GC_FAULT_ERRNO");
    if (b)
        budget = atoll(b);
    if (e && atoi(e) > 0)
        fault_errno = atoi(e);
}

static int matches(const char *path)
{
    const char *want = getenv("GC_FAULT_PATH");
    return path && want && *want && strstr(path, want);
}

static void track(int fd, const char *path)
{
    if (fd >= 0 && fd < MAX_FD)
        tracked[fd] = (unsigned char)matches(path);
}

/* How many of n bytes may be written to fd now; 0 with errno set when the disk is full. */
static size_t allow(int fd, size_t n)
{
    size_t ok = n;
    if (fd < 0 || fd >= MAX_FD || !tracked[fd])
        return n;
    pthread_mutex_lock(&lock);
    configure();
    if (budget >= 0) {
        ok = (long long)n <= budget ? n : (size_t)budget;
        budget -= (long long)ok;
    }
    pthread_mutex_unlock(&lock);
    if (ok == 0 && n > 0)
        errno = fault_errno;
    return ok;
}

#define REAL(name) static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

int open(const char *path, int flags, ...)
{
    mode_t mode = 0;
    int fd;
    REAL(open);
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    fd = real_open(path, flags, mode);
    track(fd, path);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    mode_t mode = 0;
    int fd;
    REAL(open64);
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    fd = real_open64(path, flags, mode);
    track(fd, path);
    return fd;
}

int openat(int dir, const char *path, int flags, ...)
{
    mode_t mode = 0;
    int fd;
    REAL(openat);
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, mode_t);
        va_end(ap);
    }
    fd = real_openat(dir, path, flags, mode);
    track(fd, path);
    return fd;
}

int close(int fd)
{
    REAL(close);
    if (fd >= 0 && fd < MAX_FD)
        tracked[fd] = 0;
    return real_close(fd);
}

ssize_t write(int fd, const void *buf, size_t n)
{
    size_t k;
    REAL(write);
    k = allow(fd, n);
    if (k == 0 && n > 0)
        return -1;
    return real_write(fd, buf, k);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    size_t k;
    REAL(pwrite);
    k = allow(fd, n);
    if (k == 0 && n > 0)
        return -1;
    return real_pwrite(fd, buf, k, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    size_t k;
    REAL(pwrite64);
    k = allow(fd, n);
    if (k == 0 && n > 0)
        return -1;
    return real_pwrite64(fd, buf, k, off);
}

ssize_t writev(int fd, const struct iovec *iov, int cnt)
{
    size_t n = 0, k;
    ssize_t done = 0;
    REAL(writev);
    for (int i = 0; i < cnt; i++)
        n += iov[i].iov_len;
    k = allow(fd, n);
    if (k == 0 && n > 0)
        return -1;
    if (k == n)
        return real_writev(fd, iov, cnt);
    /* A short write: the first k bytes, one piece at a time. */
    for (int i = 0; i < cnt && k > 0; i++) {
        size_t m = iov[i].iov_len < k ? iov[i].iov_len : k;
        ssize_t w = write(fd, iov[i].iov_base, m);
        if (w <= 0)
            break;
        done += w;
        k -= (size_t)w;
    }
    return done;
}

/* stdio streams on the small disk: their writes go through write() above. */
static ssize_t cookie_write(void *c, const char *buf, size_t n)
{
    ssize_t w = write((int)(intptr_t)c, buf, n);
    /* fopencookie: 0 means an error (and no short writes are retried). */
    return w < 0 ? 0 : w;
}

static int cookie_close(void *c)
{
    return close((int)(intptr_t)c);
}

static FILE *wrap(const char *path, const char *mode, FILE *(*real)(const char *, const char *))
{
    cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    int flags, fd;
    FILE *f;
    if (!matches(path) || (mode[0] != 'w' && mode[0] != 'a') || strchr(mode, '+'))
        return real(path, mode);
    flags = O_WRONLY | O_CREAT | (mode[0] == 'w' ? O_TRUNC : O_APPEND);
    fd = open(path, flags, 0666);
    if (fd < 0)
        return NULL;
    f = fopencookie((void *)(intptr_t)fd, mode, io);
    if (!f)
        close(fd);
    return f;
}

FILE *fopen(const char *path, const char *mode)
{
    REAL(fopen);
    return wrap(path, mode, real_fopen);
}

FILE *fopen64(const char *path, const char *mode)
{
    REAL(fopen64);
    return wrap(path, mode, real_fopen64);
}

/* A stream over a descriptor opened on the small disk (outfile.h opens, then fdopen):
 * glibc's own stream writes do not come through write() above. */
FILE *fdopen(int fd, const char *mode)
{
    cookie_io_functions_t io = {NULL, cookie_write, NULL, cookie_close};
    REAL(fdopen);
    if (fd < 0 || fd >= MAX_FD || !tracked[fd])
        return real_fdopen(fd, mode);
    return fopencookie((void *)(intptr_t)fd, mode, io);
}

/* The small disk's free space is what is left of its budget. */
static void report_free(const char *path, struct statvfs *fs)
{
    long long left;
    if (!matches(path))
        return;
    pthread_mutex_lock(&lock);
    configure();
    left = budget;
    pthread_mutex_unlock(&lock);
    if (left >= 0 && fs->f_frsize > 0)
        fs->f_bavail = fs->f_bfree = (fsblkcnt_t)((unsigned long long)left / fs->f_frsize);
}

int statvfs(const char *path, struct statvfs *fs)
{
    int r;
    REAL(statvfs);
    r = real_statvfs(path, fs);
    if (r == 0)
        report_free(path, fs);
    return r;
}
