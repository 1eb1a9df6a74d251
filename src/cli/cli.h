/* Command-line options: one table of options, parsed and range-checked into one struct. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CLI_H
#define GC_CLI_H

#include <stddef.h>
#include <stdio.h>

#include "options.h"
#include "scene.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills defaults (program GC_PROGRAM_GALAXY). */
void gc_cli_defaults(struct gc_options *o);
/* Parses argv into o (defaults first) for `program`. Logs the first problem and returns
 * GC_ERR_INVALID for unknown options, options the program does not take, missing or
 * malformed values, out-of-range numbers and combinations that do not go together. */
enum gc_status gc_cli_parse(int argc, char **argv, enum gc_program program,
                            struct gc_options *o);
/* The CUDA device to use: --device when given, else local_rank (0 for one process). */
int gc_cli_device(const struct gc_options *o, int local_rank);
/* Writes the --help text of `program`: every option it accepts, from the same table. */
void gc_cli_usage(FILE *f, enum gc_program program);
/* Writes the man page of `program` (roff, section 1) from the same table as --help. */
void gc_cli_man(FILE *f, enum gc_program program);

#ifdef __cplusplus
}
#endif
#endif
