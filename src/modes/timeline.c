/* The run's time line: advancing either way, measuring the galaxies for events beyond the computed horizon, going back (seek), --start-at. */
/* SPDX-License-Identifier: MIT */
#include "timeline.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "log.h"
#include "progress.h"

/* The galaxies are measured from at most this many bodies (as the viewer's camera does): the
 * nuclei's medians then cost little at any N. */
#define TRACK_SAMPLES 32768

static int block_steps(const struct gc_sim *sim)
{
    return gc_integrator_has(gc_sim_scheme(sim), GC_INTEGRATOR_BLOCK_STEPS);
}

/* How near a time the scheme lands: the leapfrog takes the whole steps nearest to it. */
static double slack(const struct gc_sim *sim, double t)
{
    return block_steps(sim) ? 1e-12 * fmax(1.0, fabs(t))
                            : 0.5 * fabs((double)gc_sim_params(sim)->dt);
}

/* The galaxies now, for the events. */
static enum gc_status sample(struct gc_timeline *tl, struct gc_sim *sim)
{
    enum gc_status st;
    if (!tl->events.pair)
        return GC_OK;
    st = gc_sim_download(sim, tl->scratch);
    if (st != GC_OK)
        return st;
    st = gc_track_measure(tl->scratch, TRACK_SAMPLES, &tl->track);
    tl->track_ok = st == GC_OK;
    if (st == GC_ERR_NOMEM)
        return st;
    if (tl->track_ok)
        gc_events_observe(&tl->events, gc_sim_time(sim), &tl->track);
    /* Each event once, when it is found (a passage inside the merger radius is known as one
     * only once the nuclei part again). */
    for (; tl->logged < tl->events.count; tl->logged++) {
        const struct gc_event *ev = &tl->events.list[tl->logged];
        char name[48];
        gc_event_name(ev, name, sizeof name);
        gc_log_info("event: %s at t = %.1f Myr (nuclei %s %.2f kpc), found at %.1f Myr",
                    name, ev->t * GC_MYR_PER_TIME_UNIT,
                    ev->kind == GC_EVENT_MERGER ? "within" : "apart by",
                    ev->separation * GC_KPC_PER_LENGTH_UNIT, gc_sim_time_myr(sim));
    }
    return GC_OK;
}

enum gc_status gc_timeline_init(struct gc_timeline *tl, struct gc_sim *sim,
                                const struct gc_bodies *initial, struct gc_bodies *scratch)
{
    memset(tl, 0, sizeof *tl);
    tl->scratch = scratch;
    tl->start = tl->horizon = gc_sim_time(sim);
    tl->next_sample = tl->start + GC_EVENTS_SAMPLE_T;
    if (scratch->n != initial->n) {
        gc_log_error("timeline: scratch bodies for %zu, the run has %zu", scratch->n,
                     initial->n);
        return GC_ERR_INVALID;
    }
    memcpy(scratch->tag, initial->tag, initial->n * sizeof *initial->tag);
    gc_events_init(&tl->events, initial);
    if (!tl->events.pair)
        return GC_OK;
    tl->track_ok = gc_track_measure(initial, TRACK_SAMPLES, &tl->track) == GC_OK;
    if (tl->track_ok)
        gc_events_observe(&tl->events, tl->start, &tl->track);
    return GC_OK;
}

/* The sign of the leapfrog's step for the way the run goes next. */
static enum gc_status heading(struct gc_sim *sim, int forward)
{
    const float dt = gc_sim_params(sim)->dt;
    if (block_steps(sim)) {
        if (forward)
            return GC_OK;
        gc_log_error("%s cannot run backwards (its block steps are not time-symmetric): go "
                     "back by a jump instead", gc_sim_scheme(sim)->name);
        return GC_ERR_UNSUPPORTED;
    }
    return (dt > 0.0f) == (forward != 0) ? GC_OK : gc_sim_set_dt(sim, -dt);
}

/* New ground: through the snapshot schedule, and the horizon moves with it (keyframes kept
 * on the way). */
