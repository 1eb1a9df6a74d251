/* Writes and reads snapshots as HDF5 in the layout GADGET and SWIFT use (/Header, /PartTypeN). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SNAPSHOT_HDF5_H
#define GC_SNAPSHOT_HDF5_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "state.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Layout (N-body units, G = 1; docs/usage.md, "Snapshots"):
 *   /Header attributes: Time (float64), NumPart_ThisFile, NumPart_Total,
 *     NumPart_Total_HighWord (uint32[6], GADGET-2/3 style: N = Total + HighWord << 32),
 *     MassTable (float64[6], all 0: every body's mass is in Masses), NumFilesPerSnapshot
 *     (int32, 1), Redshift (0), BoxSize (0: open boundaries), Omega0 and OmegaLambda (0),
 *     HubbleParam (1), Flag_DoublePrecision and GADGET-2's other Flag_* (int32, 0); in the
 *     galaxy scaling also UnitLength_in_cm, UnitMass_in_g, UnitVelocity_in_cm_per_s and
 *     Time_GYR.
 *   /Units (when the run's units are known): UnitSystem (a string), and in the galaxy
 *     scaling the cgs values under GADGET's names and SWIFT's ("Unit length in cgs (U_L)").
 *   /PartType1 halo, /PartType2 disk, /PartType3 bulge, /PartType4 a star cluster's stars,
 *     each with Coordinates (n x 3), Velocities (n x 3), Masses (n): float64 when the body set
 *     has double-precision arrays, else float32; ParticleIDs (n, uint64): the body's 1-based
 *     index in the run's order; GalaxyIndex (n, uint8): 0 = galaxy A, 1 = galaxy B; and the
 *     group attribute Component ("halo", "disk", "bulge" or "star") naming what its bodies
 *     are (files of the previous layout hold a one-component set in PartType1: Component
 *     decides). */

/* What a snapshot records besides the bodies, so that a restart continues its run exactly
 * (written as /Parameters attributes and the /IntegratorState group; files of other codes
 * have neither). Text fields "" and numbers 0 when not recorded. */
struct gc_snapshot_run {
    char integrator[24]; /* "leapfrog", "hermite4", "hermite6" */
    char force[24];      /* force method: "allpairs", "tree" */
    char model[24];      /* built-in model the run started from, or "data" */
    char units[8];       /* "galaxy" or "henon" */
    double eps, dt, eta, dt_max, theta; /* as the run used them (eta, dt_max: Hermite);
                                         * read: NaN where the file records none */
    double every;        /* --snapshot-every T of the series (read: NaN when unrecorded) */
    uint64_t seed;       /* the model's seed */
    long long index;     /* NNN of snapshot_NNN: Time = index x every; -1 unknown */
    /* The integrator's state beyond the bodies (state.h), as /IntegratorState: each field
     * that is stored in files a dataset of n rows in run order, each named number an
     * attribute; no fields = none (a leapfrog's state is its bodies). Read: a host blob of
     * the file's own layout (integers as int64, numbers as float64), freed by
     * gc_snapshot_run_free. */
    struct gc_state state;
    /* Written only: each body's regularised group (-1: none), b->n entries, as the dataset
     * /Regularisation/Group in body order (ParticleIDs - 1); NULL = no regularisation. */
    const int32_t *group_of;
};

void gc_snapshot_run_free(struct gc_snapshot_run *r);

/* Filename suffixes that promise an HDF5 file (".hdf5", ".h5", ".hdf"): 1 when path has one. */
int gc_snapshot_hdf5_name(const char *path);

/* 1 when this build can read and write HDF5; otherwise every function below logs one
 * message saying so and returns GC_ERR_UNSUPPORTED. */
int gc_snapshot_hdf5_available(void);

/* Writes b at simulated time `time` to path (replaced if it exists). The file appears under
 * its name only when complete: it is built in memory, written as "<path>.part" and renamed.
 * On failure (a full disk, a read-only folder) the message names the system's reason and
 * the partial file is removed; libhdf5 never sees the failing disk. */
enum gc_status gc_snapshot_hdf5_write(const char *path, const struct gc_bodies *b, double time);
/* The same, with what the run records (run may be NULL: bodies only). */
enum gc_status gc_snapshot_hdf5_write_run(const char *path, const struct gc_bodies *b,
                                          double time, const struct gc_snapshot_run *run);

/* Reads a snapshot into out (empty on entry), bodies in ParticleIDs order; *time (may be
 * NULL) gets the header's Time. Files of this layout from other codes are read too: Masses
 * may be left out for a type whose MassTable entry is > 0, GalaxyIndex and Component are
 * optional (default galaxy A, component by type). float64 data also fills pos64/vel64/mass64.
 * Every problem is logged once, naming the file and the group or dataset: missing parts,
 * wrong shapes or types, non-finite values, masses <= 0, IDs that are not 1..N each once,
 * more than GC_MAX_BODIES bodies, particle types other than 1-3. Nothing is returned on
 * failure. */
enum gc_status gc_snapshot_hdf5_read(const char *path, struct gc_bodies *out, double *time);
/* The same, and what the run recorded into *run (zeroed first; may be NULL). A recorded
 * state must match the bodies (one record per body, levels 0..39, finite values), else
 * the file is refused like any other broken part. */
enum gc_status gc_snapshot_hdf5_read_run(const char *path, struct gc_bodies *out, double *time,
                                         struct gc_snapshot_run *run);

/* The same reader over a file image in memory (tests and fuzzers; the run's parts are
 * read and checked, then dropped): `name` is used in messages only, and files declaring more than max_bodies bodies (<= GC_MAX_BODIES) are
 * refused before anything is allocated for them. */
enum gc_status gc_snapshot_hdf5_read_image(const void *image, size_t size, const char *name,
                                           size_t max_bodies, struct gc_bodies *out,
                                           double *time);

#ifdef __cplusplus
}
#endif
#endif
