/* Parses and validates Dubinski-format body tables; zlib reads plain and gzip files alike. */
/* SPDX-License-Identifier: MIT */
#include "table.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "infile.h"
#include "log.h"
#include "outfile.h"
#include "stop.h"

const unsigned char gc_layout_tags[GC_LAYOUT_BLOCKS] = {
    GC_TAG(0, GC_DISK), GC_TAG(1, GC_DISK), GC_TAG(0, GC_BULGE),
    GC_TAG(1, GC_BULGE), GC_TAG(0, GC_HALO), GC_TAG(1, GC_HALO),
};
const size_t gc_dubinski_blocks[GC_LAYOUT_BLOCKS] = {16384, 16384, 8192, 8192, 16384, 16384};

/* The six galaxy blocks, then the optional block of cluster stars. */
#define LAYOUT_MAX (GC_LAYOUT_BLOCKS + 1)
static unsigned char block_tag(int b)
{
    return b < GC_LAYOUT_BLOCKS ? gc_layout_tags[b] : GC_TAG(0, GC_STAR);
}

static int block_of(unsigned char tag)
{
    if (GC_TAG_COMPONENT(tag) == GC_STAR)
        return GC_LAYOUT_BLOCKS;
    for (int k = 0; k < GC_LAYOUT_BLOCKS; k++)
        if (tag == gc_layout_tags[k])
            return k;
    return -1;
}

/* Longest accepted line: a row of 7 %g numbers is ~80 bytes; generous for other writers. */
#define MAX_LINE 1024

/* A table yields its first row within this many bytes, or it is not a table (a file of
 * blank lines, a disk image): the reader says so instead of reading on for minutes. */
#define FIRST_ROW_WITHIN ((unsigned long long)16 << 20)

/* Lines of a plain or gzip file read through zlib in blocks, byte by byte: a NUL byte is
 * seen where it is (gzgets would end the line there and drop the rest, so /dev/zero read
 * as endless blank lines). */
struct line_reader {
    gzFile f;
    unsigned char buf[1 << 16];
    size_t pos, len;
    int end;                     /* gzread gave 0 or an error */
    int after_cr;                /* the last line ended in CR: a LF next is its CRLF */
    unsigned long long consumed; /* bytes read so far */
};

/* The UTF-8 byte-order mark some editors put first: not part of the first line. */
static const unsigned char utf8_bom[3] = {0xef, 0xbb, 0xbf};

enum line_result { LINE_END = 0, LINE_OK, LINE_NUL, LINE_LONG, LINE_READ_ERROR };

/* The next line into line (ended by '\n', then a NUL); *col: the 1-based column of a NUL
 * byte (LINE_NUL). Lines longer than MAX_LINE characters are LINE_LONG. A line ends at LF,
 * CRLF or a lone CR (files of classic Mac OS), and a UTF-8 byte-order mark before the first
 * line is skipped. */
static enum line_result next_line(struct line_reader *r, char *line, size_t *col)
{
    size_t n = 0;
    for (;;) {
        unsigned char c;
        if (r->pos == r->len) {
            int got = r->end ? 0 : gzread(r->f, r->buf, sizeof r->buf);
            if (got <= 0) {
                r->end = 1;
                if (got < 0)
                    return LINE_READ_ERROR;
                break;
            }
            r->pos = 0;
            r->len = (size_t)got;
            if (r->consumed == 0 && r->len >= 3 && memcmp(r->buf, utf8_bom, 3) == 0)
                r->pos = 3;
        }
        c = r->buf[r->pos++];
        r->consumed++;
        if (r->after_cr) {
            r->after_cr = 0;
            if (c == '\n')
                continue;
        }
        if (c == '\0') {
            *col = n + 1;
            return LINE_NUL;
        }
        if (c != '\n' && c != '\r' && n == MAX_LINE)
            return LINE_LONG;
        if (c == '\r') {
            r->after_cr = 1;
            c = '\n';
        }
        line[n++] = (char)c;
        if (c == '\n')
            break;
    }
    line[n] = '\0';
    return n > 0 ? LINE_OK : LINE_END;
}

/* Data rows the file may hold (lines that are neither blank nor comments), counted before
 * any is kept: a table beyond GC_MAX_BODIES rows is refused before gigabytes of them are
 * stored (a small gzip can unpack to tens of millions of rows). Lines are skipped whole
 * (memchr), so the count costs little beside the unpacking. Counting stops where the
 * reading itself will stop with a message (a NUL byte, no row early on); the file is then
 * read from its start again. */
