/* Scene files: the setup of a run (encounter, bodies, view) read into the options and written from them. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SCENE_H
#define GC_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "encounter.h"
#include "options.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads `path` (INI, libinih) into o: each key is an option without its "--", in its
 * section ([encounter], [run], [view]); options the command line gave are kept. An unknown
 * section or key, a bad value (the option's own message) or a line the parser refuses is
 * logged as "path:line: ..." and gives GC_ERR_INVALID; a file that cannot be read
 * GC_ERR_IO. GC_ERR_UNSUPPORTED (logged) in a build without libinih. */
enum gc_status gc_scene_load(const char *path, struct gc_options *o);

/* What a scene records: the options of the setup, as values (see gc_scene_write). */
struct gc_scene {
    const char *scenario;          /* preset the encounter starts from; NULL = mw-m31 */
    struct gc_encounter encounter; /* the encounter run (only what differs from the
                                    * scenario's values is written) */
    size_t n;                      /* bodies */
    uint64_t seed;
    int camera_given;              /* write the camera: */
    double camera[6];              /*   as --camera takes it */
    const char *draw, *colour;     /* NULL = leave out */
    double exposure;               /* EV; NAN = auto */
    const char *title;             /* NULL = leave out */
};

/* Writes s to path as an INI scene that --scene reads back to the same setup (written as
 * path.part, then renamed; removed on failure). GC_ERR_IO (logged) when it cannot be written. */
enum gc_status gc_scene_write(const char *path, const struct gc_scene *s);

/* The scene of options o as parsed (the encounter, N, seed, window settings). */
void gc_scene_from_options(const struct gc_options *o, size_t n, struct gc_scene *s);

#ifdef __cplusplus
}
#endif
#endif
