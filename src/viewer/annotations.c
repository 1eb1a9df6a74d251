/* What helps an audience read the picture: each galaxy's name beside it for the first seconds, a scale bar in kpc, a legend for the velocity and speed colours. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <stdio.h>

#include "legend.h"
#include "overlay.h"

/* The names stay this long, then fade out over LABEL_FADE_S (seconds of wall clock). */
#define LABEL_S 6.0
#define LABEL_FADE_S 2.0
/* The scale bar is at most this share of the picture's width. */
#define SCALE_SHARE 0.16

static const float SHADOW[4] = {0.0f, 0.0f, 0.0f, 0.7f}, TEXT[4] = {0.92f, 0.94f, 1.0f, 1.0f};

/* Text with a dark edge, readable over bright stars. */
static void shadowed(struct gc_hud *h, float x, float y, const char *s, const float c[4], float a)
{
    float sh[4] = {SHADOW[0], SHADOW[1], SHADOW[2], SHADOW[3] * a};
    float fg[4] = {c[0], c[1], c[2], c[3] * a};
    gc_hud_text(h, x + 1.0f, y + 1.0f, s, sh);
    gc_hud_text(h, x, y, s, fg);
}

static void labels(struct gc_app *a, const float view[16], const float proj[16], float s)
{
    static const float COLOUR[2][4] = {{0.75f, 0.85f, 1.0f, 1.0f}, {1.0f, 0.85f, 0.65f, 1.0f}};
    struct gc_hud *h = &a->picture.hud;
    struct gc_app_playback *pb = &a->playback;
    const double now = gc_clock_seconds();
    const struct gc_track *t;
    double age, alpha;
    if (pb->labels_from <= 0.0)
        pb->labels_from = now;
    age = now - pb->labels_from;
    alpha = age < LABEL_S ? 1.0 : 1.0 - (age - LABEL_S) / LABEL_FADE_S;
    if (!(alpha > 0.0) || !gc_app_galaxy_name(a, 0))
        return;
    t = gc_app_view_track(a);
    if (!t || t->galaxies != 2)
        return;
    for (int g = 0; g < 2; g++) {
        float at[2];
        const char *name = gc_app_galaxy_name(a, g);
        if (!gc_legend_to_screen(view, proj, t->centre[g], (float)a->picture.fb_w,
                                 (float)a->picture.fb_h, at))
            continue;
        /* Up and to the side of the nucleus, away from the other galaxy. */
        {
            float other[2], w = gc_hud_text_width(h, name);
            int left = gc_legend_to_screen(view, proj, t->centre[1 - g], (float)a->picture.fb_w,
                                           (float)a->picture.fb_h, other) && other[0] > at[0];
            float x = left ? at[0] - 14.0f * s - w : at[0] + 14.0f * s;
            gc_hud_line(h, at[0], at[1], left ? x + w : x, at[1] - 10.0f * s, 1.0f * s,
                        (const float[4]){COLOUR[g][0], COLOUR[g][1], COLOUR[g][2],
                                         (float)(0.6 * alpha)});
            shadowed(h, x, at[1] - 10.0f * s - gc_hud_line_height(h), name, COLOUR[g],
                     (float)alpha);
        }
    }
}

/* A round length at the depth of what the camera looks at, above the time line's right end. */
static void scale_bar(struct gc_app *a, float top, float s)
{
    struct gc_hud *h = &a->picture.hud;
    const struct gc_camera *c = &a->view.camera;
    const float fw = (float)a->picture.fb_w, fh = (float)a->picture.fb_h;
    const double px_per_unit = fh / (2.0 * c->distance * tan(0.5 * c->fovy));
    const int kpc = !gc_app_henon(a);
    const double unit = kpc ? GC_KPC_PER_LENGTH_UNIT : 1.0;
    const double len = gc_legend_round_length(SCALE_SHARE * fw / px_per_unit * unit);
    const float px = (float)(len / unit * px_per_unit), x1 = fw - 10.0f * s, y = top - 6.0f * s;
    char text[48];
    float w;
    if (!(len > 0.0) || !(px >= 2.0f))
        return;
    snprintf(text, sizeof text, kpc ? "%g kpc" : "%g Henon units", len);
    w = gc_hud_text_width(h, text);
    gc_hud_rect(h, x1 - px, y - 1.0f * s, px, 2.0f * s, TEXT);
    gc_hud_rect(h, x1 - px, y - 4.0f * s, 1.0f * s, 6.0f * s, TEXT);
    gc_hud_rect(h, x1 - 1.0f * s, y - 4.0f * s, 1.0f * s, 6.0f * s, TEXT);
    shadowed(h, x1 - 0.5f * px - 0.5f * w, y - 6.0f * s - gc_hud_line_height(h), text, TEXT,
             1.0f);
}

