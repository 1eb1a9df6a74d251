/* GL-free description of where a backend writes positions for drawing. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_RENDER_BUFFER_H
#define GC_RENDER_BUFFER_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Filled in by the renderer, consumed by backend->export_positions. A backend with GL
 * interop writes into the buffer objects directly; otherwise it writes the host arrays and
 * the renderer uploads them. Each buffer holds n float4 values. */
struct gc_render_buffer {
    unsigned vbo_pos;  /* GL buffer name for x, y, z, mass; 0 = none */
    unsigned vbo_vel;  /* GL buffer name for vx, vy, vz, 0; 0 = velocities not wanted */
    float *h_pos;      /* host staging, 4n floats; NULL when the backend writes the VBO */
    float *h_vel;      /* host staging, 4n floats; NULL when not wanted */
    size_t n;          /* number of bodies the buffers hold */
    int written_to_vbo; /* set by the backend: 1 = VBOs hold fresh data, 0 = host arrays do */
    int device_picture; /* set by the renderer: 1 = the backend draws the picture itself
                         * (its picture table) and keeps the state to draw on the device; the
                         * VBOs and host arrays are then not written */
};

#ifdef __cplusplus
}
#endif
#endif