static enum gc_status step_to(struct gc_timeline *tl, struct gc_sim *sim,
                              struct gc_snapshots *snaps, double t)
{
    enum gc_status st = snaps ? gc_snapshots_advance(snaps, sim, t) : gc_sim_advance(sim, t);
    tl->horizon = fmax(tl->horizon, gc_sim_time(sim));
    if (st == GC_OK && tl->keys)
        st = gc_keyframes_note(tl->keys);
    return st;
}

enum gc_status gc_timeline_keep(struct gc_timeline *tl, struct gc_sim *sim, size_t budget)
{
    enum gc_status st;
    struct gc_keyframes_info info;
    gc_keyframes_destroy(tl->keys);
    tl->keys = NULL;
    st = gc_keyframes_create(sim, budget, &tl->keys);
    if (st == GC_ERR_UNSUPPORTED) {
        gc_log_info("keyframes: off (this run's state cannot be kept: regularised close "
                    "groups or several ranks); going back starts over from the start");
        return GC_OK;
    }
    if (st != GC_OK)
        return st;
    gc_keyframes_info(tl->keys, &info);
    gc_log_info("keyframes: up to %zu states of %.3g MiB (%.4g MiB of %s memory)",
                info.capacity, (double)info.bytes_each / 1048576.0,
                (double)info.capacity * (double)info.bytes_each / 1048576.0,
                info.on_device ? "device" : "host");
    return GC_OK;
}

void gc_timeline_free(struct gc_timeline *tl)
{
    gc_keyframes_destroy(tl->keys);
    tl->keys = NULL;
}

enum gc_status gc_timeline_set_dt(struct gc_timeline *tl, struct gc_sim *sim, float dt)
{
    /* the sign stays the way the run goes */
    if (gc_sim_params(sim)->dt < 0.0f)
        dt = -dt;
    return tl->keys && dt > 0.0f && !tl->off_pass ? gc_keyframes_set_dt(tl->keys, dt)
                                                  : gc_sim_set_dt(sim, dt);
}

/* The first time of the grid start + k GC_EVENTS_SAMPLE_T later than x + sl. */
static double next_grid(const struct gc_timeline *tl, double x, double sl)
{
    const double k = floor((x + sl - tl->start) / GC_EVENTS_SAMPLE_T + 1e-9) + 1.0;
    return tl->start + k * GC_EVENTS_SAMPLE_T;
}

enum gc_status gc_timeline_advance(struct gc_timeline *tl, struct gc_sim *sim,
                                   struct gc_snapshots *snaps, double t)
{
    const double sl = slack(sim, t);
    enum gc_status st;
    if (t < tl->start)
        t = tl->start;
    if (t < gc_sim_time(sim) - sl) {
        st = heading(sim, 0);
        tl->off_pass = 1;
        return st != GC_OK ? st : gc_sim_advance(sim, t);
    }
    if (!(t > gc_sim_time(sim) + sl))
        return GC_OK;
    st = heading(sim, 1);
    /* forwards again after running backwards: back onto the first pass where it is */
    if (st == GC_OK && tl->keys && tl->off_pass) {
        st = gc_keyframes_seek(tl->keys, gc_sim_time(sim));
        tl->off_pass = st != GC_OK;
    }
    /* Forwards the run stops at every time of the sample grid, computed before or not, so
     * that going back and coming again splits the steps as the first pass did; beyond the
     * horizon it goes through the snapshot schedule and measures the galaxies there. */
    while (st == GC_OK) {
        const double now = gc_sim_time(sim);
        const int known = now < tl->horizon - sl; /* computed time: no snapshot, no event */
        double b = fmin(t, next_grid(tl, now, sl));
        if (!(t > now + sl))
            break;
        if (known && b > tl->horizon + sl)
            b = tl->horizon;
        st = known ? gc_sim_advance(sim, b) : step_to(tl, sim, snaps, b);
        if (st == GC_OK && !known && gc_sim_time(sim) >= tl->next_sample - sl) {
            st = sample(tl, sim);
            tl->next_sample = next_grid(tl, tl->horizon, sl);
        }
    }
    return st;
}

