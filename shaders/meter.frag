// Exposure metering: the largest channel value of each 8x8 block of the light buffer.
// SPDX-License-Identifier: MIT
#version 330 core

uniform sampler2D u_hdr;

out float o_max;

void main()
{
    ivec2 size = textureSize(u_hdr, 0);
    ivec2 base = ivec2(gl_FragCoord.xy) * 8;
    float m = 0.0;
    for (int j = 0; j < 8; j++)
        for (int i = 0; i < 8; i++) {
            vec3 c = texelFetch(u_hdr, min(base + ivec2(i, j), size - 1), 0).rgb;
            m = max(m, max(c.r, max(c.g, c.b)));
        }
    o_max = m;
}
