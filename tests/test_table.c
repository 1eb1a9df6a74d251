/* Tests of the Dubinski-format loader and writer: layout, values, and every bad-input path. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "table.h"
#include "test_util.h"

static enum gc_status load(const char *name, const char *text, struct gc_bodies *b)
{
    const char *p = tmp_path(name);
    write_text(p, text);
    return gc_table_read(p, b);
}

static void expect_fail(const char *name, const char *text, enum gc_status want)
{
    struct gc_bodies b;
    enum gc_status st = load(name, text, &b);
    if (st != want)
        fprintf(stderr, "fixture %s: got status %d (%s), want %d\n", name, st, gc_status_str(st),
                want);
    CHECK(st == want);
    CHECK(b.n == 0 && b.pos == NULL); /* no partial state on failure */
}

static void test_small_table(void)
{
    struct gc_bodies b;
    /* Two rows, comments, blank line and CRLF endings all accepted. */
    enum gc_status st = load("small.tab", "# a comment\n"
                                          "0.5 1 2 3 4 5 6 \r\n"
                                          "\n"
                                          "2.5e-1 -1e1 0 0.125 -0.5 0.25 7\n", &b);
    CHECK(st == GC_OK);
    CHECK(b.n == 2);
    if (b.n == 2) {
        CHECK(b.pos[0] == 1.0f && b.pos[1] == 2.0f && b.pos[2] == 3.0f && b.pos[3] == 0.5f);
        CHECK(b.vel[0] == 4.0f && b.vel[1] == 5.0f && b.vel[2] == 6.0f);
        CHECK(b.pos[4] == -10.0f && b.pos[6] == 0.125f && b.pos[7] == 0.25f);
        CHECK(b.vel[6] == 7.0f);
        /* not 81,920 rows and no layout header: one block tagged disk A */
        CHECK(b.tag[0] == GC_TAG(0, GC_DISK) && b.tag[1] == GC_TAG(0, GC_DISK));
    }
    gc_bodies_free(&b);
}

static void test_layout_header(void)
{
    struct gc_bodies b;
    char text[4096] = GC_LAYOUT_HEADER " 1 2 1 1 0 2\n";
    for (int i = 0; i < 7; i++)
        strcat(text, "1 0 0 0 0 0 0\n");
    CHECK(load("layout.tab", text, &b) == GC_OK);
    CHECK(b.n == 7);
    if (b.n == 7) {
        const unsigned char want[7] = {GC_TAG(0, GC_DISK),  GC_TAG(1, GC_DISK),
                                       GC_TAG(1, GC_DISK),  GC_TAG(0, GC_BULGE),
                                       GC_TAG(1, GC_BULGE), GC_TAG(1, GC_HALO),
                                       GC_TAG(1, GC_HALO)};
        for (int i = 0; i < 7; i++)
            CHECK(b.tag[i] == want[i]);
    }
    gc_bodies_free(&b);
    /* header sizes must add up to the row count */
    expect_fail("layout_bad_sum.tab", GC_LAYOUT_HEADER " 1 1 1 1 1 1\n1 0 0 0 0 0 0\n",
                GC_ERR_PARSE);
    expect_fail("layout_bad_text.tab", GC_LAYOUT_HEADER " 1 x\n1 0 0 0 0 0 0\n", GC_ERR_PARSE);
}

