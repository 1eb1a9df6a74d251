// A picture finished elsewhere (drawn by CUDA kernels, --raster cuda), copied to the screen.
// SPDX-License-Identifier: MIT
#version 330 core

uniform sampler2D u_img;   // RGBA8, the same size as the target

out vec4 o_color;

void main()
{
    o_color = vec4(texelFetch(u_img, ivec2(gl_FragCoord.xy), 0).rgb, 1.0);
}
