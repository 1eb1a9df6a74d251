/* The state the close-group files share: the groups, each slot's Hermite record, the grids of slots and centres, and the primitives that change them. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_STATE_H
#define GC_HERMITE_GROUPS_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "ar_chain.h"
#include "bodies.h"
#include "hermite_groups_grid.h"
#include "hermite_timeline.h"
#include "status.h"

/* Design (every rank runs it alike on the state all ranks share, so results do not depend
 * on the number of ranks):
 * - Two bodies that are both in the same block (so both are synchronised) and closer than
 *   the regularisation radius form a group (two groups: closer than GC_GROUP_MERGE_SIZES
 *   times the sum of their sizes, if that is more, up to GC_GROUP_MERGE_RADII radii: where
 *   their mutual tides reach about 1e-3, and each one's tide on the other, integrated with
 *   the other as a point, would be wrong; the cap keeps a cluster's binaries from gathering
 *   into large, slow groups; a body and a group are coupled exactly, see below; distances
 *   between units are taken between their members too, whose group may spread far from its
 *   centre); a group's centre of mass is a Hermite body in
 *   the slot of its lowest-numbered member, with the group's mass; the other members'
 *   slots hold massless bodies parked far away whose step never comes due.
 * - A group's reach: GC_GROUP_PERTURBER_RADII radii, or further where the group is large,
 *   to where a body of the group's mass would perturb it by less than GC_GROUP_TIDE_GAMMA
 *   (its size times GC_GROUP_TIDE_GAMMA^(-1/3); size: the farthest member, at least twice
 *   the semi-major axis of a bound group). Bodies within reach are coupled exactly: before
 *   a block's force pass the groups within reach of its bodies are advanced to its time,
 *   those bodies get the force of the members in place of the centre's, and a centre the
 *   mean force of the bodies within reach on its members (the backend's perturb slot);
 *   beyond reach a group is a point mass. A group moves by ar_chain.c, one group per
 *   OpenMP thread, under the tide of the bodies within reach (their Hermite predictions;
 *   another group by its members, their offsets from its centre as of its latest step).
 * - A group splits where its members fall into parts more than two radii apart whose mutual
 *   quadrupole energy (what the point-mass coupling then misses) is small: below
 *   GC_GROUP_SPLIT_GAMMA of the group's internal energy for parts bound to each other (they
 *   would miss it orbit after orbit), of the whole system's energy (or the group's, if that
 *   is more) for parts that escape each other (they recede on an unbound orbit, farther
 *   apart than GC_GROUP_MERGE_RADII radii, so they do not merge again at once: they miss it
 *   once, and less as they part). Parts of one body become Hermite bodies again with their
 *   exact states, larger parts stay groups. Judged against its group's energy alone, a body
 *   leaving a cluster's binary stayed until a third of the half-mass radius away: a group
 *   that large has the whole cluster within reach, and other groups' tides see it as a
 *   point where its members are far from its centre. */
#define GC_GROUP_PERTURBER_RADII 20.0
#define GC_GROUP_TIDE_GAMMA 1e-7
#define GC_GROUP_MERGE_SIZES 10.0
#define GC_GROUP_MERGE_RADII 4.0
#define GC_GROUP_SPLIT_GAMMA 1e-7

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

struct gc_hermite_groups {
    double tol;                    /* ar_chain tolerance (gc_hermite_groups_create) */
    double radius_given;           /* the regularisation radius asked for; <= 0: derived */
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

/* Slot i's Hermite prediction to time t (a may be NULL). */
void gc_hermite_groups_predict(const struct gc_hermite_groups *g, int i, double t, double x[3],
                               double v[3], double a[3]);
/* Members' absolute positions and velocities (3k each) at the group's time. */
void gc_hermite_groups_members(const struct gc_hermite_groups *g, const struct group *gr,
                               double *x, double *v);
/* Every alive group's offsets made current. Called before the groups are advanced in
 * parallel: the tide on each reads the others' offsets, never a state another thread moves. */
void gc_hermite_groups_offsets(struct gc_hermite_groups *g);
/* Advances a group to time t under the tide of the slots within reach (a group's centre
 * by its members, their offsets frozen). */
enum gc_status gc_hermite_groups_advance(const struct gc_hermite_groups *g,
                                         const struct group *gr, double t);
/* 1 when slot s was within gr's reach of its centre after the latest block. */
int gc_hermite_groups_near(const struct gc_hermite_groups *g, const struct group *gr, int s);
/* gr's reach from its present size (GC_GROUP_TIDE_GAMMA). */
void gc_hermite_groups_update_reach(const struct gc_hermite_groups *g, struct group *gr);
/* Groups alive now. */
size_t gc_hermite_groups_alive(const struct gc_hermite_groups *g);

/* A group of the k bodies in slots sl (states x, v at tick t), and a group given up (its
 * members' slots become free of it). */
enum gc_status gc_hermite_groups_form(struct gc_hermite_groups *g, int k, int *sl,
                                      const double *x, const double *v, int64_t t);
void gc_hermite_groups_drop(struct gc_hermite_groups *g, struct group *gr);
/* Slot s a body of its own again (or newly centred): its state at tick t and its mass, its
 * derivatives and step to be computed. */
void gc_hermite_groups_set_body(struct gc_hermite_groups *g, int s, int64_t t, const double x[3],
                                const double v[3], double mass);

/* The grids of the slots and the centres made current (slots rebuilt only when stale or
 * too fine for the largest reach). Call before the searches, after any change. */
enum gc_status gc_hermite_groups_index(struct gc_hermite_groups *g);
/* Slot s's position or mass changed: moved in the slots' grid (if it is made). */
void gc_hermite_groups_moved(struct gc_hermite_groups *g, int s);

/* The root of i's part in a union-find (halving the paths on the way). */
int gc_hermite_groups_root(int *parent, int i);

#endif
