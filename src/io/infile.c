/* What a reader of bodies may read: a regular file, which it can open twice (the format check, then the reader). */
/* SPDX-License-Identifier: MIT */
#include "infile.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"

enum gc_status gc_infile_check(const char *path)
{
    struct stat sb;
    const char *what;
    if (stat(path, &sb) != 0) {
        gc_log_error("%s: cannot open: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    if (S_ISREG(sb.st_mode))
        return GC_OK;
    what = S_ISDIR(sb.st_mode)                          ? "a folder"
           : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ? "a device"
           : S_ISFIFO(sb.st_mode)                       ? "a pipe (FIFO)"
           : S_ISSOCK(sb.st_mode)                       ? "a socket"
                                                        : "not a regular file";
    /* A device or a pipe may never end (/dev/zero) and is read once only: the readers take
     * files, which they can read twice (the format check, then the reader). */
    gc_log_error("%s: is %s, not a file of bodies", path, what);
    return GC_ERR_INVALID;
}
