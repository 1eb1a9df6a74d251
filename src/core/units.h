/* Units and physical conventions shared by every layer: G = 1, the Dubinski table's scaling, default softening and step. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_UNITS_H
#define GC_UNITS_H

/* Plummer softening of the Dubinski table's archive entry: eps = 0.025 (~80 pc). */
#define GC_DEFAULT_EPS 0.025f
/* The archive suggests dt = 0.1, but with eps = 0.025 that under-resolves orbits in the
 * bulges: measured on the Dubinski table (8192 bodies with halos, CPU backend, t = 0..40 =
 * 720 Myr) the relative energy error reached 7.7e-2 at dt = 0.1, 3.1e-2 at 0.05, 1.3e-3 at
 * 0.02 and 9e-5 at 0.01. dt = 0.01 (0.18 Myr) keeps it near 1e-4 (docs/physics.md,
 * "Accuracy"). */
#define GC_DEFAULT_DT 0.01f
/* The largest step whose energy error stays small through the first passage (below 1e-3
 * of |E|: 2.4e-4 at 0.01, 4.3e-3 at 0.02 on the built-in pair; docs/physics.md,
 * "Accuracy"): beyond it the viewer says so. */
#define GC_DT_ACCURATE_MAX 0.01f
/* Usual physical scaling of the table (shared/data/README.md): dt = 0.1 is 1.8 Myr, so one
 * time unit is 18 Myr, one length unit 3.2 kpc. */
#define GC_MYR_PER_TIME_UNIT 18.0
#define GC_KPC_PER_LENGTH_UNIT 3.2
/* The same scaling in cgs, as GADGET and SWIFT state their units in snapshots: the kpc
 * (IAU 2012 au, 648000/pi au per pc), the Myr (Julian years) and G (CODATA 2018); G = 1
 * fixes the mass unit at L^3 / (G T^2), about 2.25e10 solar masses. */
#define GC_CM_PER_KPC 3.0856775814913673e21
#define GC_S_PER_MYR 3.15576e13
#define GC_G_CGS 6.67430e-8

#endif
