/* The encounter panel: rows of presets and values, their steps and ranges, keys and clicks, drawing. */
/* SPDX-License-Identifier: MIT */
#include "panel.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "scenario.h"
#include "units.h"

static const float WHITE[4] = {0.92f, 0.94f, 1.0f, 1.0f}, DIM[4] = {0.6f, 0.65f, 0.75f, 1.0f},
                   HEAD[4] = {1.0f, 0.75f, 0.4f, 1.0f}, WARN[4] = {1.0f, 0.45f, 0.35f, 1.0f},
                   PANEL[4] = {0.0f, 0.0f, 0.0f, 0.7f}, PICK[4] = {0.25f, 0.35f, 0.6f, 0.8f};

static const char *const labels[GC_PANEL_VALUES] = {
    "Mass ratio", "Pericentre", "Eccentricity", "Start apart",
    "Primary disk i", "Primary disk omega", "Companion disk i", "Companion disk omega"};

/* Companion:primary ratios the mass row steps through (1:k), light to heavy. */
static const double ratios[] = {20, 15, 10, 7, 5, 4, 3, 2.5, 2, 1.5, 1.25, 1};
#define NRATIOS (sizeof ratios / sizeof ratios[0])
#define ANGLE_STEP 15.0

static int rows(void)
{
    return (int)gc_scenario_count() + GC_PANEL_VALUES;
}

void gc_panel_init(struct gc_panel *p, size_t scenario, const struct gc_encounter *e)
{
    memset(p, 0, sizeof *p);
    p->scenario = scenario;
    p->row = (int)scenario;
    p->enc = *e;
    gc_panel_note(p, 0, "Enter: restart with these values");
}

void gc_panel_note(struct gc_panel *p, int warn, const char *text)
{
    snprintf(p->note, sizeof p->note, "%s", text);
    p->note_warn = warn;
}

