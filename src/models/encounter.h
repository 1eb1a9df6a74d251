/* An encounter of two built-in disk galaxies: mass ratio, Keplerian orbit, the disks' orientations, checked and built. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_ENCOUNTER_H
#define GC_ENCOUNTER_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Accepted ranges (checked by gc_encounter_check; the command line and the panel use them). */
#define GC_ENCOUNTER_Q_MIN 0.05         /* mass ratio companion:primary, 1:20 ... */
#define GC_ENCOUNTER_Q_MAX 1.0          /* ... to 1:1 */
#define GC_ENCOUNTER_RP_MIN_KPC 0.1     /* pericentre, kpc */
#define GC_ENCOUNTER_RP_MAX_KPC 200.0
#define GC_ENCOUNTER_E_MIN 0.0          /* eccentricity: 0 circular, < 1 bound, 1 parabolic */
#define GC_ENCOUNTER_E_MAX 5.0          /* ... > 1 hyperbolic */
#define GC_ENCOUNTER_SEP_MAX_KPC 2000.0 /* starting separation, kpc (0 = the default) */

/* Galaxy sizes follow mass as R ~ M^alpha, with alpha the Dubinski pair's own ratio: its
 * Andromeda is its Milky Way with masses x2.09505 and lengths x1.5 (model_galaxy.h), so
 * alpha = ln 1.5 / ln 2.09505 = 0.548. With v^2 ~ M / R that is a Tully-Fisher relation
 * M ~ v^4.4 (docs/model.md, "Encounters"). */
double gc_encounter_alpha(void);

/* One disk's orientation in Toomre & Toomre's (1972) convention: the other galaxy's orbit
 * seen from this disk has inclination incl (0 = in the disk plane, turning with the disk:
 * prograde; 180 retrograde; 90 polar) and argument of pericentre omega (from the ascending
 * node, where the other galaxy rises through the disk plane on the side its spin points
 * to, to the pericentre, along the orbit). Degrees. */
struct gc_encounter_disk {
    double incl;   /* 0..180 */
    double omega;  /* -180..180 */
};

struct gc_encounter {
    int legacy;              /* 1 = the mw-m31 pair exactly as built before encounters had
                              * parameters (the Dubinski orbit); the values below then
                              * describe it (gc_encounter_mw_m31) and are not used */
    double mass_ratio;       /* companion / primary total mass, GC_ENCOUNTER_Q_MIN..1 */
    double pericentre;       /* Keplerian pericentre of the two total masses, N-body units */
    double eccentricity;     /* of that orbit; 1 = parabolic */
    double separation;       /* starting separation, N-body units; 0 = the default
                              * (gc_encounter_separation) */
    struct gc_encounter_disk primary, companion;
    double sky[3];           /* viewing angles (theta_X, theta_Y, theta_Z), degrees: the
                              * orbit frame turned about x, then y, then z into the sky frame
                              * (x right, y up, z towards the viewer) */
};

/* Today's Milky Way/Andromeda pair: legacy = 1, and its orbit and disks as encounter values
 * (Andromeda the primary, the Milky Way its 1:2.095 companion), derived from the orbit the
 * builder uses. */
void gc_encounter_mw_m31(struct gc_encounter *e);

/* 1 when a and b build the same bodies (both legacy, or every value equal). */
int gc_encounter_same(const struct gc_encounter *a, const struct gc_encounter *b);

/* The starting separation the encounter uses (N-body units): e->separation, or by default
 * the largest of 30 units (96 kpc, where the mw-m31 pair starts), 1.5 times the sum of the
 * two galaxies' half-mass radii and 2 pericentres; for a bound orbit at most its apocentre. */
double gc_encounter_separation(const struct gc_encounter *e);

/* Radius holding half of each galaxy's total mass (N-body units): [0] primary, [1] companion. */
void gc_encounter_half_mass(const struct gc_encounter *e, double r[2]);

/* GC_OK when e can be built; otherwise GC_ERR_INVALID with the reason in why (a value out
 * of its range, naming the range; or a geometry that cannot start: galaxies that would
 * overlap, a start inside the pericentre or beyond a bound orbit's apocentre). Nothing is
 * logged: the caller says where the encounter came from. */
enum gc_status gc_encounter_check(const struct gc_encounter *e, char *why, size_t size);

/* The companion's position and velocity relative to the primary at the start, in the orbit
 * frame (orbit in the x-y plane, angular momentum along +z, the companion on +x at
 * pericentre), for total masses m_primary and m_companion. */
void gc_encounter_orbit(const struct gc_encounter *e, double m_primary, double m_companion,
                        double r[3], double v[3]);

/* Time the Keplerian orbit takes from the start to pericentre, N-body units (a point-mass
 * figure: the galaxies' own first passage comes later or sooner, docs/model.md). */
double gc_encounter_time_to_pericentre(const struct gc_encounter *e);

/* Total masses of the primary and the companion, N-body units. */
void gc_encounter_masses(const struct gc_encounter *e, double m[2]);

/* The disk spin axis (unit) in the orbit frame: which = 0 primary, 1 companion. */
void gc_encounter_spin(const struct gc_encounter *e, int which, double s[3]);

/* Rotation from the orbit frame into the sky frame of e->sky (row-major 3x3). */
void gc_encounter_sky_matrix(const struct gc_encounter *e, double m[9]);

/* Builds n bodies (at least 6) of the encounter from seed into out (empty on entry): the
 * legacy pair through gc_model_galaxy_build, anything else as two galaxies of the built-in
 * model scaled by mass, each in equilibrium, on the Keplerian orbit of their total masses,
 * in the centre-of-mass frame. The output frame is the sky frame of e->sky as the viewer's
 * world: sky x right = world x, sky y up = world z, the viewer on world -y. The companion takes galaxy slot A (as the Milky Way does in mw-m31), the primary
 * slot B; each gets half the bodies. Checks e first (GC_ERR_INVALID, logged with the
 * reason). Same e, n and seed give the same bytes whatever the thread count. */
enum gc_status gc_encounter_build(const struct gc_encounter *e, size_t n, uint64_t seed,
                                  struct gc_bodies *out);

#ifdef __cplusplus
}
#endif
#endif