static size_t count_rows(gzFile f, unsigned char *buf, size_t cap)
{
    unsigned long long seen = 0;
    size_t rows = 0;
    int start = 1, got;
    while (rows <= GC_MAX_BODIES && (got = gzread(f, buf, (unsigned)cap)) > 0) {
        const unsigned char *p = buf, *end = buf + got;
        if (memchr(buf, '\0', (size_t)got))
            break;
        while (p < end) {
            if (start) {
                const unsigned char c = *p++;
                if (c == ' ' || c == '\t' || c == ',' || c == '\n' || c == '\r')
                    continue;
                start = 0;
                rows += c != '#';
            } else {
                const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
                const unsigned char *cr = memchr(p, '\r', (size_t)((nl ? nl : end) - p));
                const unsigned char *eol = cr ? cr : nl;
                p = eol ? eol + 1 : end;
                start = eol != NULL;
            }
        }
        seen += (unsigned long long)got;
        if (rows == 0 && seen > FIRST_ROW_WITHIN)
            break;
    }
    gzrewind(f);
    return rows;
}

struct rows {
    double *v;  /* 7 numbers per row, as written: a table of doubles keeps them */
    size_t n, cap;
};

static int grow(struct rows *r)
{
    size_t cap = r->cap ? 2 * r->cap : 4096;
    double *v;
    if (cap > GC_MAX_BODIES)
        cap = GC_MAX_BODIES;
    v = realloc(r->v, cap * 7 * sizeof *v);
    if (!v)
        return 0;
    r->v = v;
    r->cap = cap;
    return 1;
}

/* Parses one data row; returns the count of numbers found (stops at 8) or -1 on a token
 * that is not a number, with *bad pointing at it. */
static int parse_row(const char *s, double out[7], const char **bad)
{
    int k = 0;
    for (;;) {
        char *end;
        double x;
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n' || *s == ',')
            s++;
        if (*s == '\0')
            return k;
        if (k == 7)
            return 8;
        errno = 0;
        x = strtod(s, &end);
        if (end == s || (*end && !isspace((unsigned char)*end) && *end != ',')) {
            *bad = s;
            return -1;
        }
        out[k++] = x;
        s = end;
    }
}

/* Six block sizes, and optionally a seventh: the stars of a cluster model (GC_STAR). */
static int parse_layout(const char *line, size_t blocks[LAYOUT_MAX])
{
    const char *s = line + strlen(GC_LAYOUT_HEADER);
    for (int i = 0; i < LAYOUT_MAX; i++) {
        char *end;
        unsigned long long v;
        while (*s == ' ' || *s == '\t')
            s++;
        if (i == GC_LAYOUT_BLOCKS && (*s == '\0' || *s == '\n' || *s == '\r'))
            break;
        if (!isdigit((unsigned char)*s))
            return 0;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno || v > GC_MAX_BODIES)
            return 0;
        blocks[i] = (size_t)v;
        s = end;
    }
    while (*s && isspace((unsigned char)*s))
        s++;
    return *s == '\0';
}

static const char *kColumn[7] = {"mass", "x", "y", "z", "vx", "vy", "vz"};

enum gc_status gc_table_read(const char *path, struct gc_bodies *out)
{
    struct rows r = {0};
    size_t blocks[LAYOUT_MAX] = {0};
    int has_layout = 0;
    char line[MAX_LINE + 2];
    unsigned long lineno = 0;
    enum gc_status st = GC_OK;
    struct line_reader *in;
    gzFile f;

    memset(out, 0, sizeof *out);
    if (!path || !*path) {
        gc_log_error("no data file name given");
        return GC_ERR_INVALID;
    }
    st = gc_infile_check(path);
    if (st != GC_OK)
        return st;
    in = malloc(sizeof *in);
    f = in ? gzopen(path, "rb") : NULL;
    if (!f) {
        if (!in)
            gc_log_error("%s: out of memory", path);
        else
            gc_log_error("%s: cannot open: %s", path, errno ? strerror(errno) : "unknown error");
        free(in);
        return in ? GC_ERR_IO : GC_ERR_NOMEM;
    }
    memset(in, 0, sizeof *in);
    in->f = f;
    gzbuffer(f, 1 << 17);
    {
        const size_t rows = count_rows(f, in->buf, sizeof in->buf);
        if (rows > GC_MAX_BODIES) {
            gc_log_error("%s: more than %zu rows; refusing to load", path, GC_MAX_BODIES);
            st = GC_ERR_INVALID;
            goto done;
        }
        /* Room for what was counted at once: no doubling (and its peak) on the way. */
        r.v = rows ? malloc(rows * 7 * sizeof *r.v) : NULL;
        r.cap = r.v ? rows : 0;
    }

