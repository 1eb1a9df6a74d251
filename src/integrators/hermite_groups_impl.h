/* The state the hermite_groups*.c files share (private to them). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_IMPL_H
#define GC_HERMITE_GROUPS_IMPL_H

#include "ar_chain.h"
#include "hermite_groups.h"

/* A member's slot while its group lives: massless, never due (its time is far in the
 * future), far from everything (with eps = 0 no body may ever sit on it). */
#define GHOST_TICK (INT64_MAX / 4)
#define GHOST_X 1e15

struct group {
    int alive;
    int cm;          /* slot of the centre of mass: the lowest member slot */
    int k;           /* members */
    int *slot;       /* member slots, in the order ar holds them */
    struct gc_ar *ar;
    double reach;    /* bodies closer to the centre are resolved against the members */
    double size;     /* the farthest member, at least twice a bound group's a */
    double *off;     /* 3k: the members' offsets from the centre at the group's time off_t, */
    double off_t;    /* which the tide on the other groups reads (gc_hermite_groups_offsets) */
};

/* Items (slots or groups) hashed by the cell of side h of a position: a query gives the
 * items of the 27 cells around a point, so all within h of it (and some farther). */
struct gc_groups_grid {
    double h;
    size_t nb, count, cap;  /* buckets (a power of two), entries, room */
    int *head, *next, *item; /* bucket lists of entries; each entry's item */
    int64_t (*cell)[3];     /* each entry's cell */
    unsigned char *in;      /* the slots' grid: 1 where the entry is in its cell's list */
};

struct gc_hermite_groups {
    struct gc_hermite_groups_config cfg;
    size_t n;
    double radius;
    double energy;                 /* |E| of the whole system when the groups started */
    int threads;                   /* host threads (gc_backend_host_threads: --threads) */
    int order;
    double eps2, tick, dt_max, eta_start;
    int *group_of;                 /* slot -> group, -1 = a body of its own */
    double *m;                     /* physical masses */
    double *hm;                    /* Hermite masses: a group's total at its centre, 0 at ghosts */
    struct gc_hermite_record *rec; /* every slot's Hermite state after the latest block */
    unsigned char *fresh;          /* slots whose derivatives and step are to be computed */
    struct gc_bodies init;         /* masses (and states) for rebuilding the backend's state */
    struct group *groups;
    size_t ngroups, cap;
    int *units, *parent;           /* n each: the block's bodies and their union-find */
    uint64_t blocks, body_steps;   /* counted by the backend before its rebuilds */
    uint64_t formed, dissolved;
    struct gc_hermite_record *block; /* n: the latest block's records, from the backend */
    int incremental;               /* 1: the latest block's records (pack) keep rec current;
                                    * 0: every record comes back each block (state) */
    double s_beside, s_wait, s_after; /* host seconds: see gc_hermite_groups_report */
    /* gc_hermite_groups_index: the live slots and the alive groups' centres by cell, of
     * side the largest reach (the slots' a quarter more, kept current by
     * gc_hermite_groups_moved); slots_ok 0 until made */
    struct gc_groups_grid slots, centres;
    int slots_ok;
    int *gcm, *gidx;               /* n each: scratch of the centres' build */
};

/* The cell of side h holding coordinate x; past 1e15 cells (or not finite) the last one on
 * that side, so that far positions only add candidates, which exact tests then drop. */
int64_t gc_groups_cell_of(double x, double h);
uint64_t gc_groups_cell_hash(int64_t ix, int64_t iy, int64_t iz);

/* The grids of the slots and the centres made current (slots rebuilt only when stale or
 * too fine for the largest reach). Call before the searches below, after any change. */
enum gc_status gc_hermite_groups_index(struct gc_hermite_groups *g);
/* Slot s's position or mass changed: moved in the slots' grid (if it is made). */
void gc_hermite_groups_moved(struct gc_hermite_groups *g, int s);
/* The items of the 27 cells around x into out (room for every item); returns how many. */
size_t gc_groups_grid_near(const struct gc_groups_grid *G, const double x[3], int *out);
void gc_groups_grid_free(struct gc_groups_grid *G);
/* Ascending order: the searches' results in the order a scan of every slot would give. */
void gc_groups_sort(int *v, size_t k);

/* Members' absolute positions and velocities (3k each) at the group's time. */
void gc_hermite_groups_members(const struct gc_hermite_groups *g, const struct group *gr,
                               double *x, double *v);
/* Slot i's Hermite prediction to time t (a may be NULL). */
void gc_hermite_groups_predict(const struct gc_hermite_groups *g, int i, double t, double x[3],
                               double v[3], double a[3]);

/* Every alive group's offsets made current. Called before the groups are advanced in
 * parallel: the tide on each reads the others' offsets, never a state another thread moves. */
void gc_hermite_groups_offsets(struct gc_hermite_groups *g);
/* At the start: the energy scale and, unless given, the regularisation radius
 * (hermite_groups_scale.c). */
enum gc_status gc_hermite_groups_scale(struct gc_hermite_groups *g);
/* Advances a group to time t under the tide of the slots within reach (a group's centre
 * by its members, their offsets frozen). */
enum gc_status gc_hermite_groups_advance(const struct gc_hermite_groups *g,
                                         const struct group *gr, double t);
/* 1 when slot s was within gr's reach of its centre after the latest block. */
int gc_hermite_groups_near(const struct gc_hermite_groups *g, const struct group *gr, int s);
/* gr's reach from its present size (hermite_groups.h, GC_GROUP_TIDE_GAMMA). */
void gc_hermite_groups_update_reach(const struct gc_hermite_groups *g, struct group *gr);

/* What the nu units (slots) feel of the groups coupled to them at tick t, beyond their
 * centres' points, added to acc and jerk (3 nu each); those groups are first advanced to t. */
enum gc_status gc_hermite_groups_couple(struct gc_hermite_groups *g, const int *units,
                                        size_t nu, int64_t t, double *acc, double *jerk);

/* A group of the k bodies in slots sl (states x, v at tick t), and a group given up (its
 * members' slots become free of it). */
enum gc_status gc_hermite_groups_form(struct gc_hermite_groups *g, int k, int *sl,
                                      const double *x, const double *v, int64_t t);
void gc_hermite_groups_drop(struct gc_hermite_groups *g, struct group *gr);
/* Slot s a body of its own again (or newly centred): its state at tick t and its mass, its
 * derivatives and step to be computed. */
void gc_hermite_groups_set_body(struct gc_hermite_groups *g, int s, int64_t t, const double x[3],
                                const double v[3], double mass);
/* gr (due at tick t) split into its parts, by friends of friends at twice the radius, when
 * there are several and each two of them escape each other or couple weakly (their
 * quadrupole energy, GC_GROUP_SPLIT_GAMMA): parts of one body become bodies again, larger
 * parts groups. */
enum gc_status gc_hermite_groups_split(struct gc_hermite_groups *g, struct group *gr, int64_t t);
/* The root of i's part in a union-find (halving the paths on the way). */
int gc_hermite_groups_root(int *parent, int i);
/* Bodies of the block (tick t) closer than the radius, joined transitively, become one
 * group with the members of any group among them; *changed set when any formed. */
enum gc_status gc_hermite_groups_merge(struct gc_hermite_groups *g, int64_t t, int *changed);

#endif
