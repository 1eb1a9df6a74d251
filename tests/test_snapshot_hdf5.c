/* HDF5 snapshots: every field survives a write and a read, float32 and float64, any tag mix. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bodies.h"
#include "check.h"
#include "io.h"
#include "snapshot_hdf5.h"
#include "table.h"
#include "test_util.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * (1.0 / 9007199254740992.0);
}

/* n bodies with random states and tags drawn from all six (galaxy, component) pairs, so
 * the types interleave in the run's order and the reader must sort them back by ID. */
static void random_bodies(struct gc_bodies *b, size_t n, int mixed_tags, int f64)
{
    CHECK(gc_bodies_alloc(b, n) == GC_OK);
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            b->pos[4 * i + k] = (float)(40.0 * uniform() - 20.0);
            b->vel[4 * i + k] = (float)(2.0 * uniform() - 1.0);
        }
        b->pos[4 * i + 3] = (float)(1e-4 + 1e-3 * uniform());
        b->tag[i] = mixed_tags ? GC_TAG((unsigned)(uniform() * 2.0), (unsigned)(uniform() * 3.0))
                               : GC_TAG(1, GC_DISK);
    }
    if (f64) {
        CHECK(gc_bodies_alloc_f64(b) == GC_OK);
        /* Values a float cannot hold, so a float round trip would show. */
        for (size_t i = 0; i < n; i++) {
            for (int k = 0; k < 3; k++) {
                b->pos64[3 * i + k] += 1e-9 * uniform();
                b->vel64[3 * i + k] += 1e-11 * uniform();
            }
            b->mass64[i] *= 1.0 + 1e-12 * uniform();
        }
        gc_bodies_sync_f32(b);
    }
}

/* Every field equal, bit for bit. */
static void check_same(const struct gc_bodies *a, const struct gc_bodies *b)
{
    size_t bad = 0;
    CHECK(a->n == b->n);
    if (a->n != b->n)
        return;
    bad += memcmp(a->pos, b->pos, 4 * a->n * sizeof *a->pos) != 0;
    bad += memcmp(a->vel, b->vel, 4 * a->n * sizeof *a->vel) != 0;
    bad += memcmp(a->tag, b->tag, a->n) != 0;
    CHECK(bad == 0);
    CHECK((a->pos64 == NULL) == (b->pos64 == NULL));
    CHECK((a->mass64 == NULL) == (b->mass64 == NULL));
    if (a->pos64 && b->pos64) {
        CHECK(memcmp(a->pos64, b->pos64, 3 * a->n * sizeof *a->pos64) == 0);
        CHECK(memcmp(a->vel64, b->vel64, 3 * a->n * sizeof *a->vel64) == 0);
        CHECK(memcmp(a->mass64, b->mass64, a->n * sizeof *a->mass64) == 0);
    }
}

static void round_trip(const char *name, size_t n, int mixed_tags, int f64, double time)
{
    struct gc_bodies b, r = {0}, m = {0};
    struct gc_io_source src;
    const char *path = tmp_path(name);
    double t = -1.0;
    random_bodies(&b, n, mixed_tags, f64);
    CHECK(gc_snapshot_hdf5_write(path, &b, time) == GC_OK);

    CHECK(gc_snapshot_hdf5_read(path, &r, &t) == GC_OK);
    check_same(&b, &r);
    CHECK(t == time);
    gc_bodies_free(&r);

    /* Through the dispatcher: the signature picks the HDF5 reader. */
    CHECK(gc_io_read(path, &r, &src) == GC_OK);
    CHECK(src.format == GC_IO_HDF5);
    CHECK(src.time == time);
    check_same(&b, &r);

    /* The in-memory reader (fuzzers) sees the same file the same way, and its body cap
     * refuses a file with more bodies before reading them. */
    {
        FILE *f = fopen(path, "rb");
        long size;
        void *img;
        CHECK(f != NULL);
        if (f) {
            fseek(f, 0, SEEK_END);
            size = ftell(f);
            rewind(f);
            img = malloc((size_t)size);
            CHECK(img && fread(img, 1, (size_t)size, f) == (size_t)size);
            fclose(f);
            CHECK(gc_snapshot_hdf5_read_image(img, (size_t)size, name, n, &m, &t) == GC_OK);
            check_same(&b, &m);
            gc_bodies_free(&m);
            CHECK(gc_snapshot_hdf5_read_image(img, (size_t)size, name, n - 1, &m, &t) ==
                  GC_ERR_PARSE);
            CHECK(m.n == 0 && m.pos == NULL);
            /* Cut in half: an error, no bodies, no crash. */
            CHECK(gc_snapshot_hdf5_read_image(img, (size_t)size / 2, name, n, &m, &t) !=
                  GC_OK);
            CHECK(m.n == 0 && m.pos == NULL);
            free(img);
        }
    }
    gc_bodies_free(&b);
    gc_bodies_free(&r);
}

