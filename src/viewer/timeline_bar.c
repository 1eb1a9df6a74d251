/* The time line at the bottom of the window: the run computed so far with its events, where it is now, the clock, the speed, warnings and notes. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <stdio.h>

#include "overlay.h"

static const float TEXT[4] = {0.92f, 0.94f, 1.0f, 1.0f}, SOFT[4] = {0.62f, 0.78f, 1.0f, 1.0f},
                   WARN[4] = {1.0f, 0.55f, 0.4f, 1.0f}, BACK[4] = {0.0f, 0.0f, 0.0f, 0.5f},
                   TRACK[4] = {0.22f, 0.24f, 0.3f, 0.9f}, DONE[4] = {0.42f, 0.48f, 0.6f, 1.0f},
                   NOW[4] = {1.0f, 1.0f, 1.0f, 1.0f}, PASSAGE[4] = {0.55f, 0.8f, 1.0f, 1.0f},
                   MERGER[4] = {1.0f, 0.7f, 0.3f, 1.0f}, AHEAD[4] = {0.55f, 0.8f, 1.0f, 0.45f};

struct layout {
    float s, lh;           /* text scale, line height (pixels) */
    float x0, x1;          /* the bar's ends */
    float y_text, y_bar, y_names, bar_h, top;
};

static void layout(const struct gc_app *a, const struct gc_hud *h, struct layout *l)
{
    const float w = (float)a->picture.fb_w, hh = (float)a->picture.fb_h;
    l->s = gc_overlay_scale(a->picture.fb_h);
    l->lh = gc_hud_line_height(h);
    l->x0 = 10.0f * l->s;
    l->x1 = w - 10.0f * l->s;
    l->bar_h = 3.0f * l->s;
    l->y_names = hh - 3.0f * l->s - l->lh;
    l->y_bar = l->y_names - 2.0f * l->s - l->bar_h;
    l->y_text = l->y_bar - 4.0f * l->s - l->lh;
    l->top = l->y_text - 3.0f * l->s;
}

float gc_app_timeline_bar_top(struct gc_app *a)
{
    struct layout l;
    gc_hud_begin(&a->picture.hud, a->picture.fb_w, a->picture.fb_h,
                 gc_overlay_scale(a->picture.fb_h));
    layout(a, &a->picture.hud, &l);
    return l.top;
}

double gc_app_timeline_bar_time(struct gc_app *a, float x, float y)
{
    struct layout l;
    double start, end;
    if (a->headless || !a->picture.guides || a->picture.present_hud)
        return -1.0;
    gc_hud_begin(&a->picture.hud, a->picture.fb_w, a->picture.fb_h,
                 gc_overlay_scale(a->picture.fb_h));
    layout(a, &a->picture.hud, &l);
    if (y < l.top || x < l.x0 - 4.0f * l.s || x > l.x1 + 4.0f * l.s)
        return -1.0;
    gc_app_timeline_span(a, &start, &end);
    return start + fmin(1.0, fmax(0.0, (double)(x - l.x0) / (l.x1 - l.x0))) * (end - start);
}

static float at(const struct layout *l, double t, double start, double end)
{
    const double f = end > start ? (t - start) / (end - start) : 0.0;
    return l->x0 + (float)fmin(1.0, fmax(0.0, f)) * (l->x1 - l->x0);
}

/* The events as ticks on the bar, their names under them where they do not overlap. */
static void events_on_bar(struct gc_app *a, const struct layout *l, double start, double end)
{
    struct gc_hud *h = &a->picture.hud;
    const struct gc_events *e = gc_timeline_events(&a->playback.timeline);
    float free_x = l->x0;
    int number;
    const double ahead = gc_app_predicted_passage(a, &number);
    for (int k = 0; k <= e->count; k++) {
        const struct gc_event *ev = k < e->count ? &e->list[k] : NULL;
        struct gc_event probe = {GC_EVENT_PASSAGE, number, ahead, 0.0f};
        const float *c = !ev ? AHEAD : ev->kind == GC_EVENT_MERGER ? MERGER : PASSAGE;
        char name[48];
        float x, tw;
        if (!ev && !(ahead > 0.0))
            break;
        if (!ev)
            ev = &probe;
        x = at(l, ev->t, start, end);
        gc_hud_rect(h, x - 0.75f * l->s, l->y_bar - 1.5f * l->s, 1.5f * l->s,
                    l->bar_h + 3.0f * l->s, c);
        gc_event_name(ev, name, sizeof name);
        tw = gc_hud_text_width(h, name);
        x = fminf(fmaxf(x - 0.5f * tw, l->x0), l->x1 - tw);
        if (x < free_x)
            continue;
        gc_hud_text(h, x, l->y_names, name, c);
        free_x = x + tw + gc_hud_text_width(h, "  ");
    }
}

