/* The table of command-line options that cli.c parses and cli_help.c lists (private to src/cli). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CLI_TABLE_H
#define GC_CLI_TABLE_H

#include <stddef.h>

#include "cli.h"
#include "status.h"

/* How an option's value is stored. */
enum gc_cli_kind {
    GC_OPT_FLAG,   /* no value: int field = 1 */
    GC_OPT_UINT,   /* unsigned field, whole number in [lo, hi] */
    GC_OPT_INT,    /* int field, whole number in [lo, hi] */
    GC_OPT_SIZE,   /* size_t field, whole number in [lo, hi] */
    GC_OPT_U64,    /* uint64_t field, any whole number */
    GC_OPT_FLOAT,  /* float field, number in [lo, hi] */
    GC_OPT_DOUBLE, /* double field, number in [lo, hi] */
    GC_OPT_STRING, /* const char * field, non-empty */
    GC_OPT_CHOICE, /* const char * field, one of `choices` ("a|b|c") */
    GC_OPT_MODE,   /* no value: selects `mode` (modes exclude each other) */
    GC_OPT_CUSTOM  /* parsed by `custom` */
};

/* The sections of --help and the man page, in their order. */
enum gc_cli_section {
    GC_SEC_INPUT,
    GC_SEC_PHYSICS,
    GC_SEC_COMPUTE,
    GC_SEC_MODES,
    GC_SEC_WINDOW,
    GC_SEC_OTHER,
    GC_SEC_COUNT
};

struct gc_cli_option {
    const char *name;    /* "--bodies" */
    const char *alias;   /* "-n", or NULL */
    const char *metavar; /* "N"; NULL for options without a value */
    unsigned programs;   /* GC_PROGRAM_* bits of the programs that accept it */
    enum gc_cli_section section;
    enum gc_cli_kind kind;
    size_t offset;       /* field of struct gc_options */
    double lo, hi;       /* accepted range of numbers */
    const char *choices; /* GC_OPT_CHOICE: "a|b|c" */
    enum gc_mode mode;   /* GC_OPT_MODE */
    enum gc_status (*custom)(struct gc_options *o, const char *opt, const char *val);
    const char *help;    /* lines separated by '\n'; NULL: accepted but not listed */
};

/* Every option, in --help order (cli_options.c). */
extern const struct gc_cli_option gc_cli_options[];
extern const size_t gc_cli_noptions;
extern const char *const gc_cli_section_title[GC_SEC_COUNT];

/* Parsers of the GC_OPT_CUSTOM options (cli.c): val into o, or one message naming opt
 * (the option as typed) and GC_ERR_INVALID. */
enum gc_status gc_cli_set_bodies(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_substeps(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_size(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_exposure(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_snapshot_every(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_start_at(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_dt(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_mass_ratio(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_pericentre(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_separation(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_disk(struct gc_options *o, const char *opt, const char *val);
enum gc_status gc_cli_set_camera(struct gc_options *o, const char *opt, const char *val);

/* The option called name ("--seed", "-n"), or NULL. */
const struct gc_cli_option *gc_cli_find(const char *name);
/* Stores val into option op as the command line would, and marks it given; messages name
 * it as `typed` (on the command line the option as typed, in a scene "FILE:LINE: key"). */
enum gc_status gc_cli_apply(struct gc_options *o, const struct gc_cli_option *op,
                            const char *typed, const char *val);

/* The name a program goes by, in --help and in messages. */
static inline const char *program_name(enum gc_program p)
{
    return p == GC_PROGRAM_BENCH ? "galaxy-bench" : "galaxy";
}

#endif
