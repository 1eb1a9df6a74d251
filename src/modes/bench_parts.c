/* What the benchmark modes share: timing on a backend's own clock, medians, the float64 reference force and error statistics. */
/* SPDX-License-Identifier: MIT */
#include "bench_parts.h"

#include <math.h>
#include <stdlib.h>

#include "backend_bench.h"
#include "clock.h"
#include "log.h"

enum gc_status gc_bench_timer_start(struct gc_backend *b, double *t0)
{
    const struct gc_backend_bench *t = gc_backend_bench(b);
    if (t && t->mark)
        return t->mark(b, 0);
    *t0 = gc_clock_seconds();
    return gc_backend_sync(b);
}

enum gc_status gc_bench_timer_stop(struct gc_backend *b, double t0, double *ms)
{
    const struct gc_backend_bench *t = gc_backend_bench(b);
    enum gc_status st;
    if (t && t->mark) {
        st = t->mark(b, 1);
        return st != GC_OK ? st : t->elapsed(b, ms);
    }
    st = gc_backend_sync(b);
    *ms = (gc_clock_seconds() - t0) * 1e3;
    return st;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gc_bench_median(double *v, int k)
{
    qsort(v, (size_t)k, sizeof *v, cmp_double);
    return k % 2 ? v[k / 2] : 0.5 * (v[k / 2 - 1] + v[k / 2]);
}

void gc_bench_reference(const struct gc_bodies *b, size_t i, double eps2, double a[3])
{
    const double xi = b->pos[4 * i], yi = b->pos[4 * i + 1], zi = b->pos[4 * i + 2];
    a[0] = a[1] = a[2] = 0.0;
    for (size_t j = 0; j < b->n; j++) {
        const double dx = b->pos[4 * j] - xi, dy = b->pos[4 * j + 1] - yi,
                     dz = b->pos[4 * j + 2] - zi;
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        const double s = b->pos[4 * j + 3] / (r2 * sqrt(r2));
        a[0] += dx * s;
        a[1] += dy * s;
        a[2] += dz * s;
    }
}

double *gc_bench_reference_rows(const struct gc_bodies *b, size_t rows, double eps2)
{
    double *ref = malloc(3 * rows * sizeof *ref);
    if (!ref) {
        gc_log_error("benchmark: out of memory for the float64 reference");
        return NULL;
    }
#pragma omp parallel for schedule(dynamic, 8)
    for (long r = 0; r < (long)rows; r++)
        gc_bench_reference(b, (size_t)r * b->n / rows, eps2, &ref[3 * r]);
    return ref;
}

void gc_bench_errors_of(const struct gc_bodies *acc, const double *ref, size_t rows,
                        struct gc_bench_errors *out)
{
    double *e = malloc((rows ? rows : 1) * sizeof *e), num = 0.0, den = 0.0;
    out->rows = rows;
    out->median = out->p99 = out->max = out->rms = INFINITY;
    if (!e || rows == 0) {
        free(e);
        return;
    }
    for (size_t r = 0; r < rows; r++) {
        const size_t i = r * acc->n / rows;
        double d2 = 0.0, a2 = 0.0;
        for (int k = 0; k < 3; k++) {
            const double d = (double)acc->vel[4 * i + k] - ref[3 * r + k];
            d2 += d * d;
            a2 += ref[3 * r + k] * ref[3 * r + k];
        }
        num += d2;
        den += a2;
        e[r] = a2 > 0.0 ? sqrt(d2 / a2) : (d2 > 0.0 ? INFINITY : 0.0);
        if (!isfinite(d2))
            e[r] = INFINITY;
    }
    out->rms = den > 0.0 ? sqrt(num / den) : (num > 0.0 ? INFINITY : 0.0);
    qsort(e, rows, sizeof *e, cmp_double);
    out->median = e[rows / 2];
    out->p99 = e[(rows * 99) / 100 < rows ? (rows * 99) / 100 : rows - 1];
    out->max = e[rows - 1];
    free(e);
}
