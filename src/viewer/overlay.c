/* The text panels on top of the picture: statistics, help, presentation title and time, recording mark. */
/* SPDX-License-Identifier: MIT */
#include "overlay.h"

#include <math.h>
#include <stdio.h>

static const float WHITE[4] = {0.92f, 0.94f, 1.0f, 1.0f}, DIM[4] = {0.6f, 0.65f, 0.75f, 1.0f},
                   WARN[4] = {1.0f, 0.45f, 0.35f, 1.0f}, PANEL[4] = {0.0f, 0.0f, 0.0f, 0.6f};

int gc_overlay_scale(int fb_h)
{
    return (int)fmaxf(1.0f, floorf((float)fb_h / 400.0f + 0.5f));
}

void gc_overlay_stats(struct gc_hud *h, int fb_w, int fb_h, const struct gc_overlay_info *i)
{
    int scale = gc_overlay_scale(fb_h);
    char lines[10][200];
    int nl = 0;
    float lh, x, y, w = 0.0f;
    gc_hud_begin(h, fb_w, fb_h, scale);
    lh = gc_hud_line_height(h);
    snprintf(lines[nl++], sizeof lines[0], "N %zu   BACKEND %s (%s)", i->n, i->backend, i->device);
    snprintf(lines[nl++], sizeof lines[0], "%.1f FPS   %.1f %s/S   %s", i->fps, i->sps,
             i->block_steps ? "BLOCK STEPS" : "STEPS", i->integrator);
    if (i->tree) {
        snprintf(lines[nl++], sizeof lines[0], "TREE THETA %.2f   BUILD %.2f MS   WALK %.2f MS",
                 i->theta, i->tree_build_ms, i->tree_walk_ms);
        snprintf(lines[nl++], sizeof lines[0], "(%.0f INTERACTIONS A BODY, %.3g/S)",
                 i->tree_interactions, i->ips);
    } else {
        snprintf(lines[nl++], sizeof lines[0], "%.3g INTERACTIONS/S   %.2f GFLOP/S", i->ips,
                 i->flops * i->ips * 1e-9);
        snprintf(lines[nl++], sizeof lines[0], "(GFLOP/S AT %.0f FLOPS PER INTERACTION)",
                 i->flops);
    }
    if (i->block_steps)
        snprintf(lines[nl++], sizeof lines[0], "T %s   BLOCK STEP %llu   ACTIVE %llu/%zu",
                 i->time, i->steps, i->active, i->n);
    else
        snprintf(lines[nl++], sizeof lines[0], "T %s   DT %g (%.3g MYR)   STEP %llu", i->time,
                 i->dt, i->dt_myr, i->steps);
    if (i->energy_state > 0)
        snprintf(lines[nl++], sizeof lines[0], "ENERGY DRIFT DE/|E0| %+.2e", i->drift);
    else
        snprintf(lines[nl++], sizeof lines[0], "ENERGY DRIFT: OFF FOR THIS N ON %s", i->backend);
    snprintf(lines[nl++], sizeof lines[0], "DRAW %s   COLOUR %s   SIZE X%.2f", i->draw_mode,
             i->color_mode, i->size_factor);
    snprintf(lines[nl++], sizeof lines[0], "SHOW %s   EXPOSURE EV %+.1f %s   GLOW %s", i->halo_view,
             i->ev, i->ev_manual ? "(LOCKED)" : "(AUTO)", i->glow ? "ON" : "OFF");
    snprintf(lines[nl++], sizeof lines[0], "VIEW %s%s", i->view, i->orbit ? "   AUTO-ORBIT" : "");
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
    static const char *const help[] = {
        "KEYS",
        "SPACE   PAUSE / RUN",
        "N       ONE STEP WHILE PAUSED",
        "[  ]    HALVE / DOUBLE DT",
        "R       RESET SIMULATION AND CAMERA",
        "D       DRAW MODE: POINTS, SPRITES, PLAIN",
        "C       COLOUR: STELLAR, GALAXY, COMPONENT, VELOCITY, SPEED",
        "M       DARK MATTER: HIDDEN, FAINT, ALONE",
        "+  -    POINT SIZE",
        ",  .    EXPOSURE DOWN / UP HALF A STOP",
        "X       EXPOSURE AUTO / LOCKED",
        "B       GLOW",
        "1 2 3   VIEW: FACE-ON, EDGE-ON, OVERVIEW (FOLLOW)",
        "0       HOME VIEW",
        "O       AUTO-ORBIT",
        "T       TOUR OF THE ENCOUNTER",
        "V       START / STOP RECORDING A MOVIE",
        "P       PRESENTATION TITLE AND TIME",
        "I       STATISTICS (HUD)",
        "F       FULL SCREEN",
        "S       SAVE PNG SCREENSHOT",
        "H       THIS HELP",
        "Q ESC   QUIT",
        "",
        "MOUSE",
        "LEFT DRAG     ROTATE",
        "RIGHT DRAG    ZOOM (OR WHEEL)",
        "MIDDLE DRAG   PAN",
    };
    int hn = (int)(sizeof help / sizeof help[0]), scale = gc_overlay_scale(fb_h);
    float lh, hw = 0.0f, hh, x, y;
    gc_hud_begin(h, fb_w, fb_h, scale);
    lh = gc_hud_line_height(h);
    hh = hn * lh;
    for (int k = 0; k < hn; k++)
        hw = fmaxf(hw, gc_hud_text_width(h, help[k]));
    x = floorf(0.5f * ((float)fb_w - hw));
    y = floorf(0.5f * ((float)fb_h - hh));
    gc_hud_rect(h, x - 10.0f * scale, y - 8.0f * scale, hw + 20.0f * scale, hh + 14.0f * scale,
                PANEL);
    for (int k = 0; k < hn; k++)
        gc_hud_text(h, x, y + k * lh, help[k], (k == 0 || k == 24) ? WARN : WHITE);
    gc_hud_end(h);
}

