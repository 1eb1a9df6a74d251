/* Tone curve and auto exposure without GL: curve shape, metering quantile, adaptation. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "exposure.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void test_curve(void)
{
    float prev = 0.0f;
    CHECK(gc_tone_curve(0.0f) == 0.0f);
    CHECK(gc_tone_curve(-1.0f) == 0.0f);
    CHECK(gc_tone_curve(NAN) == 0.0f);
    CHECK(gc_tone_curve(1.0f) == 1.0f);
    CHECK(gc_tone_curve(1e30f) == 1.0f);
    CHECK(gc_tone_curve(INFINITY) == 1.0f);
    /* Monotonic and inside [0, 1]. */
    for (int i = 1; i <= 2000; i++) {
        float y = gc_tone_curve((float)i / 1000.0f);
        CHECK(y >= prev && y <= 1.0f);
        prev = y;
    }
    /* The contrast the header promises: 1/K of white shows at log 2 / log(1 + K). */
    CHECK_NEAR(gc_tone_curve(1.0f / GC_TONE_K), logf(2.0f) / logf(1.0f + GC_TONE_K), 1e-6);
    /* A log curve lifts the faint end: a thousandth of white stays visible (a linear
     * curve would show it at 0.001, under one 8-bit level). */
    CHECK_LT(1.0 / 255.0, gc_tone_curve(1e-3f));
}

static void test_meter(void)
{
    enum { N = 10007 };
    float *v = malloc(N * sizeof *v), *sorted = malloc(N * sizeof *v), *scratch = malloc(N * sizeof *v);
    unsigned s = 7;
    float white;
    CHECK(v && sorted && scratch);
    if (!v || !sorted || !scratch)
        goto done;
    /* Nothing lit: 0. NaN and negative blocks do not count as lit. */
    for (int i = 0; i < N; i++)
        v[i] = i % 3 == 0 ? 0.0f : i % 3 == 1 ? -1.0f : NAN;
    CHECK(gc_exposure_meter(v, N, scratch) == 0.0f);
    /* One lit block: its value. */
    v[17] = 3.5f;
    CHECK(gc_exposure_meter(v, N, scratch) == 3.5f);
    /* Random values with many dark blocks: the GC_METER_QUANTILE quantile of the lit ones,
     * as a full sort finds it, and the input is left as it was. */
    for (int trial = 0; trial < 5; trial++) {
        size_t lit = 0;
        for (int i = 0; i < N; i++) {
            s = s * 1103515245u + 12345u;
            v[i] = (s >> 9) % 4 == 0 ? 0.0f : (float)((s >> 8) % 100000) * 0.01f;
            /* ties are common in real images (empty sky, saturated cores) */
            if (trial == 1)
                v[i] = floorf(v[i] / 100.0f);
            if (v[i] > 0.0f)
                sorted[lit++] = v[i];
        }
        qsort(sorted, lit, sizeof *sorted, cmp_float);
        white = gc_exposure_meter(v, N, scratch);
        CHECK(white == sorted[(size_t)(GC_METER_QUANTILE * (double)(lit - 1) + 0.5)]);
        CHECK(v[0] == v[0]); /* not NaN: untouched input */
    }
    /* A few blazing pixels (a nucleus) do not set the white level: the quantile ignores
     * the top half percent. */
    for (int i = 0; i < N; i++)
        v[i] = i < 20 ? 1000.0f : 1.0f;
    CHECK(gc_exposure_meter(v, N, scratch) == 1.0f);
done:
    free(v);
    free(sorted);
    free(scratch);
}

static void test_update(void)
{
    struct gc_exposure e;
    float target;
    /* First metering: straight to the target, white maps to 1. */
    gc_exposure_init(&e, 0, 0.0f);
    gc_exposure_update(&e, 8.0f, 1.0 / 60.0);
    CHECK(e.metered);
    CHECK_NEAR(e.ev, -3.0, 1e-6);
    CHECK_NEAR(gc_exposure_scale(&e) * 8.0f, 1.0, 1e-5);
    /* Jitter inside the dead band changes nothing. */
    gc_exposure_update(&e, 8.0f * exp2f(0.5f * GC_EXPOSURE_DEADBAND_EV), 1.0 / 60.0);
    CHECK(e.ev == -3.0f);
    CHECK(!e.adapting);
    /* A black frame changes nothing. */
    gc_exposure_update(&e, 0.0f, 1.0 / 60.0);
    gc_exposure_update(&e, NAN, 1.0 / 60.0);
    CHECK(e.ev == -3.0f);
    /* Two stops brighter: glides there (no jump), with time constant TAU. */
    target = -5.0f;
    gc_exposure_update(&e, 32.0f, 1.0 / 60.0);
    CHECK(e.adapting);
    CHECK_LT(target, e.ev);
    CHECK_LT(e.ev, -3.0f);
    {
        double t = 1.0 / 60.0;
        while (t < GC_EXPOSURE_TAU_S - 1e-9) {
            gc_exposure_update(&e, 32.0f, 1.0 / 60.0);
            t += 1.0 / 60.0;
        }
        /* After one time constant 1 - 1/e of the way is done. */
        CHECK_NEAR(e.ev, -3.0 + (target + 3.0) * (1.0 - exp(-1.0)), 0.05);
    }
    for (int i = 0; i < 600 && e.adapting; i++)
        gc_exposure_update(&e, 32.0f, 1.0 / 60.0);
    CHECK(!e.adapting);
    CHECK(e.ev == target); /* lands exactly */
    /* Compensation: the bias moves the target. */
    e.bias = 1.0f;
    for (int i = 0; i < 600; i++)
        gc_exposure_update(&e, 32.0f, 1.0 / 60.0);
    CHECK(e.ev == -4.0f);
    /* Manual: never moved by metering. */
    gc_exposure_init(&e, 1, 2.5f);
    gc_exposure_update(&e, 1000.0f, 1.0);
    CHECK(e.ev == 2.5f);
    CHECK_NEAR(gc_exposure_scale(&e), exp2(2.5), 1e-5);
}

int main(void)
{
    test_curve();
    test_meter();
    test_update();
    return CHECK_DONE();
}
