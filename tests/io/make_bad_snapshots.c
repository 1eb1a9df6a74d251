/* Writes broken HDF5 snapshots (and look-alikes) into a folder, for the bad-input tests. */
/* SPDX-License-Identifier: MIT */
#include <hdf5.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "bodies.h"
#include "snapshot_hdf5.h"

static const char *dir;
static int failures;

static const char *at(const char *name)
{
    static char buf[4][4096];
    static int k;
    char *p = buf[k++ & 3];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static void fail(const char *what)
{
    fprintf(stderr, "make_bad_snapshots: %s failed\n", what);
    failures++;
}

/* Nine bodies: every type, both galaxies; 0 when out of memory. */
static int nine(struct gc_bodies *b)
{
    if (gc_bodies_alloc(b, 9) != GC_OK)
        return 0;
    for (size_t i = 0; i < 9; i++) {
        for (int k = 0; k < 3; k++) {
            b->pos[4 * i + k] = (float)(i + 0.25 * k);
            b->vel[4 * i + k] = (float)(0.1 * k - 0.05 * i);
        }
        b->pos[4 * i + 3] = 0.01f * (float)(i + 1);
        b->tag[i] = GC_TAG((unsigned)(i & 1), (unsigned)(i % 3));
    }
    return 1;
}

static void good(const char *name)
{
    struct gc_bodies b;
    if (!nine(&b))
        return fail("alloc");
    if (gc_snapshot_hdf5_write(at(name), &b, 0.5) != GC_OK)
        fail(name);
    gc_bodies_free(&b);
}

/* The same nine bodies in double precision, with digits a float cannot hold; the h5py
 * test recomputes these values in Python and compares them exactly. */
static void good64(const char *name)
{
    struct gc_bodies b;
    if (gc_bodies_alloc(&b, 9) != GC_OK)
        return fail("alloc");
    for (size_t i = 0; i < 9; i++)
        b.tag[i] = GC_TAG((unsigned)(i & 1), (unsigned)(i % 3));
    if (gc_bodies_alloc_f64(&b) != GC_OK)
        return fail("alloc_f64");
    for (size_t i = 0; i < 9; i++) {
        for (int k = 0; k < 3; k++) {
            b.pos64[3 * i + k] = (double)i + 0.25 * k + (double)i * 1e-10;
            b.vel64[3 * i + k] = 0.1 * k - 0.05 * (double)i + 1e-12;
        }
        b.mass64[i] = 0.01 * (double)(i + 1) + 1e-13;
    }
    gc_bodies_sync_f32(&b);
    if (gc_snapshot_hdf5_write(at(name), &b, 2.5) != GC_OK)
        fail(name);
    gc_bodies_free(&b);
}

static hid_t open_rw(const char *name)
{
    hid_t f;
    good(name);
    f = H5Fopen(at(name), H5F_ACC_RDWR, H5P_DEFAULT);
    if (f < 0)
        fail(name);
    return f;
}

/* Overwrites element (row, col) of a 1-D (col < 0) or 2-D dataset. */
static void set(hid_t f, const char *dset, hsize_t row, int col, hid_t mem_type, const void *v)
{
    hsize_t start[2] = {row, col < 0 ? 0 : (hsize_t)col}, one[2] = {1, 1};
    hid_t d = H5Dopen2(f, dset, H5P_DEFAULT);
    hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, one, NULL);
    if (d < 0 || H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, one, NULL) < 0 ||
        H5Dwrite(d, mem_type, ms, fs, H5P_DEFAULT, v) < 0)
        fail(dset);
    H5Sclose(ms);
    H5Sclose(fs);
    H5Dclose(d);
}

static void set_d(hid_t f, const char *dset, hsize_t row, int col, double v)
{
    set(f, dset, row, col, H5T_NATIVE_DOUBLE, &v);
}

/* Opens the group first: with HDF5 1.10.8, H5Awrite on an attribute opened through
 * H5Aopen_by_name fails ("can't locate open attribute?") once the object was closed. */
