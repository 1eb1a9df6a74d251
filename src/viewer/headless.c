/* The viewer without a window: EGL offscreen frames (--frames K), the run's figures, --screenshot. */
/* SPDX-License-Identifier: MIT */
#include "app.h"
#include "app_parts.h"

#include <GL/glew.h>
#include <stdlib.h>
#include <string.h>

#include "gl_context_egl.h"
#include "log.h"
#include "progress.h"
#include "stop.h"

/* The frame loop: frame k shows the state after k frames of steps (frame 0 the initial
 * state), the steps of frame k+1 running while frame k is drawn. The pacer keeps at most two
 * frames queued: without it the host queued every frame's steps and draws at once (60
 * frames of 1M-body all-pairs steps: many seconds of GPU work behind CUDA-GL hand-overs),
 * which never finished. */
static enum gc_status headless_frames(struct gc_app *a, unsigned frames)
{
    struct gc_app_picture *p = &a->picture;
    struct gc_progress prog;
    enum gc_status st = GC_OK;
    /* On a terminal, how far the run is; nothing in a pipe or a log (the summary says it). */
    gc_progress_begin(&prog, "frame", frames, 0.0);
    for (unsigned f = 0; f < frames && a->failure == GC_OK; f++) {
        /* A stop request ends the run between frames (the steps ask too, between steps). */
        if (gc_stop_requested()) {
            a->failure = GC_ERR_INTERRUPTED;
            break;
        }
        st = gc_pacer_begin_frame(&a->frames.pacer);
        if (st != GC_OK)
            break;
        gc_app_advance(a, f + 1 < frames);
        gc_app_picture_draw(a);
        a->frames.drawn++;
        if (p->capture.rec) {
            gc_app_picture_to_gl(a);
            st = gc_capture_frame(&p->capture, p->fb_w, p->fb_h);
            if (st != GC_OK)
                break;
        }
        st = gc_pacer_end_frame(&a->frames.pacer);
        if (st != GC_OK)
            break;
        if (gc_progress_due(&prog)) {
            char when[64];
            gc_app_time_text(a, 1, when, sizeof when);
            gc_progress_show(&prog, f + 1, when);
        }
    }
    gc_progress_end(&prog);
    if (st == GC_OK)
        st = gc_pacer_drain(&a->frames.pacer);
    return st != GC_OK ? st : a->failure;
}

/* What the run did: frames, steps and rates over its wall time, the pacing, the drift. */
static void report(struct gc_app *a, const struct gc_integrator_stats *before, unsigned frames,
                   double elapsed)
{
    struct gc_integrator_stats stats;
    const double flops = gc_sim_scheme(a->sim)->flops_per_interaction;
    const struct gc_pacer *pacer = &a->frames.pacer;
    double ips;
    char when[64];
    gc_sim_stats(a->sim, &stats);
    gc_app_time_text(a, 1, when, sizeof when);
    ips = elapsed > 0 ? (stats.interactions - before->interactions) / elapsed : 0.0;
    if (a->stats.energy_state > 0)
        gc_app_energy_measure(a, gc_clock_seconds());
    const unsigned long long steps = stats.steps - before->steps;
    gc_log_info("headless: %u frame%s, %llu step%s in %.2f s: %.1f frames/s, %.3g "
                "interactions/s, %.2f GFLOP/s (%.0f flops/interaction), t = %s",
                frames, gc_log_plural(frames), steps, gc_log_plural(steps), elapsed,
                frames / elapsed, ips, flops * ips * 1e-9, flops, when);
    /* The pacer waits on frame fences: the GPU's work with the CUDA backend; on the CPU
     * backend the drawing (Mesa draws on the CPU too), so no GPU is named there. */
    gc_log_info("headless: frames in flight: at most %u (limit %u); %.2f s waiting "
                "for %s; steps waited for in %llu frame%s (the last took %.3g s); "
                "exposure EV %+.2f", pacer->max_in_flight, pacer->depth, pacer->wait_s,
                gc_backend_is_device(a->backend) ? "the GPU" : "frames to be drawn",
                a->frames.timed, gc_log_plural(a->frames.timed), a->frames.waited_s,
                a->picture.exposure.ev);
    if (a->stats.energy_state > 0)
        gc_log_info("headless: relative energy drift dE/|E0| = %.3e", a->stats.drift);
}

enum gc_status gc_app_run_headless(const struct gc_options *opt, const struct gc_bodies *initial,
                                   struct gc_backend *backend, struct gc_comm *comm)
{
    struct gc_app *a = malloc(sizeof *a);
    struct gc_egl egl;
    struct gc_integrator_stats before;
    enum gc_status st;
    double t0, elapsed;
    int interrupted = 0;
    unsigned frames = opt->frames ? opt->frames : 1;
    if (!a)
        return GC_ERR_NOMEM;
    memset(&egl, 0, sizeof egl);
    st = gc_app_init(a, opt, initial, backend, comm);
    a->headless = 1;
    a->frames.dt = 1.0 / (double)opt->fps;
    /* --start-at: the run gets there before the first frame (and before EGL: a bad event
     * name or a time that cannot be is told without a display). */
    if (st == GC_OK)
        st = gc_app_prerun(a);
    if (st == GC_OK)
        st = gc_egl_create(&egl, opt->width, opt->height);
    a->picture.target_fbo = egl.fbo;
    a->picture.target_rb = egl.color_rb;
    if (st == GC_OK)
        st = gc_app_gl_init(a);
    if (st == GC_OK && opt->tour)
        gc_app_view_set(a, GC_VIEW_TOUR);
    a->view.follow = opt->follow;
    if (st == GC_OK && opt->record) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, egl.fbo);
        st = gc_app_picture_record(a, opt->record);
    }
    if (st == GC_OK) {
        struct gc_record_stats rs;
        gc_sim_stats(a->sim, &before);
        t0 = gc_clock_seconds();
        /* The run begins: from here a stop is heard between frames (stop.h). */
        gc_stop_startup(0);
        st = headless_frames(a, frames);
        /* Stopped on request: the frames drawn so far are reported and the movie finished
         * (it plays), as at the end of a run. */
        interrupted = st == GC_ERR_INTERRUPTED;
        if (interrupted)
            st = GC_OK;
        /* Both APIs' work in the timing: a frame whose fence was GL's does not cover steps
         * CUDA queued after it. */
        glFinish();
        if (st == GC_OK)
            st = gc_backend_sync(a->backend);
        elapsed = gc_clock_seconds() - t0;
        if (interrupted)
            gc_app_report_stop(a);
        if (st == GC_OK && a->picture.capture.rec)
            st = gc_capture_stop(&a->picture.capture, &rs);
        if (st == GC_OK)
            report(a, &before, interrupted ? a->frames.drawn : frames, elapsed);
        /* Stopped on request, the picture is of the last frame drawn, and says so. */
        if (st == GC_OK && opt->screenshot && interrupted && a->frames.drawn == 0)
            gc_log_warn("--screenshot %s not written: stopped before the first frame was drawn",
                        opt->screenshot);
        else if (st == GC_OK && opt->screenshot) {
            st = gc_app_picture_save(a, opt->screenshot);
            if (st == GC_OK && interrupted)
                gc_log_info("the screenshot %s shows frame %u of %u, where the run stopped",
                            opt->screenshot, a->frames.drawn, frames);
        }
        if (st == GC_OK && interrupted)
            st = GC_ERR_INTERRUPTED;
    }
    gc_app_gl_teardown(a);
    gc_egl_destroy(&egl);
    gc_app_free(a);
    free(a);
    return st;
}
