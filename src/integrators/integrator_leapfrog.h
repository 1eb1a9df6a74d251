/* The kick-drift-kick leapfrog, written once in terms of backend primitives. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_INTEGRATOR_LEAPFROG_H
#define GC_INTEGRATOR_LEAPFROG_H

#include "backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Advances k steps of dt. Expects the backend's accelerations to match its positions on
 * entry and leaves them matching on return. */
enum gc_status gc_integrator_leapfrog_step(struct gc_backend *b, float dt, float eps2,
                                           unsigned k);

#ifdef __cplusplus
}
#endif
#endif
