/* The picture's profile from the GL renderer's name, without GL: CPU rasterisers get the lighter light buffer and glow, GPUs the full ones. */
/* SPDX-License-Identifier: MIT */
#include <stdio.h>

#include "check.h"
#include "picture_profile.h"

static void check_one(const char *renderer, int software)
{
    struct gc_picture_profile p;
    gc_picture_profile_choose(renderer, &p);
    printf("%-60s software %d, light 1/%d, glow %s%d\n", renderer ? renderer : "(unknown)",
           p.software, p.light_div, p.glow_div ? "1/" : "per pixel ", p.glow_div);
    CHECK(p.software == software);
    if (software) {
        CHECK(p.light_div == 2 && p.glow_div == 8);
        /* Halved from 720 rows up (1280x800: 640x400), full size below. */
        CHECK(gc_picture_light_div(&p, 1280, 800) == 2);
        CHECK(gc_picture_light_div(&p, 1280, 720) == 2);
        CHECK(gc_picture_light_div(&p, 1280, 719) == 1);
        CHECK(gc_picture_light_div(&p, 640, 400) == 1);
    } else {
        CHECK(p.light_div == 1 && p.glow_div == 0);
        CHECK(gc_picture_light_div(&p, 3840, 2160) == 1);
    }
}

int main(void)
{
    check_one("llvmpipe (LLVM 15.0.6, 256 bits)", 1);
    check_one("softpipe", 1);
    check_one("Google SwiftShader", 1);
    check_one("Apple Software Rasterizer", 1);
    check_one("D3D12 (Microsoft Basic Render Driver)", 1);
    check_one("NVIDIA H100 80GB HBM3/PCIe/SSE2", 0);
    check_one("Mesa Intel(R) UHD Graphics 620 (KBL GT2)", 0);
    check_one("AMD Radeon Graphics (renoir, LLVM 15.0.6, DRM 3.49, 6.1.0)", 0);
    check_one(NULL, 0);
    return CHECK_DONE();
}
