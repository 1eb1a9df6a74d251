/* The viewer's playback: how fast and which way simulated time goes, jumps along the time line and back to its start, the clock's words and notes on screen. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* The speed keys multiply or divide the rate by this. */
#define SPEED_STEP 2.0
/* The slowest and fastest rates the keys reach, times the automatic one (or, without one,
 * one step a second and the machine's limit). */
#define SPEED_RANGE 256.0
/* A note stays this long on screen, s. */
#define NOTE_S 4.0
/* Left and Right move by this share of the bar. */
#define SCRUB_SHARE 0.02

/* How close to a time counts as there: the leapfrog lands on whole steps. */
static double slack(const struct gc_app *a)
{
    return gc_app_block_steps(a) ? 1e-9 : fabs((double)gc_sim_params(a->sim)->dt);
}

static const struct gc_events *events(const struct gc_app *a)
{
    return gc_timeline_events(&a->playback.timeline);
}

void gc_app_note(struct gc_app *a, int warn, const char *fmt, ...)
{
    struct gc_app_playback *pb = &a->playback;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(pb->note, sizeof pb->note, fmt, ap);
    va_end(ap);
    pb->note_warn = warn;
    pb->note_until = gc_clock_seconds() + NOTE_S;
    if (warn)
        gc_log_warn("%s", pb->note);
    else
        gc_log_info("%s", pb->note);
}

enum gc_status gc_app_playback_init(struct gc_app *a)
{
    struct gc_app_playback *pb = &a->playback;
    enum gc_status st = gc_timeline_init(&pb->timeline, a->sim, a->initial, &a->scratch);
    if (st == GC_OK)
        st = gc_timeline_keep(&pb->timeline, a->sim, a->opt->keyframe_mib << 20);
    if (st != GC_OK)
        return st;
    /* A talk's pace: the first passage of the Kepler orbit of the galaxies as they start,
     * reached in about half a minute (where the machine allows). */
    if (pb->timeline.track_ok) {
        const double t = gc_events_predict(events(a), &pb->timeline.track);
        if (t > 0.0)
            pb->auto_rate = t / GC_APP_AUTO_PASSAGE_S;
    }
    return GC_OK;
}

enum gc_status gc_app_playback_start_at(struct gc_app *a)
{
    enum gc_status st;
    if (!a->opt->start_at)
        return GC_OK;
    st = gc_timeline_start_at(&a->playback.timeline, a->sim, &a->snapshots, a->initial,
                              a->opt->start_at, gc_app_henon(a));
    /* The view frames the galaxies where they are now. */
    a->view.track_ok = 0;
    return st;
}

static double current_rate(const struct gc_app *a)
{
    const struct gc_app_playback *pb = &a->playback;
    return pb->rate > 0.0 ? pb->rate : pb->auto_rate;
}

unsigned gc_app_playback_steps(struct gc_app *a, unsigned cap, double now)
{
    struct gc_app_playback *pb = &a->playback;
    const double rate = current_rate(a);
    const double wall = pb->t_wall > 0.0 ? fmin(now - pb->t_wall, 0.1) : 0.0;
    double k;
    pb->t_wall = now;
    if (!(rate > 0.0)) {
        pb->limited = 0;
        return cap;
    }
    pb->owed += rate * wall / gc_sim_frame_dt(a->sim);
    k = floor(pb->owed);
    /* Behind the rate: what the machine can do, and no debt carried (it would only grow). */
    pb->limited = k > (double)cap;
    if (pb->limited) {
        pb->owed = 0.0;
        return cap;
    }
    pb->owed -= k;
    return (unsigned)k;
}

double gc_app_playback_target(struct gc_app *a, unsigned k)
{
    const double now = gc_sim_time(a->sim), span = k * gc_sim_frame_dt(a->sim);
    const double start = a->playback.timeline.start;
    if (!a->playback.backwards)
        return now + span;
    return now - span > start ? now - span : start;
}

