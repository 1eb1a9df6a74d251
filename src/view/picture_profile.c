/* The picture's profile from the GL renderer's name: CPU rasterisers get a lighter light buffer and glow. */
/* SPDX-License-Identifier: MIT */
#include "picture_profile.h"

#include <stddef.h>
#include <string.h>

/* GL_RENDERER of the rasterisers that run on the CPU: Mesa's llvmpipe and softpipe (Linux,
 * WSL without a GPU, virtual machines), Google's SwiftShader, Apple's software renderer, and
 * Windows' basic render driver (WARP, behind Mesa's d3d12 driver in WSL). */
static const char *const software[] = {"llvmpipe", "softpipe", "SwiftShader",
                                       "Software Rasterizer", "Basic Render Driver"};

void gc_picture_profile_choose(const char *gl_renderer, struct gc_picture_profile *out)
{
    out->software = 0;
    for (size_t k = 0; gl_renderer && k < sizeof software / sizeof software[0]; k++)
        if (strstr(gl_renderer, software[k]))
            out->software = 1;
    out->light_div = out->software ? 2 : 1;
    out->glow_div = out->software ? 8 : 0;
}

int gc_picture_light_div(const struct gc_picture_profile *p, int w, int h)
{
    (void)w;
    return h >= GC_PICTURE_DIV_MIN_H && p->light_div > 1 ? p->light_div : 1;
}
