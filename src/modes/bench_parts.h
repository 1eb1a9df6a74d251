/* What the benchmark modes share: timing on a backend's own clock, medians, the float64 reference force and error statistics. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BENCH_PARTS_H
#define GC_BENCH_PARTS_H

#include <stddef.h>

#include "backend.h"
#include "bodies.h"
#include "status.h"

/* Timer: the backend's own (events on its queue) where its benchmark table has one, the
 * host clock around a synchronised region otherwise. start stores what stop needs in *t0. */
enum gc_status gc_bench_timer_start(struct gc_backend *b, double *t0);
enum gc_status gc_bench_timer_stop(struct gc_backend *b, double t0, double *ms);
/* Median of v[0..k) (sorts v). */
double gc_bench_median(double *v, int k);
/* The exact softened acceleration on body i, summed in double (the self-pair adds zero). */
void gc_bench_reference(const struct gc_bodies *b, size_t i, double eps2, double a[3]);

/* Per-body relative acceleration errors |a - a_ref| / |a_ref| over `rows` evenly spaced
 * bodies: median, 99th percentile, largest, and the norm-wise RMS. */
struct gc_bench_errors {
    double median, p99, max, rms;
    size_t rows;
};
/* ref: 3 doubles per row from gc_bench_reference_rows; acc: the accelerations in vel
 * (xyz) of a gc_backend_accelerations result. */
void gc_bench_errors_of(const struct gc_bodies *acc, const double *ref, size_t rows,
                        struct gc_bench_errors *out);
/* The reference at rows evenly spaced bodies (row r is body r * n / rows), OpenMP over rows;
 * NULL (logged) without memory. */
double *gc_bench_reference_rows(const struct gc_bodies *b, size_t rows, double eps2);

#endif
