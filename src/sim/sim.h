/* The simulation: one integrator over one backend (and ranks), whose public verb is "advance to time t". */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SIM_H
#define GC_SIM_H

#include <stdint.h>

#include "backend.h"
#include "bodies.h"
#include "comm.h"
#include "diagnostics.h"
#include "force.h"
#include "integrator.h"
#include "state.h"
#include "status.h"
#include "units.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Accepted ranges, checked by gc_sim_params_check. */
#define GC_DT_MAX 10.0f
#define GC_EPS_MIN 1e-6f
#define GC_EPS_MAX 100.0f

#define GC_DEFAULT_INTEGRATOR "leapfrog"

/* The Hermite force pass's arithmetic, as --precision names it. */
#define GC_HERMITE_PRECISION_NAMES "auto|mixed|double"

struct gc_render_buffer; /* render_buffer.h */

struct gc_sim_params {
    const char *integrator; /* "leapfrog" (default), "hermite4", "hermite6" */
    const char *force;      /* force method: "auto" (default, NULL too) or one of
                             * GC_FORCE_METHOD_NAMES (force.h) */
    float theta;            /* tree opening angle; 0 = GC_TREE_DEFAULT_THETA */
    float dt;   /* leapfrog step, N-body units; default GC_DEFAULT_DT; negative runs backwards */
    float eps;  /* Plummer softening length, N-body units; default GC_DEFAULT_EPS */
    double eta;    /* Hermite accuracy parameter; 0 = the scheme's default */
    double dt_max; /* Hermite largest block step; 0 = the scheme's default */
    double fixed_dt; /* Hermite: 0 = individual block steps (default); > 0 = shared fixed
                      * steps of this size (dt_max over a power of two), for tests */
    const char *precision; /* Hermite force arithmetic on the GPU: "auto" (default, NULL
                            * too: mixed for hermite4, double for hermite6), "mixed" or
                            * "double" (GC_HERMITE_PRECISION_NAMES) */
    int profile;     /* 1 = time the force layer's phases (gc_sim_profile); default 0 */
    const char *regularize; /* Hermite close groups: "auto" (default, NULL too: on when eps
                             * is 0 and the steps are individual) or "off" */
    double ar_tol;    /* regularisation tolerance; 0 = the scheme's default */
    double ar_radius; /* regularisation radius; 0 = derived from the bodies */
};

/* Where a run continues from (a snapshot): its time, and the integrator state it recorded
 * with the settings that state is valid for. Not owned by the simulation; it must outlive
 * it (a reset starts from it again). */
struct gc_sim_restart {
    double time;                  /* the snapshot's time, N-body units */
    const struct gc_state *state; /* the scheme's state (state.h), or NULL: the bodies alone */
    const char *integrator;       /* the settings the state belongs to: a run with */
    double eps, eta, dt_max;      /* others rebuilds it from the bodies */
};

/* The viewer, headless mode, benchmarks and tests hold a simulation by this handle and drive
 * it only through the functions below, reading it through the accessors at the end: none of
 * them knows kicks, drifts or block steps, nor its fields (sim.c). */
struct gc_sim;

/* Fills params with the defaults above. */
void gc_sim_params_default(struct gc_sim_params *p);
/* GC_OK when the integrator exists, dt is finite, non-zero and |dt| <= GC_DT_MAX, and eps is
 * in [GC_EPS_MIN, GC_EPS_MAX] (or 0 for an integrator that allows it); otherwise logs which
 * value is wrong and returns GC_ERR_INVALID. */
enum gc_status gc_sim_params_check(const struct gc_sim_params *p);

/* Checks params, uploads bodies to the backend and starts the integrator, into *out. comm
 * may be NULL for one process. With several ranks, rank 0 calls this with the bodies and the
 * others receive them (gc_sim_follow). restart (may be NULL: the run starts at t = 0) makes
 * a run that continues from a snapshot: the clock starts at restart->time, and a recorded
 * state is taken as it is when it belongs to the same integrator, eps, eta and dt_max, on
 * one process, with a backend that can take it; otherwise the state is rebuilt from the
 * bodies, and the log says why the continuation is not exact. On failure *out is NULL. */
enum gc_status gc_sim_create(struct gc_backend *backend, struct gc_comm *comm,
                             const struct gc_bodies *bodies, const struct gc_sim_params *p,
                             const struct gc_sim_restart *restart, struct gc_sim **out);
/* Frees s (NULL allowed). */
void gc_sim_destroy(struct gc_sim *s);
/* The scheme's whole state in host memory (st empty on entry; free it with
 * gc_state_free_host), for a snapshot a run can continue from exactly: its fields beyond
 * the bodies' positions and velocities. GC_ERR_UNSUPPORTED (not logged) when the scheme
 * keeps no such state, or cannot give it now (Hermite with regularised groups, or on a
 * backend that cannot hand it over): the snapshot then holds the bodies alone. */
enum gc_status gc_sim_save(struct gc_sim *s, struct gc_state *st);
/* The whole state kept for a jump back (keyframes): in the backend's own memory (a GPU's)
 * where the scheme can keep it there, else in host memory (st->memory says which). st is
 * empty on entry, or a state kept before by this simulation, whose memory is reused.
 * GC_ERR_NOMEM (not logged) when the memory is not there; GC_ERR_UNSUPPORTED (not logged)
 * where the state cannot be kept now (regularised groups; several ranks). */
enum gc_status gc_sim_keep(struct gc_sim *s, struct gc_state *st);
/* Back to a state gc_sim_keep kept: the simulation's time is the state's, and the run goes
 * on from it as it went on the first time, to the bit (same parameters). */