void gc_app_playback_landed(struct gc_app *a)
{
    struct gc_app_playback *pb = &a->playback;
    if (pb->backwards && gc_sim_time(a->sim) <= pb->timeline.start + 0.5 * slack(a)) {
        a->input.paused = 1;
        gc_app_note(a, 0, "the start of the run: paused (l runs forwards)");
    }
}

void gc_app_seek(struct gc_app *a, double t)
{
    struct gc_app_playback *pb = &a->playback;
    const double t0 = gc_clock_seconds();
    char when[64];
    enum gc_status st;
    if (a->failure != GC_OK)
        return;
    st = gc_timeline_seek(&pb->timeline, a->sim, &a->snapshots, a->initial, t);
    if (st == GC_OK)
        st = gc_app_export(a);
    if (st != GC_OK) {
        gc_app_fail(a, st, "going to another time");
        return;
    }
    a->frames.stepped = 0;
    a->view.track_ok = 0; /* the views follow the galaxies where they are now */
    pb->owed = 0.0;
    pb->t_wall = 0.0;
    gc_app_time_text(a, 1, when, sizeof when);
    gc_log_info("at t = %s (%.2f s to get there)", when, gc_clock_seconds() - t0);
}

/* Key 'r', and a restart with new bodies: the time line at its start, seen as the first frame
 * saw it. */
void gc_app_reset(struct gc_app *a)
{
    /* After a failure the simulation is started over whatever its time; otherwise the time
     * line goes back to its start (the events found stay). */
    enum gc_status st = a->failure != GC_OK ? gc_sim_reset(a->sim, a->initial) : GC_OK;
    if (st == GC_OK)
        st = gc_timeline_seek(&a->playback.timeline, a->sim, NULL, a->initial,
                              a->playback.timeline.start);
    gc_app_view_reset(a);
    a->input.step_once = 0;
    a->frames.stepped = 0;
    a->playback.backwards = 0;
    a->playback.owed = 0.0;
    a->playback.labels_from = gc_clock_seconds(); /* the names again */
    /* Meter afresh: the first frame after a reset looks exactly as the very first did. */
    a->picture.exposure.metered = 0;
    a->picture.exposure.adapting = 0;
    if (st == GC_OK)
        st = gc_app_export(a);
    if (st != GC_OK) {
        a->failure = GC_OK;  /* report the new failure */
        gc_app_fail(a, st, "reset");
        return;
    }
    if (a->failure != GC_OK) {
        /* A reset after a failure starts over from a clean state, paused. */
        a->failure = GC_OK;
        a->failure_msg[0] = '\0';
        gc_app_window_scene_title(a);
    }
    if (a->stats.energy_state > 0)
        a->stats.drift = 0.0;
}

void gc_app_speed(struct gc_app *a, int change)
{
    struct gc_app_playback *pb = &a->playback;
    double base = current_rate(a), lo, hi;
    if (change == 0) {
        pb->rate = 0.0;
        gc_app_note(a, 0, "automatic speed");
        return;
    }
    /* Without an automatic rate (as fast as the machine goes) the keys start from what it
     * does now. */
    if (!(base > 0.0))
        base = pb->shown_rate > 0.0 ? pb->shown_rate : gc_sim_frame_dt(a->sim) * 60.0;
    lo = pb->auto_rate > 0.0 ? pb->auto_rate / SPEED_RANGE : gc_sim_frame_dt(a->sim);
    hi = pb->auto_rate > 0.0 ? pb->auto_rate * SPEED_RANGE
                             : gc_sim_frame_dt(a->sim) * 1e3 * SPEED_RANGE;
    pb->rate = fmin(hi, fmax(lo, change > 0 ? base * SPEED_STEP : base / SPEED_STEP));
    {
        const double unit = gc_app_henon(a) ? 1.0 : GC_MYR_PER_TIME_UNIT;
        const char *what = gc_app_henon(a) ? "time units" : "Myr";
        if (change > 0 && pb->limited)
            gc_app_note(a, 0, "speed %.3g %s a second asked; this machine does %.3g here",
                        pb->rate * unit, what, pb->shown_rate * unit);
        else
            gc_app_note(a, 0, "speed %.3g %s a second", pb->rate * unit, what);
    }
}