static double clamp(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* One step of value v up (dir 1) or down (-1), stopping at its range. */
static void step_value(struct gc_panel *p, int v, int dir)
{
    struct gc_encounter *e = &p->enc;
    const double kpc = GC_KPC_PER_LENGTH_UNIT;
    double x;
    /* Today's pair as it is built (legacy): from here on, its values as a new encounter. */
    e->legacy = 0;
    switch (v) {
    case GC_PANEL_MASS_RATIO: {
        size_t k = 0;
        /* the listed ratio nearest to the current one, then one step */
        for (size_t i = 0; i < NRATIOS; i++)
            if (fabs(1.0 / ratios[i] - e->mass_ratio) < fabs(1.0 / ratios[k] - e->mass_ratio))
                k = i;
        if (dir > 0 && 1.0 / ratios[k] <= e->mass_ratio * (1.0 + 1e-9) && k + 1 < NRATIOS)
            k++;
        else if (dir < 0 && 1.0 / ratios[k] >= e->mass_ratio * (1.0 - 1e-9) && k > 0)
            k--;
        e->mass_ratio = 1.0 / ratios[k];
        break;
    }
    case GC_PANEL_PERICENTRE:
        /* finer steps at close passages: 0.5 kpc below 5, 1 below 20, then 5 */
        x = e->pericentre * kpc;
        x += dir * ((dir > 0 ? x < 5.0 : x <= 5.0) ? 0.5 : (dir > 0 ? x < 20.0 : x <= 20.0) ? 1.0
                                                                                      : 5.0);
        e->pericentre = clamp(x, GC_ENCOUNTER_RP_MIN_KPC, GC_ENCOUNTER_RP_MAX_KPC) / kpc;
        break;
    case GC_PANEL_ECCENTRICITY:
        e->eccentricity = clamp(e->eccentricity + 0.05 * dir, GC_ENCOUNTER_E_MIN,
                                GC_ENCOUNTER_E_MAX);
        break;
    case GC_PANEL_SEPARATION:
        /* from the default start when it is "auto" */
        x = gc_encounter_separation(e) * kpc + 8.0 * dir;
        e->separation = clamp(x, GC_ENCOUNTER_RP_MIN_KPC, GC_ENCOUNTER_SEP_MAX_KPC) / kpc;
        break;
    case GC_PANEL_PRIMARY_I:
        e->primary.incl = clamp(e->primary.incl + ANGLE_STEP * dir, 0.0, 180.0);
        break;
    case GC_PANEL_PRIMARY_OMEGA:
        e->primary.omega = clamp(e->primary.omega + ANGLE_STEP * dir, -180.0, 180.0);
        break;
    case GC_PANEL_COMPANION_I:
        e->companion.incl = clamp(e->companion.incl + ANGLE_STEP * dir, 0.0, 180.0);
        break;
    default:
        e->companion.omega = clamp(e->companion.omega + ANGLE_STEP * dir, -180.0, 180.0);
        break;
    }
    gc_panel_note(p, 0, "Enter: restart with these values");
}

/* Takes preset k's values. */
static void choose(struct gc_panel *p, size_t k)
{
    const struct gc_scenario *s = gc_scenario_at(k);
    char text[200];
    if (!s)
        return;
    p->scenario = k;
    gc_scenario_encounter(s, &p->enc);
    snprintf(text, sizeof text, "%s: Enter restarts with it", s->name);
    gc_panel_note(p, 0, text);
}

enum gc_panel_action gc_panel_key(struct gc_panel *p, int key)
{
    const int nscen = (int)gc_scenario_count();
    int dir = 0;
    if (!p->open)
        return GC_PANEL_NONE;
    switch (key) {
    case GC_PANEL_KEY_UP: p->row = (p->row + rows() - 1) % rows(); return GC_PANEL_CHANGED;
    case GC_PANEL_KEY_DOWN: p->row = (p->row + 1) % rows(); return GC_PANEL_CHANGED;
    case GC_PANEL_KEY_LEFT: dir = -1; break;
    case GC_PANEL_KEY_RIGHT: dir = 1; break;
    case '\r': case '\n':
        if (p->row < nscen && (size_t)p->row != p->scenario)
            choose(p, (size_t)p->row);
        return GC_PANEL_RESTART;
    default: return GC_PANEL_NONE;
    }
    if (p->row < nscen)
        choose(p, (size_t)p->row);
    else
        step_value(p, p->row - nscen, dir);
    return GC_PANEL_CHANGED;
}

/* The row under framebuffer pixel (x, y), or -1. */
static int row_at(const struct gc_panel *p, float x, float y)
{
    const int nscen = (int)gc_scenario_count();
    int line;
    if (!(p->line_h > 0.0f) || x < p->x || x > p->x + p->w || y < p->y)
        return -1;
    line = (int)((y - p->y) / p->line_h);
    if (line >= 1 && line <= nscen)
        return line - 1;
    if (line >= nscen + 2 && line < nscen + 2 + GC_PANEL_VALUES)
        return line - 2;
    return -1;
}

enum gc_panel_action gc_panel_mouse(struct gc_panel *p, int button, float x, float y)
{
    const int nscen = (int)gc_scenario_count();
    int r = p->open ? row_at(p, x, y) : -1;
    if (r < 0) {
        /* over the panel but not on a row: still the panel's (no zoom or drag through it) */
        return p->open && p->line_h > 0.0f && x >= p->x && x <= p->x + p->w && y >= p->y &&
                       y <= p->y + p->h
                   ? GC_PANEL_CHANGED
                   : GC_PANEL_NONE;
    }
    if (button == 0) {
        p->row = r;
        if (r < nscen)
            choose(p, (size_t)r);
    } else if ((button == 3 || button == 4) && r >= nscen) {
        p->row = r;
        step_value(p, r - nscen, button == 3 ? 1 : -1);
    }
    return GC_PANEL_CHANGED;
}

/* Row v's value as shown. */
static void value_text(const struct gc_encounter *e, int v, char *buf, size_t size)
{
    const double kpc = GC_KPC_PER_LENGTH_UNIT;
    switch (v) {
    case GC_PANEL_MASS_RATIO: snprintf(buf, size, "1:%.3g", 1.0 / e->mass_ratio); break;
    case GC_PANEL_PERICENTRE: snprintf(buf, size, "%.3g kpc", e->pericentre * kpc); break;
    case GC_PANEL_ECCENTRICITY:
        snprintf(buf, size, "%.3g%s", e->eccentricity,
                 e->eccentricity == 1.0 ? " (parabolic)"
                 : e->eccentricity < 1.0 ? " (bound)" : " (hyperbolic)");
        break;
    case GC_PANEL_SEPARATION:
        snprintf(buf, size, "%.3g kpc%s", gc_encounter_separation(e) * kpc,
                 e->separation > 0.0 ? "" : " (auto)");
        break;
    case GC_PANEL_PRIMARY_I: snprintf(buf, size, "%.0f deg", e->primary.incl); break;
    case GC_PANEL_PRIMARY_OMEGA: snprintf(buf, size, "%.0f deg", e->primary.omega); break;
    case GC_PANEL_COMPANION_I: snprintf(buf, size, "%.0f deg", e->companion.incl); break;
    default: snprintf(buf, size, "%.0f deg", e->companion.omega); break;
    }
}

/* Splits the note into lines no wider than w (at spaces); returns how many (at most max). */
static int wrap(struct gc_hud *h, const char *note, float w, char lines[][240], int max)
{
    int n = 0;
    const char *at = note;
    while (*at && n < max) {
        size_t best = strlen(at);
        char buf[240];
        snprintf(buf, sizeof buf, "%s", at);
        while (gc_hud_text_width(h, buf) > w) {
            char *sp = strrchr(buf, ' ');
            if (!sp || sp == buf)
                break;
            *sp = '\0';
        }
        best = strlen(buf);
        snprintf(lines[n++], sizeof lines[0], "%s", buf);
        at += best;
        while (*at == ' ')
            at++;
    }
    return n;
}

void gc_panel_draw(struct gc_panel *p, struct gc_hud *h, int fb_w, int fb_h)
{
    static const char help[] = "Up/Down choose, Left/Right change, Enter restart";
    const int nscen = (int)gc_scenario_count();
    const struct gc_scenario *cur = gc_scenario_at(p->scenario);
    struct gc_encounter base;
    char text[GC_PANEL_VALUES][64], head[160], note[4][240];
    float scale = fmaxf(1.0f, (float)fb_h / 400.0f), lh, pad, lw = 0.0f, vw = 0.0f, gap;
    int nnote, nlines;
    gc_hud_begin(h, fb_w, fb_h, scale);
    lh = gc_hud_line_height(h);
    pad = 6.0f * scale;
    gap = 1.5f * gc_hud_text_width(h, "M");
    gc_scenario_encounter(cur, &base);
    snprintf(head, sizeof head, "Values (%s%s)", cur->name,
             gc_encounter_same(&p->enc, &base) ? "" : ", changed");
    for (int v = 0; v < GC_PANEL_VALUES; v++) {
        value_text(&p->enc, v, text[v], sizeof text[v]);
        lw = fmaxf(lw, gc_hud_text_width(h, labels[v]));
        vw = fmaxf(vw, gc_hud_text_width(h, text[v]));
    }
    p->w = fmaxf(lw + gap + vw, gc_hud_text_width(h, help));
    for (int k = 0; k < nscen; k++) {
        const struct gc_scenario *s = gc_scenario_at((size_t)k);
        p->w = fmaxf(p->w, gc_hud_text_width(h, "* ") + gc_hud_text_width(h, s->name) + gap +
                               gc_hud_text_width(h, s->title));
    }
    p->w = fminf(p->w, 0.6f * (float)fb_w);
    p->x = (float)fb_w - p->w - 2.0f * pad;
    p->y = 2.0f * pad;
    p->line_h = lh;
    nnote = wrap(h, p->note, p->w, note, 4);
    nlines = 3 + nscen + GC_PANEL_VALUES + nnote;
    p->h = (float)nlines * lh;
    gc_hud_rect(h, p->x - pad, p->y - pad, p->w + 2.0f * pad, p->h + 2.0f * pad, PANEL);
    gc_hud_rect(h, p->x - 0.5f * pad, p->y + (float)(p->row < nscen ? 1 + p->row : 2 + p->row) * lh,
                p->w + pad, lh, PICK);
    gc_hud_text(h, p->x, p->y, "Encounter (E closes, W saves the scene)", HEAD);
    for (int k = 0; k < nscen; k++) {
        const struct gc_scenario *s = gc_scenario_at((size_t)k);
        float y = p->y + (float)(1 + k) * lh, w = gc_hud_text_width(h, "* ");
        if ((size_t)k == p->scenario)
            gc_hud_text(h, p->x, y, "*", WHITE);
        w += gc_hud_text(h, p->x + w, y, s->name, WHITE);
        gc_hud_text(h, p->x + w + gap, y, s->title, DIM);
    }
    gc_hud_text(h, p->x, p->y + (float)(1 + nscen) * lh, head, HEAD);
    for (int v = 0; v < GC_PANEL_VALUES; v++) {
        float y = p->y + (float)(2 + nscen + v) * lh;
        gc_hud_text(h, p->x, y, labels[v], WHITE);
        gc_hud_text(h, p->x + lw + gap, y, text[v], WHITE);
    }
    gc_hud_text(h, p->x, p->y + (float)(2 + nscen + GC_PANEL_VALUES) * lh, help, DIM);
    for (int k = 0; k < nnote; k++)
        gc_hud_text(h, p->x, p->y + (float)(3 + nscen + GC_PANEL_VALUES + k) * lh, note[k],
                    p->note_warn ? WARN : WHITE);
    gc_hud_end(h);
}