enum gc_status gc_sim_restore(struct gc_sim *s, const struct gc_state *st);
/* Frees a kept state's memory and empties it. */
void gc_sim_release_state(struct gc_sim *s, struct gc_state *st);
/* Starts again from `bodies` at time 0 with the current parameters. */
enum gc_status gc_sim_reset(struct gc_sim *s, const struct gc_bodies *bodies);

/* Advances the simulation to time t (N-body units). The leapfrog lands on whole steps; the
 * Hermite schemes take every block step up to t, and outputs at t predict each body from its
 * own last step (the state, and so the run, is the same however t is split into calls). */
enum gc_status gc_sim_advance(struct gc_sim *s, double t);
/* The natural time between two drawn frames: the leapfrog step, or for Hermite a fixed
 * fraction of dt_max (the scheme has no single step). */
double gc_sim_frame_dt(const struct gc_sim *s);
/* Changes the leapfrog step (checked); GC_ERR_UNSUPPORTED for schemes without one. */
enum gc_status gc_sim_set_dt(struct gc_sim *s, float dt);

/* Positions (and velocities) at the simulation's time into the renderer's buffer; schemes
 * whose bodies are not synchronised predict them to that time without changing the state.
 * Over several ranks rank 0 gathers every body (as gc_sim_download) and fills the buffer's
 * host arrays (h_pos, h_vel), which it then needs. */
enum gc_status gc_sim_export(struct gc_sim *s, struct gc_render_buffer *dst);
/* State at the simulation's time into dst (allocated with n bodies): every body on rank 0,
 * this rank's bodies elsewhere. With a double-precision scheme dst gets pos64/vel64 too. */
enum gc_status gc_sim_download(struct gc_sim *s, struct gc_bodies *dst);

/* All quantities for the current state: downloads into `scratch` (allocated with the
 * simulation's body count) and takes the potential from the backend when it offers one,
 * else computes it on the host. Over several ranks each rank sums its own bodies and every
 * rank gets the totals. */
enum gc_status gc_sim_measure(struct gc_sim *s, struct gc_bodies *scratch,
                              struct gc_diagnostics *d);

/* Wall time of the force layer's phases since init (params.profile on; zeros otherwise). */
void gc_sim_profile(const struct gc_sim *s, struct gc_force_times *out);

/* ---- several ranks (MPI) ----
 * Rank 0 runs the program (modes, window, files) on its simulation; every other rank calls
 * gc_sim_follow, which makes rank 0's calls on a simulation of its own. The calls that
 * involve every rank (gc_sim_create, _reset, _advance, _set_dt, _export, _download,
 * _measure, _destroy) are sent to the followers before rank 0 does its own part, so all
 * ranks reach the same collectives in the same order. With one rank nothing is sent. A
 * failure that left the ranks out of step marks comm->broken; main then ends the run
 * (gc_comm_abort). A stop request (gc_stop_request) on any rank stops every rank at the
 * same step. */
enum gc_status gc_sim_follow(struct gc_backend *backend, struct gc_comm *comm);
/* Calls fn(ctx, s, done) between the steps of every later advance (done: steps of that
 * advance so far), for progress reports of slow runs. fn must not call back into the
 * simulation. */
void gc_sim_on_step(struct gc_sim *s, void (*fn)(void *ctx, const struct gc_sim *s,
                                                 unsigned long done), void *ctx);
/* Rank 0, after its last gc_sim_destroy: the followers' gc_sim_follow returns. */
enum gc_status gc_sim_release(struct gc_comm *comm);

/* ---- accessors: what other layers read of a simulation ---- */

/* Simulated time in N-body units and in Myr (GC_MYR_PER_TIME_UNIT). */
double gc_sim_time(const struct gc_sim *s);
double gc_sim_time_myr(const struct gc_sim *s);
/* Counters since the start (steps or block steps, interactions). */
void gc_sim_stats(const struct gc_sim *s, struct gc_integrator_stats *out);
/* The parameters in use (dt follows gc_sim_set_dt). */
const struct gc_sim_params *gc_sim_params(const struct gc_sim *s);
/* The running scheme's table: name, capabilities (gc_integrator_has), step noun, flops per
 * interaction. */
const struct gc_integrator_iface *gc_sim_scheme(const struct gc_sim *s);
/* The regularised close groups now: how many (0 when the scheme has none), their report
 * figures into out and each body's group (-1: none) into membership (n entries); both may
 * be NULL. */
size_t gc_sim_groups(const struct gc_sim *s, struct gc_groups_report *out,
                     int32_t *membership);
/* Each body's group now (n entries, owned by the simulation, valid to the next call), or
 * NULL when the run regularises nothing (then snapshots carry no membership). */
const int32_t *gc_sim_membership(struct gc_sim *s);
/* The scheme's settings with its defaults filled in (Hermite: eta, dt_max). */
const struct gc_integrator_params *gc_sim_scheme_params(const struct gc_sim *s);
/* The force method chosen for this run. */
enum gc_force_method gc_sim_force_method(const struct gc_sim *s);
/* 1 when diagnostics measure the potential energy exactly (all pairs), 0 when with the
 * force method's approximation (the tree above a few hundred thousand bodies). */
int gc_sim_potential_exact(const struct gc_sim *s);
/* The tree method's figures of its latest pass (valid = 0 with all pairs). */
enum gc_status gc_sim_tree_stats(struct gc_sim *s, struct gc_tree_stats *out);
struct gc_backend *gc_sim_backend(const struct gc_sim *s);
/* Ranks the simulation runs on (1 without MPI). */
int gc_sim_ranks(const struct gc_sim *s);
/* Bodies simulated. */
size_t gc_sim_bodies(const struct gc_sim *s);

#ifdef __cplusplus
}
#endif
#endif
