/* Reads a body table in the Dubinski (1995) format (mass x y z vx vy vz per row, plain or gzip). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_TABLE_H
#define GC_TABLE_H

#include <stddef.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Blocks of the table in file order. The Dubinski file sorts rows by component, and within a
 * component galaxy A comes before galaxy B (shared/data/README.md, "Block layout"). */
#define GC_LAYOUT_BLOCKS 6
extern const unsigned char gc_layout_tags[GC_LAYOUT_BLOCKS]; /* tag of each block, file order */
extern const size_t gc_dubinski_blocks[GC_LAYOUT_BLOCKS];    /* 16384 16384 8192 8192 16384 16384 */
#define GC_DUBINSKI_ROWS ((size_t)81920)

/* The header line a file may carry to declare its own block sizes (files written by --save):
 *   # gc-layout: <disk A> <disk B> <bulge A> <bulge B> <halo A> <halo B> [<stars>]
 * (the optional seventh block holds the stars of a cluster model, tagged GC_STAR).
 * Without it, a file of exactly 81,920 rows gets the Dubinski layout, and any other file is
 * one block tagged as disk A. Other lines starting with '#' and blank lines are skipped. */
#define GC_LAYOUT_HEADER "# gc-layout:"

/* Reads every row of `path` into `out` (which must be empty) and tags each body with its
 * galaxy and component. The numbers are kept in double too (out->pos64/vel64/mass64). Checks every row: exactly 7 finite numbers, mass > 0; the file must
 * hold at least one row and at most GC_MAX_BODIES. The first problem is logged with the file
 * name and line number; nothing is returned on failure. */
enum gc_status gc_table_read(const char *path, struct gc_bodies *out);

/* Writes `b` to `path` in the same format, grouped by block with a GC_LAYOUT_HEADER line so
 * galaxy and component survive a round trip; %.9g keeps every float exact, and a set with
 * double arrays is written from them with %.17g (every double exact). */
enum gc_status gc_table_write(const char *path, const struct gc_bodies *b);

#ifdef __cplusplus
}
#endif
#endif