static void test_bad_inputs(void)
{
    struct gc_bodies b;
    CHECK(gc_table_read(tmp_path("does-not-exist.tab"), &b) == GC_ERR_IO);
    CHECK(gc_table_read("", &b) == GC_ERR_INVALID);
    CHECK(gc_table_read(getenv("GC_TEST_TMP") ? getenv("GC_TEST_TMP") : "/tmp", &b) ==
          GC_ERR_INVALID); /* a directory */
    expect_fail("empty.tab", "", GC_ERR_PARSE);
    expect_fail("only_comments.tab", "# nothing here\n\n", GC_ERR_PARSE);
    expect_fail("short_row.tab", "1 0 0 0 0 0 0\n1 2 3 4 5 6\n", GC_ERR_PARSE);
    expect_fail("long_row.tab", "1 0 0 0 0 0 0 8\n", GC_ERR_PARSE);
    expect_fail("word.tab", "1 0 0 zero 0 0 0\n", GC_ERR_PARSE);
    expect_fail("glued.tab", "1 0 0 0x 0 0 0\n", GC_ERR_PARSE);
    expect_fail("nan.tab", "1 0 0 0 nan 0 0\n", GC_ERR_PARSE);
    expect_fail("inf.tab", "1 inf 0 0 0 0 0\n", GC_ERR_PARSE);
    expect_fail("float_overflow.tab", "1 1e39 0 0 0 0 0\n", GC_ERR_PARSE);
    expect_fail("negative_mass.tab", "-1 0 0 0 0 0 0\n", GC_ERR_PARSE);
    expect_fail("zero_mass.tab", "0 0 0 0 0 0 0\n", GC_ERR_PARSE);
    expect_fail("underflow_mass.tab", "1e-50 0 0 0 0 0 0\n", GC_ERR_PARSE);
    {
        char line[3000];
        memset(line, ' ', sizeof line);
        memcpy(line, "1 0 0 0 0 0 0", 13);
        line[sizeof line - 2] = '\n';
        line[sizeof line - 1] = '\0';
        expect_fail("long_line.tab", line, GC_ERR_PARSE);
    }
    {   /* binary garbage */
        const char junk[] = "\x01\x02\xff\xfe garbage\n";
        expect_fail("binary.tab", junk, GC_ERR_PARSE);
    }
}

static void write_bytes(const char *path, const char *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(bytes, 1, n, f) == n);
    if (f)
        fclose(f);
}

/* Inputs that never end or hide bytes: each is refused with a reason, and soon (the alarm
 * fails the test where the reader would read forever or block). */
static void test_hostile_inputs(void)
{
    static const char nul_row[] = "1 0 0 0 0 0 0\n\0 1 0 0 0 0 0 0\n";
    static const char nul_mid[] = "1 0 0 0 0 0 0\n1 2 3\0 4 5 6 7\n";
    struct gc_bodies b;
    const char *p = tmp_path("fifo.tab");
    FILE *f;

    alarm(60);
    /* A NUL byte: the rest of its line was skipped, a row after it lost in silence. */
    write_bytes(tmp_path("nul_row.tab"), nul_row, sizeof nul_row - 1);
    CHECK(gc_table_read(tmp_path("nul_row.tab"), &b) == GC_ERR_PARSE && b.n == 0);
    write_bytes(tmp_path("nul_mid.tab"), nul_mid, sizeof nul_mid - 1);
    CHECK(gc_table_read(tmp_path("nul_mid.tab"), &b) == GC_ERR_PARSE && b.n == 0);
    /* Endless NUL bytes, a FIFO nobody writes to: refused before reading. */
    CHECK(gc_table_read("/dev/zero", &b) == GC_ERR_INVALID && b.n == 0);
    unlink(p);
    if (mkfifo(p, 0600) == 0) {
        CHECK(gc_table_read(p, &b) == GC_ERR_INVALID && b.n == 0);
        unlink(p);
    }
    /* 17 MiB of blank lines: no row in the first 16 MiB ends the read. */
    p = tmp_path("blank.tab");
    f = fopen(p, "wb");
    CHECK(f != NULL);
    if (f) {
        static char blank[1 << 20];
        memset(blank, '\n', sizeof blank);
        for (int k = 0; k < 17; k++)
            fwrite(blank, 1, sizeof blank, f);
        fclose(f);
        CHECK(gc_table_read(p, &b) == GC_ERR_PARSE && b.n == 0);
        remove(p);
    }
    alarm(0);
}

/* Writes `rows` rows through zlib, then optionally cuts the file to `keep` bytes. */
static void write_gz(const char *path, int rows, long keep)
{
    gzFile g = gzopen(path, "wb");
    for (int i = 0; i < rows; i++)
        gzprintf(g, "%g %g %g %g %g %g %g\n", 0.001 * (i + 1), i * 0.5, -i * 0.25, 1.0, 0.1,
                 0.2, 0.3);
    gzclose(g);
    if (keep > 0) {
        FILE *f = fopen(path, "rb");
        char *buf = malloc((size_t)keep);
        size_t got = fread(buf, 1, (size_t)keep, f);
        fclose(f);
        f = fopen(path, "wb");
        fwrite(buf, 1, got, f);
        fclose(f);
        free(buf);
    }
}