void gc_app_direction(struct gc_app *a, int backwards)
{
    struct gc_app_playback *pb = &a->playback;
    if (backwards && gc_app_block_steps(a)) {
        gc_app_note(a, 1, "%s cannot run backwards (its block steps are not time-symmetric): "
                    "Page Up, Left and Home go back", gc_sim_scheme(a->sim)->name);
        return;
    }
    if (a->failure != GC_OK)
        return;
    pb->backwards = backwards;
    pb->owed = 0.0;
    a->input.paused = 0;
    if (backwards && gc_sim_time(a->sim) <= pb->timeline.start + 0.5 * slack(a)) {
        a->input.paused = 1;
        gc_app_note(a, 0, "the start of the run: nothing earlier");
        return;
    }
    gc_app_note(a, 0, "running %s", backwards ? "backwards" : "forwards");
}

void gc_app_jump_event(struct gc_app *a, int later)
{
    const struct gc_events *e = events(a);
    const double now = gc_sim_time(a->sim);
    const struct gc_event *ev = later ? gc_events_next(e, now, slack(a))
                                      : gc_events_prev(e, now, slack(a));
    char name[48];
    if (!e->pair) {
        gc_app_note(a, 1, "no encounter events here: Left and Right move along the time line");
        return;
    }
    if (!ev && !later) {
        gc_app_jump_end(a, 0);
        return;
    }
    if (!ev) {
        const double h = gc_timeline_horizon(&a->playback.timeline);
        gc_app_note(a, 1, "no later event found yet: the run is computed to %.0f Myr (space "
                    "runs on)", h * GC_MYR_PER_TIME_UNIT);
        return;
    }
    gc_event_name(ev, name, sizeof name);
    a->input.paused = 1;
    gc_app_seek(a, ev->t);
    gc_app_note(a, 0, "%s at %.0f Myr (paused: space runs)", name, ev->t * GC_MYR_PER_TIME_UNIT);
}

void gc_app_timeline_span(const struct gc_app *a, double *start, double *end)
{
    const struct gc_app_playback *pb = &a->playback;
    const double h = gc_timeline_horizon(&pb->timeline);
    int number;
    double e = fmax(h, gc_app_predicted_passage(a, &number));
    *start = pb->timeline.start;
    /* Some room ahead of what is known, so the bar grows in steps, not every frame. */
    *end = *start + fmax(1.0, 1.25 * (e - *start));
}

void gc_app_scrub(struct gc_app *a, int later)
{
    double start, end, now = gc_sim_time(a->sim), h;
    gc_app_timeline_span(a, &start, &end);
    h = gc_timeline_horizon(&a->playback.timeline);
    if (later && now >= h - 0.5 * slack(a)) {
        gc_app_note(a, 1, "the end of the computed run (%.0f Myr): space runs on",
                    h * GC_MYR_PER_TIME_UNIT);
        return;
    }
    if (!later && now <= start + 0.5 * slack(a)) {
        gc_app_note(a, 1, "the start of the run: nothing earlier");
        return;
    }
    now += (later ? 1.0 : -1.0) * fmax(SCRUB_SHARE * (end - start), slack(a));
    gc_app_seek(a, fmin(fmax(now, start), h));
}

void gc_app_jump_end(struct gc_app *a, int end)
{
    a->input.paused = 1;
    gc_app_seek(a, end ? gc_timeline_horizon(&a->playback.timeline)
                       : a->playback.timeline.start);
}

