/* Where the galaxies are: centres, spin axes, orbit plane and extent measured from bodies (no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_TRACK_H
#define GC_TRACK_H

#include <stddef.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the camera presets and the tour frame, in N-body units. */
struct gc_track {
    int galaxies;           /* galaxies (or clusters) with stars: 0, 1 or 2 */
    float centre[2][3];     /* per galaxy: per-axis median of its bulge (else disk, else
                             * cluster star) bodies */
    float vel[2][3];        /* per galaxy: mean velocity of those bodies */
    float axis[2][3];       /* per galaxy: unit spin axis of its disk (a cluster: of its
                             * stars; +z when it does not spin) about its centre */
    float half_mass[2];     /* per galaxy: radius holding half its disk (cluster) mass */
    float com[3];           /* centre of mass of all stars */
    float orbit_axis[3];    /* unit normal of the relative orbit (B - A) x (vB - vA) */
    float tails_axis[3];    /* unit normal of the plane the disk stars far from both nuclei
                             * (beyond twice each one's half-mass radius: the tidal tails
                             * after a passage) lie closest to, on orbit_axis's side; orbit_axis
                             * when fewer than GC_TRACK_TAIL_MIN such stars */
    float separation;       /* |centre B - centre A|; 0 with one galaxy */
    float extent;           /* radius about com holding 90% of the stars */
};

/* Stars a tail's plane is measured from, at least. */
#define GC_TRACK_TAIL_MIN 32

/* Measures the stars (disk, bulge and cluster bodies; halos are ignored) of b. Uses at most
 * max_samples bodies, evenly strided, so the cost stays small at any N (0 = all).
 * GC_ERR_INVALID when b has no stars; GC_ERR_NOMEM when scratch cannot be allocated. */
enum gc_status gc_track_measure(const struct gc_bodies *b, size_t max_samples,
                                struct gc_track *t);

#ifdef __cplusplus
}
#endif
#endif