static void test_gzip(void)
{
    struct gc_bodies b;
    const char *p = tmp_path("good.tab.gz");
    write_gz(p, 5000, 0);
    CHECK(gc_table_read(p, &b) == GC_OK);
    CHECK(b.n == 5000);
    if (b.n == 5000) {
        CHECK(b.pos[3] == 0.001f);
        CHECK(b.pos[4 * 4999 + 0] == 4999 * 0.5f);
        CHECK_NEAR(b.pos[4 * 4999 + 3], 5.0, 1e-6);
    }
    gc_bodies_free(&b);

    p = tmp_path("truncated.tab.gz");
    write_gz(p, 5000, 20000); /* the whole stream is ~30 kB: cut it mid-way */
    CHECK(gc_table_read(p, &b) == GC_ERR_IO);
    CHECK(b.n == 0);

    p = tmp_path("truncated_tiny.tab.gz");
    write_gz(p, 5000, 12); /* only the gzip header */
    CHECK(gc_table_read(p, &b) != GC_OK);
    CHECK(b.n == 0);
}

static void test_round_trip(void)
{
    struct gc_bodies a, b;
    const char *p = tmp_path("roundtrip.tab");
    CHECK(random_ball(&a, 600, 3.0, 0.7, 42));
    for (size_t i = 0; i < a.n; i++) /* all six blocks, interleaved on purpose */
        a.tag[i] = gc_layout_tags[(i * 7) % GC_LAYOUT_BLOCKS];
    CHECK(gc_table_write(p, &a) == GC_OK);
    CHECK(gc_table_read(p, &b) == GC_OK);
    CHECK(b.n == a.n);
    if (b.n == a.n) {
        /* The writer groups rows by block: every body must appear once, bit-exact. */
        size_t matched = 0;
        for (int blk = 0; blk < GC_LAYOUT_BLOCKS; blk++) {
            size_t j = 0;
            for (size_t i = 0; i < a.n; i++) {
                if (a.tag[i] != gc_layout_tags[blk])
                    continue;
                while (j < b.n && b.tag[j] != gc_layout_tags[blk])
                    j++;
                if (j < b.n && memcmp(&a.pos[4 * i], &b.pos[4 * j], 16) == 0 &&
                    memcmp(&a.vel[4 * i], &b.vel[4 * j], 12) == 0)
                    matched++;
                j++;
            }
        }
        CHECK(matched == a.n);
    }
    gc_bodies_free(&a);
    gc_bodies_free(&b);
    CHECK(gc_table_write(tmp_path("no-such-dir/x.tab"), &a) == GC_ERR_IO);
}

/* The real table: row count, block layout and masses as documented in shared/data/README.md. */
static void test_real_file(const char *p)
{
    struct gc_bodies b;
    double mass[GC_LAYOUT_BLOCKS] = {0}, total = 0.0;
    const double want_mass[GC_LAYOUT_BLOCKS] = {0.817421, 1.712538, 0.430641,
                                                0.902210, 10.215096, 21.401108};
    CHECK(gc_table_read(p, &b) == GC_OK);
    CHECK(b.n == 81920);
    if (b.n != 81920) {
        gc_bodies_free(&b);
        return;
    }
    for (size_t i = 0, blk = 0, start = 0; i < b.n; i++) {
        while (i >= start + gc_dubinski_blocks[blk]) {
            start += gc_dubinski_blocks[blk];
            blk++;
        }
        CHECK(b.tag[i] == gc_layout_tags[blk]);
        mass[blk] += b.pos[4 * i + 3];
        total += b.pos[4 * i + 3];
    }
    CHECK_NEAR(total, 35.4790137856, 35.479 * 1e-6);
    for (int k = 0; k < GC_LAYOUT_BLOCKS; k++)
        CHECK_NEAR(mass[k], want_mass[k], 2e-6 * want_mass[k] + 1e-6);
    /* first row, as printed in the data README */
    CHECK(b.pos[3] == 4.98914e-05f && b.pos[0] == 1.74668f && b.pos[1] == -19.0253f);
    CHECK(b.vel[0] == -0.420658f && b.vel[2] == -0.37661f);
    gc_bodies_free(&b);
}

