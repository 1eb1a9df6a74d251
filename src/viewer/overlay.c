/* The text panels on top of the picture: statistics, help, presentation title and time, recording mark. */
/* SPDX-License-Identifier: MIT */
#include "overlay.h"

#include <math.h>
#include <stdio.h>

static const float WHITE[4] = {0.92f, 0.94f, 1.0f, 1.0f}, DIM[4] = {0.6f, 0.65f, 0.75f, 1.0f},
                   WARN[4] = {1.0f, 0.45f, 0.35f, 1.0f}, PANEL[4] = {0.0f, 0.0f, 0.0f, 0.6f};

float gc_overlay_scale(int fb_h)
{
    return fmaxf(1.0f, (float)fb_h / 400.0f);
}

void gc_overlay_stats(struct gc_hud *h, int fb_w, int fb_h, const struct gc_overlay_info *i)
{
    float scale = gc_overlay_scale(fb_h);
    char lines[12][200];
    int nl = 0;
    float lh, x, y, w = 0.0f;
    gc_hud_begin(h, fb_w, fb_h, scale);
    lh = gc_hud_line_height(h);
    snprintf(lines[nl++], sizeof lines[0], "N %zu   backend %s (%s)", i->n, i->backend, i->device);
    snprintf(lines[nl++], sizeof lines[0], "%.1f fps   %.1f %s/s   %s", i->fps, i->sps,
             i->block_steps ? "block steps" : "steps", i->integrator);
    if (i->tree) {
        snprintf(lines[nl++], sizeof lines[0], "Tree theta %.2f   build %.2f ms   walk %.2f ms",
                 i->theta, i->tree_build_ms, i->tree_walk_ms);
        snprintf(lines[nl++], sizeof lines[0],
                 "(%.0f interactions a body, %.3g/s; %.0f cells by expansion)",
                 i->tree_interactions, i->ips, i->tree_local);
    } else {
        snprintf(lines[nl++], sizeof lines[0], "%.3g interactions/s   %.2f GFLOP/s", i->ips,
                 i->flops * i->ips * 1e-9);
        snprintf(lines[nl++], sizeof lines[0], "(GFLOP/s at %.0f flops per interaction)",
                 i->flops);
    }
    if (i->block_steps)
        snprintf(lines[nl++], sizeof lines[0], "t %s   block step %llu   active %llu/%zu",
                 i->time, i->steps, i->active, i->n);
    else
        snprintf(lines[nl++], sizeof lines[0], "t %s   dt %g (%.3g Myr)   step %llu", i->time,
                 i->dt, i->dt_myr, i->steps);
    if (i->groups_on && i->have_binary)
        snprintf(lines[nl++], sizeof lines[0],
                 "Groups %zu (%zu bodies)   hardest binary a %.3g e %.4f", i->groups,
                 i->group_members, i->binary_a, i->binary_e);
    else if (i->groups_on)
        snprintf(lines[nl++], sizeof lines[0], "Groups %zu (%zu bodies)", i->groups,
                 i->group_members);
    if (i->energy_state > 0)
        snprintf(lines[nl++], sizeof lines[0], "Energy drift dE/|E0| %+.2e", i->drift);
    else
        snprintf(lines[nl++], sizeof lines[0], "Energy drift: off for this N on %s", i->backend);
    snprintf(lines[nl++], sizeof lines[0], "Draw %s   colour %s   size x%.2f", i->draw_mode,
             i->color_mode, i->size_factor);
    snprintf(lines[nl++], sizeof lines[0], "Show %s   exposure EV %+.1f %s   glow %s", i->halo_view,
             i->ev, i->ev_manual ? "(locked)" : "(auto)", i->glow ? "on" : "off");
    snprintf(lines[nl++], sizeof lines[0], "View %s%s", i->view, i->orbit ? "   auto-orbit" : "");
    snprintf(lines[nl++], sizeof lines[0], "%s", i->last_line);
    for (int k = 0; k < nl; k++)
        w = fmaxf(w, gc_hud_text_width(h, lines[k]));
    x = 6.0f * scale;
    y = 6.0f * scale;
    gc_hud_rect(h, x - 4.0f * scale, y - 3.0f * scale, w + 8.0f * scale, nl * lh + 5.0f * scale,
                PANEL);
    for (int k = 0; k < nl; k++)
        gc_hud_text(h, x, y + k * lh, lines[k],
                    k == nl - 1 && i->last_warn ? WARN : k == 3 ? DIM : WHITE);
    gc_hud_end(h);
}

