/* Kick-drift-kick leapfrog: second order, symplectic and time-reversible. */
/* SPDX-License-Identifier: MIT */
#include "integrator_leapfrog.h"

/* One step is K(dt/2) D(dt) A K(dt/2). The half kicks make the scheme symmetric in time
 * (so negating dt retraces the path) and keep velocities synchronised with positions at the
 * end of every call. Within a run of k steps the closing half kick of one step and the
 * opening half kick of the next are merged into one full kick, fused with the drift where
 * the backend offers it, which saves a pass over the bodies per step. */
enum gc_status gc_integrator_leapfrog_step(struct gc_backend *b, float dt, float eps2,
                                           unsigned k)
{
    enum gc_status st;
    if (k == 0)
        return GC_OK;
    st = gc_backend_kick_drift(b, 0.5f * dt, dt);
    if (st != GC_OK)
        return st;
    st = gc_backend_accel(b, eps2);
    for (unsigned i = 1; i < k && st == GC_OK; i++) {
        st = gc_backend_kick_drift(b, dt, dt);
        if (st == GC_OK)
            st = gc_backend_accel(b, eps2);
    }
    if (st != GC_OK)
        return st;
    return gc_backend_kick(b, 0.5f * dt);
}