/* Usage: test_table [dubinski]. With "dubinski", only the checks on the real table (their
 * own ctest test, skipped without the file); without, everything else. */
/* Text as other editors save it: a UTF-8 byte-order mark first, lines ended by a lone CR
 * (classic Mac OS) or CRLF, each read as the plain file is. */
static void test_other_editors(void)
{
    static const char *const text[3] = {"\xef\xbb\xbf# header\n1 2 3 4 5 6 7\n0.5 0 0 1 0 0 -1\n",
                                        "# header\r1 2 3 4 5 6 7\r0.5 0 0 1 0 0 -1\r",
                                        "\xef\xbb\xbf" "1 2 3 4 5 6 7\r\n0.5 0 0 1 0 0 -1"};
    static const char *const name[3] = {"bom.tab", "cr.tab", "bom_crlf.tab"};
    for (int k = 0; k < 3; k++) {
        struct gc_bodies b;
        CHECK(load(name[k], text[k], &b) == GC_OK);
        CHECK(b.n == 2);
        if (b.n == 2) {
            CHECK(b.pos[3] == 1.0f && b.pos[0] == 2.0f && b.vel[2] == 7.0f);
            CHECK(b.pos[7] == 0.5f && b.pos[6] == 1.0f && b.vel[6] == -1.0f);
        }
        gc_bodies_free(&b);
    }
    /* A mark inside the file is a stray byte, named as bytes, not shown as nothing. */
    expect_fail("bom_inside.tab", "1 2 3 4 5 6 7\n\xef\xbb\xbf" "1 0 0 0 0 0 0\n", GC_ERR_PARSE);
}

/* A gzip of a few MB holding more rows than GC_MAX_BODIES: refused from a count of its
 * rows, before any is kept (it took 3.7 GB and most of a minute, storing 64 Mi rows first).
 * Peak memory stays far below one row array of that size (64 Mi x 56 bytes). */
static void test_too_many_rows(void)
{
    struct gc_bodies b;
    struct rusage ru;
    const char *p = tmp_path("too_many.tab.gz"), *one = tmp_path("member.gz");
    static char block[14 * 4096];
    char *member;
    long len;
    FILE *f;
    gzFile g = gzopen(one, "wb9");
    CHECK(g != NULL);
    if (!g)
        return;
    /* One gzip member of 64 Ki rows, written 1,025 times: gzip files may hold members one
     * after another (RFC 1952), which zlib reads as one stream. */
    for (size_t i = 0; i < sizeof block; i += 14)
        memcpy(block + i, "1 0 0 0 0 0 0\n", 14);
    for (int k = 0; k < 16; k++)
        gzwrite(g, block, sizeof block);
    gzclose(g);
    f = fopen(one, "rb");
    fseek(f, 0, SEEK_END);
    len = ftell(f);
    rewind(f);
    member = malloc((size_t)len);
    CHECK(member && fread(member, 1, (size_t)len, f) == (size_t)len);
    fclose(f);
    f = fopen(p, "wb");
    for (size_t rows = 0; f && member && rows <= GC_MAX_BODIES; rows += 16 * 4096)
        fwrite(member, 1, (size_t)len, f);
    if (f)
        fclose(f);
    free(member);
    remove(one);
    alarm(120);
    CHECK(gc_table_read(p, &b) == GC_ERR_INVALID && b.n == 0);
    alarm(0);
    CHECK(getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss < 512L * 1024);
    remove(p);
}

int main(int argc, char **argv)
{
    if (dubinski_part(argc, argv)) {
        const char *p = dubinski_path();
        if (!p)
            return dubinski_skip();
        test_real_file(p);
        return CHECK_DONE();
    }
    test_small_table();
    test_layout_header();
    test_bad_inputs();
    test_hostile_inputs();
    test_gzip();
    test_round_trip();
    test_other_editors();
    test_too_many_rows();
    return CHECK_DONE();
}
