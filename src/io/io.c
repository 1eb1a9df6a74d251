/* Picks the reader of a body file from its first bytes. */
/* SPDX-License-Identifier: MIT */
#include "io.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "infile.h"
#include "log.h"
#include "snapshot_hdf5.h"
#include "table.h"

/* An HDF5 file starts with these 8 bytes, at byte 0 or, after a user block, at byte 512,
 * 1024, 2048, ... (HDF5 file format specification, "Format Signature and Superblock");
 * gzip starts with 1f 8b and a table with text. */
static const unsigned char hdf5_signature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

/* 1 when the open file f carries the HDF5 signature where the format allows it. */
static int has_hdf5_signature(FILE *f)
{
    struct stat sb;
    long long size = fstat(fileno(f), &sb) == 0 ? (long long)sb.st_size : 8;
    for (long long at = 0; at + 8 <= size; at = at ? 2 * at : 512) {
        unsigned char head[8];
        if (fseeko(f, (off_t)at, SEEK_SET) != 0 || fread(head, 1, sizeof head, f) != sizeof head)
            return 0;
        if (memcmp(head, hdf5_signature, sizeof head) == 0)
            return 1;
    }
    return 0;
}

enum gc_status gc_io_read(const char *path, struct gc_bodies *out, struct gc_io_source *source)
{
    return gc_io_read_run(path, out, source, NULL);
}

enum gc_status gc_io_read_run(const char *path, struct gc_bodies *out,
                              struct gc_io_source *source, struct gc_snapshot_run *run)
{
    int hdf5;
    FILE *f;
    enum gc_status st;

    memset(out, 0, sizeof *out);
    if (run)
        memset(run, 0, sizeof *run);
    if (source) {
        source->format = GC_IO_TABLE;
        source->time = 0.0;
    }
    if (!path || !*path) {
        gc_log_error("no data file name given");
        return GC_ERR_INVALID;
    }
    st = gc_infile_check(path);
    if (st != GC_OK)
        return st;
    f = fopen(path, "rb");
    if (!f) {
        gc_log_error("%s: cannot open: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    hdf5 = has_hdf5_signature(f);
    fclose(f);
    if (!hdf5 && gc_snapshot_hdf5_name(path)) {
        gc_log_error("%s: not an HDF5 file (no HDF5 signature at its start or after a user "
                     "block; text tables need another name, e.g. .tab)", path);
        return GC_ERR_PARSE;
    }
    if (!hdf5)
        return gc_table_read(path, out);
    if (source)
        source->format = GC_IO_HDF5;
    st = gc_snapshot_hdf5_read_run(path, out, source ? &source->time : NULL, run);
    return st;
}
