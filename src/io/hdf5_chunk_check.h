/* Checks that each stored chunk of a dataset decodes to one whole chunk before libhdf5 reads it. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HDF5_CHUNK_CHECK_H
#define GC_HDF5_CHUNK_CHECK_H

#include <hdf5.h>

/* Why a chunk of dataset d (creation property list dcpl, `rank` chunk dimensions in
 * chunk[], `chunk_bytes` bytes a chunk) would be read past its end, or NULL. libhdf5 1.10
 * copies a whole chunk out of the buffer that holds what it decoded, however short that
 * is: a chunk stored without its filters (a corrupt filter mask) or a deflate stream that
 * ends early is read past its buffer (an overflow found by fuzzing; fixed upstream in
 * HDF5 2.0). Chunks stored plain, or through deflate, shuffle and Fletcher-32 in the order
 * writers apply them, are decoded here as far as needed to count their bytes; the few
 * whose length cannot be told that way (szip, scale-offset, n-bit, plugins) are left to
 * libhdf5. */
const char *gc_hdf5_chunks_insane(hid_t d, hid_t dcpl, const hsize_t *chunk, int rank,
                                  hsize_t chunk_bytes);

#endif
