/* The legend's colours (the renderers' formulas, written once more for the host), round scale lengths and points projected to the screen. */
/* SPDX-License-Identifier: MIT */
#include "legend.h"

#include <math.h>

static void peak_one(float c[3])
{
    float m = fmaxf(fmaxf(c[0], c[1]), fmaxf(c[2], 1e-3f));
    for (int k = 0; k < 3; k++)
        c[k] /= m;
}

void gc_legend_speed_colour(float t, float rgb[3])
{
    static const float stops[5][3] = {{0.15f, 0.25f, 1.0f}, {0.1f, 0.9f, 1.0f},
                                      {1.0f, 0.95f, 0.2f}, {1.0f, 0.3f, 0.1f},
                                      {1.0f, 1.0f, 1.0f}};
    int k;
    float u;
    t = fminf(fmaxf(t, 0.0f), 1.0f);
    k = t < 0.25f ? 0 : t < 0.5f ? 1 : t < 0.75f ? 2 : 3;
    u = t * 4.0f - (float)k;
    for (int c = 0; c < 3; c++)
        rgb[c] = stops[k][c] + (stops[k + 1][c] - stops[k][c]) * u;
    peak_one(rgb);
}

void gc_legend_velocity_colour(const float v[3], float rgb[3])
{
    const float s = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        rgb[k] = s > 0.0f ? 0.5f + 0.5f * v[k] / s : 0.5f;
    peak_one(rgb);
}

double gc_legend_round_length(double most)
{
    double p;
    if (!(most > 0.0) || !isfinite(most))
        return 0.0;
    p = pow(10.0, floor(log10(most)));
    /* log10 of a power of ten may round below it: p can be 10x too small, never larger. */
    if (10.0 * p <= most)
        p *= 10.0;
    return 5.0 * p <= most ? 5.0 * p : 2.0 * p <= most ? 2.0 * p : p;
}

int gc_legend_to_screen(const float view[16], const float proj[16], const float p[3], float w,
                        float h, float out[2])
{
    float eye[4], clip[4];
    for (int r = 0; r < 4; r++)
        eye[r] = view[r] * p[0] + view[4 + r] * p[1] + view[8 + r] * p[2] + view[12 + r];
    for (int r = 0; r < 4; r++)
        clip[r] = proj[r] * eye[0] + proj[4 + r] * eye[1] + proj[8 + r] * eye[2] +
                  proj[12 + r] * eye[3];
    if (!(clip[3] > 0.0f))
        return 0;
    out[0] = (0.5f + 0.5f * clip[0] / clip[3]) * w;
    out[1] = (0.5f - 0.5f * clip[1] / clip[3]) * h;
    return 1;
}
