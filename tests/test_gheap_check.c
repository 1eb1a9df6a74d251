/* Tests of the global heap check: libhdf5-written collections pass; the layouts on which libhdf5 hangs or reads out of bounds fail. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "gheap_check.h"

#define LEN 4096 /* a collection as libhdf5 writes one: 4096 bytes */

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
    for (unsigned k = 0; k < n; k++)
        p[k] = (unsigned char)(v >> (8 * k));
}

/* Object header at c + at: index, 1 reference, length. */
static void object(unsigned char *c, size_t at, unsigned idx, uint64_t len)
{
    put_le(c + at, idx, 2);
    put_le(c + at + 2, 1, 2);
    put_le(c + at + 8, len, 8);
}

/* The heap of tests/fuzz/snapshot_hdf5/h5py_chunked_vlen.hdf5: "GCOL" v1 of 4096 bytes,
 * object 1 = "bulge" (5 bytes, padded to 8), then the free space to the end. */
static void good(unsigned char *c)
{
    memset(c, 0, LEN);
    memcpy(c, "GCOL\1", 5);
    put_le(c + 8, LEN, 8);
    object(c, 16, 1, 5);
    memcpy(c + 32, "bulge", 5);
    object(c, 40, 0, LEN - 40);
}

int main(void)
{
    static unsigned char c[LEN];
    uint64_t len = 0;

    CHECK(gc_gheap_header_size(8) == 16);
    good(c);
    CHECK(gc_gheap_is_collection(c, LEN, 8, &len) == 1);
    CHECK(len == LEN);
    CHECK(gc_gheap_check_collection(c, LEN, len, 8) == GC_OK);
    CHECK(gc_gheap_is_collection(c + 1, LEN - 1, 8, &len) == 0);
    CHECK(gc_gheap_is_collection(c, 4, 8, &len) == 0);

    /* No free-space object at all: the collection ends on an object (allowed), or fewer
     * bytes than an object header are left (libhdf5 takes them as free space). */
    memset(c + 40, 0, LEN - 40);
    object(c, 40, 2, LEN - 40 - 16);
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_OK);
    good(c);
    memset(c + 40, 0, LEN - 40);
    object(c, 40, 2, LEN - 40 - 16 - 8);
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_OK); /* 8 bytes left over */

    /* tests/fuzz/snapshot_hdf5/libhdf5_gheap_zero_free_space.hdf5: object 1 grows to 105
     * bytes and the walk lands in zeros: free space of length 0, where libhdf5 loops. */
    good(c);
    object(c, 16, 65535, 105);
    memset(c + 40, 0, LEN - 40);
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_ERR_PARSE);

    /* tests/fuzz/snapshot_hdf5/libhdf5_gheap_object_past_end.hdf5: object 1 claims
     * 0x2000000005 bytes, which libhdf5 1.10 copies from past its 4096-byte buffer. */
    good(c);
    object(c, 16, 1, 0x2000000005ull);
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_ERR_PARSE);
    good(c);
    object(c, 16, 1, LEN - 16 - 16 + 1); /* one byte too long once padded */
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_ERR_PARSE);
    good(c);
    object(c, 40, 0, LEN - 40 + 8); /* free space past the end */
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_ERR_PARSE);
    good(c);
    object(c, 16, 1, UINT64_MAX - 3); /* padding must not wrap around */
    CHECK(gc_gheap_check_collection(c, LEN, LEN, 8) == GC_ERR_PARSE);

    /* A collection longer than the file: libhdf5 reads zeros past the end, so the walk
     * meets a free space of length 0 there. */
    good(c);
    put_le(c + 8, 2 * LEN, 8);
    object(c, 40, 0, LEN - 40);
    CHECK(gc_gheap_check_collection(c, LEN, 2 * LEN, 8) == GC_ERR_PARSE);
    CHECK(gc_gheap_check_collection(c, LEN, UINT64_MAX, 8) == GC_ERR_PARSE);
    /* A file that ends inside a collection: fine while the object headers are in it. */
    good(c);
    CHECK(gc_gheap_check_collection(c, 100, LEN, 8) == GC_OK);
    CHECK(gc_gheap_check_collection(c, 30, LEN, 8) == GC_ERR_PARSE);
    CHECK(gc_gheap_check_collection(c, LEN, 8, 8) == GC_ERR_PARSE); /* shorter than its header */

    /* 4-byte lengths (a file made with H5Pset_sizes(fcpl, 8, 4)). */
    memset(c, 0, LEN);
    memcpy(c, "GCOL\1", 5);
    put_le(c + 8, LEN, 4);
    put_le(c + 12, 1, 2), put_le(c + 14, 1, 2), put_le(c + 20, 5, 4); /* 12-byte headers */
    put_le(c + 32, 0, 2), put_le(c + 40, LEN - 32, 4);
    CHECK(gc_gheap_is_collection(c, LEN, 4, &len) == 1 && len == LEN);
    CHECK(gc_gheap_check_collection(c, LEN, len, 4) == GC_OK);
    put_le(c + 40, 0, 4);
    CHECK(gc_gheap_check_collection(c, LEN, len, 4) == GC_ERR_PARSE);
    return CHECK_DONE();
}
