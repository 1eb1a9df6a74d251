/* The viewer's statistics: frames, steps and interactions per second, energy drift, window title. */
/* SPDX-License-Identifier: MIT */
#include "app_parts.h"

#include <math.h>
#include <stdio.h>

#include "diagnostics.h"
#include "log.h"

/* Energy re-measured at most this often (seconds), and never more often than 20 times its
 * own cost, so the O(N^2) potential takes at most 5% of the frame time. */
#define ENERGY_INTERVAL_S 2.0
/* Above this N on a backend without a fast potential, energy is measured once at start only
 * when it is cheap; the HUD then says so instead of stalling every few seconds. */
#define ENERGY_MAX_HOST_N 32768

void gc_app_stats_init(struct gc_app *a)
{
    if (a->initial->n > ENERGY_MAX_HOST_N && !gc_backend_is_device(a->backend))
        a->stats.energy_state = -1;
    a->stats.t_window = gc_clock_seconds();
}

void gc_app_energy_measure(struct gc_app *a, double now)
{
    struct gc_app_stats *s = &a->stats;
    struct gc_diagnostics d;
    double t0 = gc_clock_seconds();
    enum gc_status st;
    if (s->energy_state < 0 || a->failure != GC_OK)
        return;
    st = gc_sim_measure(a->sim, &a->scratch, &d);
    s->energy_cost = gc_clock_seconds() - t0;
    if (st == GC_ERR_INTERRUPTED) {
        /* A stop during start-up cut the first measurement short: the run ends. */
        a->failure = st;
        return;
    }
    if (st != GC_OK) {
        s->energy_state = -1;
        gc_log_warn("energy measurement failed (%s); the HUD will not show drift",
                    gc_status_str(st));
        return;
    }
    if (s->energy_state == 0) {
        s->e0 = d.energy;
        s->energy_state = 1;
    }
    s->drift = s->e0 != 0.0 ? (d.energy - s->e0) / fabs(s->e0) : 0.0;
    s->next_energy_t = now + fmax(ENERGY_INTERVAL_S, 20.0 * s->energy_cost);
}

/* Window frames: the energy once at the start, then again when due while the bodies move
 * (busy: running, or one step asked for). */
void gc_app_energy_refresh(struct gc_app *a, double now, int busy)
{
    const struct gc_app_stats *s = &a->stats;
    if (s->energy_state >= 0 && now >= s->next_energy_t && (s->energy_state == 0 || busy))
        gc_app_energy_measure(a, now);
}

/* With the statistics shown ('i'), the window's title carries the rates too (scripts read
 * them there); otherwise it names the scene. */
static void title(struct gc_app *a)
{
    const struct gc_app_stats *s = &a->stats;
    char text[640], scene[200], drift[32], when[64], force[48];
    if (a->headless || a->failure != GC_OK)
        return; /* after a failure the title keeps its message */
    if (!a->picture.show_hud) {
        gc_app_window_scene_title(a);
        return;
    }
    if (s->energy_state > 0)
        snprintf(drift, sizeof drift, "%.2e", s->drift);
    else
        snprintf(drift, sizeof drift, "n/a");
    gc_app_time_text(a, 1, when, sizeof when);
    if (gc_sim_force_method(a->sim) == GC_FORCE_TREE)
        snprintf(force, sizeof force, "tree theta %.2f", gc_sim_params(a->sim)->theta);
    else
        snprintf(force, sizeof force, "%.1f GFLOP/s",
                 gc_sim_scheme(a->sim)->flops_per_interaction * s->ips * 1e-9);
    gc_app_scene_name(a, scene, sizeof scene);
    snprintf(text, sizeof text,
             "galaxy: %s | %s | %.1f fps | %.1f %ssteps/s | %.3g int/s | %s | %s | dE/|E0| %s%s%s",
             scene, gc_backend_name(a->backend), s->fps, s->sps,
             gc_app_block_steps(a) ? "block " : "", s->ips, force, when, drift,
             a->input.paused ? " | paused" : "", a->picture.capture.rec ? " | recording" : "");
    gc_app_window_title(a, text);
}

/* Rates over the last second: frames, steps, interactions and simulated time. */
void gc_app_stats_update(struct gc_app *a, double now)
{
    struct gc_app_stats *s = &a->stats;
    struct gc_integrator_stats st;
    double dt = now - s->t_window;
    if (dt < 1.0)
        return;
    gc_sim_stats(a->sim, &st);
    s->fps = s->frames / dt;
    /* Steps computed, a jump back's replay included (a scheme made anew by going back to
     * the start counts from 0 again: that second's rate is not known). */
    s->sps = st.computed >= s->steps_at_window ? (double)(st.computed - s->steps_at_window) / dt
                                               : 0.0;
    s->ips = st.interactions >= s->interactions_at_window
                 ? (st.interactions - s->interactions_at_window) / dt
                 : 0.0;
    s->frames = 0;
    s->steps_at_window = st.computed;
    s->interactions_at_window = st.interactions;
    s->t_window = now;
    gc_app_playback_measure(a, now);
    title(a);
}
