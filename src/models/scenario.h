/* Named encounters a speaker picks (--scenario): each with its source, title and the time its picture is matched at. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SCENARIO_H
#define GC_SCENARIO_H

#include <stddef.h>

#include "encounter.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The names --scenario accepts, in the panel's order. */
#define GC_SCENARIO_NAMES "mw-m31|prograde|retrograde|polar|head-on|minor|antennae|mice"

struct gc_scenario {
    const char *name;      /* as given to --scenario */
    const char *title;     /* the window's and --present's title line */
    const char *source;    /* where its parameters come from (docs/model.md cites fully) */
    double match_myr;      /* time after the first (Keplerian) pericentre at which its
                            * picture is compared with the real pair; 0 = none */
    struct gc_encounter encounter;  /* filled by gc_scenario_encounter (mw-m31 is derived) */
};

/* Number of presets and the k-th (0 <= k < gc_scenario_count()). */
size_t gc_scenario_count(void);
const struct gc_scenario *gc_scenario_at(size_t k);
/* The preset called name, or NULL. */
const struct gc_scenario *gc_scenario_find(const char *name);
/* Its encounter parameters into e (mw-m31: legacy, with its derived values). */
void gc_scenario_encounter(const struct gc_scenario *s, struct gc_encounter *e);

#ifdef __cplusplus
}
#endif
#endif