/* Lines above the strip: a failure, a step outside the accurate range, the latest note. */
static void messages(struct gc_app *a, const struct layout *l)
{
    struct gc_hud *h = &a->picture.hud;
    const struct gc_app_playback *pb = &a->playback;
    const double dt = fabs((double)gc_sim_params(a->sim)->dt);
    char lines[3][240];
    int warn[3], n = 0;
    if (a->failure != GC_OK && a->failure != GC_ERR_INTERRUPTED) {
        snprintf(lines[n], sizeof lines[0], "%s", a->failure_msg);
        warn[n++] = 1;
    }
    if (!gc_app_henon(a) && !gc_app_block_steps(a) && dt > GC_DT_ACCURATE_MAX) {
        snprintf(lines[n], sizeof lines[0],
                 "dt = %g (%.2g Myr) is above %g: the energy error grows ([ halves it; "
                 "docs/physics.md)", dt, dt * GC_MYR_PER_TIME_UNIT, (double)GC_DT_ACCURATE_MAX);
        warn[n++] = 1;
    }
    if (pb->note[0] && gc_clock_seconds() < pb->note_until) {
        snprintf(lines[n], sizeof lines[0], "%s", pb->note);
        warn[n++] = pb->note_warn;
    }
    for (int k = 0; k < n; k++) {
        const float y = l->top - (float)(n - k) * (l->lh + 2.0f * l->s);
        const float w = gc_hud_text_width(h, lines[k]);
        gc_hud_rect(h, l->x0 - 3.0f * l->s, y - 1.0f * l->s, w + 6.0f * l->s,
                    l->lh + 2.0f * l->s, BACK);
        gc_hud_text(h, l->x0, y, lines[k], warn[k] ? WARN : TEXT);
    }
}

void gc_app_timeline_bar_draw(struct gc_app *a)
{
    struct gc_hud *h = &a->picture.hud;
    const int fw = a->picture.fb_w, fh = a->picture.fb_h;
    struct layout l;
    char clock[96], next[96], speed[96], right[140];
    double start, end;
    float x, w;
    gc_hud_begin(h, fw, fh, gc_overlay_scale(fh));
    layout(a, h, &l);
    gc_app_timeline_span(a, &start, &end);
    gc_hud_rect(h, 0.0f, l.top, (float)fw, (float)fh - l.top, BACK);
    /* The bar: what may come, what is computed, where the run is. */
    gc_hud_rect(h, l.x0, l.y_bar, l.x1 - l.x0, l.bar_h, TRACK);
    x = at(&l, gc_timeline_horizon(&a->playback.timeline), start, end);
    gc_hud_rect(h, l.x0, l.y_bar, x - l.x0, l.bar_h, DONE);
    events_on_bar(a, &l, start, end);
    x = at(&l, gc_sim_time(a->sim), start, end);
    gc_hud_rect(h, x - 1.5f * l.s, l.y_bar - 3.0f * l.s, 3.0f * l.s, l.bar_h + 6.0f * l.s, NOW);
    /* The clock and what comes next on the left, the speed on the right. */
    gc_app_clock_text(a, clock, sizeof clock, next, sizeof next, speed, sizeof speed);
    x = l.x0 + gc_hud_text(h, l.x0, l.y_text, clock, TEXT);
    if (next[0])
        gc_hud_text(h, x + gc_hud_text_width(h, "   "), l.y_text, next, SOFT);
    snprintf(right, sizeof right, "%s      h: help", speed);
    w = gc_hud_text_width(h, right);
    gc_hud_text(h, l.x1 - w, l.y_text, right, TEXT);
    messages(a, &l);
    gc_hud_end(h);
}