int main(void)
{
    struct gc_bodies b, r;
    struct gc_io_source src;

    if (!gc_snapshot_hdf5_available()) {
        /* A build without libhdf5: every request is a clear error, never a crash. */
        random_bodies(&b, 4, 1, 0);
        CHECK(gc_snapshot_hdf5_write(tmp_path("nohdf5.hdf5"), &b, 0.0) == GC_ERR_UNSUPPORTED);
        CHECK(gc_snapshot_hdf5_read(tmp_path("nohdf5.hdf5"), &r, NULL) == GC_ERR_UNSUPPORTED);
        gc_bodies_free(&b);
        return CHECK_DONE();
    }

    /* Mixed tags, float32; more than one write chunk (65536) per type. */
    round_trip("rt_f32.hdf5", 200000, 1, 0, 0.1 * 3);
    /* Mixed tags, float64 state. */
    round_trip("rt_f64.hdf5", 1000, 1, 1, 12.5);
    /* One tag for every body (a Plummer-like model): all in PartType1, tag kept. */
    round_trip("rt_single.hdf5", 64, 0, 0, 0.0);
    round_trip("rt_single64.hdf5", 3, 0, 1, -2.0);
    /* One body. */
    round_trip("rt_one.hdf5", 1, 1, 0, 1.0);

    /* A table still goes to the table reader, with its file name. */
    random_bodies(&b, 10, 1, 0);
    CHECK(gc_table_write(tmp_path("rt.tab"), &b) == GC_OK);
    CHECK(gc_io_read(tmp_path("rt.tab"), &r, &src) == GC_OK);
    CHECK(src.format == GC_IO_TABLE && r.n == 10);
    gc_bodies_free(&r);
    /* ... but not when it is named like HDF5. */
    CHECK(gc_table_write(tmp_path("table_named.hdf5"), &b) == GC_OK);
    CHECK(gc_io_read(tmp_path("table_named.hdf5"), &r, &src) == GC_ERR_PARSE);
    CHECK(r.n == 0);
    gc_bodies_free(&b);

    /* Missing file; unwritable place. */
    CHECK(gc_snapshot_hdf5_read(tmp_path("no_such.hdf5"), &r, NULL) == GC_ERR_IO);
    CHECK(gc_io_read(tmp_path("no_such.hdf5"), &r, NULL) == GC_ERR_IO);
    random_bodies(&b, 4, 1, 0);
    CHECK(gc_snapshot_hdf5_write(tmp_path("no_such_dir/x.hdf5"), &b, 0.0) == GC_ERR_IO);
    /* A star (a cluster's body) among galaxy components goes to PartType4 and comes back
     * a star, in its place. */
    b.tag[2] = GC_TAG(1, GC_STAR);
    CHECK(gc_snapshot_hdf5_write(tmp_path("star.hdf5"), &b, 0.0) == GC_OK);
    CHECK(gc_snapshot_hdf5_read(tmp_path("star.hdf5"), &r, NULL) == GC_OK);
    check_same(&b, &r);
    CHECK(r.n == 4 && GC_TAG_COMPONENT(r.tag[2]) == GC_STAR);
    gc_bodies_free(&r);
    gc_bodies_free(&b);
    return CHECK_DONE();
}
