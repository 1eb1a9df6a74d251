/* The viewer's encounter: its panel's keys and clicks, the restart with a new encounter, scenes saved from the window. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "initial.h"
#include "log.h"
#include "scenario.h"
#include "screenshot.h"

#define PI_F 3.14159265358979f

/* Index of word in a '|'-separated list, or -1. */
static int word_index(const char *list, const char *word)
{
    size_t len = strlen(word);
    int k = 0;
    for (const char *c = list; *c; k++) {
        const char *e = strchr(c, '|');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == len && strncmp(c, word, n) == 0)
            return k;
        c += n + (e ? 1 : 0);
    }
    return -1;
}

/* The k-th word of a '|'-separated list into buf. */
static const char *word_at(const char *list, int k, char *buf, size_t size)
{
    const char *c = list;
    for (int i = 0; i < k && c; i++) {
        c = strchr(c, '|');
        c = c ? c + 1 : NULL;
    }
    if (!c)
        return NULL;
    size_t n = strchr(c, '|') ? (size_t)(strchr(c, '|') - c) : strlen(c);
    snprintf(buf, size, "%.*s", (int)n, c);
    return buf;
}

void gc_app_scene_init(struct gc_app *a)
{
    struct gc_app_scene *s = &a->scene;
    const struct gc_options *o = a->opt;
    const struct gc_scenario *sc = gc_scenario_find(o->scenario);
    memset(s, 0, sizeof *s);
    s->pair = !o->data && strcmp(o->model, GC_DEFAULT_MODEL) == 0;
    s->running = o->encounter;
    s->scenario = sc ? sc->name : "mw-m31";
    s->title = o->title;
    gc_panel_init(&s->panel, sc ? (size_t)(sc - gc_scenario_at(0)) : 0, &o->encounter);
}

void gc_app_scene_free(struct gc_app *a)
{
    gc_bodies_free(&a->scene.own);
}

/* --draw and --colour (a scene's view) onto the renderer, once it exists. */
void gc_app_scene_modes(struct gc_app *a)
{
    struct gc_render *r = &a->picture.render;
    int k;
    if (a->opt->draw && (k = word_index(GC_DRAW_NAMES, a->opt->draw)) >= 0)
        r->draw_mode = (enum gc_draw_mode)k;
    if (a->opt->colour && (k = word_index(GC_COLOUR_NAMES, a->opt->colour)) >= 0) {
        if (k == GC_COLOR_LEVEL && !gc_app_block_steps(a))
            gc_log_warn("--colour level shows Hermite time-step levels; %s has one shared step: "
                        "stellar colours instead", gc_sim_scheme(a->sim)->name);
        else
            r->color_mode = (enum gc_color_mode)k;
    }
}

/* ---- saving a scene (key w) ---- */

static void save_scene(struct gc_app *a)
{
    const struct gc_app_picture *p = &a->picture;
    const struct gc_camera *c = &a->view.camera;
    struct gc_scene sc;
    char path[4096], draw[32], colour[32];
    if (!a->scene.pair) {
        gc_log_warn("a scene records the built-in pair's encounter; this run %s%s is not one",
                    a->opt->data ? "reads " : "is --model ",
                    a->opt->data ? a->opt->data : a->opt->model);
        return;
    }
    gc_scene_from_options(a->opt, a->initial->n, &sc);
    sc.scenario = a->scene.scenario;
    sc.encounter = a->scene.running;
    sc.camera_given = 1;
    sc.camera[0] = c->yaw * 180.0f / PI_F;
    sc.camera[1] = c->pitch * 180.0f / PI_F;
    sc.camera[2] = c->distance;
    for (int k = 0; k < 3; k++)
        sc.camera[3 + k] = c->target[k];
    sc.draw = word_at(GC_DRAW_NAMES, (int)p->render.draw_mode, draw, sizeof draw);
    sc.colour = word_at(GC_COLOUR_NAMES, (int)p->render.color_mode, colour, sizeof colour);
    sc.exposure = p->exposure.manual ? p->exposure.ev : NAN;
    if (gc_screenshot_name(path, sizeof path, a->opt->screenshot_dir,
                           a->picture.screenshot_seq++, "ini") == GC_OK)
        (void)gc_scene_write(path, &sc); /* a failure is logged; the viewer goes on */
}

/* ---- the panel and the restart ---- */

static void toggle_panel(struct gc_app *a)
{
    struct gc_panel *pn = &a->scene.panel;
    if (!a->scene.pair) {
        gc_log_warn("the encounter panel sets up the built-in galaxy pair; this run %s%s is not "
                    "one", a->opt->data ? "reads " : "is --model ",
                    a->opt->data ? a->opt->data : a->opt->model);
        return;
    }
    pn->open = !pn->open;
    if (pn->open && !a->scene.rebuild) {
        /* from what runs now */
        const struct gc_scenario *sc = gc_scenario_find(a->scene.scenario);
        gc_panel_init(pn, sc ? (size_t)(sc - gc_scenario_at(0)) : 0, &a->scene.running);
        pn->open = 1;
    }
}

