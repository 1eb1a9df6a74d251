/* What the HDF5 snapshot writer and reader share: the layout's particle types and component names, and how both call libhdf5. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SNAPSHOT_HDF5_LAYOUT_H
#define GC_SNAPSHOT_HDF5_LAYOUT_H

/* Private to src/io (snapshot_hdf5_*.c), built only with libhdf5. */
#include <hdf5.h>

#include "bodies.h"

#define GC_HDF5_NTYPES 6 /* GADGET's particle types 0 (gas) .. 5 (black holes) */
/* Types a file may count: SWIFT adds PartType6 (neutrinos), so its per-type header arrays
 * have 7 values (SWIFT's snapshot format documentation). */
#define GC_HDF5_NTYPES_READ 7
/* The largest |Time| read: --snapshot-every's own limit (1e12 N-body units, 1.8e13 Myr). */
#define GC_HDF5_MAX_TIME 1e12
/* Rows moved per H5Dread/H5Dwrite: bounded buffers whatever N is (~3.6 MiB at float64). */
#define GC_HDF5_CHUNK ((size_t)65536)

/* The group attribute Component of enum gc_component c (disk 0, bulge 1, halo 2, star 3). */
static inline const char *component_name(unsigned c)
{
    static const char *const name[4] = {"disk", "bulge", "halo", "star"};
    return name[c];
}

/* GADGET's types: halo (dark matter) 1, disk 2, bulge 3, stars 4 (a star cluster's bodies).
 * Files of the previous layout hold a set of one component in PartType1: the group's
 * Component attribute, not the type, says what its bodies are. */
static inline int type_of_component(unsigned c)
{
    static const int type[4] = {2, 3, 1, 4};
    return type[c];
}

static inline unsigned component_of_type(int t)
{
    return t == 2 ? GC_DISK : t == 3 ? GC_BULGE : t == 4 ? GC_STAR : GC_HALO;
}

/* libhdf5 prints its whole error stack on stderr by default; each problem here is reported
 * once, in our words, so the stack printer is turned off before the first call, for good:
 * a printer restored afterwards would speak again at exit, for whatever the library then
 * closes. */
static inline void silence_hdf5(void)
{
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
}

static inline void close_id(hid_t *id, herr_t (*fn)(hid_t))
{
    if (*id >= 0)
        fn(*id);
    *id = H5I_INVALID_HID;
}

/* The most bytes `raw` bytes of values can take stored, compressed or not: deflate's
 * worst-case growth is well under an eighth, plus room for its header and a checksum. */
static inline hsize_t stored_max(hsize_t raw)
{
    return raw + raw / 8 + 4096;
}

/* Moves rows [r0, r0 + k) of a 1-D (cols == 0) or n x cols dataset between file and buf. */
static inline herr_t rows_io(hid_t d, int write, hid_t mem_type, void *buf, hsize_t r0,
                             hsize_t k, hsize_t cols)
{
    hsize_t start[2] = {r0, 0}, count[2] = {k, cols};
    hid_t fs = H5Dget_space(d), ms = H5I_INVALID_HID;
    herr_t e = -1;
    if (fs >= 0 && H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) >= 0)
        ms = H5Screate_simple(cols ? 2 : 1, count, NULL);
    if (ms >= 0)
        e = write ? H5Dwrite(d, mem_type, ms, fs, H5P_DEFAULT, buf)
                  : H5Dread(d, mem_type, ms, fs, H5P_DEFAULT, buf);
    close_id(&ms, H5Sclose);
    close_id(&fs, H5Sclose);
    return e;
}

/* /Regularisation/Group: each body's group (int32, -1: none), n entries in body order;
 * 1 on success (snapshot_hdf5_groups.c). */
int gc_hdf5_put_groups(hid_t file, const int32_t *group_of, size_t n);

#endif
