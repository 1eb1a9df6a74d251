/* The snapshot schedule: advance a simulation while writing HDF5 snapshots at times 0, T, 2T, ... */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SNAPSHOTS_H
#define GC_SNAPSHOTS_H

#include "bodies.h"
#include "cli.h"
#include "sim.h"
#include "snapshot_hdf5.h"
#include "status.h"

/* The last snapshot number: six digits, so that the names of any series sort in time order
 * (snapshot_001000 after snapshot_000999). */
#define GC_SNAPSHOT_LAST 999999ul

#ifdef __cplusplus
extern "C" {
#endif

struct gc_snapshots {
    double every;          /* T between snapshots, N-body units; 0 = schedule off */
    const char *dir;       /* folder of snapshot_NNNNNN.hdf5; not owned */
    double sign;           /* -1 for a leapfrog run backwards (dt < 0): times 0, -T, -2T, ... */
    unsigned long next;    /* index of the next snapshot */
    double last_reached;   /* simulation clock at the last snapshot written */
    int warned;            /* the off-schedule warning was given */
    double write_s;        /* wall seconds spent downloading and writing snapshots */
    unsigned long long bytes; /* size of the last snapshot written, bytes */
    double last_time;      /* Time of the last snapshot written */
    struct gc_bodies scratch; /* download target, tags copied from the initial bodies */
    unsigned long first;   /* index of the first snapshot of this run (a restart's own) */
    struct gc_snapshot_run run; /* what each file records of the run (settings; its
                                 * records array, owned, is refilled for each file) */
};

/* Starts the schedule for a simulation at its start and writes its first snapshot: at
 * t = 0 snapshot_000000; a run that continues from time t0 (a restart) goes on with the
 * numbering of the series it continues, snapshot_k at k x T, writing snapshot_k at t0 when
 * t0 is one of them. Each file records the run's settings (o: the model, its seed, units)
 * and, where the simulation can give it, its integrator state, so that a run can continue
 * from it exactly. every == 0 turns it off (gc_snapshots_advance is then gc_sim_advance).
 * Errors (logged): T not a whole number of leapfrog steps, the folder cannot be created,
 * no HDF5 in this build, the first write fails. On failure nothing needs freeing. */
enum gc_status gc_snapshots_init(struct gc_snapshots *s, double every, const char *dir,
                                 struct gc_sim *sim, const struct gc_bodies *initial,
                                 const struct gc_options *o);

/* Advances sim to time t like gc_sim_advance, stopping on the way at every snapshot time
 * k*T <= t not yet written: advance to k*T, download, write snapshot_k with Time = k*T.
 * If the clock went back (the viewer's reset), numbering starts again at snapshot_000000. */
enum gc_status gc_snapshots_advance(struct gc_snapshots *s, struct gc_sim *sim, double t);

/* Before a run to time t_end: warns (once, logged) when the snapshots still to come, each
 * the size of the last one, need more space than the folder's disk has free. */
void gc_snapshots_check_space(const struct gc_snapshots *s, double t_end);

/* "DIR/snapshot_NNNNNN.hdf5 (t = T)" of the last snapshot written into buf, for the message
 * of a run that stopped; "none" (and 0 returned) when none was. */
int gc_snapshots_last(const struct gc_snapshots *s, char *buf, size_t cap);

/* Frees the scratch bodies; safe on a zeroed or freed struct. */
void gc_snapshots_free(struct gc_snapshots *s);

#ifdef __cplusplus
}
#endif
#endif
