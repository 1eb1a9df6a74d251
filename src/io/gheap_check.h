/* Checks HDF5 global heap collections before libhdf5 decodes them (it can loop forever or read out of bounds on corrupt ones). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_GHEAP_CHECK_H
#define GC_GHEAP_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Variable-length strings (h5py's default for string attributes) live in "global heap
 * collections": a "GCOL" header, then objects (index, references, length, data). libhdf5
 * 1.10 to 2.0 loops forever on a free-space object of length 0, and 1.10 copies an object
 * longer than its collection past the end of its buffer. These functions walk a collection
 * as libhdf5 does and say whether it would be safe to decode. sizeof_size is the file's
 * "size of lengths" (8 in practice; H5Pget_sizes). */

/* Bytes of a collection header: "GCOL", version, 3 reserved, the collection's length. */
size_t gc_gheap_header_size(unsigned sizeof_size);

/* 1 when p[0..avail) starts a collection header (signature and version 1), with its
 * declared length (header included) in *len; 0 otherwise. */
int gc_gheap_is_collection(const unsigned char *p, size_t avail, unsigned sizeof_size,
                           uint64_t *len);

/* The collection at c, of declared length len, of which avail bytes are present (libhdf5
 * reads the rest as zeros): GC_OK when every object's length keeps the walk moving and
 * inside the collection, GC_ERR_PARSE (nothing logged) when not. */
enum gc_status gc_gheap_check_collection(const unsigned char *c, size_t avail, uint64_t len,
                                         unsigned sizeof_size);

#ifdef __cplusplus
}
#endif
#endif
