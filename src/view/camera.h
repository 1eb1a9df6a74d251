/* Orbit camera around a target point and its view/projection matrices: pure math, no GL. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CAMERA_H
#define GC_CAMERA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Matrices are 4x4, column-major (the layout glUniformMatrix4fv takes with transpose = 0). */
struct gc_camera {
    float target[3];    /* point the camera orbits and looks at, N-body units; default 0 */
    float distance;     /* eye-to-target distance, N-body units; default set by gc_camera_fit */
    float yaw;          /* rotation about the world z axis, radians; default 0 */
    float pitch;        /* elevation above the x-y plane, radians, |pitch| < pi/2; default 0.5 */
    float fovy;         /* vertical field of view, radians; default 45 degrees */
    float min_distance; /* zoom limits, N-body units; set by gc_camera_fit */
    float max_distance;
};

/* Degrees per pixel of a left-drag rotation. */
#define GC_CAMERA_DEG_PER_PIXEL 0.3f

/* Fraction of the luminous bodies gc_camera_fit keeps in the frame: the rest (escapers, a
 * stray star) may fall outside rather than shrink the picture. */
#define GC_CAMERA_FIT_KEEP 0.995f
/* Fraction of the frame's height (or width, whichever binds) those bodies fill. */
#define GC_CAMERA_FIT_FILL 0.8f

/* The starting view of n bodies (float4 x, y, z, mass each) in a viewport of the given
 * aspect (width / height; <= 0 means 1), seen from the default angle: frames what is drawn,
 * the stars, not the dark halo. tag: the bodies' gc_bodies tags, or NULL when every body is
 * a star; halo bodies are left out unless there is nothing else. The target is the centre
 * of the stars' box on screen, and the distance the smallest at which GC_CAMERA_FIT_KEEP of
 * them lie within GC_CAMERA_FIT_FILL of the frame (in perspective, so two galaxies side by
 * side fill the frame rather than a sphere around them). At most 16,384 bodies, evenly
 * strided, are looked at. n = 0 frames a sphere of radius 40 (the Dubinski data's
 * extent). Zoom limits: 1/50 to 20 times the fitted distance. */
void gc_camera_fit(struct gc_camera *c, const float *pos4, const uint8_t *tag, size_t n,
                   float aspect);
/* gc_camera_fit seen from yaw and pitch (radians; pitch clamped short of the poles) instead
 * of the default angle. */
void gc_camera_fit_at(struct gc_camera *c, float yaw, float pitch, const float *pos4,
                      const uint8_t *tag, size_t n, float aspect);
/* Distance at which a sphere holding 95% of the stars (as gc_camera_fit chooses them) about
 * their mean fills c's view with a 15% margin: the scale of the views that frame spheres
 * (the presets, the tour), and so the distance at which sprites have their base size. */
float gc_camera_sphere_distance(const struct gc_camera *c, const float *pos4, const uint8_t *tag,
                                size_t n);
/* Drag by (dx, dy) pixels: yaw and pitch change by GC_CAMERA_DEG_PER_PIXEL each; pitch is
 * clamped short of the poles so the up vector stays defined. */
void gc_camera_rotate(struct gc_camera *c, float dx, float dy);
/* Multiplies the distance by factor (> 1 moves away), clamped to the zoom limits. */
void gc_camera_zoom(struct gc_camera *c, float factor);
/* Moves the target by a drag of (dx, dy) pixels in a viewport viewport_h pixels tall, so the
 * point under the cursor stays under it (at the target's depth). */
void gc_camera_pan(struct gc_camera *c, float dx, float dy, float viewport_h);
/* Eye position in world coordinates. */
void gc_camera_eye(const struct gc_camera *c, float eye[3]);
/* World-to-eye matrix (right-handed, looking down -z, world z is up on screen at yaw 0). */
void gc_camera_view(const struct gc_camera *c, float m[16]);
/* Perspective projection with near and far planes that enclose the framed system. */
void gc_camera_projection(const struct gc_camera *c, float aspect, float m[16]);
/* Near and far clip distances the projection uses. */
void gc_camera_clip(const struct gc_camera *c, float *znear, float *zfar);
/* Turns the camera so the eye sits in direction dir (need not be unit length) from the
 * target: yaw and pitch from dir, pitch clamped short of the poles. A zero dir changes
 * nothing. */
void gc_camera_look_from(struct gc_camera *c, const float dir[3]);
/* Distance at which a sphere of radius r around the target fills the view with a 15%
 * margin (as gc_camera_fit frames an empty set). */
float gc_camera_distance_for(const struct gc_camera *c, float r);
/* Blend of two cameras at s in [0, 1] (0 = a, 1 = b): target linearly, distance
 * geometrically (a zoom looks even), yaw the short way round, pitch linearly; fov and limits
 * from b. out may alias a or b. */
void gc_camera_blend(const struct gc_camera *a, const struct gc_camera *b, float s,
                     struct gc_camera *out);
/* Smoothstep 3s^2 - 2s^3 of s clamped to [0, 1]: starts and ends a move at rest. */
float gc_camera_ease(float s);
/* out = a * b (column-major). out may alias neither input. */
void gc_camera_mat_mul(const float a[16], const float b[16], float out[16]);

#ifdef __cplusplus
}
#endif
#endif
