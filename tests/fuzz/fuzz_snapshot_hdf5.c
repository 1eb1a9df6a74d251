/* libFuzzer target: the HDF5 snapshot reader on arbitrary bytes, opened as an in-memory file image. */
/* SPDX-License-Identifier: MIT */
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bodies.h"
#include "fuzz_check.h"
#include "snapshot_hdf5.h"

/* Files may declare up to this many bodies: enough for every layout path, small enough
 * that one input cannot ask for gigabytes (the reader's own cap is GC_MAX_BODIES). */
#define FUZZ_MAX_BODIES 4096

/* The reader must close every HDF5 identifier it opens. libhdf5 keeps the memory of a
 * leaked one reachable, so the leak detector cannot see it, and HDF5 1.10 has no public
 * count of open dataspaces, datatypes or property lists. Identifiers of one kind are
 * numbered in sequence, though: after each input a fresh "probe" identifier of each kind
 * is made, and every number between the previous probe and this one must be closed. Open
 * files, groups, datasets and attributes are counted by H5Fget_obj_count. */
static hid_t probe(int kind)
{
    return kind == 0 ? H5Screate(H5S_SCALAR)
         : kind == 1 ? H5Tcopy(H5T_NATIVE_INT)
                     : H5Pcreate(H5P_DATASET_XFER);
}

static void unprobe(int kind, hid_t id)
{
    if (kind == 0)
        H5Sclose(id);
    else if (kind == 1)
        H5Tclose(id);
    else
        H5Pclose(id);
}

static void check_ids(void)
{
    static const char *const what[3] = {"dataspace", "datatype", "property list"};
    static hid_t last[3];
    static int have_last;
    ssize_t open = H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL);
    if (open != 0) {
        fprintf(stderr, "fuzz_snapshot_hdf5: %zd HDF5 files or objects left open\n", open);
        abort();
    }
    for (int k = 0; k < 3; k++) {
        hid_t id = probe(k);
        if (id < 0)
            abort();
        for (hid_t x = last[k] + 1; have_last && x < id; x++)
            if (H5Iis_valid(x) > 0) {
                fprintf(stderr, "fuzz_snapshot_hdf5: HDF5 %s identifier %lld left open\n",
                        what[k], (long long)x);
                abort();
            }
        last[k] = id;
        unprobe(k, id);
    }
    have_last = 1;
}

/* libhdf5 asks malloc for whatever length a corrupt header claims (0x600000000000058 bytes
 * for libhdf5_huge_metadata_alloc.hdf5, 4 GB for the local heap of
 * libhdf5_local_heap_4gb.hdf5) before it reads that much, and handles the NULL it gets.
 * Here any single request over 1 GB gets NULL, as from a malloc that cannot give it (a
 * small machine, or overcommit off): the readers must fail cleanly then, and libFuzzer's
 * limit (-rss_limit_mb) still catches memory actually used. Without this a reservation
 * libhdf5 never touches (galaxy --data on the 4 GB one peaks at 37 MB and says the group
 * structure is corrupt) would end the run as out of memory. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1:max_allocation_size_mb=1024";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct gc_bodies b;
    double t = 0.0;
    enum gc_status st =
        gc_snapshot_hdf5_read_image(data, size, "fuzz.hdf5", FUZZ_MAX_BODIES, &b, &t);
    fuzz_check_bodies(st, &b);
    if (st == GC_OK && (b.n > FUZZ_MAX_BODIES || t != t))
        abort();
    gc_bodies_free(&b);
    check_ids();
    return 0;
}
