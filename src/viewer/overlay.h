/* What the text on screen says: statistics panel, help, presentation title and time, recording mark. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_OVERLAY_H
#define GC_OVERLAY_H

#include <stddef.h>

#include "hud.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The numbers and modes the statistics panel shows (filled by the app each frame). */
struct gc_overlay_info {
    size_t n;                   /* bodies */
    const char *backend, *device;
    double fps, sps;            /* frames and steps (Hermite: block steps) per second of the
                                 * last second */
    double ips;                 /* pairwise interactions per second of the last second */
    double flops;               /* flops counted per interaction by the scheme (all pairs) */
    int tree;                   /* 1 = the tree force method: the next fields apply */
    double theta;               /* tree: opening angle */
    double tree_build_ms;       /* tree: sort, build and moments of its latest pass */
    double tree_walk_ms;        /* tree: the walks of its latest pass */
    double tree_interactions;   /* tree: interactions a body of that pass; 0 = not yet known */
    double tree_local;          /* tree: cells felt through the group's expansion, a body */
    const char *time;           /* simulated time as shown: "123.4 MYR", "1.234 HENON" */
    const char *integrator;     /* "leapfrog", "hermite4", "hermite6" */
    int block_steps;            /* 1 = individual (block) time steps: no single dt */
    double dt, dt_myr;          /* leapfrog: time step, N-body units and Myr */
    unsigned long long active;  /* block steps: bodies advanced by the latest one */
    unsigned long long steps;   /* steps (block steps) since the start */
    int groups_on;              /* 1 = close groups are regularised: the next fields apply */
    size_t groups, group_members;
    int have_binary;            /* 1 = a pair in some group is bound: */
    double binary_a, binary_e;  /*   the hardest one's semi-major axis and eccentricity */
    int energy_state;           /* 1 drift measured, 0 not yet, -1 off for this N and backend */
    double drift;               /* (E - E0) / |E0| */
    const char *draw_mode, *color_mode, *halo_view, *view;
    float size_factor;
    float ev;                   /* exposure, stops */
    int ev_manual;              /* 1 = locked or --exposure EV */
    int glow, orbit;
    const char *last_line;      /* failure, "paused", or the hint line */
    int last_warn;              /* 1 = draw the last line as a warning */
};

/* Text scale (gc_hud_begin) for a framebuffer fb_h pixels tall: 2 at 800 pixels, in
 * proportion above (a 4K movie's text as large a share of the picture as a window's). */
float gc_overlay_scale(int fb_h);
void gc_overlay_stats(struct gc_hud *h, int fb_w, int fb_h, const struct gc_overlay_info *i);
void gc_overlay_help(struct gc_hud *h, int fb_w, int fb_h);
/* --present: the title at the top, the simulated time (`when`, e.g. "450 million years")
 * large at the bottom, both in framebuffer pixels scaled to its height (readable from the
 * back of a room, and as large on a high-DPI screen as on any other). */
void gc_overlay_present(struct gc_hud *h, int fb_w, int fb_h, const char *title,
                        const char *when);
/* A red "REC" mark in the top-right corner (drawn after the movie's frame is taken). */
void gc_overlay_recording(struct gc_hud *h, int fb_w, int fb_h);

#ifdef __cplusplus
}
#endif
#endif
