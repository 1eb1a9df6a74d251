// Bodies as points of light: position from the backend's buffer, colour from tag or velocity,
// light in proportion to mass (so the picture does not depend on N).
// SPDX-License-Identifier: MIT
#version 330 core

layout(location = 0) in vec4 a_pos;   // x, y, z, mass
layout(location = 1) in vec4 a_vel;   // vx, vy, vz, Hermite time-step level (else 0)
layout(location = 2) in uint a_tag;   // GC_TAG(galaxy, component)

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_size;        // sprite diameter in pixels at distance u_ref_dist
uniform float u_ref_dist;    // distance at which a sprite is u_size pixels wide and has u_flux
uniform int u_attenuate;     // 1 = size shrinks with distance (sprites), 0 = fixed (points)
uniform int u_color_mode;    // 0 stellar, 1 galaxy, 2 component, 3 velocity, 4 speed,
                             // 5 time-step level, 6 plain
uniform float u_speed_scale; // speed mapped to the top of the colour ramp
uniform vec3 u_light;        // light per unit mass of disk, bulge, halo bodies; 0 = not drawn
uniform float u_flux;        // light per unit mass on screen, framebuffer units
uniform float u_profile;     // mean of the point's intensity profile over its square

out vec4 v_color;

vec3 ramp(float t)
{
    // Dark blue -> cyan -> yellow -> red -> white: reads well on black.
    t = clamp(t, 0.0, 1.0);
    vec3 c0 = vec3(0.15, 0.25, 1.0), c1 = vec3(0.1, 0.9, 1.0), c2 = vec3(1.0, 0.95, 0.2),
         c3 = vec3(1.0, 0.3, 0.1), c4 = vec3(1.0, 1.0, 1.0);
    if (t < 0.25) return mix(c0, c1, t * 4.0);
    if (t < 0.5) return mix(c1, c2, t * 4.0 - 1.0);
    if (t < 0.75) return mix(c2, c3, t * 4.0 - 2.0);
    return mix(c3, c4, t * 4.0 - 3.0);
}

void main()
{
    uint galaxy = (a_tag >> 2u) & 1u;
    uint comp = a_tag & 3u;
    // Component 3: a star of a cluster, or a body of a table without galaxy structure;
    // it gives light as a disk star does.
    float light = comp == 1u ? u_light.y : comp == 2u ? u_light.z : u_light.x;
    if (light <= 0.0) {
        // Not drawn (e.g. dark matter): outside the clip volume, so no fragment is made.
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
        gl_PointSize = 1.0;
        v_color = vec4(0.0);
        return;
    }
    vec4 eye = u_view * vec4(a_pos.xyz, 1.0);
    gl_Position = u_proj * eye;
    float d = max(-eye.z, 1e-3);
    float size = u_attenuate != 0 ? clamp(u_size * u_ref_dist / d, 1.0, 64.0) : u_size;
    gl_PointSize = size;

    vec3 c;
    if (u_color_mode == 0) {
        // Stellar: old bulge stars warm, disks (young stars) cooler; galaxy A blue-white,
        // galaxy B golden, so each keeps its hue through the merger.
        // A cluster's stars are old: warm white.
        if (comp == 3u)
            c = vec3(1.0, 0.9, 0.76);
        else if (galaxy == 0u)
            c = comp == 1u ? vec3(1.0, 0.86, 0.62) : comp == 0u ? vec3(0.58, 0.72, 1.0)
                                                               : vec3(0.55, 0.45, 1.0);
        else
            c = comp == 1u ? vec3(1.0, 0.66, 0.34) : comp == 0u ? vec3(1.0, 0.85, 0.7)
                                                               : vec3(0.8, 0.45, 1.0);
    } else if (u_color_mode == 1) {
        c = galaxy == 0u ? vec3(0.55, 0.7, 1.0) : vec3(1.0, 0.6, 0.3);
        if (comp == 1u) c = mix(c, vec3(1.0, 0.95, 0.8), 0.5);
    } else if (u_color_mode == 2) {
        c = comp == 0u ? vec3(0.35, 0.6, 1.0) : comp == 1u ? vec3(1.0, 0.85, 0.35)
                  : comp == 2u ? vec3(0.8, 0.3, 0.9) : vec3(0.9, 0.9, 0.9);
    } else if (u_color_mode == 3) {
        vec3 v = a_vel.xyz;
        float s = length(v);
        c = s > 0.0 ? 0.5 + 0.5 * v / s : vec3(0.5);
    } else if (u_color_mode == 4) {
        c = ramp(length(a_vel.xyz) / u_speed_scale);
    } else if (u_color_mode == 5) {
        // Step dt_max / 2^level: long steps blue, 16 halvings and more white.
        c = ramp(a_vel.w / 16.0);
    } else {
        c = vec3(0.7, 0.75, 1.0);
    }
    // Same peak channel for every colour: switching palettes keeps the exposure.
    c /= max(max(c.r, c.g), max(c.b, 1e-3));
    // The body's light spread over its point: the total on screen does not depend on its
    // size in pixels (sprites shrink at large N and with distance). It falls off as 1/d^2
    // from the reference distance, as a star's does, so a region keeps its surface
    // brightness while the camera zooms (the exposure need not follow every move).
    // Capped at 16x nearer: a body passing through the eye must not flood the frame.
    float closer = min(u_ref_dist / d, 16.0);
    float flux = a_pos.w * light * u_flux * closer * closer / (size * size * u_profile);
    v_color = vec4(c * flux, 1.0);
}
