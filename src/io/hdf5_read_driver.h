/* The file driver the snapshot reader opens files with: read-only, every address checked. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HDF5_READ_DRIVER_H
#define GC_HDF5_READ_DRIVER_H

#include <hdf5.h>
#include <stddef.h>

/* A file access property list that reads through the driver: the file named at H5Fopen
 * when image is NULL, else the size bytes at image (kept by the caller until the file is
 * closed; nothing touches the disk). Objects close with the file. H5I_INVALID_HID on
 * failure; the caller closes the list. */
hid_t gc_hdf5_read_access(const void *image, size_t size);

#endif
