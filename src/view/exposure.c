/* Tone curve and exposure metering (the C side of shaders/tonemap.frag, testable without GL). */
/* SPDX-License-Identifier: MIT */
#include "exposure.h"

#include <math.h>
#include <string.h>

#include "picture_job.h"

float gc_tone_curve(float v)
{
    return gc_picture_tone(v, GC_TONE_K); /* the formula the CUDA tone map uses too */
}

void gc_exposure_init(struct gc_exposure *e, int manual, float ev)
{
    memset(e, 0, sizeof *e);
    e->manual = manual;
    e->ev = manual ? ev : 0.0f;
}

/* k-th smallest of v[0..n) (Hoare's selection, v reordered): O(n), a per-frame cost. */
static float select_kth(float *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        float pivot = v[lo + (hi - lo) / 2];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                float t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

float gc_exposure_meter(const float *block_max, size_t n, float *scratch)
{
    size_t lit = 0;
    for (size_t i = 0; i < n; i++)
        if (block_max[i] > 0.0f && isfinite(block_max[i]))
            scratch[lit++] = block_max[i];
    if (lit == 0)
        return 0.0f;
    return select_kth(scratch, lit, (size_t)(GC_METER_QUANTILE * (double)(lit - 1) + 0.5));
}

void gc_exposure_update(struct gc_exposure *e, float white, double dt_s)
{
    float target;
    if (e->manual || !(white > 0.0f) || !isfinite(white))
        return;
    target = e->bias - log2f(white);
    if (!e->metered) {
        e->ev = target;
        e->metered = 1;
        return;
    }
    /* Hold still through the frame-to-frame jitter of the metering (a still picture keeps
     * exactly its exposure); past the dead band, glide to the target and land on it. */
    if (!e->adapting && fabsf(target - e->ev) < GC_EXPOSURE_DEADBAND_EV)
        return;
    e->adapting = 1;
    if (dt_s > 0.0)
        e->ev += (target - e->ev) * (float)(1.0 - exp(-dt_s / GC_EXPOSURE_TAU_S));
    if (fabsf(target - e->ev) < GC_EXPOSURE_LAND_EV) {
        e->ev = target;
        e->adapting = 0;
    }
}

float gc_exposure_scale(const struct gc_exposure *e)
{
    return exp2f(e->ev);
}
