/* The snapshot's record of which bodies a run integrated together as regularised groups. */
/* SPDX-License-Identifier: MIT */
#include "snapshot_hdf5_layout.h"

int gc_hdf5_put_groups(hid_t file, const int32_t *group_of, size_t n)
{
    const hsize_t dims = n;
    hid_t g = H5Gcreate2(file, "Regularisation", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hid_t space = g >= 0 ? H5Screate_simple(1, &dims, NULL) : H5I_INVALID_HID;
    hid_t d = space >= 0 ? H5Dcreate2(g, "Group", H5T_STD_I32LE, space, H5P_DEFAULT,
                                      H5P_DEFAULT, H5P_DEFAULT)
                         : H5I_INVALID_HID;
    int ok = d >= 0 && H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, group_of) >= 0;
    if (d >= 0)
        H5Dclose(d);
    if (space >= 0)
        H5Sclose(space);
    if (g >= 0)
        H5Gclose(g);
    return ok;
}
