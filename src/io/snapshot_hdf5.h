/* Writes and reads snapshots as HDF5 in the layout GADGET and SWIFT use (/Header, /PartTypeN). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SNAPSHOT_HDF5_H
#define GC_SNAPSHOT_HDF5_H

#include <stddef.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Layout (N-body units, G = 1; docs/usage.md, "Snapshots"):
 *   /Header attributes: Time (float64), NumPart_ThisFile, NumPart_Total,
 *     NumPart_Total_HighWord (uint32[6], GADGET-2/3 style: N = Total + HighWord << 32),
 *     MassTable (float64[6], all 0: every body's mass is in Masses), NumFilesPerSnapshot
 *     (int32, 1), Redshift (0), BoxSize (0: open boundaries), Flag_DoublePrecision (int32).
 *   /PartType1 halo, /PartType2 disk, /PartType3 bulge (GADGET's collisionless types), each
 *     with Coordinates (n x 3), Velocities (n x 3), Masses (n): float64 when the body set has
 *     double-precision arrays, else float32; ParticleIDs (n, uint64): the body's 1-based index
 *     in the run's order; GalaxyIndex (n, uint8): 0 = galaxy A, 1 = galaxy B; and the group
 *     attribute Component ("halo", "disk" or "bulge") naming what its bodies are.
 *   A body set whose bodies all carry one tag (a model without components, such as a Plummer
 *   sphere) is written to /PartType1 alone, whatever the component: Component and GalaxyIndex
 *   keep the tag, so the set reads back as it was written. */

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

/* Reads a snapshot into out (empty on entry), bodies in ParticleIDs order; *time (may be
 * NULL) gets the header's Time. Files of this layout from other codes are read too: Masses
 * may be left out for a type whose MassTable entry is > 0, GalaxyIndex and Component are
 * optional (default galaxy A, component by type). float64 data also fills pos64/vel64/mass64.
 * Every problem is logged once, naming the file and the group or dataset: missing parts,
 * wrong shapes or types, non-finite values, masses <= 0, IDs that are not 1..N each once,
 * more than GC_MAX_BODIES bodies, particle types other than 1-3. Nothing is returned on
 * failure. */
enum gc_status gc_snapshot_hdf5_read(const char *path, struct gc_bodies *out, double *time);

/* The same reader over a file image in memory (tests and fuzzers): `name` is used in
 * messages only, and files declaring more than max_bodies bodies (<= GC_MAX_BODIES) are
 * refused before anything is allocated for them. */
enum gc_status gc_snapshot_hdf5_read_image(const void *image, size_t size, const char *name,
                                           size_t max_bodies, struct gc_bodies *out,
                                           double *time);

#ifdef __cplusplus
}
#endif
#endif