double gc_app_predicted_passage(const struct gc_app *a, int *number)
{
    const struct gc_timeline *tl = &a->playback.timeline;
    const struct gc_events *e = events(a);
    double dt;
    *number = 1;
    for (int k = 0; k < e->count; k++)
        *number += e->list[k].kind == GC_EVENT_PASSAGE;
    /* From the galaxies at the horizon: what the time line has seen last. */
    if (!tl->track_ok || gc_events_over(e, &tl->track))
        return -1.0;
    dt = gc_events_predict(e, &tl->track);
    return dt > 0.0 ? gc_timeline_horizon(tl) + dt : -1.0;
}

/* "first passage in 120 Myr", "second passage in about 360 Myr", "85 Myr after the merger". */
static void next_text(const struct gc_app *a, char *buf, size_t size)
{
    const struct gc_events *e = events(a);
    const double now = gc_sim_time(a->sim);
    const struct gc_event *ev = gc_events_next(e, now, 0.5 * slack(a));
    char name[48];
    int number;
    double t;
    buf[0] = '\0';
    if (!e->pair)
        return;
    if (ev) {
        gc_event_name(ev, name, sizeof name);
        snprintf(buf, size, "%s in %.0f Myr", name, (ev->t - now) * GC_MYR_PER_TIME_UNIT);
        return;
    }
    t = gc_app_predicted_passage(a, &number);
    if (t > now) {
        struct gc_event probe = {GC_EVENT_PASSAGE, number, t, 0.0f};
        /* A Kepler orbit of point masses: the halos' drag makes it late by a few percent
         * the first time, more later: "about", to 10 Myr. */
        gc_event_name(&probe, name, sizeof name);
        snprintf(buf, size, "%s in about %.0f Myr", name,
                 10.0 * floor((t - now) * GC_MYR_PER_TIME_UNIT / 10.0 + 0.5));
        return;
    }
    ev = gc_events_prev(e, now, -0.5 * slack(a));
    if (ev) {
        const double after = (now - ev->t) * GC_MYR_PER_TIME_UNIT;
        gc_event_name(ev, name, sizeof name);
        if (after < 0.5)
            snprintf(buf, size, "at the %s", name);
        else
            snprintf(buf, size, "%.0f Myr after the %s", after, name);
    }
}

void gc_app_clock_text(const struct gc_app *a, char *clock, size_t clock_size, char *next,
                       size_t next_size, char *speed, size_t speed_size)
{
    const struct gc_app_playback *pb = &a->playback;
    const double unit = gc_app_henon(a) ? 1.0 : GC_MYR_PER_TIME_UNIT;
    const char *per = gc_app_henon(a) ? "time units/s" : "Myr/s";
    if (gc_app_henon(a))
        snprintf(clock, clock_size, "t = %.3f Henon units since the start", gc_sim_time(a->sim));
    else
        snprintf(clock, clock_size, "t = %.0f Myr since the start", gc_sim_time_myr(a->sim));
    next_text(a, next, next_size);
    /* The speed asked for; what the machine does when it cannot keep up (or when no speed
     * is asked: as fast as it goes). */
    if (a->input.paused)
        snprintf(speed, speed_size, "paused");
    else
        snprintf(speed, speed_size, "%s %.3g %s%s", pb->backwards ? "backwards" : "forwards",
                 (pb->limited || !(current_rate(a) > 0.0) ? pb->shown_rate : current_rate(a)) *
                     unit,
                 per,
                 pb->limited ? " (this machine's most)"
                 : pb->rate > 0.0 || !(pb->auto_rate > 0.0) ? "" : " (automatic)");
}

void gc_app_playback_measure(struct gc_app *a, double now)
{
    struct gc_app_playback *pb = &a->playback;
    const double t = gc_sim_time(a->sim);
    if (pb->rate_wall_t > 0.0 && now > pb->rate_wall_t)
        pb->shown_rate = fabs(t - pb->rate_sim_t) / (now - pb->rate_wall_t);
    pb->rate_sim_t = t;
    pb->rate_wall_t = now;
}