    for (;;) {
        double v[7];
        const char *bad = NULL;
        size_t len, col = 0;
        int k;
        enum line_result got = next_line(in, line, &col);
        if (got == LINE_END || got == LINE_READ_ERROR)
            break; /* a read error is told below */
        lineno++;
        if (got == LINE_NUL) {
            gc_log_error("%s:%lu: NUL byte at column %zu: not a text table (a binary file?)",
                         path, lineno, col);
            st = GC_ERR_PARSE;
            goto done;
        }
        if (got == LINE_LONG) {
            gc_log_error("%s:%lu: line longer than %d characters", path, lineno, MAX_LINE);
            st = GC_ERR_PARSE;
            goto done;
        }
        if (r.n == 0 && in->consumed > FIRST_ROW_WITHIN) {
            gc_log_error("%s: no data row in its first %llu MiB: not a body table", path,
                         FIRST_ROW_WITHIN >> 20);
            st = GC_ERR_PARSE;
            goto done;
        }
        len = strlen(line);
        if (len > 0 && line[len - 1] != '\n') {
            /* A last line without a newline is fine in a plain file, but in a gzip stream
             * cut short it is a fragment: ask zlib before trusting it. */
            int zerr = Z_OK;
            const char *msg = gzerror(f, &zerr);
            if (zerr != Z_OK && zerr != Z_STREAM_END) {
                gc_log_error("%s:%lu: read failed: %s%s", path, lineno,
                             zerr == Z_ERRNO ? strerror(errno) : msg,
                             zerr == Z_BUF_ERROR ? " (file truncated?)" : "");
                st = GC_ERR_IO;
                goto done;
            }
        }
        if (line[0] == '#') {
            if (strncmp(line, GC_LAYOUT_HEADER, strlen(GC_LAYOUT_HEADER)) == 0) {
                if (r.n > 0 || has_layout || !parse_layout(line, blocks)) {
                    gc_log_error("%s:%lu: bad '%s' header (expected 6 block sizes before the "
                                 "first row)", path, lineno, GC_LAYOUT_HEADER);
                    st = GC_ERR_PARSE;
                    goto done;
                }
                has_layout = 1;
            }
            continue;
        }
        k = parse_row(line, v, &bad);
        if (k == 0)
            continue; /* blank line */
        if (k < 0) {
            /* Shown as typed, with bytes that do not print (a stray byte-order mark,
             * control characters) as \xNN: an invisible character is no answer. */
            char shown[20 * 4 + 1];
            size_t used = 0;
            for (int w = 0; w < 20 && bad[w] && !isspace((unsigned char)bad[w]); w++) {
                const unsigned char c = (unsigned char)bad[w];
                used += (size_t)snprintf(shown + used, sizeof shown - used,
                                         c >= 0x20 && c < 0x7f ? "%c" : "\\x%02x", c);
            }
            gc_log_error("%s:%lu: not a number: '%s'", path, lineno, used ? shown : "");
            st = GC_ERR_PARSE;
            goto done;
        }
        if (k != 7) {
            gc_log_error("%s:%lu: expected 7 numbers (mass x y z vx vy vz), got %s%d", path,
                         lineno, k > 7 ? "more than " : "", k > 7 ? 7 : k);
            st = GC_ERR_PARSE;
            goto done;
        }
        for (int c = 0; c < 7; c++) {
            if (!isfinite(v[c]) || fabs(v[c]) > FLT_MAX) {
                gc_log_error("%s:%lu: %s is not a finite float (%g)", path, lineno, kColumn[c],
                             v[c]);
                st = GC_ERR_PARSE;
                goto done;
            }
        }
        if (!(v[0] > 0.0) || (float)v[0] <= 0.0f) {
            gc_log_error("%s:%lu: mass must be positive, got %g", path, lineno, v[0]);
            st = GC_ERR_PARSE;
            goto done;
        }
        if (r.n == r.cap) {
            if (r.cap >= GC_MAX_BODIES) {
                gc_log_error("%s: more than %zu rows; refusing to load", path, GC_MAX_BODIES);
                st = GC_ERR_INVALID;
                goto done;
            }
            if (!grow(&r)) {
                gc_log_error("%s: out of memory after %zu rows", path, r.n);
                st = GC_ERR_NOMEM;
                goto done;
            }
        }
        for (int c = 0; c < 7; c++)
            r.v[7 * r.n + c] = v[c];
        r.n++;
    }