void gc_overlay_present(struct gc_hud *h, int fb_w, int fb_h, const char *title,
                        const char *when)
{
    static const float SOFT[4] = {0.85f, 0.88f, 0.95f, 0.92f};
    /* A glyph is 7 font pixels tall: the title ~1/30 and the time ~1/19 of the height
     * (3.4% and 5.3%: 37 and 57 pixels on a 1080p projector). */
    int ts = (int)fmaxf(2.0f, floorf((float)fb_h / 210.0f + 0.5f));
    int ns = (int)fmaxf(3.0f, floorf((float)fb_h / 135.0f + 0.5f));
    float margin = 0.035f * (float)fb_h;
    gc_hud_begin(h, fb_w, fb_h, ts);
    /* Shrink the title to fit the width (a long --title on a narrow window). */
    while (ts > 1 && gc_hud_text_width(h, title) > (float)fb_w - 2.0f * margin)
        gc_hud_begin(h, fb_w, fb_h, --ts);
    gc_hud_text(h, margin, margin, title, SOFT);
    gc_hud_end(h);
    gc_hud_begin(h, fb_w, fb_h, ns);
    gc_hud_text(h, margin, (float)fb_h - margin - gc_hud_line_height(h), when, SOFT);
    gc_hud_end(h);
}

void gc_overlay_recording(struct gc_hud *h, int fb_w, int fb_h)
{
    static const float RED[4] = {1.0f, 0.2f, 0.15f, 1.0f};
    int scale = gc_overlay_scale(fb_h);
    gc_hud_begin(h, fb_w, fb_h, scale);
    gc_hud_rect(h, (float)fb_w - 40.0f * scale, 8.0f * scale, 7.0f * scale, 7.0f * scale, RED);
    gc_hud_text(h, (float)fb_w - 31.0f * scale, 7.0f * scale, "REC", RED);
    gc_hud_end(h);
}
