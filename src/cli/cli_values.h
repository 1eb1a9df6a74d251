/* The values of options: numbers held to their ranges, and the parsers of the options whose values are more than a number (private to src/cli). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CLI_VALUES_H
#define GC_CLI_VALUES_H

#include "options.h"
#include "status.h"

/* 1 and *out when s is a whole number in [lo, hi]; silent. */
int gc_cli_whole_in(const char *s, unsigned long long lo, unsigned long long hi,
                    unsigned long long *out);
/* As gc_cli_whole_in, and a message naming opt when s is not one. */
int gc_cli_parse_whole(const char *opt, const char *s, unsigned long long lo,
                       unsigned long long hi, unsigned long long *out);
/* 1 and *out when s is a finite number in [lo, hi]; else a message naming opt, and 0. */
int gc_cli_parse_number(const char *opt, const char *s, double lo, double hi, double *out);
/* A float field's bound b as a double: every value that rounds to the float bound is in
 * (0.05f is 0.0500000007, so "--theta 0.05", which becomes 0.05f, was refused). Halfway to
 * the next float outwards. */
double gc_cli_float_bound(double b, int up);
/* 1 when val is one of the '|'-separated words of choices. */
int gc_cli_is_choice(const char *choices, const char *val);

/* Parsers of the GC_OPT_CUSTOM options (cli_values.c): val into o, or one message naming opt
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

#endif
