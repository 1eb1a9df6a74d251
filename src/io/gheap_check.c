/* Walks HDF5 global heap collections as libhdf5 does, to refuse the ones it would decode unsafely. */
/* SPDX-License-Identifier: MIT */
#include "gheap_check.h"

#include <string.h>

/* Byte i of a collection; libhdf5 reads bytes past the end of the file as zeros. */
static unsigned byte_at(const unsigned char *c, size_t avail, uint64_t i)
{
    return i < avail ? c[i] : 0u;
}

/* A little-endian length of n bytes; one that does not fit 64 bits reads as UINT64_MAX. */
static uint64_t length_at(const unsigned char *c, size_t avail, uint64_t i, unsigned n)
{
    uint64_t v = 0;
    for (unsigned k = n; k-- > 0;) {
        unsigned b = byte_at(c, avail, i + k);
        if (k >= 8) {
            if (b)
                return UINT64_MAX;
            continue;
        }
        v |= (uint64_t)b << (8 * k);
    }
    return v;
}

size_t gc_gheap_header_size(unsigned sizeof_size)
{
    return 4 + 1 + 3 + (size_t)sizeof_size;
}

int gc_gheap_is_collection(const unsigned char *p, size_t avail, unsigned sizeof_size,
                           uint64_t *len)
{
    if (avail < 5 || memcmp(p, "GCOL", 4) != 0 || p[4] != 1)
        return 0;
    *len = length_at(p, avail, 8, sizeof_size);
    return 1;
}

enum gc_status gc_gheap_check_collection(const unsigned char *c, size_t avail, uint64_t len,
                                         unsigned sizeof_size)
{
    const uint64_t hdr = gc_gheap_header_size(sizeof_size);
    const uint64_t objhdr = 2 + 2 + 4 + (uint64_t)sizeof_size; /* index, refs, reserved, length */
    uint64_t p = hdr;
    if (sizeof_size == 0 || len < hdr)
        return GC_ERR_PARSE;
    while (p < len) {
        unsigned idx;
        uint64_t size, need;
        if (len - p < objhdr)
            break; /* too short for an object: libhdf5 takes it as the free space */
        idx = byte_at(c, avail, p) | byte_at(c, avail, p + 1) << 8;
        size = length_at(c, avail, p + 8, sizeof_size);
        /* Object 0 is the free space, its length counting its header; the others are
         * padded to 8 bytes after their header. */
        if (idx == 0)
            need = size;
        else if (size > len)
            return GC_ERR_PARSE;
        else
            need = objhdr + ((size + 7) & ~(uint64_t)7);
        /* 0 would never move on (libhdf5 loops forever); past the end, libhdf5 1.10 copies
         * the object from beyond its buffer. */
        if (need == 0 || need > len - p)
            return GC_ERR_PARSE;
        p += need;
    }
    return GC_OK;
}
