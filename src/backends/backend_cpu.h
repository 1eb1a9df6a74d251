/* Private to the CPU backend: its context, shared by its leapfrog (float) and Hermite (double) files. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CPU_H
#define GC_BACKEND_CPU_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"

struct cpu_hermite;

/* Structure-of-arrays copies of the bodies: unit-stride float arrays let the compiler
 * vectorise the inner j loop (8 pairs per AVX instruction). In Hermite runs the float
 * arrays hold the latest view (bodies predicted to one time) that export and download read. */
struct cpu_ctx {
    size_t n, cap;
    size_t i0, i1;      /* bodies this rank updates (set_range); all of them by default */
    float *x, *y, *z, *m;
    float *vx, *vy, *vz;
    float *ax, *ay, *az;
    int threads;        /* OpenMP threads; 0 = runtime default */
    char device[96];    /* "CPU (N threads)" */
    struct cpu_hermite *h; /* Hermite state; NULL until hermite_init */
};

int gc_cpu_threads(const struct cpu_ctx *c);

/* The Hermite slots (backend_cpu_hermite.c). */
enum gc_status gc_cpu_hermite_init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                                   const struct gc_bodies *bodies);
enum gc_status gc_cpu_hermite_begin(struct gc_backend *b);
enum gc_status gc_cpu_hermite_select(struct gc_backend *b, int64_t t_limit, int *due);
enum gc_status gc_cpu_hermite_predict(struct gc_backend *b);
enum gc_status gc_cpu_hermite_force(struct gc_backend *b);
enum gc_status gc_cpu_hermite_correct(struct gc_backend *b);
enum gc_status gc_cpu_hermite_view(struct gc_backend *b, int64_t t);
enum gc_status gc_cpu_hermite_counters(struct gc_backend *b, struct gc_hermite_counters *out);
enum gc_status gc_cpu_hermite_schedule(struct gc_backend *b, int64_t *t, uint8_t *level);
enum gc_status gc_cpu_hermite_derivs(struct gc_backend *b, double *acc, double *jerk,
                                     double *snap);
enum gc_status gc_cpu_hermite_pack(struct gc_backend *b, struct gc_hermite_record *dst,
                                   size_t *count);
enum gc_status gc_cpu_hermite_unpack(struct gc_backend *b, const struct gc_hermite_record *src,
                                     size_t count);
/* Download of the view in double (pos64/vel64/mass64 of dst when present) and levels in vel.w. */
void gc_cpu_hermite_download(const struct cpu_ctx *c, struct gc_bodies *dst);
/* Each body's time-step level into vel4[4 i + 3] (n float4), as the CUDA view writes it. */
void gc_cpu_hermite_levels(const struct cpu_ctx *c, float *vel4);
/* The range's share of the potential energy of the view, in double, self-pairs skipped. */
enum gc_status gc_cpu_hermite_potential(const struct cpu_ctx *c, double *w);
void gc_cpu_hermite_free(struct cpu_ctx *c);

#endif
