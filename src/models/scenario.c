/* The table of named encounters: parameters, titles and sources (docs/model.md, "Presets", gives them in full). */
/* SPDX-License-Identifier: MIT */
#include "scenario.h"

#include <string.h>

#include "units.h"

#define KPC (1.0 / GC_KPC_PER_LENGTH_UNIT)

/* Lengths in kpc, angles in degrees. Disks (i, omega) as Toomre & Toomre (1972) give them;
 * sky: the viewing angles, chosen for each (its home view) or published with its fit. */
static const struct gc_scenario scenarios[] = {
    {"mw-m31", "Milky Way and Andromeda collide",
     "the orbit and disks of Dubinski, Mihos & Hernquist (1996), as measured from their table",
     0.0, {1, 0, 0, 0, 0, {0, 0}, {0, 0}, {0, 0, 0}}},
    /* Toomre & Toomre's experiment: equal masses, parabolic, both disks in the orbit plane,
     * turning with the orbit or against it; seen down the orbit's axis. */
    {"prograde", "Prograde passage: tidal tails",
     "Toomre & Toomre (1972): equal masses, parabolic, i = 0; pericentre chosen here",
     0.0, {0, 1.0, 16.0 * KPC, 1.0, 0, {0, 0}, {0, 0}, {0, 0, 0}}},
    {"retrograde", "Retrograde passage: no tails",
     "Toomre & Toomre (1972): equal masses, parabolic, i = 180; pericentre chosen here",
     0.0, {0, 1.0, 16.0 * KPC, 1.0, 0, {180, 0}, {180, 0}, {0, 0, 0}}},
    /* The primary's disk perpendicular to the orbit, crossed by it at pericentre. */
    {"polar", "Polar passage",
     "Toomre & Toomre (1972): equal masses, parabolic, i = 90; pericentre chosen here",
     0.0, {0, 1.0, 16.0 * KPC, 1.0, 0, {90, 0}, {0, 0}, {-60, 0, 0}}},
    /* A companion a third of the primary's mass crosses the primary's disk through its
     * centre along the spin axis (omega = -130 puts the axis on the incoming asymptote of
     * this e = 1.3 orbit), fast enough to pass through: the disk's orbits are pulled in,
     * then rebound as an expanding ring; seen face-on (the sky angles turn the axis to the
     * viewer). */
    {"head-on", "Head-on: a ring galaxy",
     "Lynds & Toomre (1976): a companion through the disk's centre makes a ring; values "
     "chosen here",
     130.0, {0, 1.0 / 3.0, 1.0 * KPC, 1.3, 0, {90, -130}, {0, 0}, {90, 130, 0}}},
    /* A 1:10 companion on a prograde parabolic passage: a grand-design pair of arms. */
    {"minor", "Minor encounter: a companion like M51's",
     "after Toomre & Toomre (1972), section VI (M51): a light companion on a prograde "
     "passage; values chosen here",
     0.0, {0, 0.1, 13.0 * KPC, 1.0, 0, {20, 0}, {0, 0}, {0, 0, 0}}},
    /* Toomre & Toomre's Antennae (their Fig. 23): equal masses on a bound orbit, e = 0.5,
     * both disks at i = 60, omega = -30; their pericentre, 25 kpc, puts their disks' edge
     * at 0.75 of it, as ours (4 h = 18 kpc). It starts at apocentre; the picture is near the
     * second approach. Their view could not be read here: this one was chosen by eye. */
    {"antennae", "The Antennae (NGC 4038/4039)",
     "Toomre & Toomre (1972), Fig. 23 model: equal masses, e = 0.5, pericentre 25 kpc, both "
     "disks i = 60, omega = -30; view chosen here",
     252.0, {0, 1.0, 25.0 * KPC, 0.5, 0, {60, -30}, {60, -30}, {0, -90, 0}}},
    {"mice", "The Mice (NGC 4676)",
     "an Identikit match (Privon et al. 2013) as a public set-up uses it: p = 14.8 kpc, "
     "(i, omega) = (15, 235) and (25, 200), view (78, -44, -130), 175 Myr after pericentre",
     175.0, {0, 1.0, 14.8 * KPC, 1.0, 0, {15, -125}, {25, -160}, {78, -44, -130}}},
};

size_t gc_scenario_count(void)
{
    return sizeof scenarios / sizeof scenarios[0];
}

const struct gc_scenario *gc_scenario_at(size_t k)
{
    return k < gc_scenario_count() ? &scenarios[k] : NULL;
}

const struct gc_scenario *gc_scenario_find(const char *name)
{
    for (size_t k = 0; name && k < gc_scenario_count(); k++)
        if (strcmp(name, scenarios[k].name) == 0)
            return &scenarios[k];
    return NULL;
}

void gc_scenario_encounter(const struct gc_scenario *s, struct gc_encounter *e)
{
    if (s->encounter.legacy)
        gc_encounter_mw_m31(e);
    else
        *e = s->encounter;
}
