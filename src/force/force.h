/* Gravity as its own layer: the force method, forces on this rank's bodies against all bodies, and the exchange between ranks that this needs. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_FORCE_H
#define GC_FORCE_H

#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "backend_tree.h"
#include "comm.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Integrators ask this layer for forces and never see ranks: with one rank every call goes
 * straight to the backend; with several, each rank owns the bodies [i0, i1) of
 * gc_comm_range, and the positions its integrator has just moved are shared with the other
 * ranks (MPI_Allgatherv) before forces on its own bodies are computed against all. */
/* Wall time of the force layer's phases since init, for --profile. Filled only while
 * profiling is on (gc_force_set_profile): then each phase waits for the backend to finish,
 * so that time is charged to the phase that spent it. */
struct gc_force_times {
    double force_s;    /* force passes (gc_force_accel, and a scheme's own: gc_force_pass) */
    double exchange_s; /* exchanges between ranks (positions, a scheme's records and
                        * agreements), waiting for the slowest rank included */
    uint64_t passes;   /* force passes timed */
};

struct gc_force {
    struct gc_backend *backend; /* not owned; holds all n bodies */
    enum gc_force_method method; /* how accelerations are computed (gc_force_method_choose) */
    float theta;                /* tree: opening angle */
    struct gc_comm *comm;       /* not owned */
    size_t n;                   /* bodies */
    size_t i0, i1;              /* this rank's bodies */
    size_t *counts, *displs;    /* per rank: bodies owned and first index (allgatherv) */
    float *h_pos;               /* n float4 staging for the position exchange; NULL on 1 rank */
    double interactions;        /* all pairs: pairwise interactions of all ranks together since
                                 * init (counted locally: every rank knows the whole work) */
    size_t *part_displs;        /* per rank, for gc_force_gather_parts; NULL on 1 rank */
    size_t *ones, *iota;        /* per rank: 1 and r, for gc_force_gather_one */
    int profile;                /* 1 = time the phases (see gc_force_times) */
    struct gc_force_times times;
};

/* ---- the force method: the one place where it is chosen ---- */

/* Names of the methods a user may ask for, "auto" first. */
#define GC_FORCE_METHOD_NAMES "auto|allpairs|tree"
/* "auto" takes the tree above this many bodies, or above the backend's own figure where it
 * has one (gc_backend_tree_above: the CPU's tree overtakes its all pairs far sooner): there
 * it is faster than all pairs and within the accuracy targets at the default opening angle
 * (BENCHMARKS.md, "Barnes-Hut tree on the built-in pair"); at and below it all pairs stay exact. */
#define GC_FORCE_AUTO_TREE_N 262144
/* The method `request` names ("auto" or NULL: the best for n bodies on this backend) into
 * *out; GC_ERR_INVALID (logged, with the names) for an unknown one. */
enum gc_status gc_force_method_choose(const char *request, size_t n,
                                      const struct gc_backend *backend,
                                      enum gc_force_method *out);
/* "allpairs", ... */
const char *gc_force_method_name(enum gc_force_method m);

/* Splits n bodies over the ranks of comm and restricts the backend to this rank's share;
 * forces use `method` (theta: the tree's opening angle). The backend must already hold the
 * same n bodies on every rank. */
enum gc_status gc_force_init(struct gc_force *f, struct gc_backend *backend,
                             struct gc_comm *comm, size_t n, enum gc_force_method method,
                             float theta);
void gc_force_free(struct gc_force *f);

/* Shares this rank's positions with the others, then a_i for every own body i (softened,
 * G = 1, against all n). After it, every rank holds every body's current position. */
enum gc_status gc_force_accel(struct gc_force *f, float eps2);

/* A force pass a scheme runs through its own backend table (Hermite's force of the active
 * set on the bodies of this rank), timed as a force pass when profiling. */
enum gc_status gc_force_pass(struct gc_force *f, enum gc_status (*pass)(struct gc_backend *b));

/* ---- what schemes with a state of their own exchange between ranks (none on one rank) ----
 * Ranks a run has (1: one process). */
int gc_force_ranks(const struct gc_force *f);
/* This rank's one element of `elem` bytes, at buf + rank * elem, to every rank: on return
 * buf holds every rank's, in rank order. */
enum gc_status gc_force_gather_one(struct gc_force *f, void *buf, size_t elem);
/* Every rank's counts[r] elements of `elem` bytes (this rank's at the front of buf on entry,
 * buf with room for all of them) to every rank: on return buf holds every rank's part in
 * rank order, this rank's from element *first on. counts must be the same on every rank. */
enum gc_status gc_force_gather_parts(struct gc_force *f, void *buf, const size_t *counts,
                                     size_t elem, size_t *first);
/* 1 in *flag on every rank only where every rank passed 1. */
enum gc_status gc_force_all(struct gc_force *f, int *flag);

/* The tree method's figures of its latest pass on this rank (backend_tree.h); valid = 0 with
 * another method or a backend without them. */
enum gc_status gc_force_tree_stats(struct gc_force *f, struct gc_tree_stats *out);

/* Softened potential energy of all bodies, summed over ranks (every rank gets it): exact
 * (all pairs) when gc_force_potential_exact, else the force method's approximation. */
enum gc_status gc_force_potential(struct gc_force *f, float eps2, double *w);
int gc_force_potential_exact(const struct gc_force *f);

/* Profiling of the phases on (1) or off (0, the default); turning it on zeroes the times. */
void gc_force_set_profile(struct gc_force *f, int on);

#ifdef __cplusplus
}
#endif
#endif