enum gc_status gc_timeline_seek(struct gc_timeline *tl, struct gc_sim *sim,
                                struct gc_snapshots *snaps, const struct gc_bodies *initial,
                                double t)
{
    enum gc_status st;
    if (t < tl->start)
        t = tl->start;
    /* Later than now, on the first pass: the run goes on from here, as it would have. */
    if (t >= gc_sim_time(sim) - slack(sim, t) && !tl->off_pass)
        return gc_timeline_advance(tl, sim, snaps, t);
    if (tl->keys) {
        /* computed time from the nearest keyframe; new ground as the run goes on */
        st = gc_keyframes_seek(tl->keys, fmin(t, tl->horizon));
        tl->off_pass = st != GC_OK;
        return st != GC_OK || t <= tl->horizon ? st : gc_timeline_advance(tl, sim, snaps, t);
    }
    st = gc_sim_reset(sim, initial);
    tl->off_pass = 0;
    return st != GC_OK ? st : gc_timeline_advance(tl, sim, snaps, t);
}

double gc_timeline_horizon(const struct gc_timeline *tl)
{
    return tl->horizon;
}

const struct gc_events *gc_timeline_events(const struct gc_timeline *tl)
{
    return &tl->events;
}

/* ---- --start-at ---- */

/* "123.4 Myr" or "1.234 Henon units". */
static void when_text(double t, int henon, char *buf, size_t cap)
{
    if (henon)
        snprintf(buf, cap, "%.4g Henon units", t);
    else
        snprintf(buf, cap, "%.1f Myr", t * GC_MYR_PER_TIME_UNIT);
}

/* A piece of a pre-run: `samples` sample intervals, and at least a step or two (a dt larger
 * than the piece would otherwise never move). */
static double piece(const struct gc_sim *sim, double samples)
{
    return fmax(samples * GC_EVENTS_SAMPLE_T, 1.5 * gc_sim_frame_dt(sim));
}

struct prerun {
    struct gc_progress progress;
    unsigned long long steps;  /* steps computed so far */
    unsigned long long last;   /* the simulation's count when last looked at */
    double t0;
    int henon;
};

static void prerun_count(struct prerun *p, const struct gc_sim *sim)
{
    struct gc_integrator_stats st;
    gc_sim_stats(sim, &st);
    /* a count that went down started over (a scheme made anew by going back to the start) */
    p->steps += (unsigned long long)st.computed >= p->last
                    ? (unsigned long long)st.computed - p->last
                    : (unsigned long long)st.computed;
    p->last = (unsigned long long)st.computed;
}

static void prerun_begin(struct prerun *p, struct gc_sim *sim, double target, int henon)
{
    const double span = target - gc_sim_time(sim);
    p->steps = p->last = 0;
    prerun_count(p, sim);
    p->steps = 0;
    p->t0 = gc_clock_seconds();
    p->henon = henon;
    /* Steps are known beforehand for the leapfrog going to a time; not for an event. */
    gc_progress_begin(&p->progress, gc_sim_scheme(sim)->step_noun,
                      target > 0.0 && !block_steps(sim)
                          ? (unsigned long long)llround(span / fabs((double)gc_sim_params(sim)->dt))
                          : 0,
                      10.0);
}

static void prerun_show(struct prerun *p, struct gc_sim *sim)
{
    char when[64];
    prerun_count(p, sim);
    if (!gc_progress_due(&p->progress))
        return;
    when_text(gc_sim_time(sim), p->henon, when, sizeof when);
    gc_progress_show(&p->progress, p->steps, when);
}

static void prerun_end(struct prerun *p, struct gc_sim *sim, const char *what)
{
    char when[64];
    const double took = gc_clock_seconds() - p->t0;
    gc_progress_end(&p->progress);
    prerun_count(p, sim);
    when_text(gc_sim_time(sim), p->henon, when, sizeof when);
    gc_log_info("start at %s: t = %s, reached without drawing in %.2f s (%llu %s%s)", what,
                when, took, p->steps, gc_sim_scheme(sim)->step_noun, gc_log_plural(p->steps));
}