void gc_overlay_help(struct gc_hud *h, int fb_w, int fb_h)
{
    /* Two columns, each description at the widest key's right edge: real type is
     * proportional, so spaces cannot line them up. A heading has no description. */
    static const char *const help[][2] = {
        {"Keys", NULL},
        {"Space", "pause / run"},
        {"N", "one step while paused"},
        {"Up  Down", "faster / slower (simulated time a second)"},
        {"A", "automatic speed"},
        {"J  L", "run backwards / forwards"},
        {"PgUp  PgDn", "previous / next event (passage, merger)"},
        {"Left  Right", "back / on along the time line"},
        {"Home  End", "start / furthest computed"},
        {"[  ]", "halve / double dt (accuracy, not speed)"},
        {"R", "reset simulation and camera"},
        {"D", "draw mode: points, sprites, plain"},
        {"C", "colour: stellar, galaxy, component, velocity, speed"},
        {"M", "dark matter: hidden, faint, alone"},
        {"+  -", "point size"},
        {",  .", "exposure down / up half a stop"},
        {"X", "exposure auto / locked"},
        {"B", "glow"},
        {"1 2 3", "view: face-on, edge-on, overview (follow)"},
        {"0", "home view"},
        {"O", "auto-orbit"},
        {"T", "tour of the encounter"},
        {"E", "encounter panel: presets and values"},
        {"  Up Down", "  choose a row (or click it)"},
        {"  Left Right", "  change the value (or wheel)"},
        {"  Enter", "  restart with the new encounter"},
        {"W", "save the scene (INI, --scene reads it)"},
        {"V", "start / stop recording a movie"},
        {"P", "presentation title and time"},
        {"I", "statistics (HUD)"},
        {"G", "time line, names, scale bar"},
        {"F", "full screen"},
        {"S", "save PNG screenshot"},
        {"H", "this help"},
        {"Q  Esc", "quit"},
        {"", NULL},
        {"Mouse", NULL},
        {"Left drag", "rotate"},
        {"Click the time line", "go to that time"},
        {"Right drag", "zoom (or wheel)"},
        {"Middle drag", "pan"},
    };
    int hn = (int)(sizeof help / sizeof help[0]);
    float scale = gc_overlay_scale(fb_h);
    float lh, kw = 0.0f, dw = 0.0f, hw, hh, x, y, gap;
    gc_hud_begin(h, fb_w, fb_h, scale);
    lh = gc_hud_line_height(h);
    gap = 1.5f * gc_hud_text_width(h, "M");
    hh = hn * lh;
    for (int k = 0; k < hn; k++)
        if (help[k][1]) {
            kw = fmaxf(kw, gc_hud_text_width(h, help[k][0]));
            dw = fmaxf(dw, gc_hud_text_width(h, help[k][1]));
        }
    hw = kw + gap + dw;
    x = floorf(0.5f * ((float)fb_w - hw));
    y = floorf(0.5f * ((float)fb_h - hh));
    gc_hud_rect(h, x - 10.0f * scale, y - 8.0f * scale, hw + 20.0f * scale, hh + 14.0f * scale,
                PANEL);
    for (int k = 0; k < hn; k++) {
        gc_hud_text(h, x, y + k * lh, help[k][0], help[k][1] ? WHITE : WARN);
        if (help[k][1])
            gc_hud_text(h, x + kw + gap, y + k * lh, help[k][1], WHITE);
    }
    gc_hud_end(h);
}

void gc_overlay_present(struct gc_hud *h, int fb_w, int fb_h, const char *title,
                        const char *when)
{
    static const float SOFT[4] = {0.85f, 0.88f, 0.95f, 0.92f};
    /* A line is 9 text pixels: real type's capitals take ~0.63 of it (DejaVu Sans), the pixel
     * font's 7/9. The title's capitals are then ~3.3% of the height (36 pixels on a 1080p
     * projector), the time's ~5.1% (55 pixels), at any framebuffer size. */
    float ts = fmaxf(2.0f, (float)fb_h / 170.0f), ns = fmaxf(3.0f, (float)fb_h / 110.0f);
    float margin = 0.035f * (float)fb_h, room = (float)fb_w - 2.0f * margin, w;
    gc_hud_begin(h, fb_w, fb_h, ts);
    /* Shrink the title to fit the width (a long --title on a narrow window): width goes with
     * size, so one step nearly always does; each size tried is a glyph atlas kept. */
    w = gc_hud_text_width(h, title);
    while (ts > 1.0f && w > room) {
        ts = fmaxf(1.0f, fminf(0.9f * ts, 0.98f * ts * room / w));
        gc_hud_begin(h, fb_w, fb_h, ts);
        w = gc_hud_text_width(h, title);
    }
    gc_hud_text(h, margin, margin, title, SOFT);
    gc_hud_end(h);
    gc_hud_begin(h, fb_w, fb_h, ns);
    gc_hud_text(h, margin, (float)fb_h - margin - gc_hud_line_height(h), when, SOFT);
    gc_hud_end(h);
}

void gc_overlay_recording(struct gc_hud *h, int fb_w, int fb_h)
{
    static const float RED[4] = {1.0f, 0.2f, 0.15f, 1.0f};
    float scale = gc_overlay_scale(fb_h);
    gc_hud_begin(h, fb_w, fb_h, scale);
    gc_hud_rect(h, (float)fb_w - 40.0f * scale, 8.0f * scale, 7.0f * scale, 7.0f * scale, RED);
    gc_hud_text(h, (float)fb_w - 31.0f * scale, 7.0f * scale, "REC", RED);
    gc_hud_end(h);
}