/* Speed: the ramp from still to its top speed, in km/s for galaxies. */
static void speed_legend(struct gc_app *a, float s)
{
    struct gc_hud *h = &a->picture.hud;
    const float x1 = (float)a->picture.fb_w - 10.0f * s, w = 110.0f * s, y = 10.0f * s;
    const float lh = gc_hud_line_height(h);
    const int segments = 32;
    /* One velocity unit: 3.2 kpc per 18 Myr, in km/s. */
    const double kms = GC_KPC_PER_LENGTH_UNIT * GC_CM_PER_KPC * 1e-5 /
                       (GC_MYR_PER_TIME_UNIT * GC_S_PER_MYR);
    const double top = a->picture.render.speed_scale * (gc_app_henon(a) ? 1.0 : kms);
    char text[48];
    shadowed(h, x1 - w, y, "speed", TEXT, 1.0f);
    for (int k = 0; k < segments; k++) {
        float c[4] = {0, 0, 0, 1};
        gc_legend_speed_colour(((float)k + 0.5f) / (float)segments, c);
        gc_hud_rect(h, x1 - w + w * (float)k / (float)segments, y + lh + 2.0f * s,
                    w / (float)segments + 0.5f, 5.0f * s, c);
    }
    shadowed(h, x1 - w, y + lh + 8.0f * s, "0", TEXT, 1.0f);
    snprintf(text, sizeof text, gc_app_henon(a) ? "%.2g" : "%.0f km/s", top);
    shadowed(h, x1 - gc_hud_text_width(h, text), y + lh + 8.0f * s, text, TEXT, 1.0f);
}

/* Velocity direction: a body moving along each arrow (the world's axes as seen now) has the
 * arrow's colour. */
static void velocity_legend(struct gc_app *a, const float view[16], const float proj[16],
                            float s)
{
    struct gc_hud *h = &a->picture.hud;
    const float fw = (float)a->picture.fb_w, fh = (float)a->picture.fb_h;
    const float r = 24.0f * s, ox = fw - 10.0f * s - 60.0f * s, oy = 14.0f * s + r;
    const float *t = a->view.camera.target;
    float o[2];
    const char *caption = "colour: direction of motion";
    if (!gc_legend_to_screen(view, proj, t, fw, fh, o))
        return;
    for (int k = 0; k < 3; k++)
        for (int sign = -1; sign <= 1; sign += 2) {
            float p[3] = {t[0], t[1], t[2]}, q[2], d[3] = {0, 0, 0}, c[4] = {0, 0, 0, 1};
            float dx, dy, l;
            p[k] += (float)sign * 0.1f * a->view.camera.distance;
            d[k] = (float)sign;
            if (!gc_legend_to_screen(view, proj, p, fw, fh, q))
                continue;
            dx = q[0] - o[0];
            dy = q[1] - o[1];
            l = sqrtf(dx * dx + dy * dy);
            if (!(l > 1e-3f))
                continue; /* the axis points at the eye */
            gc_legend_velocity_colour(d, c);
            gc_hud_line(h, ox, oy, ox + r * dx / l, oy + r * dy / l, 3.0f * s, c);
        }
    shadowed(h, fminf(ox - 0.5f * gc_hud_text_width(h, caption), fw - 10.0f * s -
                                                                     gc_hud_text_width(h, caption)),
             oy + r + 4.0f * s, caption, TEXT, 1.0f);
}

void gc_app_annotations_draw(struct gc_app *a, const float view[16], const float proj[16])
{
    struct gc_hud *h = &a->picture.hud;
    const float top = gc_app_timeline_bar_top(a), s = gc_overlay_scale(a->picture.fb_h);
    gc_hud_begin(h, a->picture.fb_w, a->picture.fb_h, s);
    labels(a, view, proj, s);
    scale_bar(a, top, s);
    if (a->picture.render.color_mode == GC_COLOR_SPEED)
        speed_legend(a, s);
    else if (a->picture.render.color_mode == GC_COLOR_VELOCITY)
        velocity_legend(a, view, proj, s);
    gc_hud_end(h);
}
