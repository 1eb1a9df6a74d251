// Point sprites with a soft Gaussian profile (or flat points), added up as light.
// SPDX-License-Identifier: MIT
#version 330 core

in vec4 v_color;
uniform int u_sprite;   // 1 = Gaussian sprite, 0 = flat point

out vec4 o_color;

void main()
{
    if (u_sprite == 0) {
        o_color = vec4(v_color.rgb, 1.0);
        return;
    }
    vec2 p = gl_PointCoord * 2.0 - 1.0;
    float r2 = dot(p, p);
    if (r2 > 1.0) discard;
    // exp(-r^2 / (2 sigma^2)) with sigma = 0.4 of the radius: ~4% left at the rim. Its mean
    // over the point's square (0.2397) is SPRITE_PROFILE in render.c.
    float g = exp(-r2 * 3.125);
    o_color = vec4(v_color.rgb * g, 1.0);
}
