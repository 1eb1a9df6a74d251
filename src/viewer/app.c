/* The viewer's struct gc_app put together from its parts: init and free, the GL side, the stop report. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "initial.h"
#include "log.h"
#include "stop.h"

enum gc_status gc_app_gl_init(struct gc_app *a)
{
    enum gc_status st;
    a->view.camera = a->view.home;
    st = gc_app_picture_init(a);
    if (st != GC_OK)
        return st;
    gc_app_frames_init(a);
    gc_app_scene_modes(a);
    a->picture.gl_ready = 1;
    st = gc_app_picture_choose_raster(a);
    /* The first picture shows the backend's view, as every later one does: the initial
     * bodies lack what the integrator adds (Hermite time-step levels, in vel.w). */
    return st != GC_OK ? st : gc_app_export(a);
}

void gc_app_gl_teardown(struct gc_app *a)
{
    if (!a->picture.gl_ready)
        return;
    /* The movie's last reads and the frames in flight finish before their GL objects go. */
    gc_capture_stop(&a->picture.capture, NULL);
    gc_pacer_drain(&a->frames.pacer);
    gc_pacer_free(&a->frames.pacer);
    gc_app_picture_free(a);
    a->picture.gl_ready = 0;
}

enum gc_status gc_app_init(struct gc_app *a, const struct gc_options *opt,
                           const struct gc_bodies *initial, struct gc_backend *backend,
                           struct gc_comm *comm)
{
    enum gc_status st;
    memset(a, 0, sizeof *a);
    a->opt = opt;
    a->initial = initial;
    a->backend = backend;
    /* A first frame for an audience: the picture, the time line and names, no figures
     * ('i' shows them). */
    a->picture.show_hud = 0;
    a->picture.guides = 1;
    a->picture.present_hud = opt->present;
    a->picture.glow = !opt->no_bloom;
    a->picture.fb_w = opt->width;
    a->picture.fb_h = opt->height;
    a->input.paused = opt->paused;
    a->frames.auto_steps = 1;
    gc_exposure_init(&a->picture.exposure, !isnan(opt->exposure), (float)opt->exposure);
    a->picture.exposure.bias = GC_EXPOSURE_BIAS_EV;
    {
        const struct gc_restart *restart = opt->restart;
        st = gc_sim_create(backend, comm, initial, &opt->params,
                            restart ? &restart->sim : NULL, &a->sim);
    }
    if (st != GC_OK)
        return st;
    st = gc_snapshots_init(&a->snapshots, opt->snapshot_every, opt->snapshot_dir, a->sim,
                           initial, opt);
    if (st != GC_OK)
        return st;
    st = gc_bodies_alloc(&a->scratch, initial->n);
    if (st != GC_OK)
        return st;
    st = gc_app_playback_init(a);
    if (st != GC_OK)
        return st;
    gc_app_scene_init(a);
    gc_app_view_init(a);
    gc_app_stats_init(a);
    return GC_OK;
}

enum gc_status gc_app_prerun(struct gc_app *a)
{
    /* The energy drift counts from the start of the simulation, not from --start-at. */
    if (a->stats.energy_state == 0)
        gc_app_energy_measure(a, gc_clock_seconds());
    return gc_app_playback_start_at(a);
}

void gc_app_free(struct gc_app *a)
{
    gc_bodies_free(&a->scratch);
    gc_snapshots_free(&a->snapshots);
    gc_timeline_free(&a->playback.timeline);
    gc_sim_destroy(a->sim);
    gc_app_scene_free(a);
}

void gc_app_report_stop(struct gc_app *a)
{
    struct gc_integrator_stats st;
    char when[64], last[4200];
    gc_sim_stats(a->sim, &st);
    gc_app_time_text(a, 1, when, sizeof when);
    gc_snapshots_last(&a->snapshots, last, sizeof last);
    gc_stop_told();
    gc_log_warn("stopped by %s at t = %s after %llu %s%s and %llu frame%s; last complete "
                "snapshot: %s%s", gc_stop_name(gc_stop_requested()), when,
                (unsigned long long)st.steps, gc_sim_scheme(a->sim)->step_noun,
                gc_log_plural(st.steps), (unsigned long long)a->frames.drawn,
                gc_log_plural(a->frames.drawn), last,
                a->picture.capture.rec ? "; the movie is finished up to here" : "");
}
