/* Close groups taken out of a Hermite block-step run and integrated by algorithmic regularisation, their centres of mass left as Hermite bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_H
#define GC_HERMITE_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "backend_hermite.h"
#include "force.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

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

struct gc_hermite_groups_config {
    double tol;    /* ar_chain tolerance; <= 0: GC_AR_DEFAULT_TOL */
    double radius; /* regularisation radius; <= 0: derived from the bodies at the start,
                    * 2 <m> / v^2 with v^2 = |W| / M (the distance at which two average
                    * bodies at the virial speed deflect each other strongly), W without
                    * the own terms of hard binaries (bound pairs of mutual nearest
                    * neighbours closer than a tenth of their next neighbours) */
};

/* What the report rows show. */
struct gc_hermite_groups_report {
    size_t groups;          /* groups now */
    size_t members;         /* bodies in them */
    uint64_t formed;        /* groups formed since the start (absorptions included) */
    uint64_t dissolved;     /* groups split or dissolved since the start */
    int have_binary;        /* 1 when some pair in a group is bound: */
    double a, e;            /*   the most bound pair's semi-major axis, eccentricity */
    double radius;          /* the regularisation radius in use */
    /* host seconds since the start: the groups' work before the correction (issued while
     * an asynchronous backend computes the force pass), waiting for the backend after it,
     * and the groups' work after the block (new states, advancing, splits and merges) */
    double s_beside, s_wait, s_after;
};

struct gc_hermite_groups;

enum gc_status gc_hermite_groups_create(const struct gc_hermite_groups_config *cfg, size_t n,
                                        struct gc_hermite_groups **out);
void gc_hermite_groups_destroy(struct gc_hermite_groups *g);
/* After the start-up passes (every body at tick 0): the first groups. */
enum gc_status gc_hermite_groups_start(struct gc_hermite_groups *g, struct gc_force *f,
                                       const struct gc_hermite_config *cfg,
                                       const struct gc_bodies *bodies);
/* After each block step: advance the groups whose centre of mass it corrected, split and
 * form groups. The backend's counters restart when the groups change (the state is
 * rebuilt): gc_hermite_groups_counted gives what they had counted before. */
enum gc_status gc_hermite_groups_block(struct gc_hermite_groups *g, struct gc_force *f,
                                       const struct gc_hermite_config *cfg);
/* After select (and the force pass's launch), before the correction: the groups near the
 * block's bodies are brought to its time, and the block's bodies get the forces of those
 * groups' members in place of their centres' (and the centres the mean force on their
 * members) through the backend's perturb slot, which the correction adds; a backend without
 * it couples groups as points. Reads nothing the force pass writes, so it runs while an
 * asynchronous backend computes. */
enum gc_status gc_hermite_groups_before_correct(struct gc_hermite_groups *g, struct gc_force *f);
void gc_hermite_groups_counted(const struct gc_hermite_groups *g, uint64_t *blocks,
                               uint64_t *body_steps);
/* A download at time t (N-body units) made physical: every group's members in their own
 * slots with their masses, positions and velocities (dst needs pos64/vel64/mass64). */
enum gc_status gc_hermite_groups_physical(struct gc_hermite_groups *g, double t,
                                          struct gc_bodies *dst);
size_t gc_hermite_groups_count(const struct gc_hermite_groups *g);
void gc_hermite_groups_report(const struct gc_hermite_groups *g,
                              struct gc_hermite_groups_report *out);
/* Group number of each body (-1: none), n entries, for snapshots. */
void gc_hermite_groups_membership(const struct gc_hermite_groups *g, int32_t *group);

#ifdef __cplusplus
}
#endif
#endif