/* Runs on, as far as it takes to see the event, then goes back to it. */
static enum gc_status start_at_event(struct gc_timeline *tl, struct gc_sim *sim,
                                     struct gc_snapshots *snaps, const struct gc_bodies *initial,
                                     const char *spec, enum gc_event_kind kind, int number)
{
    const struct gc_event *ev = NULL;
    struct gc_event probe = {kind, number, 0.0, 0.0f};
    struct prerun p;
    char name[48], when[64];
    enum gc_status st = GC_OK;
    gc_event_name(&probe, name, sizeof name);
    if (!tl->events.pair) {
        gc_log_error("--start-at %s: events are found in an encounter of two galaxies; this "
                     "run has none (give a time instead)", spec);
        return GC_ERR_INVALID;
    }
    prerun_begin(&p, sim, 0.0, 0);
    while (st == GC_OK && !(ev = gc_events_find(&tl->events, kind, number))) {
        const int passages = tl->events.count - (tl->events.merged ? 1 : 0);
        when_text(gc_sim_time(sim), 0, when, sizeof when);
        if (tl->events.merged) {
            gc_progress_end(&p.progress);
            gc_log_error("--start-at %s: the nuclei merged at %.0f Myr after %d passage%s: "
                         "there is no %s", spec,
                         tl->events.list[tl->events.count - 1].t * GC_MYR_PER_TIME_UNIT,
                         passages, gc_log_plural((unsigned long long)passages), name);
            return GC_ERR_INVALID;
        }
        if (tl->track_ok && gc_events_over(&tl->events, &tl->track)) {
            gc_progress_end(&p.progress);
            gc_log_error("--start-at %s: the galaxies fly apart on an unbound orbit after %d "
                         "passage%s (t = %s): there is no %s", spec, passages,
                         gc_log_plural((unsigned long long)passages), when, name);
            return GC_ERR_INVALID;
        }
        if (gc_sim_time(sim) - tl->start >= GC_EVENTS_LAST_T) {
            gc_progress_end(&p.progress);
            gc_log_error("--start-at %s: no %s by t = %s (%d passage%s so far)", spec, name,
                         when, passages, gc_log_plural((unsigned long long)passages));
            return GC_ERR_INVALID;
        }
        st = gc_timeline_advance(tl, sim, snaps, gc_sim_time(sim) + piece(sim, 1.0));
        prerun_show(&p, sim);
    }
    prerun_count(&p, sim);
    if (st == GC_OK)
        st = gc_timeline_seek(tl, sim, snaps, initial, ev->t);
    if (st == GC_OK)
        prerun_end(&p, sim, name);
    else
        gc_progress_end(&p.progress);
    return st;
}

enum gc_status gc_timeline_start_at(struct gc_timeline *tl, struct gc_sim *sim,
                                    struct gc_snapshots *snaps, const struct gc_bodies *initial,
                                    const char *spec, int henon)
{
    enum gc_event_kind kind;
    int number;
    char *end;
    double v, t;
    struct prerun p;
    enum gc_status st = GC_OK;
    if (gc_event_parse(spec, &kind, &number))
        return start_at_event(tl, sim, snaps, initial, spec, kind, number);
    errno = 0;
    v = strtod(spec, &end);
    if (end == spec || *end || errno || !isfinite(v) || v < 0.0) {
        gc_log_error("--start-at expects a time >= 0 in %s or an event (first-passage, "
                     "second-passage, ..., passage-N, merger), got '%s'",
                     henon ? "Henon units" : "Myr", spec);
        return GC_ERR_INVALID;
    }
    t = henon ? v : v / GC_MYR_PER_TIME_UNIT;
    if (t < tl->start - slack(sim, tl->start)) {
        char start[64];
        when_text(tl->start, henon, start, sizeof start);
        gc_log_error("--start-at %s: the run starts at t = %s (the snapshot's time); give a "
                     "later time", spec, start);
        return GC_ERR_INVALID;
    }
    prerun_begin(&p, sim, t, henon);
    /* Earlier than now (a second --start-at in a test, or a run already on): go back. */
    if (t < gc_sim_time(sim) - slack(sim, t))
        st = gc_timeline_seek(tl, sim, snaps, initial, t);
    /* In pieces, so the progress line moves. */
    while (st == GC_OK && gc_sim_time(sim) < t - slack(sim, t)) {
        st = gc_timeline_advance(tl, sim, snaps, fmin(t, gc_sim_time(sim) + piece(sim, 16.0)));
        prerun_show(&p, sim);
    }
    if (st == GC_OK) {
        char what[64];
        when_text(t, henon, what, sizeof what);
        prerun_end(&p, sim, what);
    } else {
        gc_progress_end(&p.progress);
    }
    return st;
}
