/* The encounter panel: the presets and the encounter's values, chosen and changed by keys and the mouse, drawn as HUD text. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_PANEL_H
#define GC_PANEL_H

#include <stddef.h>

#include "encounter.h"
#include "hud.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Rows after the presets: the values one can change. */
enum gc_panel_value {
    GC_PANEL_MASS_RATIO = 0,
    GC_PANEL_PERICENTRE,
    GC_PANEL_ECCENTRICITY,
    GC_PANEL_SEPARATION,
    GC_PANEL_PRIMARY_I,
    GC_PANEL_PRIMARY_OMEGA,
    GC_PANEL_COMPANION_I,
    GC_PANEL_COMPANION_OMEGA,
    GC_PANEL_VALUES
};

/* What a key or click asks of the app. */
enum gc_panel_action {
    GC_PANEL_NONE = 0,  /* not the panel's: the key does what it does elsewhere */
    GC_PANEL_CHANGED,   /* the panel changed (redraw) */
    GC_PANEL_RESTART    /* restart with the panel's encounter */
};

/* Keys of the panel besides characters (the window maps GLUT's special keys to these). */
enum gc_panel_key {
    GC_PANEL_KEY_UP = 0x100,
    GC_PANEL_KEY_DOWN,
    GC_PANEL_KEY_LEFT,
    GC_PANEL_KEY_RIGHT
};

struct gc_panel {
    int open;                  /* shown (key e) */
    int row;                   /* selected: presets 0 .. count-1, then the values */
    size_t scenario;           /* the preset the values start from */
    struct gc_encounter enc;   /* the values shown (the running encounter until changed) */
    char note[240];            /* the bottom line: what Enter does, a refusal, progress */
    int note_warn;             /* draw the note as a warning */
    float x, y, w, h, line_h;  /* where it was last drawn, framebuffer pixels (for clicks);
                                * line_h 0 = not drawn yet */
};

/* Starts closed, on preset `scenario` (index) with values e. */
void gc_panel_init(struct gc_panel *p, size_t scenario, const struct gc_encounter *e);
/* A key while the panel is open: up/down choose a row, left/right change the value (a
 * preset row: take that preset's values), Enter (13) restarts. Values stop at their ranges. */
enum gc_panel_action gc_panel_key(struct gc_panel *p, int key);
/* A click (button 0) or wheel (3 up, 4 down) at framebuffer pixel (x, y); NONE outside. */
enum gc_panel_action gc_panel_mouse(struct gc_panel *p, int button, float x, float y);
/* Sets the bottom line. */
void gc_panel_note(struct gc_panel *p, int warn, const char *text);
/* Draws the panel on the right of a fb_w x fb_h framebuffer. */
void gc_panel_draw(struct gc_panel *p, struct gc_hud *h, int fb_w, int fb_h);

#ifdef __cplusplus
}
#endif
#endif
