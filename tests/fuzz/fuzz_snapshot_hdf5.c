/* libFuzzer target: the HDF5 snapshot reader on arbitrary bytes, opened as an in-memory file image. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdlib.h>

#include "bodies.h"
#include "fuzz_check.h"
#include "snapshot_hdf5.h"

/* Files may declare up to this many bodies: enough for every layout path, small enough
 * that one input cannot ask for gigabytes (the reader's own cap is GC_MAX_BODIES). */
#define FUZZ_MAX_BODIES 4096

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
    return 0;
}