/* Enter: check, say so on screen, and build at the next idle (after that frame is shown). */
static void request_restart(struct gc_app *a)
{
    struct gc_panel *pn = &a->scene.panel;
    char why[320], text[400];
    if (gc_encounter_check(&pn->enc, why, sizeof why) != GC_OK) {
        snprintf(text, sizeof text, "Cannot start: %s", why);
        gc_panel_note(pn, 1, text);
        gc_log_warn("encounter panel: %s", text);
        return;
    }
    snprintf(text, sizeof text, "Building %zu bodies of %s...", a->initial->n,
             gc_scenario_at(pn->scenario)->name);
    gc_panel_note(pn, 0, text);
    a->scene.rebuild = 2;
    a->scene.key_t = gc_clock_seconds();
}

int gc_app_scene_key(struct gc_app *a, int key)
{
    struct gc_panel *pn = &a->scene.panel;
    enum gc_panel_action act;
    if (key == 'e' || key == 'E') {
        toggle_panel(a);
        return 1;
    }
    if (key == 'w' || key == 'W') {
        save_scene(a);
        return 1;
    }
    if (a->scene.rebuild)
        return pn->open; /* one restart at a time */
    act = gc_panel_key(pn, key);
    if (act == GC_PANEL_RESTART)
        request_restart(a);
    return act != GC_PANEL_NONE;
}

int gc_app_scene_mouse(struct gc_app *a, int button, int x, int y)
{
    enum gc_panel_action act;
    if (!a->scene.panel.open || a->scene.rebuild)
        return 0;
    act = gc_panel_mouse(&a->scene.panel, button, (float)x, (float)y);
    return act != GC_PANEL_NONE;
}

void gc_app_scene_idle(struct gc_app *a)
{
    struct gc_app_scene *s = &a->scene;
    struct gc_panel *pn = &s->panel;
    const struct gc_scenario *sc = gc_scenario_at(pn->scenario);
    struct gc_bodies built;
    struct gc_encounter base;
    char text[240];
    double t_built, t_up;
    enum gc_status st;
    if (s->restarted_at && a->frames.drawn > s->restarted_at) {
        gc_log_info("restart: the new run's first frame was drawn %.2f s after the key",
                    gc_clock_seconds() - s->key_t);
        s->restarted_at = 0;
    }
    /* 2: the frame showing "Building..." is still to be drawn */
    if (s->rebuild != 1) {
        if (s->rebuild == 2)
            s->rebuild = 1;
        return;
    }
    s->rebuild = 0;
    st = gc_initial_encounter(sc->name, &pn->enc, a->initial->n, a->opt->seed, &built);
    if (st != GC_OK) {
        snprintf(text, sizeof text, "Building failed: %s (the run goes on)", gc_status_str(st));
        gc_panel_note(pn, 1, text);
        return;
    }
    t_built = gc_clock_seconds();
    gc_bodies_free(&s->own);
    s->own = built;
    a->initial = &s->own;
    s->running = pn->enc;
    s->scenario = sc->name;
    gc_scenario_encounter(sc, &base);
    if (!gc_cli_given(a->opt, "--title"))
        s->title = gc_encounter_same(&s->running, &base) ? sc->title : "Galaxies collide";
    /* New bodies, same N and layout: the home view and track afresh, then the reset the r
     * key does (upload, camera, exposure). */
    gc_app_view_init(a);
    gc_app_reset(a);
    t_up = gc_clock_seconds();
    if (a->stats.energy_state > 0) {
        a->stats.energy_state = 0;
        gc_app_energy_measure(a, t_up);
    }
    gc_log_info("restart: %s%s, %zu bodies: built in %.2f s, uploaded in %.2f s; running "
                "%.2f s after the key", sc->name,
                gc_encounter_same(&s->running, &base) ? "" : " (changed)", a->initial->n,
                t_built - s->key_t, t_up - t_built, t_up - s->key_t);
    s->restarted_at = a->frames.drawn;
    snprintf(text, sizeof text, "Restarted: %s (%.1f s)", sc->name, t_up - s->key_t);
    gc_panel_note(pn, 0, text);
}

void gc_app_scene_draw(struct gc_app *a)
{
    if (a->scene.panel.open)
        gc_panel_draw(&a->scene.panel, &a->picture.hud, a->picture.fb_w, a->picture.fb_h);
}
