/* Counts the bytes each stored chunk of a dataset decodes to, so that a short one is refused before libhdf5 reads it. */
/* SPDX-License-Identifier: MIT */
#include "hdf5_chunk_check.h"

#include <limits.h>
#include <stdlib.h>
#include <zlib.h>

#include "snapshot_hdf5_layout.h"

struct pipeline {
    int n;
    H5Z_filter_t id[H5Z_MAX_NFILTERS];
};

/* The bytes a zlib stream of len bytes inflates to, counted up to cap + 1 (anything longer
 * is as wrong); -1 when it is not one whole stream, as libhdf5's deflate filter requires. */
static long long inflated_length(const unsigned char *in, size_t len, hsize_t cap)
{
    unsigned char out[16384];
    z_stream z = {0};
    long long total = 0;
    int e = Z_OK;
    if (len > UINT_MAX || inflateInit(&z) != Z_OK)
        return -1;
    z.next_in = (unsigned char *)in;
    z.avail_in = (uInt)len;
    while (e == Z_OK && (hsize_t)total <= cap) {
        z.next_out = out;
        z.avail_out = sizeof out;
        e = inflate(&z, Z_NO_FLUSH);
        total += (long long)(sizeof out - z.avail_out);
        if (e == Z_BUF_ERROR && z.avail_in == 0)
            break; /* the input ends inside the stream */
    }
    inflateEnd(&z);
    if ((hsize_t)total > cap)
        return total;
    return e == Z_STREAM_END ? total : -1;
}

/* Why the chunk at offset (stored as `stored` bytes, filters in mask skipped) does not
 * decode to `want` bytes, or NULL (also when its filters' output cannot be counted). *buf
 * (*cap bytes) holds the stored chunk when it must be inflated. */
static const char *chunk_insane(hid_t d, const struct pipeline *p, const hsize_t *offset,
                                unsigned mask, hsize_t stored, hsize_t want,
                                unsigned char **buf, hsize_t *cap)
{
    hsize_t len = stored;
    int permuted = 0, have = 0;
    for (int i = p->n - 1; i >= 0; i--) {
        if (i < 32 && (mask >> i & 1u))
            continue;
        switch (p->id[i]) {
        case H5Z_FILTER_FLETCHER32:
            if (len < 4)
                return "has a chunk too short for its checksum (file corrupt?)";
            len -= 4; /* the checksum trails the data */
            break;
        case H5Z_FILTER_SHUFFLE:
            permuted = 1; /* same length, bytes reordered */
            break;
        case H5Z_FILTER_DEFLATE: {
            long long got;
            uint32_t filters = 0;
            if (permuted)
                return NULL; /* a stream reordered before inflating: not counted here */
            if (!have) {
                if (stored > *cap) {
                    unsigned char *nb = realloc(*buf, (size_t)stored);
                    if (!nb)
                        return "has a chunk too large to check (file corrupt?)";
                    *buf = nb;
                    *cap = stored;
                }
#if H5_VERSION_GE(2, 0, 0)
                size_t sz = (size_t)*cap;
                if (H5Dread_chunk2(d, H5P_DEFAULT, offset, &filters, *buf, &sz) < 0)
#else
                if (H5Dread_chunk(d, H5P_DEFAULT, offset, &filters, *buf) < 0)
#endif
                    return "has a chunk that cannot be read (file corrupt?)";
                have = 1;
            }
            got = inflated_length(*buf, (size_t)len, want);
            if (got < 0)
                return "has a chunk that does not decompress (file corrupt?)";
            len = (hsize_t)got;
            permuted = 1; /* what earlier filters see is no longer the stored bytes */
            break;
        }
        default:
            return NULL; /* a filter whose output length is not counted here */
        }
    }
    return len == want ? NULL
                       : "has a chunk that does not decode to one whole chunk of values (file "
                         "corrupt?)";
}

const char *gc_hdf5_chunks_insane(hid_t d, hid_t dcpl, const hsize_t *chunk, int rank,
                                  hsize_t chunk_bytes)
{
    struct pipeline p = {0};
    hsize_t dims[H5S_MAX_RANK], cell[H5S_MAX_RANK] = {0}, offset[H5S_MAX_RANK];
    hid_t sp = H5Dget_space(d);
    int nf = H5Pget_nfilters(dcpl);
    unsigned char *buf = NULL;
    hsize_t cap = 0;
    const char *why = NULL;
    if (sp < 0 || H5Sget_simple_extent_ndims(sp) != rank ||
        H5Sget_simple_extent_dims(sp, dims, NULL) < 0 || nf < 0 || nf > H5Z_MAX_NFILTERS) {
        close_id(&sp, H5Sclose);
        return "has a chunk layout that cannot be read (file corrupt?)";
    }
    close_id(&sp, H5Sclose);
    for (int i = 0; i < nf; i++) {
        unsigned flags, config;
        size_t ncd = 0;
        p.id[i] = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, NULL, 0, NULL, &config);
        if (p.id[i] < 0)
            return "has a filter pipeline that cannot be read (file corrupt?)";
    }
    p.n = nf;
    for (int k = 0; k < rank; k++)
        if (chunk[k] == 0)
            return "has a chunk layout that cannot be read (file corrupt?)";
    for (int k = 0; k < rank; k++)
        if (dims[k] == 0)
            return NULL; /* no chunks */
    /* Every chunk of the grid, in row-major order. */
    for (;;) {
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t stored = 0;
        int k;
        for (k = 0; k < rank; k++)
            offset[k] = cell[k] * chunk[k];
        if (H5Dget_chunk_info_by_coord(d, offset, &mask, &addr, &stored) < 0) {
            why = "has a chunk index that cannot be read (file corrupt?)";
            break;
        }
        /* A chunk never written reads as fill values: zeros loaded as bodies. */
        if (addr == HADDR_UNDEF) {
            why = "has chunks that were never written (they would read as zeros)";
            break;
        }
        if (stored > stored_max(chunk_bytes)) {
            why = "has a chunk stored larger than its values can fill (file corrupt?)";
            break;
        }
        why = chunk_insane(d, &p, offset, mask, stored, chunk_bytes, &buf, &cap);
        if (why)
            break;
        for (k = rank - 1; k >= 0; k--) {
            if (++cell[k] * chunk[k] < dims[k])
                break;
            cell[k] = 0;
        }
        if (k < 0)
            break;
    }
    free(buf);
    return why;
}
