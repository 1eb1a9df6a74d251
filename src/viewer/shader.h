/* Locates shaders/ on disk, reads, compiles and links GLSL programs, reporting the info log. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SHADER_H
#define GC_SHADER_H

#include <stddef.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds the shader folder: $GC_SHADER_DIR if set, else "shaders" next to the running
 * binary (the build tree: the build copies them there), else the installed folder
 * relative to the binary (GC_SHADER_REL_DIR, e.g. ../share/galaxy/shaders), so the result
 * does not depend on the working folder. Writes it into dir (size bytes). GC_ERR_IO,
 * naming the places tried, when none holds particles.vert. */
enum gc_status gc_shader_find_dir(char *dir, size_t size);

/* Compiles dir/<name>.vert and dir/<name>.frag and links them into *program (a current GL
 * context is required). GC_ERR_IO names a missing file; GC_ERR_GL prints the info log with
 * the file name. */
enum gc_status gc_shader_load(const char *dir, const char *name, unsigned *program);
/* The same for two names: dir/<vert>.vert with dir/<frag>.frag (passes sharing a vertex
 * shader). */
enum gc_status gc_shader_load_pair(const char *dir, const char *vert, const char *frag,
                                   unsigned *program);

#ifdef __cplusplus
}
#endif
#endif
