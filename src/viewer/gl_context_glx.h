/* Checks, before freeglut is initialised, that an X display exists and what GL it offers. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_GL_CONTEXT_GLX_H
#define GC_GL_CONTEXT_GLX_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* glutInit ends the process when the display cannot be opened, and glutCreateWindow does
 * when the requested context version cannot be made, so both are checked here first.
 * Returns GC_ERR_GL with "cannot open display" logged when $DISPLAY is unset or refuses the
 * connection; otherwise GC_OK and *core33 = 1 when a 3.3 core context can be created. */
enum gc_status gc_glx_probe(int *core33);

#ifdef __cplusplus
}
#endif
#endif