static void set_attr(hid_t f, const char *obj, const char *attr, hid_t mem_type, const void *v)
{
    hid_t g = H5Gopen2(f, obj, H5P_DEFAULT);
    hid_t a = g >= 0 ? H5Aopen(g, attr, H5P_DEFAULT) : -1;
    if (a < 0 || H5Awrite(a, mem_type, v) < 0)
        fail(attr);
    H5Aclose(a);
    H5Gclose(g);
}

static void replace_2d(hid_t f, const char *dset, hsize_t rows, hsize_t cols)
{
    hsize_t dims[2] = {rows, cols};
    double *zero = calloc(rows * cols, sizeof *zero);
    hid_t s, d;
    H5Ldelete(f, dset, H5P_DEFAULT);
    s = H5Screate_simple(2, dims, NULL);
    d = H5Dcreate2(f, dset, H5T_IEEE_F32LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (d < 0 || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zero) < 0)
        fail(dset);
    H5Dclose(d);
    H5Sclose(s);
    free(zero);
}

/* A copy of file `from` with `pad` bytes of text in front: a user block, as h5jam makes. */
static void prepend(const char *from, const char *to, size_t pad)
{
    FILE *in = fopen(at(from), "rb"), *out = fopen(at(to), "wb");
    char *buf = malloc(1 << 20);
    size_t n = in && buf ? fread(buf, 1, 1 << 20, in) : 0;
    for (size_t k = 0; out && k < pad; k++)
        fputc(k % 64 == 63 ? '\n' : 'u', out);
    if (!out || n == 0 || fwrite(buf, 1, n, out) != n)
        fail(to);
    if (in)
        fclose(in);
    if (out)
        fclose(out);
    free(buf);
}

static void done(hid_t f)
{
    if (H5Fclose(f) < 0)
        fail("close");
}

/* PartType1/Coordinates (3 x 3 float32, one chunk) again through the filters named in
 * `pipe` (S shuffle, D deflate, F Fletcher-32), written by libhdf5; with `stored`, its
 * chunk is instead stored as those `len` bytes with filter mask `skip` (H5Dwrite_chunk). */
static void rechunk(const char *name, const char *pipe, const void *stored, size_t len,
                    uint32_t skip)
{
    hsize_t dims[2] = {3, 3}, offset[2] = {0, 0};
    float v[9];
    hid_t f = open_rw(name), d = H5Dopen2(f, "PartType1/Coordinates", H5P_DEFAULT);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), sp = H5Screate_simple(2, dims, NULL);
    herr_t e = d >= 0 ? H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) : -1;
    H5Dclose(d);
    H5Ldelete(f, "PartType1/Coordinates", H5P_DEFAULT);
    e |= H5Pset_chunk(dcpl, 2, dims);
    for (const char *c = pipe; *c; c++)
        e |= *c == 'S' ? H5Pset_shuffle(dcpl) : *c == 'D' ? H5Pset_deflate(dcpl, 6)
                                                          : H5Pset_fletcher32(dcpl);
    d = H5Dcreate2(f, "PartType1/Coordinates", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (e < 0 || d < 0 ||
        (stored ? H5Dwrite_chunk(d, H5P_DEFAULT, skip, offset, len, stored)
                : H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v)) < 0)
        fail(name);
    H5Dclose(d);
    H5Sclose(sp);
    H5Pclose(dcpl);
    done(f);
}

/* PartType1/Coordinates (3 x 3 float32) of a good file made again with creation
 * properties dcpl; its values written back when `write` (all rows, or only the first
 * `rows` of them when rows > 0); extendable rows (as h5py's maxshape=(None, 3)) when
 * `grows`. */
static void remake(const char *name, hid_t dcpl, int write, hsize_t rows, int grows)
{
    hsize_t dims[2] = {3, 3}, max[2] = {H5S_UNLIMITED, 3}, start[2] = {0, 0};
    hsize_t count[2] = {rows ? rows : 1, 3};
    float v[9];
    hid_t f = open_rw(name), d = H5Dopen2(f, "PartType1/Coordinates", H5P_DEFAULT);
    hid_t sp = H5Screate_simple(2, dims, grows ? max : NULL);
    hid_t ms = H5Screate_simple(2, count, NULL);
    herr_t e = d >= 0 ? H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) : -1;
    H5Dclose(d);
    H5Ldelete(f, "PartType1/Coordinates", H5P_DEFAULT);
    d = H5Dcreate2(f, "PartType1/Coordinates", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (d >= 0 && write && rows > 0) {
        hid_t fs = H5Dget_space(d);
        e |= H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL);
        e |= H5Dwrite(d, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, v);
        H5Sclose(fs);
    } else if (d >= 0 && write) {
        e |= H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v);
    }
    if (e < 0 || d < 0)
        fail(name);
    H5Dclose(d);
    H5Sclose(ms);
    H5Sclose(sp);
    H5Pclose(dcpl);
    done(f);
}

