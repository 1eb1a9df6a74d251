/* Private to the CPU backend: its force loops for one instruction set (backend_cpu_kernels.c, compiled once per set) and the choice among them from the CPU's features (backend_cpu_simd.c). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_CPU_SIMD_H
#define GC_BACKEND_CPU_SIMD_H

#include <stddef.h>

#include "status.h"

/* Bodies as the loops read them: unit-stride float arrays. */
struct cpu_soa {
    const float *x, *y, *z, *m;
    size_t n;
};

/* The bodies of one all-pairs tile: the loops keep this many forces in double at once. */
#define GC_CPU_TILE 64

/* An interaction list of the tree (backend_cpu_tree.c): structure-of-arrays, each array
 * padded with zero-mass entries to a whole number of the widest vector (GC_CPU_PAD), so
 * the loops need no tail. Bodies and far cells' masses: x, y, z, m. Cells with their
 * quadrupole: also q[6] and nsoft (gc_tree_cell_terms). */
#define GC_CPU_PAD 16
struct cpu_list {
    float *x, *y, *z, *m;
    float *q[6], *nsoft; /* cells only */
    size_t n, cap;       /* entries (padded: a multiple of GC_CPU_PAD), allocated */
};

/* What the tree's walk tests of its cells, as arrays (backend_cpu_tree.c): centre of mass
 * and opening radius squared, readable GC_CPU_PAD entries past the last cell. */
struct cpu_cell_tests {
    const float *x, *y, *z, *ropen2;
};

/* What a group's walk does with each of up to 8 consecutive cells (bit k: cell first + k):
 * adds it to the group's local expansion, takes its mass alone, takes its quadrupole, or
 * opens it. */
enum { GC_CPU_LOCAL, GC_CPU_MASS, GC_CPU_QUAD, GC_CPU_OPEN, GC_CPU_FATES };

struct cpu_kernels {
    const char *isa;      /* "avx512", "avx2", "portable" */
    int width;            /* float lanes of one vector */
    int flops_per_pair;   /* floating-point operations one all-pairs interaction executes,
                           * an FMA counted two (the project's convention counts 20) */
    /* Accelerations on bodies [i0, i1) (at most GC_CPU_TILE of them) from all s->n, written
     * to a[0][k], a[1][k], a[2][k] for body i0 + k: float pairs, each lane's sum taken in
     * double every few hundred terms. */
    void (*allpairs_accel)(const struct cpu_soa *s, size_t i0, size_t i1, float eps2,
                           float *ax, float *ay, float *az);
    /* sum over i in [i0, i1) of m_i sum_{j != i} m_j / sqrt(r_ij^2 + eps2) */
    double (*allpairs_potential)(const struct cpu_soa *s, size_t i0, size_t i1, float eps2);
    /* The tree: for each of the n bodies at (x[i], y[i], z[i]), the acceleration from a
     * body list and a cell list into out[i][0..2] (with pot: the potential into out[i][3]
     * instead), the sums in float. */
    void (*tree_lists)(const struct cpu_list *bodies, const struct cpu_list *cells,
                       const float *x, const float *y, const float *z, int n, float eps2,
                       float (*out)[4], int pot);
    /* The tree: the fates of the k <= 8 cells [first, first + k) for the group of box
     * centre bc, half-sides bh and local radius squared rl2, as masks (the enum above), from
     * the same float arithmetic as tree_formulas.h's tests (gc_tree_box_dist2, gc_tree_far,
     * gc_tree_local), so that the CPU opens the cells the GPU opens. */
    void (*tree_fates)(const struct cpu_cell_tests *s, size_t first, int k, const float bc[3],
                       const float bh[3], float rl2, unsigned fate[GC_CPU_FATES]);
    /* The tree: the cells of a list added to the local expansion L about g (the sums of
     * gc_tree_local_add, GC_TREE_LOCAL_TERMS of them; with pot the potential's too). */
    void (*tree_local)(const struct cpu_list *cells, const float g[3], float eps2, float *L,
                       int pot);
};

extern const struct cpu_kernels gc_cpu_kernels_portable;
#if defined(GC_CPU_X86)
extern const struct cpu_kernels gc_cpu_kernels_avx2;
extern const struct cpu_kernels gc_cpu_kernels_avx512;
#endif

/* The loops for this CPU: request "auto" (NULL) takes the widest set the CPU and its
 * operating system support; "avx512", "avx2" or "portable" ask for one (GC_ERR_UNSUPPORTED,
 * logged, when this CPU lacks it; GC_ERR_INVALID for another name). */
enum gc_status gc_cpu_kernels_choose(const char *request, const struct cpu_kernels **out);

/* The FP32 FMA peak of the cores `threads` threads run on: cores x clock x FMA pipes x
 * float lanes a pipe x 2 flops, and a line saying how each was found. */
struct gc_cpu_peak {
    double flops;     /* FP32 flops per second; 0 = unknown */
    int cores;        /* physical cores the threads run on */
    double ghz;       /* clock */
    int pipes;        /* FMA pipes a core */
    int lanes;        /* float lanes a pipe executes a cycle */
    char how[240];
};
void gc_cpu_peak_estimate(int threads, struct gc_cpu_peak *out);

#endif
