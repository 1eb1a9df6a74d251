/* The state ar_chain.c and ar_pair.c share (private to the two). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_AR_CHAIN_IMPL_H
#define GC_AR_CHAIN_IMPL_H

#include "ar_chain.h"

/* Extrapolation rows: the leapfrog is run with 2, 4, ..., 2 KMAX substeps. A step that has
 * not converged by then is retried at half the length. */
#define KMAX 10
/* Rows at which a converged step makes the next one longer or shorter: converging early
 * wastes nothing but says the step could be longer; late convergence costs many substeps. */
#define K_GROW 4
#define K_SHRINK 7

struct gc_ar {
    size_t n, nl;          /* bodies, chain links (n - 1) */
    size_t dim;            /* state length: 3 nl links, 3 nl link velocities, t, B */
    double *m, mtot, inv_mtot;
    int *order;            /* chain position -> body */
    double *y;             /* the state: X[3 nl], W[3 nl], t, B */
    double ds;             /* next step: in the regularised time s (n > 2), in time (a pair) */
    double tol;
    /* scratch */
    double *q, *v, *acc, *fext, *vold;   /* 3n each */
    double *y0, *y1, *row_prev, *row_cur; /* dim, dim, dim * KMAX each for the two rows */
    struct gc_ar_stats stats;
};

#define T_OF(g, y) ((y)[6 * (g)->nl])
#define B_OF(g, y) ((y)[6 * (g)->nl + 1])

/* One extrapolated step of length *H from y0 into y, halving *H until it converges (*row:
 * the row it converged at). */
enum gc_status gc_ar_step(struct gc_ar *g, const double *y0, double *y, double *H, int *row,
                          const struct gc_ar_perturb *p);
/* A pair's leapfrog over the time H in nsub substeps (ar_pair.c), for the extrapolation. */
void gc_ar_pair_leapfrog(struct gc_ar *g, const double *y0, double *y, double H, int nsub,
                         const struct gc_ar_perturb *p);
/* A pair advanced to exactly t_end (ar_pair.c). */
enum gc_status gc_ar_pair_advance(struct gc_ar *g, double t_end, const struct gc_ar_perturb *p);
/* A pair's first step (ar_pair.c). */
double gc_ar_pair_first_step(const struct gc_ar *g);

#endif
