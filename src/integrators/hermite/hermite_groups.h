/* Close groups taken out of a Hermite block-step run and integrated by algorithmic regularisation, their centres of mass left as Hermite bodies. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_GROUPS_H
#define GC_HERMITE_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "backend_hermite.h"
#include "force.h"
#include "integrator.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How it works, and its constants: hermite_groups_state.h. */

struct gc_hermite_groups;

/* Close groups among n bodies, advanced to a relative tolerance tol (<= 0: GC_AR_DEFAULT_TOL)
 * with a regularisation radius `radius` (<= 0: derived from the bodies at the start,
 * 2 <m> / v^2 with v^2 = |W| / M, the distance at which two average bodies at the virial
 * speed deflect each other strongly, W without the own terms of hard binaries: bound pairs
 * of mutual nearest neighbours closer than a tenth of their next neighbours). */
enum gc_status gc_hermite_groups_create(double tol, double radius, size_t n,
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
void gc_hermite_groups_report(const struct gc_hermite_groups *g, struct gc_groups_report *out);
/* Group number of each body (-1: none), n entries, for snapshots. */
void gc_hermite_groups_membership(const struct gc_hermite_groups *g, int32_t *group);

#ifdef __cplusplus
}
#endif
#endif
