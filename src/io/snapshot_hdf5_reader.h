/* What the HDF5 snapshot reader's files share: the file being read, its /Header, and the attribute readers. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SNAPSHOT_HDF5_READER_H
#define GC_SNAPSHOT_HDF5_READER_H

/* Private to src/io: snapshot_hdf5_attrs.c reads attributes, snapshot_hdf5_objects.c opens
 * groups and checks datasets' storage, snapshot_hdf5_state.c reads the integrator state,
 * snapshot_hdf5_read.c the rest. */
#include <stddef.h>

#include "snapshot_hdf5.h"
#include "snapshot_hdf5_layout.h"
#include "status.h"

struct gc_snapshot_reader {
    const char *name;   /* file name for messages */
    size_t max_bodies;
    hid_t file;
    const unsigned char *image; /* the in-memory file, or NULL: the file at `name` */
    size_t image_size;
    int *heaps;         /* 0 until the global heaps are checked, then 1 (safe) or -1 */
};

struct gc_snapshot_header {
    long long npart[GC_HDF5_NTYPES_READ];   /* 0 for the types the file does not list */
    double mass_table[GC_HDF5_NTYPES_READ];
    double time;
    size_t n; /* sum of npart */
};

/* "integers", "floating-point numbers" or "strings", for messages about a wrong type. */
const char *gc_snapshot_hdf5_class_word(H5T_class_t c);

/* Reads and checks /Header into h: counts of types 1-4 only, each and their sum within
 * r->max_bodies, one file, finite time. Problems are logged; GC_ERR_PARSE. */
enum gc_status gc_snapshot_hdf5_get_header(const struct gc_snapshot_reader *r,
                                           struct gc_snapshot_header *h);

/* The Component attribute of group g (called `where` in messages), a string fixed or
 * variable length, into *comp: 1 when read, 0 when absent, -1 on a logged error. */
int gc_snapshot_hdf5_get_component(const struct gc_snapshot_reader *r, hid_t g,
                                   const char *where, unsigned *comp);

/* /Parameters into run (text "" and numbers 0 where absent): 1 when read, 0 when the
 * file has none, -1 on a logged error. */
int gc_snapshot_hdf5_get_parameters(const struct gc_snapshot_reader *r,
                                    struct gc_snapshot_run *run);

/* Why dataset d (values of type t, n of them) cannot be read safely, or NULL: libhdf5
 * allocates what the file claims, so claims beyond what n values can fill are refused. */
const char *gc_snapshot_hdf5_storage_insane(hid_t d, hid_t t, hsize_t n);

/* Opens group /name into *g: *g stays invalid when there is no such object; an object of
 * another kind is a logged error (GC_ERR_PARSE). */
enum gc_status gc_snapshot_hdf5_open_group(const struct gc_snapshot_reader *r, const char *name,
                                           hid_t *g);

/* /IntegratorState (when present) into run->state: each of its datasets (n rows, one a
 * body in run order, of integers or floating-point numbers) a field, read as int64 or
 * float64, and its floating-point attributes as named numbers; what the fields mean is the
 * scheme's to read and check. Problems are logged; run's state is freed on error. */
enum gc_status gc_snapshot_hdf5_read_state(const struct gc_snapshot_reader *r, size_t n,
                                           struct gc_snapshot_run *run);

#endif