    /* The lines end both at a clean end and on an error: a gzip stream cut short or
     * corrupted only shows up here. */
    {
        int zerr = Z_OK;
        const char *msg = gzerror(f, &zerr);
        if (zerr != Z_OK && zerr != Z_STREAM_END) {
            gc_log_error("%s:%lu: read failed: %s%s", path, lineno + 1,
                         zerr == Z_ERRNO ? strerror(errno) : msg,
                         zerr == Z_BUF_ERROR ? " (file truncated?)" : "");
            st = GC_ERR_IO;
            goto done;
        }
    }
    if (r.n == 0) {
        gc_log_error("%s: no data rows (expected lines of 7 numbers: mass x y z vx vy vz)", path);
        st = GC_ERR_PARSE;
        goto done;
    }
    if (has_layout) {
        size_t sum = 0;
        for (int i = 0; i < LAYOUT_MAX; i++)
            sum += blocks[i];
        if (sum != r.n) {
            gc_log_error("%s: '%s' header declares %zu rows but the file has %zu", path,
                         GC_LAYOUT_HEADER, sum, r.n);
            st = GC_ERR_PARSE;
            goto done;
        }
    } else if (r.n == GC_DUBINSKI_ROWS) {
        memcpy(blocks, gc_dubinski_blocks, sizeof gc_dubinski_blocks);
    } else {
        blocks[0] = r.n;
        gc_log_info("%s: %zu rows, not the 81,920 of the Dubinski table and no '%s' header: "
                    "treating all rows as one component", path, r.n, GC_LAYOUT_HEADER);
    }

    st = gc_bodies_alloc(out, r.n);
    if (st == GC_OK)
        st = gc_bodies_alloc_f64(out);
    if (st != GC_OK) {
        gc_bodies_free(out);
        goto done;
    }
    {
        /* The numbers as written, in double (a table written from a double-precision run
         * restarts it exactly); pos/vel get them rounded to float. */
        size_t i = 0;
        for (int b = 0; b < LAYOUT_MAX; b++)
            for (size_t k = 0; k < blocks[b]; k++, i++) {
                const double *row = &r.v[7 * i];
                for (int c = 0; c < 3; c++) {
                    out->pos64[3 * i + c] = row[1 + c];
                    out->vel64[3 * i + c] = row[4 + c];
                }
                out->mass64[i] = row[0];
                out->tag[i] = block_tag(b);
            }
        gc_bodies_sync_f32(out);
    }

done:
    free(r.v);
    gzclose(f);
    free(in);
    return st;
}

enum gc_status gc_table_write(const char *path, const struct gc_bodies *b)
{
    size_t count[LAYOUT_MAX] = {0};
    struct gc_outfile out;
    enum gc_status st;
    FILE *f;

    for (size_t i = 0; i < b->n; i++) {
        const int k = block_of(b->tag[i]);
        if (k < 0) {
            gc_log_error("%s: body %zu has tag %u, which no block of the table holds", path, i,
                         (unsigned)b->tag[i]);
            return GC_ERR_INVALID;
        }
        count[k]++;
    }
    /* Complete or not at all under its name, and a device or pipe (--save /dev/stdout)
     * written as it is (outfile.h). */
    st = gc_outfile_begin(&out, path);
    f = st == GC_OK ? gc_outfile_open_file(&out, &st) : NULL;
    if (!f)
        return st;
    fprintf(f, "# galaxy-collision viewer bodies: mass x y z vx vy vz (N-body units, G = 1)\n");
    fprintf(f, "%s %zu %zu %zu %zu %zu %zu", GC_LAYOUT_HEADER, count[0], count[1], count[2],
            count[3], count[4], count[5]);
    if (count[GC_LAYOUT_BLOCKS])
        fprintf(f, " %zu", count[GC_LAYOUT_BLOCKS]);
    fputc('\n', f);
    for (int k = 0; k < LAYOUT_MAX; k++)
        for (size_t i = 0; i < b->n; i++) {
            if (block_of(b->tag[i]) != k)
                continue;
            /* A table of millions of rows takes seconds: a stop request is heard within. */
            if ((i & 0xffff) == 0 && gc_stop_requested())
                return gc_outfile_stopped(&out, f);
            if (b->pos64) /* %.17g: every double exact */
                fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", b->mass64[i],
                        b->pos64[3 * i], b->pos64[3 * i + 1], b->pos64[3 * i + 2],
                        b->vel64[3 * i], b->vel64[3 * i + 1], b->vel64[3 * i + 2]);
            else /* %.9g: every float exact */
                fprintf(f, "%.9g %.9g %.9g %.9g %.9g %.9g %.9g\n", b->pos[4 * i + 3],
                        b->pos[4 * i], b->pos[4 * i + 1], b->pos[4 * i + 2], b->vel[4 * i],
                        b->vel[4 * i + 1], b->vel[4 * i + 2]);
        }
    /* What a full disk refused shows at the flush and the close. */
    return gc_outfile_end_file(&out, f, 1);
}
