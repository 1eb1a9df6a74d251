// Text fragments: the atlas red channel is glyph coverage (1 = ink).
// SPDX-License-Identifier: MIT
#version 330 core

in vec2 v_uv;
in vec4 v_color;
uniform sampler2D u_font;

out vec4 o_color;

void main()
{
    float a = texture(u_font, v_uv).r;
    o_color = vec4(v_color.rgb, v_color.a * a);
}
