/* Tone curve and exposure metering: from accumulated light to display values (pure math, no GL). */
/* SPDX-License-Identifier: MIT */
#ifndef GC_EXPOSURE_H
#define GC_EXPOSURE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Contrast of the log tone curve: a pixel at 1/GC_TONE_K of the white level is shown at
 * log(2)/log(1+K) = 17% of full scale, so the faint outer disk and the bright nucleus both
 * stay visible (a linear curve shows either one or the other). shaders/tonemap.frag uses
 * the same curve and constant. */
#define GC_TONE_K 64.0f
/* The white level is this quantile of the brightest pixel of each lit 8x8 block, so at most
 * ~0.5% of the lit blocks have a pixel at full scale whatever N, zoom or time. */
#define GC_METER_QUANTILE 0.995
/* Time constant of the exposure's adaptation, seconds (a talk's camera move takes ~1-2 s:
 * the exposure follows it without flicker from frame to frame). */
#define GC_EXPOSURE_TAU_S 0.4
/* Changes of the metered exposure smaller than this are ignored (stops): the metering of a
 * moving scene jitters by a few percent from frame to frame. Once past it, the exposure
 * glides until it is within GC_EXPOSURE_LAND_EV of the target, then takes it exactly. */
#define GC_EXPOSURE_DEADBAND_EV 0.1f
#define GC_EXPOSURE_LAND_EV 0.01f
/* Exposure compensation steps of the ',' and '.' keys, stops. */
#define GC_EXPOSURE_STEP_EV 0.5f
/* The viewer's compensation by default, stops: the metered white shown 1.5 stops over full
 * scale, so that faint tidal tails stay above a projector's grey. At the tails' time (the
 * built-in pair at 504 Myr, 8,192 bodies, 1280x800) the share of a tail's pixels above
 * 64/255 goes from 1.3% to 8.7% (docs/usage.md, "Picture"); the nuclei stay below white
 * but for 0.002% of the pixels. */
#define GC_EXPOSURE_BIAS_EV 1.5f

/* Display value in [0, 1] of a linear value v = exposure * light: log(1 + K v) / log(1 + K),
 * 1 from v = 1 on (the white level). Monotonic, 0 at 0; non-finite or negative v gives 0. */
float gc_tone_curve(float v);

struct gc_exposure {
    int manual;   /* 1 = fixed at `ev` (--exposure EV, or locked with 'x'); 0 = metered */
    int metered;  /* 0 until the first metering (then ev jumps to the target, no fade-in) */
    int adapting; /* 1 while gliding towards the metered target */
    float ev;     /* current exposure in stops: light is multiplied by 2^ev */
    float bias;   /* compensation added to the metered exposure, stops; default 0 (the
                   * viewer's GC_EXPOSURE_BIAS_EV) */
};

/* Auto exposure (manual = 0) or a fixed one at ev. */
void gc_exposure_init(struct gc_exposure *e, int manual, float ev);
/* The white level of an image from the largest channel value of each block (n blocks):
 * the GC_METER_QUANTILE quantile of the lit (> 0) blocks; 0 when none is lit. `scratch`
 * holds n floats; block_max is not changed. */
float gc_exposure_meter(const float *block_max, size_t n, float *scratch);
/* One frame of auto exposure: the target maps `white` to 1 (ev = bias - log2 white) and ev
 * moves towards it with time constant GC_EXPOSURE_TAU_S over dt_s seconds (at once on the
 * first metering), ignoring changes under GC_EXPOSURE_DEADBAND_EV. A manual exposure or
 * white <= 0 (black frame) leaves ev unchanged. */
void gc_exposure_update(struct gc_exposure *e, float white, double dt_s);
/* Multiplier 2^ev applied to the light before the tone curve. */
float gc_exposure_scale(const struct gc_exposure *e);

#ifdef __cplusplus
}
#endif
#endif
