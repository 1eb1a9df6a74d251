/* The state table of a backend: every body's leapfrog state kept in memory of the backend's own for later and restored from it (keyframes without a round trip through the host), reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_STATE_H
#define GC_BACKEND_STATE_H

#include <stddef.h>

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is kept: the positions with masses, velocities and accelerations of all n bodies as
 * they are now, in the backend's own layout and memory (device memory on a GPU, host memory
 * for the CPU backend). Restoring it makes the backend's state that one to the bit, so that a
 * run stepped on from it is the run that was kept. All slots are required. */
struct gc_backend_state {
    /* bytes one kept state takes */
    size_t (*bytes)(const struct gc_backend *b);
    /* the state into *blob; *blob NULL: allocated first (GC_ERR_NOMEM, not logged, when the
     * memory is not there) */
    enum gc_status (*keep)(struct gc_backend *b, void **blob);
    /* the state from a blob kept with the same bodies (same n) */
    enum gc_status (*restore)(struct gc_backend *b, const void *blob);
    void (*release)(struct gc_backend *b, void *blob);
    /* memory free for kept states now, bytes */
    enum gc_status (*free_memory)(const struct gc_backend *b, size_t *bytes);
};

/* The backend's state table; NULL when it cannot keep states. */
const struct gc_backend_state *gc_backend_state(const struct gc_backend *b);

#ifdef __cplusplus
}
#endif
#endif
