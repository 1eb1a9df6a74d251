/* The frame loop: steps queued each frame, their timing (--substeps auto), the hand-over to drawing. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>

/* --substeps auto: a display refreshes at ~60 Hz, so drawing faster than that wastes the GPU.
 * Give the physics ~12 ms of each ~16.7 ms frame (the rest is drawing and the CUDA-GL
 * hand-over, a fixed cost a frame: docs/perf-log/viewer-frame-pipeline.md).
 * A step that alone takes longer than the budget leaves one step per frame. Growth is capped
 * at 2x per timing so a hiccup (window move, energy measurement) cannot make the next frame
 * stall. */
#define AUTO_STEP_BUDGET_S 0.012
#define AUTO_STEPS_MAX 256u
/* A frame's steps run on the GPU while the frame before is drawn, so the host does not wait
 * for them; it waits (and so times them) only where the time is needed: on the first
 * frame, while --substeps auto is still settling and every TIME_EVERY frames after, and on
 * every frame whose steps take longer than SLOW_STEP_S. Slow steps are waited for on the host
 * so that GL never queues work behind seconds of CUDA work: with 60 frames of 1M-body
 * all-pairs steps queued at once behind CUDA-GL hand-overs, headless never finished; beside
 * steps that slow the wait costs nothing. */
#define TIME_EVERY 30u
#define SLOW_STEP_S 0.05

void gc_app_frames_init(struct gc_app *a)
{
    struct gc_pacer_ops ops;
    gc_frame_fences_init(&a->frames.fences, a->backend);
    ops = gc_frame_fence_ops(&a->frames.fences);
    gc_pacer_init(&a->frames.pacer, &ops, 0);
}

static unsigned auto_steps_for(double step_s, unsigned k)
{
    double want = step_s > 0.0 ? AUTO_STEP_BUDGET_S / step_s : 2.0 * k;
    unsigned next = (unsigned)fmin(fmin(want, 2.0 * k), (double)AUTO_STEPS_MAX);
    return next < 1 ? 1 : next;
}

/* Hands the state the queued steps reached to the renderer (after their frame was drawn). */
static void hand_over(struct gc_app *a)
{
    enum gc_status st;
    if (!a->frames.stepped || a->failure != GC_OK)
        return;
    a->frames.stepped = 0;
    st = gc_app_export(a);
    if (st != GC_OK)
        gc_app_fail(a, st, "position export");
}

/* Queues k steps, forwards or backwards along the time line; they run while the current
 * frame is drawn. */
static void launch_steps(struct gc_app *a, unsigned k, int adapt)
{
    struct gc_app_frames *f = &a->frames;
    int timed = f->step_s <= 0.0 || k * f->step_s > SLOW_STEP_S ||
                (adapt && (!f->auto_settled || f->since_timing >= TIME_EVERY));
    double t0 = gc_clock_seconds();
    enum gc_status st = gc_timeline_advance(&a->playback.timeline, a->sim, &a->snapshots,
                                            gc_app_playback_target(a, k));
    if (st == GC_OK && timed)
        st = gc_backend_sync(a->backend);
    if (st != GC_OK) {
        gc_app_fail(a, st, "simulation step");
        return;
    }
    gc_app_playback_landed(a);
    f->stepped = 1;
    f->since_timing++;
    if (timed) {
        f->waited_s = gc_clock_seconds() - t0;
        f->step_s = f->waited_s / k;
        f->since_timing = 0;
        f->timed++;
        if (adapt) {
            /* The most steps a frame affords; within 10% of the count in use: keep it, so
             * timing jitter does not keep the host waiting every frame. */
            const unsigned cap = f->auto_steps;
            unsigned next = auto_steps_for(f->step_s, cap);
            f->auto_settled = (next > cap ? next - cap : cap - next) * 10 <= cap;
            f->auto_steps = f->auto_settled ? cap : next;
        }
    }
}

/* The simulation's part of a frame: the renderer gets the state stepped during the last
 * frame, then (when may_step) this frame's steps are queued, to be drawn next frame. */
void gc_app_advance(struct gc_app *a, int may_step)
{
    unsigned k = 0;
    int adapt = 0;
    if (a->failure != GC_OK)
        return;
    hand_over(a);
    if (!may_step || a->failure != GC_OK)
        return;
    if (!a->input.paused) {
        /* Headless: frame-exact (--substeps or one step a frame). The window: the speed's
         * share of each frame, at most what the machine affords a frame; --substeps fixes
         * the count until a speed key is pressed. */
        adapt = !a->headless && (a->opt->substeps == 0 || a->playback.rate > 0.0);
        k = adapt ? gc_app_playback_steps(a, a->frames.auto_steps, gc_clock_seconds())
            : a->opt->substeps ? a->opt->substeps : 1;
    } else {
        a->playback.t_wall = 0.0;
        k = a->input.step_once ? 1 : 0;
    }
    a->input.step_once = 0;
    if (k == 0)
        return;
    launch_steps(a, k, adapt);
    /* A single step while paused is shown at once: nothing runs to overlap it with. */
    if (a->input.paused)
        hand_over(a);
}

/* Window frames: the idle callback's steps and the display callback's drawing are one frame
 * to the pacer, whichever of the two comes first opens it. */
void gc_app_frame_begin(struct gc_app *a)
{
    enum gc_status st;
    if (a->frames.open)
        return;
    st = gc_pacer_begin_frame(&a->frames.pacer);
    if (st != GC_OK)
        gc_app_fail(a, st, "frame pacing");
    a->frames.open = 1;
}

void gc_app_frame_end(struct gc_app *a)
{
    enum gc_status st = gc_pacer_end_frame(&a->frames.pacer);
    if (st != GC_OK)
        gc_app_fail(a, st, "frame pacing");
    a->frames.open = 0;
}
