/* The run as every part of the viewer asks about it: its units and steps, its time and names in words, its state handed to the renderer, a failure reported once. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <GL/freeglut.h>
#include <stdio.h>
#include <string.h>

/* Star clusters (--model plummer, pythagorean) are in Henon units: their time is shown as
 * it is, not in Myr. */
int gc_app_henon(const struct gc_app *a)
{
    return a->opt->units == GC_UNITS_HENON;
}

/* Individual (block) time steps: no single dt to show or change. */
int gc_app_block_steps(const struct gc_app *a)
{
    return gc_integrator_has(gc_sim_scheme(a->sim), GC_INTEGRATOR_BLOCK_STEPS);
}

/* The simulated time for the HUD (style 0: "123.4 Myr"), the title and log (1: "123.4 Myr")
 * or --present (2: "123 million years into the simulation": time since the start, which
 * a listener must not take for time from today); Henon units say so (the HUD's shorter). */
void gc_app_time_text(const struct gc_app *a, int style, char *buf, size_t size)
{
    double t = gc_sim_time(a->sim);
    if (gc_app_henon(a))
        snprintf(buf, size, style == 2 ? "t = %.2f Henon units" : style == 1 ? "%.4g Henon units"
                                                                         : "%.4g Henon", t);
    else
        snprintf(buf, size, style == 2 ? "%.0f million years into the simulation" : "%.1f Myr",
                 t * GC_MYR_PER_TIME_UNIT);
}

const char *gc_app_galaxy_name(const struct gc_app *a, int g)
{
    static const char *const builtin[2] = {"Milky Way", "Andromeda"};
    static const char *const table[2] = {"Galaxy A", "Galaxy B"};
    if (gc_app_henon(a) || g < 0 || g > 1)
        return NULL;
    return a->opt->data ? table[g] : builtin[g];
}

void gc_app_scene_name(const struct gc_app *a, char *buf, size_t size)
{
    const char *what;
    if (a->opt->data) {
        const char *slash = strrchr(a->opt->data, '/');
        snprintf(buf, size, "%s (%zu bodies)", slash ? slash + 1 : a->opt->data, a->initial->n);
        return;
    }
    what = strcmp(a->opt->model, "mw-m31") == 0        ? "Milky Way and Andromeda"
           : strcmp(a->opt->model, "single") == 0      ? "a disk galaxy"
           : strncmp(a->opt->model, "plummer", 7) == 0 ? "a Plummer star cluster"
                                                       : "Burrau's three-body problem";
    snprintf(buf, size, "%s (%zu bodies)", what, a->initial->n);
}

/* The title is set from below the window (a failure, a reset, the rates): headless has none. */
void gc_app_window_title(struct gc_app *a, const char *text)
{
    if (!a->headless)
        glutSetWindowTitle(text);
}

void gc_app_window_scene_title(struct gc_app *a)
{
    char scene[200], title[240];
    gc_app_scene_name(a, scene, sizeof scene);
    snprintf(title, sizeof title, "galaxy: %s", scene);
    gc_app_window_title(a, title);
}

/* Backend -> render buffer -> VBO (the set the next draw reads). */
enum gc_status gc_app_export(struct gc_app *a)
{
    enum gc_status st = gc_sim_export(a->sim, gc_render_target(&a->picture.render));
    if (st == GC_OK)
        st = gc_render_upload(&a->picture.render);
    return st;
}

void gc_app_fail(struct gc_app *a, enum gc_status st, const char *what)
{
    if (a->failure != GC_OK)
        return;
    if (st == GC_ERR_INTERRUPTED) {
        /* Not a failure: a stop request, which the loops end on (gc_app_report_stop). */
        a->failure = st;
        return;
    }
    a->failure = st;
    a->input.paused = 1;
    /* The window stays open, paused, for a look at where it failed; headless ends. */
    snprintf(a->failure_msg, sizeof a->failure_msg, "%s failed: %s%s", what, gc_status_str(st),
             a->headless ? "" : " (paused; r resets)");
    gc_log_error("%s", a->failure_msg);
    gc_app_window_title(a, a->failure_msg);
}
