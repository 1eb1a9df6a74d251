// A picture finished elsewhere (drawn by CUDA kernels, --raster cuda; or tone-mapped at the
// light buffer's smaller size on a software rasteriser), copied to the screen.
// SPDX-License-Identifier: MIT
#version 330 core

uniform sampler2D u_img;   // RGBA8, the same size as the target, or smaller with u_stretch
uniform int u_stretch;     // 1: u_img is smaller than the target: stretched, filtered

in vec2 v_uv;

out vec4 o_color;

void main()
{
    vec3 c = u_stretch != 0 ? texture(u_img, v_uv).rgb
                            : texelFetch(u_img, ivec2(gl_FragCoord.xy), 0).rgb;
    o_color = vec4(c, 1.0);
}
