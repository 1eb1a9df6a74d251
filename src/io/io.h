/* Reads a body file of any supported format, chosen by the file's content. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_IO_H
#define GC_IO_H

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_io_format {
    GC_IO_TABLE = 0, /* Dubinski / --save text table, plain or gzip (table.h) */
    GC_IO_HDF5       /* snapshot in the GADGET/SWIFT HDF5 layout (snapshot_hdf5.h) */
};

/* What gc_io_read found besides the bodies. */
struct gc_io_source {
    enum gc_io_format format;
    double time; /* the snapshot's Time (N-body units); 0 for a table */
};

/* Reads path into out (empty on entry). A file that starts with the 8-byte HDF5 signature
 * goes to the snapshot reader, anything else to the table reader; a name ending in .hdf5,
 * .h5 or .hdf without the signature is an error rather than a table. source (may be NULL)
 * says which it was. Problems are logged once by the reader that finds them. */
enum gc_status gc_io_read(const char *path, struct gc_bodies *out, struct gc_io_source *source);
/* The same, and for an HDF5 snapshot what its run recorded (snapshot_hdf5.h) into *run
 * (zeroed for a table; free with gc_snapshot_run_free). */
struct gc_snapshot_run;
enum gc_status gc_io_read_run(const char *path, struct gc_bodies *out,
                              struct gc_io_source *source, struct gc_snapshot_run *run);

#ifdef __cplusplus
}
#endif
#endif
