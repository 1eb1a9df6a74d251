// Bodies as points: position from the backend's buffer, colour from tag or velocity.
// SPDX-License-Identifier: MIT
#version 330 core

layout(location = 0) in vec4 a_pos;   // x, y, z, mass
layout(location = 1) in vec4 a_vel;   // vx, vy, vz, 0
layout(location = 2) in uint a_tag;   // GC_TAG(galaxy, component)

uniform mat4 u_view;
uniform mat4 u_proj;
uniform float u_size;        // sprite diameter in pixels at distance u_ref_dist
uniform float u_ref_dist;    // distance at which a sprite is u_size pixels wide
uniform int u_attenuate;     // 1 = size shrinks with distance (sprites), 0 = fixed (points)
uniform int u_color_mode;    // 0 galaxy, 1 component, 2 velocity direction, 3 speed, 4 plain
uniform float u_speed_scale; // speed mapped to the top of the colour ramp
uniform float u_gain;        // overall brightness per body

out vec4 v_color;

vec3 ramp(float t)
{
    // Dark blue -> cyan -> yellow -> red -> white: reads well on black with additive blending.
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
    vec4 eye = u_view * vec4(a_pos.xyz, 1.0);
    gl_Position = u_proj * eye;
    float d = max(-eye.z, 1e-3);
    gl_PointSize = u_attenuate != 0 ? clamp(u_size * u_ref_dist / d, 1.0, 64.0) : u_size;

    uint galaxy = (a_tag >> 2u) & 1u;
    uint comp = a_tag & 3u;
    vec3 c;
    float bright = 1.0;
    if (u_color_mode == 0) {
        // Milky Way bluish white, Andromeda warm orange; bulges hotter and brighter.
        c = galaxy == 0u ? vec3(0.55, 0.7, 1.0) : vec3(1.0, 0.6, 0.3);
        if (comp == 1u) c = mix(c, vec3(1.0, 0.95, 0.8), 0.5);
    } else if (u_color_mode == 1) {
        c = comp == 0u ? vec3(0.35, 0.6, 1.0) : comp == 1u ? vec3(1.0, 0.85, 0.35)
                                                           : vec3(0.8, 0.3, 0.9);
    } else if (u_color_mode == 2) {
        vec3 v = a_vel.xyz;
        float s = length(v);
        c = s > 0.0 ? 0.5 + 0.5 * v / s : vec3(0.5);
    } else if (u_color_mode == 3) {
        c = ramp(length(a_vel.xyz) / u_speed_scale);
    } else {
        c = vec3(0.7, 0.75, 1.0);
    }
    if (comp == 1u) bright = 1.6;
    else if (comp == 2u) bright = 0.35;
    v_color = vec4(c * bright * u_gain, 1.0);
}