/* The per-type /Header arrays of a good file with SWIFT's 7 entries (PartType6:
 * neutrinos), six of them as written and neutrinos counted `nu`. */
static void swift7(const char *name, unsigned nu)
{
    hsize_t seven = 7;
    unsigned n[7];
    double mt[7] = {0};
    hid_t f = open_rw(name), g = H5Gopen2(f, "Header", H5P_DEFAULT);
    hid_t sp = H5Screate_simple(1, &seven, NULL);
    hid_t a = H5Aopen(g, "NumPart_ThisFile", H5P_DEFAULT);
    herr_t e = a >= 0 ? H5Aread(a, H5T_NATIVE_UINT, n) : -1;
    H5Aclose(a);
    n[6] = nu;
    for (int k = 0; k < 4; k++) {
        static const char *const arr[4] = {"NumPart_ThisFile", "NumPart_Total",
                                           "NumPart_Total_HighWord", "MassTable"};
        unsigned zero[7] = {0};
        H5Adelete(g, arr[k]);
        a = H5Acreate2(g, arr[k], k == 3 ? H5T_IEEE_F64LE : H5T_STD_U32LE, sp, H5P_DEFAULT,
                       H5P_DEFAULT);
        e |= a < 0 ? -1
                   : H5Awrite(a, k == 3 ? H5T_NATIVE_DOUBLE : H5T_NATIVE_UINT,
                              k == 3 ? (const void *)mt : k == 2 ? (const void *)zero : n);
        H5Aclose(a);
    }
    if (nu > 0) {
        /* the bodies the header counts, so only the type itself is refused */
        hid_t pg = H5Gcreate2(f, "PartType6", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Gclose(pg);
    }
    if (e < 0)
        fail(name);
    H5Sclose(sp);
    H5Gclose(g);
    done(f);
}

int main(int argc, char **argv)
{
    hid_t f;
    FILE *t;
    if (argc != 2) {
        fprintf(stderr, "usage: make_bad_snapshots DIR\n");
        return 2;
    }
    dir = argv[1];

    good("good.hdf5");
    good64("good64.hdf5");

    f = open_rw("missing_coordinates.hdf5");
    H5Ldelete(f, "PartType1/Coordinates", H5P_DEFAULT);
    done(f);

    f = open_rw("missing_masses.hdf5");
    H5Ldelete(f, "PartType2/Masses", H5P_DEFAULT);
    done(f);

    /* GADGET's other way to give masses: one per type in MassTable, no Masses dataset. */
    f = open_rw("masstable.hdf5");
    {
        double mt[6] = {0, 0, 0.75, 0, 0, 0};
        H5Ldelete(f, "PartType2/Masses", H5P_DEFAULT);
        set_attr(f, "Header", "MassTable", H5T_NATIVE_DOUBLE, mt);
    }
    done(f);

    f = open_rw("missing_header.hdf5");
    H5Ldelete(f, "Header", H5P_DEFAULT);
    done(f);

    f = open_rw("missing_group.hdf5");
    H5Ldelete(f, "PartType3", H5P_DEFAULT);
    done(f);

    f = open_rw("wrong_shape.hdf5");
    replace_2d(f, "PartType2/Velocities", 3, 2);
    done(f);

    f = open_rw("count_mismatch.hdf5");
    {
        unsigned n[6] = {0, 4, 3, 3, 0, 0}; /* PartType1 really holds 3 */
        set_attr(f, "Header", "NumPart_ThisFile", H5T_NATIVE_UINT, n);
        set_attr(f, "Header", "NumPart_Total", H5T_NATIVE_UINT, n);
    }
    done(f);

    f = open_rw("split.hdf5");
    {
        unsigned n[6] = {0, 6, 3, 3, 0, 0};
        set_attr(f, "Header", "NumPart_Total", H5T_NATIVE_UINT, n);
    }
    done(f);

    f = open_rw("gas.hdf5");
    {
        unsigned n[6] = {5, 3, 3, 3, 0, 0};
        set_attr(f, "Header", "NumPart_ThisFile", H5T_NATIVE_UINT, n);
        set_attr(f, "Header", "NumPart_Total", H5T_NATIVE_UINT, n);
    }
    done(f);

    f = open_rw("nan.hdf5");
    set_d(f, "PartType1/Coordinates", 1, 2, 0.0 / 0.0);
    done(f);

    f = open_rw("inf.hdf5");
    set_d(f, "PartType3/Velocities", 2, 0, 1.0 / 0.0);
    done(f);

    f = open_rw("negative_mass.hdf5");
    set_d(f, "PartType2/Masses", 1, -1, -0.5);
    done(f);

    f = open_rw("zero_mass.hdf5");
    set_d(f, "PartType3/Masses", 0, -1, 0.0);
    done(f);

    f = open_rw("duplicate_ids.hdf5");
    {
        unsigned long long id = 1; /* ID 1 (body 0, a disk) is in PartType2 already */
        set(f, "PartType3/ParticleIDs", 2, -1, H5T_NATIVE_ULLONG, &id);
    }
    done(f);

    f = open_rw("id_gap.hdf5");
    {
        unsigned long long id = 10; /* 9 bodies: IDs 1..9 */
        set(f, "PartType2/ParticleIDs", 0, -1, H5T_NATIVE_ULLONG, &id);
    }
    done(f);

    f = open_rw("bad_galaxy.hdf5");
    {
        unsigned char g = 7;
        set(f, "PartType1/GalaxyIndex", 0, -1, H5T_NATIVE_UCHAR, &g);
    }
    done(f);

    f = open_rw("nan_time.hdf5");
    {
        double nan = 0.0 / 0.0;
        set_attr(f, "Header", "Time", H5T_NATIVE_DOUBLE, &nan);
    }
    done(f);

    /* A good file behind a 512-byte user block: HDF5 finds its signature at byte 512. */
    prepend("good.hdf5", "userblock.hdf5", 512);

    /* /PartType1 a dataset, where the group should be. */
    f = open_rw("dataset_group.hdf5");
    {
        hsize_t n = 3;
        double v[3] = {0};
        hid_t sp, d;
        H5Ldelete(f, "PartType1", H5P_DEFAULT);
        sp = H5Screate_simple(1, &n, NULL);
        d = H5Dcreate2(f, "PartType1", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (d < 0 || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
            fail("dataset_group");
        H5Dclose(d);
        H5Sclose(sp);
    }
    done(f);

    /* Coordinates as a 3 x 3 x 1 array. */
    f = open_rw("rank3.hdf5");
    {
        hsize_t dims[3] = {3, 3, 1};
        float v[9] = {0};
        hid_t sp, d;
        H5Ldelete(f, "PartType1/Coordinates", H5P_DEFAULT);
        sp = H5Screate_simple(3, dims, NULL);
        d = H5Dcreate2(f, "PartType1/Coordinates", H5T_IEEE_F32LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
        if (d < 0 || H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
            fail("rank3");
        H5Dclose(d);
        H5Sclose(sp);
    }
    done(f);

    /* Signed 64-bit IDs, the first -1 (read as unsigned, -1 became 0). */
    f = open_rw("negative_id.hdf5");
    {
        hsize_t n = 3;
        long long id[3] = {-1, 5, 8};
        hid_t sp, d;
        H5Ldelete(f, "PartType1/ParticleIDs", H5P_DEFAULT);
        sp = H5Screate_simple(1, &n, NULL);
        d = H5Dcreate2(f, "PartType1/ParticleIDs", H5T_STD_I64LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
        if (d < 0 || H5Dwrite(d, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, id) < 0)
            fail("negative_id");
        H5Dclose(d);
        H5Sclose(sp);
    }
    done(f);

    f = open_rw("huge_time.hdf5");
    {
        double big = 1e308;
        set_attr(f, "Header", "Time", H5T_NATIVE_DOUBLE, &big);
    }
    done(f);

    /* The header counts PartType1 only; PartType2 and 3 hold bodies all the same. */
    f = open_rw("uncounted.hdf5");
    {
        unsigned n[6] = {0, 3, 0, 0, 0, 0};
        set_attr(f, "Header", "NumPart_ThisFile", H5T_NATIVE_UINT, n);
        set_attr(f, "Header", "NumPart_Total", H5T_NATIVE_UINT, n);
        /* IDs 1..3: the counted group alone is a valid set of 3 bodies. */
        for (unsigned long long id = 1; id <= 3; id++)
            set(f, "PartType1/ParticleIDs", id - 1, -1, H5T_NATIVE_ULLONG, &id);
    }
    done(f);

    /* An HDF5 file of another kind: a lone dataset. */
    {
        hsize_t n = 4;
        double v[4] = {1, 2, 3, 4};
        hid_t s, d;
        f = H5Fcreate(at("other_kind.hdf5"), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
        s = H5Screate_simple(1, &n, NULL);
        d = H5Dcreate2(f, "data", H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        if (d < 0 || H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
            fail("other_kind");
        H5Dclose(d);
        H5Sclose(s);
        done(f);
    }

    /* The first half of a good file. */
    {
        FILE *in = fopen(at("good.hdf5"), "rb"), *out = fopen(at("truncated.hdf5"), "wb");
        char *buf = malloc(1 << 20);
        size_t n = in && buf ? fread(buf, 1, 1 << 20, in) : 0;
        if (!out || n == 0 || fwrite(buf, 1, n / 2, out) != n / 2)
            fail("truncated");
        if (in)
            fclose(in);
        if (out)
            fclose(out);
        free(buf);
    }

    /* Chunked coordinates through shuffle, deflate and Fletcher-32, as writers store them. */
    rechunk("filters.hdf5", "SDF", NULL, 0, 0);
    /* Chunks that decode to less than a chunk, which libhdf5 1.10 reads past: */
    {
        static const unsigned char bytes[20] = {1, 2, 3};
        unsigned char z[64];
        uLongf zlen = sizeof z;
        /* stored plain, as 20 bytes; */
        rechunk("chunk_plain_short.hdf5", "", bytes, sizeof bytes, 0);
        /* deflate skipped by the filter mask (found by fuzzing), shuffle applied; */
        rechunk("chunk_filter_skipped.hdf5", "SD", bytes, sizeof bytes, 2);
        /* a whole deflate stream of 20 bytes; */
        if (compress2(z, &zlen, bytes, sizeof bytes, 6) != Z_OK)
            fail("compress2");
        rechunk("chunk_short_deflate.hdf5", "D", z, zlen, 0);
        /* and bytes that are not a deflate stream at all. */
        rechunk("chunk_not_deflate.hdf5", "D", bytes, sizeof bytes, 0);
    }

    /* Snapshots from elsewhere whose values are not their own. External storage: raw
     * values in another file named by the dataset (here /dev/zero, and a 16-byte file),
     * which libhdf5 reads as they are, zeros past their end. */
    {
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        FILE *tiny = fopen(at("tiny.bin"), "wb");
        if (!tiny || fwrite("0123456789abcdef", 1, 16, tiny) != 16)
            fail("tiny.bin");
        if (tiny)
            fclose(tiny);
        if (H5Pset_external(dcpl, "/dev/zero", 0, 36) < 0)
            fail("external_zero");
        remake("external_zero.hdf5", dcpl, 0, 0, 0);
        dcpl = H5Pcreate(H5P_DATASET_CREATE);
        if (H5Pset_external(dcpl, at("tiny.bin"), 0, 36) < 0)
            fail("external_file");
        remake("external_file.hdf5", dcpl, 0, 0, 0);
    }
    /* Chunks of one row, the first written and the others never (fill values: zeros). */
    {
        hsize_t chunk[2] = {1, 3};
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl, 2, chunk);
        remake("unwritten_chunks.hdf5", dcpl, 1, 1, 0);
    }
    /* Legal files that were refused: */
    /* uncompressed chunks of 1024 rows for 3 (the stored chunk is mostly padding); */
    {
        hsize_t chunk[2] = {1024, 3};
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
        H5Pset_chunk(dcpl, 2, chunk);
        remake("padded_chunks.hdf5", dcpl, 1, 0, 1);
    }
    /* SWIFT's header, 7 types (and one that counts neutrinos, which are refused as gas is); */
    swift7("swift7.hdf5", 0);
    swift7("swift7_neutrinos.hdf5", 2);
    /* a virtual dataset mapping good.hdf5's coordinates (read from another file); */
    {
        hsize_t dims[2] = {3, 3};
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), src = H5Screate_simple(2, dims, NULL);
        if (H5Pset_virtual(dcpl, src, at("good.hdf5"), "/PartType1/Coordinates", src) < 0)
            fail("virtual");
        H5Sclose(src);
        remake("virtual.hdf5", dcpl, 0, 0, 0);
    }
    /* h5py's LZF filter (32000, registered by h5py alone): the chunk stored as LZF literal
     * runs (a control byte L - 1, then L bytes, L <= 32), as h5py's lzf_filter.c writes it
     * with cd_values {4, 0, chunk bytes}. */
    {
        hsize_t dims[2] = {3, 3}, offset[2] = {0, 0};
        const unsigned cd[3] = {4, 0, 36};
        float v[9];
        unsigned char lzf[38];
        hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE), f2, d;
        hid_t sp = H5Screate_simple(2, dims, NULL);
        f = open_rw("lzf.hdf5");
        d = H5Dopen2(f, "PartType1/Coordinates", H5P_DEFAULT);
        if (d < 0 || H5Dread(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) < 0)
            fail("lzf read");
        H5Dclose(d);
        lzf[0] = 31;
        memcpy(lzf + 1, v, 32);
        lzf[33] = 3;
        memcpy(lzf + 34, (unsigned char *)v + 32, 4);
        H5Ldelete(f, "PartType1/Coordinates", H5P_DEFAULT);
        H5Pset_chunk(dcpl, 2, dims);
        H5Pset_filter(dcpl, 32000, H5Z_FLAG_OPTIONAL, 3, cd);
        f2 = H5Dcreate2(f, "PartType1/Coordinates", H5T_IEEE_F32LE, sp, H5P_DEFAULT, dcpl,
                        H5P_DEFAULT);
        if (f2 < 0 || H5Dwrite_chunk(f2, H5P_DEFAULT, 0, offset, sizeof lzf, lzf) < 0)
            fail("lzf.hdf5");
        H5Dclose(f2);
        H5Sclose(sp);
        H5Pclose(dcpl);
        done(f);
    }
    /* /Parameters naming the integrator but recording no softening (the option's default
     * applies, not a softening of 0). */
    {
        struct gc_bodies b;
        struct gc_snapshot_run run;
        memset(&run, 0, sizeof run);
        memset(&b, 0, sizeof b);
        snprintf(run.integrator, sizeof run.integrator, "leapfrog");
        snprintf(run.units, sizeof run.units, "galaxy");
        run.eps = 0.025;
        run.dt = 0.01;
        run.index = -1;
        if (!nine(&b) ||
            gc_snapshot_hdf5_write_run(at("no_softening.hdf5"), &b, 0.5, &run) != GC_OK)
            fail("no_softening");
        gc_bodies_free(&b);
        f = H5Fopen(at("no_softening.hdf5"), H5F_ACC_RDWR, H5P_DEFAULT);
        {
            hid_t g = f >= 0 ? H5Gopen2(f, "Parameters", H5P_DEFAULT) : -1;
            if (g < 0 || H5Adelete(g, "Softening") < 0)
                fail("no_softening: Softening");
            H5Gclose(g);
        }
        done(f);
    }

    /* A valid text table under an HDF5 name. */
    t = fopen(at("text.hdf5"), "w");
    if (!t || fputs("1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n", t) < 0)
        fail("text.hdf5");
    if (t)
        fclose(t);
    return failures ? 1 : 0;
}
