/* Picks the reader of a body file from its first bytes. */
/* SPDX-License-Identifier: MIT */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "log.h"
#include "snapshot_hdf5.h"
#include "table.h"

/* Every HDF5 file without a user block starts with these 8 bytes (HDF5 file format
 * specification, "Format Signature"); gzip starts with 1f 8b and a table with text. */
static const unsigned char hdf5_signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

enum gc_status gc_io_check_file(const char *path)
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

enum gc_status gc_io_read(const char *path, struct gc_bodies *out, struct gc_io_source *source)
{
    unsigned char head[8] = {0};
    size_t got;
    int hdf5;
    FILE *f;
    enum gc_status st;

    memset(out, 0, sizeof *out);
    if (source) {
        source->format = GC_IO_TABLE;
        source->time = 0.0;
    }
    if (!path || !*path) {
        gc_log_error("no data file name given");
        return GC_ERR_INVALID;
    }
    st = gc_io_check_file(path);
    if (st != GC_OK)
        return st;
    f = fopen(path, "rb");
    if (!f) {
        gc_log_error("%s: cannot open: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    got = fread(head, 1, sizeof head, f);
    fclose(f);
    hdf5 = got == sizeof head && memcmp(head, hdf5_signature, sizeof head) == 0;
    if (!hdf5 && gc_snapshot_hdf5_name(path)) {
        gc_log_error("%s: not an HDF5 file (it does not start with the HDF5 signature; "
                     "text tables need another name, e.g. .tab)", path);
        return GC_ERR_PARSE;
    }
    if (!hdf5)
        return gc_table_read(path, out);
    if (source)
        source->format = GC_IO_HDF5;
    st = gc_snapshot_hdf5_read(path, out, source ? &source->time : NULL);
    return st;
}
