// Tone mapping: accumulated light (floating point) to display values, with an optional glow.
// SPDX-License-Identifier: MIT
#version 330 core

in vec2 v_uv;
uniform sampler2D u_hdr;    // light, linear, mipmapped when u_glow > 0
uniform float u_exposure;   // 2^EV: light times this is 1 at the white level
uniform float u_glow;       // strength of the glow taken from the coarse mip levels; 0 = off
uniform float u_k;          // contrast of the log curve (GC_TONE_K in exposure.h)
uniform int u_glow_base;    // the glow's finest mip level: 4 framebuffer pixels across
uniform int u_mode;         // 0: tone map, the glow made here; 1: the glow alone, into its
                            // own small buffer; 2: tone map, the glow read from u_glow_tex
uniform sampler2D u_glow_tex;

out vec4 o_color;

// Soft glow: coarse mip levels, each sampled at four offsets so their texels do not show.
vec3 glow()
{
    vec2 texel = 1.0 / vec2(textureSize(u_hdr, 0));
    vec3 s = vec3(0.0);
    float w = 0.5;
    for (int l = u_glow_base; l <= u_glow_base + 3; l++) {
        vec2 o = texel * exp2(float(l)) * 0.5;
        float lod = float(l);
        s += w * 0.25 * (textureLod(u_hdr, v_uv + vec2(o.x, o.y), lod).rgb +
                         textureLod(u_hdr, v_uv + vec2(-o.x, o.y), lod).rgb +
                         textureLod(u_hdr, v_uv + vec2(o.x, -o.y), lod).rgb +
                         textureLod(u_hdr, v_uv + vec2(-o.x, -o.y), lod).rgb);
        w *= 0.6;
    }
    return s;
}

void main()
{
    if (u_mode == 1) {
        o_color = vec4(glow(), 1.0);
        return;
    }
    vec3 c = texelFetch(u_hdr, ivec2(gl_FragCoord.xy), 0).rgb;
    if (u_glow > 0.0)
        c += u_glow * (u_mode == 2 ? texture(u_glow_tex, v_uv).rgb : glow());
    float m = max(c.r, max(c.g, c.b));
    if (!(m > 0.0)) {
        o_color = vec4(0.0, 0.0, 0.0, 1.0);
        return;
    }
    // gc_tone_curve() in exposure.c: log(1 + k v) / log(1 + k), 1 from v = 1 on. Applied to
    // the largest channel and the colour scaled along, so hues survive in bright cores
    // instead of clipping to white; the brightest tenth fades gently towards white.
    float v = u_exposure * m;
    float y = v >= 1.0 ? 1.0 : log(1.0 + u_k * v) / log(1.0 + u_k);
    vec3 d = c / m * y;
    d = mix(d, vec3(y), 0.35 * smoothstep(0.85, 1.0, y));
    o_color = vec4(d, 1.0);
}
