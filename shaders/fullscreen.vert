// One triangle that covers the viewport, for the full-screen passes (tone mapping, metering).
// SPDX-License-Identifier: MIT
#version 330 core

out vec2 v_uv;

void main()
{
    // Vertices (0,0), (2,0), (0,2) in uv: the triangle's inside covers [0,1]^2.
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
    v_uv = p;
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
