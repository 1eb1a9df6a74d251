/* The objects of an HDF5 snapshot being read, opened and checked before anything is read from them: groups by name, and whether a dataset's storage can be trusted. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "hdf5_chunk_check.h"
#include "log.h"
#include "snapshot_hdf5_reader.h"

/* Why values stored by filter `id` (named `name` in the file) cannot be read here, or NULL
 * when libhdf5 has the filter. h5py's LZF (32000) is the one met in practice: h5py
 * registers it itself, so files it writes with compression="lzf" need it. */
static const char *filter_missing(H5Z_filter_t id, const char *name)
{
    static _Thread_local char why[160];
    if (H5Zfilter_avail(id) > 0)
        return NULL;
    if (id == 32000)
        return "is compressed with h5py's LZF filter: LZF filter not available (write it with "
               "gzip, compression=\"gzip\", or plain)";
    snprintf(why, sizeof why, "is stored through HDF5 filter %d (\"%.40s\"), which this libhdf5 "
             "does not have", (int)id, name);
    return why;
}

/* Why the storage of dataset d (type t, n values) cannot be read as its own values, or
 * NULL. A snapshot from elsewhere must hold its data itself: external storage (raw values
 * in any file the path names: /dev/zero, or a file of this machine's read into the
 * bodies) and virtual datasets (values mapped from other files) are refused, and so are
 * values never written, which libhdf5 reads as fill values (zeros).
 * Before a read, libhdf5 allocates what the file says: the stored size of a chunk, a whole
 * chunk, a conversion buffer per value; a corrupt chunk index asked for 4 GB to read 5 IDs
 * (found by fuzzing under a memory limit). A value is at most 16 bytes (long double);
 * stored data, compressed or not, at most its raw size plus deflate's worst-case overhead
 * (each chunk whole: the last one of a dimension holds padding); a chunk at most the
 * dataset or 16 MiB, whichever is larger, and each stored chunk one whole chunk once
 * decoded (hdf5_chunk_check.c). */
const char *gc_snapshot_hdf5_storage_insane(hid_t d, hid_t t, hsize_t n)
{
    const size_t size = H5Tget_size(t);
    const hsize_t raw = n * (hsize_t)size;
    const hsize_t stored = H5Dget_storage_size(d);
    hid_t dcpl = H5Dget_create_plist(d);
    const H5D_layout_t layout = dcpl >= 0 ? H5Pget_layout(dcpl) : H5D_LAYOUT_ERROR;
    const char *why = NULL;
    int nf;
    if (size == 0 || size > 16)
        why = "has values of an impossible size (file corrupt?)";
    else if (layout == H5D_LAYOUT_ERROR)
        why = "has a storage layout that cannot be read (file corrupt?)";
    else if (layout == H5D_VIRTUAL)
        why = "is a virtual dataset (its values are mapped from other files): virtual datasets "
              "not supported";
    else if (H5Pget_external_count(dcpl) != 0)
        why = "keeps its values in external files: refused, as external storage can read any "
              "file on this machine into the bodies (store the values in the snapshot)";
    else if (stored == 0)
        why = "holds no data (declared but never written)";
    nf = why ? 0 : H5Pget_nfilters(dcpl);
    for (int i = 0; !why && i < nf; i++) {
        unsigned flags, config;
        size_t ncd = 0;
        char name[64] = "";
        const H5Z_filter_t id =
            H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, NULL, sizeof name, name, &config);
        why = id < 0 ? "has a filter pipeline that cannot be read (file corrupt?)"
                     : filter_missing(id, name);
    }
    if (!why && layout == H5D_CHUNKED) {
        hsize_t chunk[H5S_MAX_RANK], dims[H5S_MAX_RANK], cells = 1;
        const int rank = H5Pget_chunk(dcpl, H5S_MAX_RANK, chunk);
        hid_t sp = H5Dget_space(d);
        hsize_t bytes = size;
        for (int k = 0; k < rank && bytes <= ((hsize_t)1 << 40); k++)
            bytes *= chunk[k];
        if (rank < 1 || bytes > (raw > ((hsize_t)16 << 20) ? raw : (hsize_t)16 << 20) ||
            sp < 0 || H5Sget_simple_extent_ndims(sp) != rank ||
            H5Sget_simple_extent_dims(sp, dims, NULL) < 0) {
            why = "has chunks larger than the dataset (file corrupt?)";
        } else {
            /* Whole chunks: a dimension of 3 in chunks of 1024 stores 1024. */
            for (int k = 0; k < rank && cells <= ((hsize_t)1 << 40); k++)
                cells *= chunk[k] ? (dims[k] + chunk[k] - 1) / chunk[k] : 1;
            if (stored > cells * stored_max(bytes))
                why = "claims more storage than its values can fill (file corrupt?)";
            else
                why = gc_hdf5_chunks_insane(d, dcpl, chunk, rank, bytes);
        }
        close_id(&sp, H5Sclose);
    } else if (!why && stored > stored_max(raw)) {
        why = "claims more storage than its values can fill (file corrupt?)";
    }
    close_id(&dcpl, H5Pclose);
    return why;
}

/* Opens dataset `name` of the group and checks class and shape (cols == 0: 1-D of n).
 * *d stays invalid when the dataset is absent and not required. */

static const char *object_kind(hid_t o)
{
    switch (H5Iget_type(o)) {
    case H5I_GROUP: return "a group";
    case H5I_DATASET: return "a dataset";
    case H5I_DATATYPE: return "a named datatype";
    default: return "not a group";
    }
}

/* Opens group /name into *g: *g stays invalid when there is no such object; an object of
 * another kind (a dataset where the group should be) is an error naming what it is. */
enum gc_status gc_snapshot_hdf5_open_group(const struct gc_snapshot_reader *r, const char *name,
                                           hid_t *g)
{
    hid_t o;
    *g = H5I_INVALID_HID;
    if (H5Lexists(r->file, name, H5P_DEFAULT) <= 0)
        return GC_OK;
    o = H5Oopen(r->file, name, H5P_DEFAULT);
    if (o < 0) {
        gc_log_error("%s: /%s cannot be opened (a broken link, or the file is corrupt)",
                     r->name, name);
        return GC_ERR_PARSE;
    }
    if (H5Iget_type(o) != H5I_GROUP) {
        gc_log_error("%s: /%s is %s, not a group of bodies", r->name, name, object_kind(o));
        H5Oclose(o);
        return GC_ERR_PARSE;
    }
    *g = o;
    return GC_OK;
}
