/* Private to the CPU backend: its context, shared by its compute (float), force-method and Hermite (double) files. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CPU_H
#define GC_BACKEND_CPU_H

#include <stddef.h>
#include <stdint.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend.h"
#include "backend_cpu_simd.h"
#include "backend_hermite.h"

struct cpu_hermite;
struct cpu_tree;
struct gc_tree_stats;

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
    const struct cpu_kernels *kernels; /* the force loops for this CPU (backend_cpu_simd.c) */
    char device[128];   /* "CPU, N OpenMP threads, avx2" */
    struct cpu_hermite *h; /* Hermite state; NULL until hermite_init */
    struct cpu_tree *tree; /* the tree method's arrays; NULL until its first pass */
};

/* OpenMP threads of the passes: --threads, else the runtime's default (OMP_NUM_THREADS or
 * the cores), read when asked so that it follows the runtime as every pass would. Inline:
 * the force methods below need it and the backend's table needs them. */
static inline int gc_cpu_threads(const struct cpu_ctx *c)
{
#ifdef _OPENMP
    return c->threads > 0 ? c->threads : omp_get_max_threads();
#else
    (void)c;
    return 1;
#endif
}

/* One force method of this backend, a file each (enum gc_force_method). */
struct cpu_force_method {
    enum gc_status (*accel)(struct cpu_ctx *c, const struct gc_force_params *fp);
    /* optional: the range's share of the potential energy (NULL = none) */
    enum gc_status (*potential)(struct cpu_ctx *c, const struct gc_force_params *fp, double *w);
};
extern const struct cpu_force_method gc_cpu_allpairs; /* backend_cpu_allpairs.c */
extern const struct cpu_force_method gc_cpu_tree;     /* backend_cpu_tree.c */
/* The tree's figures of its latest pass (backend_tree.h), and its arrays freed. */
enum gc_status gc_cpu_tree_stats(const struct cpu_ctx *c, struct gc_tree_stats *out);
/* Each group's walk time of the latest pass (backend_tree.h's group_times). */
enum gc_status gc_cpu_tree_group_times(const struct cpu_ctx *c, float *us, size_t cap,
                                       size_t *count);
void gc_cpu_tree_free(struct cpu_ctx *c);

/* The Hermite table (backend_cpu_hermite.c) and what the compute table needs of its state. */
extern const struct gc_backend_hermite gc_cpu_hermite_table;
/* Download of the view in double (pos64/vel64/mass64 of dst when present) and levels in vel.w. */
void gc_cpu_hermite_download(const struct cpu_ctx *c, struct gc_bodies *dst);
/* Each body's time-step level into vel4[4 i + 3] (n float4), as the CUDA view writes it. */
void gc_cpu_hermite_levels(const struct cpu_ctx *c, float *vel4);
/* The range's share of the potential energy of the view, in double, self-pairs skipped. */
enum gc_status gc_cpu_hermite_potential(const struct cpu_ctx *c, double *w);
void gc_cpu_hermite_free(struct cpu_ctx *c);

#endif
