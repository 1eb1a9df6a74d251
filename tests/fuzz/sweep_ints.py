#!/usr/bin/env python3
# Writes every single-integer change of a seed file into a folder, for a deterministic sweep.
# SPDX-License-Identifier: MIT
#
# Each 1-, 2- and 4-byte little-endian integer of the seed, at every offset, becomes v + 1,
# v - 1, v + 8, 2v + 1, all ones and v with its top bit flipped (the changes libFuzzer's
# ChangeBinInt makes most), one file each. Run them through a fuzz target with, e.g.:
#
#   tests/fuzz/sweep_ints.py tests/fuzz/snapshot_hdf5/h5py_chunked_vlen.hdf5 /tmp/sweep
#   ls /tmp/sweep | sed 's|^|/tmp/sweep/|' | xargs -n 4000 build-fuzz/tests/fuzz_snapshot_hdf5 \
#       -close_fd_mask=2 -rss_limit_mb=1024 -timeout=10
import os
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: sweep_ints.py SEED OUT_DIR")
    seed = open(sys.argv[1], "rb").read()
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    n = 0
    for i in range(len(seed)):
        for size, fmt in ((1, "<B"), (2, "<H"), (4, "<I")):
            if i + size > len(seed):
                continue
            v = struct.unpack_from(fmt, seed, i)[0]
            top = (1 << (8 * size)) - 1
            for nv in (v + 1, v - 1, v + 8, 2 * v + 1, top, v ^ (1 << (8 * size - 1))):
                nv &= top
                if nv == v:
                    continue
                b = bytearray(seed)
                struct.pack_into(fmt, b, i, nv)
                with open(os.path.join(out, "%07d" % n), "wb") as f:
                    f.write(b)
                n += 1
    print(n)


if __name__ == "__main__":
    main()
