// Exposure metering: the largest channel value of each block of 8x8 framebuffer pixels of the light buffer.
// SPDX-License-Identifier: MIT
#version 330 core

uniform sampler2D u_hdr;
uniform int u_block;    // light-buffer pixels a block: 8 framebuffer pixels across

out float o_max;

void main()
{
    ivec2 size = textureSize(u_hdr, 0);
    ivec2 base = ivec2(gl_FragCoord.xy) * u_block;
    float m = 0.0;
    for (int j = 0; j < u_block; j++)
        for (int i = 0; i < u_block; i++) {
            vec3 c = texelFetch(u_hdr, min(base + ivec2(i, j), size - 1), 0).rgb;
            m = max(m, max(c.r, max(c.g, c.b)));
        }
    o_max = m;
}
