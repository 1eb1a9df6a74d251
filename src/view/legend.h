/* What the picture's colours and sizes mean, for the legend and the scale bar: the speed ramp and velocity colours as the renderers compute them, a round length, a point's place on screen (no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_LEGEND_H
#define GC_LEGEND_H

#ifdef __cplusplus
extern "C" {
#endif

/* The colour of a body whose speed is t of the ramp's top (colour mode "speed"): dark blue,
 * cyan, yellow, red, white, as shaders/particles.vert and kernels/picture.cu draw it, with
 * its largest channel 1. */
void gc_legend_speed_colour(float t, float rgb[3]);
/* The colour of a body moving along v (colour mode "velocity direction"): 0.5 + 0.5 v/|v|,
 * largest channel 1, as the renderers draw it. */
void gc_legend_velocity_colour(const float v[3], float rgb[3]);
/* The largest round length (1, 2 or 5 times a power of ten) not above `most`: a scale
 * bar's. 0 when most <= 0. */
double gc_legend_round_length(double most);
/* Where world point p lands in a w x h picture (pixels, origin top left) through the
 * column-major view and projection matrices; 0 when it is behind the eye. */
int gc_legend_to_screen(const float view[16], const float proj[16], const float p[3], float w,
                        float h, float out[2]);

#ifdef __cplusplus
}
#endif
#endif
