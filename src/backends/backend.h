/* The compute-backend interface: a table of primitives plus a context pointer, chosen at run time. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_H
#define GC_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "hermite_body.h"
#include "light_job.h"
#include "render_buffer.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_backend;

/* Settings of the Hermite block-step primitives (N-body units, G = 1). */
struct gc_hermite_config {
    int order;        /* 4 or 6 */
    double eps2;      /* Plummer softening squared; 0 allowed (self-pairs are skipped) */
    double eta;       /* accuracy parameter of the step criterion (Aarseth / generalised) */
    double eta_start; /* first steps: dt = eta_start |a| / |jerk| */
    double dt_max;    /* largest step (level 0); a tick is dt_max / 2^GC_HERMITE_LEVELS */
    int fixed_level;  /* -1: individual steps by the criterion; k >= 0: every body always
                       * steps dt_max / 2^k (shared fixed steps, for convergence tests) */
};

/* Block-step counters the backend keeps (on the device for CUDA: no host round trip). */
struct gc_hermite_counters {
    uint64_t blocks;      /* block steps since hermite_init */
    uint64_t body_steps;  /* sum over block steps of the bodies advanced */
    uint64_t last_active; /* bodies advanced by the latest block step */
    int64_t t_last;       /* tick of the latest block step */
    int error;            /* 0, or GC_HERMITE_ERR_* (sticky until hermite_init) */
    int64_t error_i, error_j; /* bodies involved in the error */
};
/* error codes: GC_HERMITE_ERR_* of hermite_body.h */

/* One body's Hermite state as ranks exchange it after a block step (hermite_pack/unpack):
 * everything another rank needs to predict the body as a source, to draw it, and to select
 * the next block exactly as this rank would. Plain data, the same on every rank. */
struct gc_hermite_record {
    int64_t i;        /* body index */
    int64_t t;        /* tick of the state */
    int64_t level;    /* step level: dt_max / 2^level */
    double x[3], v[3], a[3], j[3], s[3], c[3]; /* position ... crackle at tick t */
};

/* Every slot takes the backend itself. Slots marked optional may be NULL; the gc_backend_*
 * wrappers below then fall back as described. Physics: G = 1, Plummer softening,
 * a_i = sum_j m_j r_ij / (r_ij^2 + eps^2)^(3/2), self-pairs included (they add zero).
 *
 * The backend holds all n bodies. The "range" [i0, i1) (default: all) is the part this
 * process owns when ranks split the work: accel and potential compute only bodies i in the
 * range (against every j), kick and drift move only them. A backend without set_range
 * serves one process only. */
struct gc_backend_iface {
    const char *name;                                                 /* "cpu", "cuda" */
    enum gc_status (*upload)(struct gc_backend *b, const struct gc_bodies *src);
    enum gc_status (*download)(struct gc_backend *b, struct gc_bodies *dst); /* pos + vel */
    /* optional: restrict accel, potential, kick and drift to bodies [i0, i1); NULL = the
     * backend always works on all bodies (then only one rank may use it) */
    enum gc_status (*set_range)(struct gc_backend *b, size_t i0, size_t i1);
    /* optional: positions and masses (float4) of bodies [i0, i1) to / from host memory, for
     * the exchange between ranks; NULL = not usable with more than one rank */
    enum gc_status (*get_positions)(struct gc_backend *b, size_t i0, size_t i1, float *dst);
    enum gc_status (*set_positions)(struct gc_backend *b, size_t i0, size_t i1,
                                    const float *src);
    enum gc_status (*accel)(struct gc_backend *b, float eps2);       /* recompute a from x */
    enum gc_status (*kick)(struct gc_backend *b, float dt);          /* v += a dt */
    enum gc_status (*drift)(struct gc_backend *b, float dt);         /* x += v dt */
    /* optional: v += a dt_kick, then x += v dt_drift in one pass; NULL = kick then drift */
    enum gc_status (*kick_drift)(struct gc_backend *b, float dt_kick, float dt_drift);
    enum gc_status (*export_positions)(struct gc_backend *b, struct gc_render_buffer *dst);
    /* optional: the range's share of the softened potential energy,
     * W = -1/2 sum_{i in range} m_i sum_{j != i} m_j / sqrt(r^2+eps^2) (summed over ranks it
     * is the total); NULL = diagnostics compute it on the host from a download */
    enum gc_status (*potential)(struct gc_backend *b, float eps2, double *w);
    enum gc_status (*sync)(struct gc_backend *b);  /* optional: NULL = already synchronous */
    /* ---- optional: Hermite block time steps in double precision (NULL = no Hermite on
     * this backend). The state (x, v, a, jerk, [snap, crackle], per-body time and level) is
     * kept by the backend; the scheme that orders these calls is integrator_hermite.c. ---- */
    /* Creates the double state from `bodies` (pos64/vel64 when present) at tick 0 and marks
     * every body active at tick 0, so the next predict/force/begin give the first forces. */
    enum gc_status (*hermite_init)(struct gc_backend *b, const struct gc_hermite_config *cfg,
                                   const struct gc_bodies *bodies);
    /* Start-up only: the forces just computed become the state's derivatives and each
     * body gets its first step (eta_start); called again for 6th order once snap is known. */
    enum gc_status (*hermite_begin)(struct gc_backend *b);
    /* Selects the next block: t_next = min_i (t_i + dt_i). If t_next <= t_limit (ticks) the
     * bodies due then become the active set, else nothing is due. *due (when non-NULL)
     * receives 1 or 0; with NULL the result stays on the backend (the repeat slot's loop
     * condition). */
    enum gc_status (*hermite_select)(struct gc_backend *b, int64_t t_limit, int *due);
    /* Predicts every body (as a source, j) to the block time. No-op when nothing is due. */
    enum gc_status (*hermite_predict)(struct gc_backend *b);
    /* Acceleration, jerk (and snap for 6th order) of the active bodies in the range against
     * all bodies at their predicted state. No-op when nothing is due. */
    enum gc_status (*hermite_force)(struct gc_backend *b);
    /* Corrects the active bodies in the range, gives them their next step and moves their
     * time to the block time; updates the counters. No-op when nothing is due. */
    enum gc_status (*hermite_correct)(struct gc_backend *b);
    /* Every body predicted to tick t into the arrays that export_positions and download read
     * (download then also fills pos64/vel64/mass64 when the destination has them, and vel.w
     * the time-step level); the state is not changed. */
    enum gc_status (*hermite_view)(struct gc_backend *b, int64_t t);
    enum gc_status (*hermite_counters)(struct gc_backend *b, struct gc_hermite_counters *out);
    /* Per-body tick of the last step and level (tests of the scheduler, colouring). */
    enum gc_status (*hermite_schedule)(struct gc_backend *b, int64_t *t, uint8_t *level);
    /* Per-body acceleration, jerk and (6th order, else zeros; may be NULL) snap of the
     * state, 3n doubles each (tests against a reference, GPU against CPU). */
    enum gc_status (*hermite_derivs)(struct gc_backend *b, double *acc, double *jerk,
                                     double *snap);
    /* optional (Hermite over several ranks; NULL = one rank only): the state of the bodies
     * of the latest block (corrected, or started by hermite_begin) that lie in the range,
     * into dst (room for every body of the block); *count receives how many. */
    enum gc_status (*hermite_pack)(struct gc_backend *b, struct gc_hermite_record *dst,
                                   size_t *count);
    /* optional, with hermite_pack: other ranks' records into this backend's state, so that
     * every rank holds every body's state and selects the same blocks. */
    enum gc_status (*hermite_unpack)(struct gc_backend *b, const struct gc_hermite_record *src,
                                     size_t count);
    /* optional: runs body(ctx) again and again while the latest hermite_select(.., NULL)
     * found a block due, with no host round trip (CUDA: the launches of one call of body are
     * recorded once into a graph with a device-side while loop). NULL = the caller loops. */
    enum gc_status (*repeat)(struct gc_backend *b, enum gc_status (*body)(void *ctx),
                             void *ctx);
    /* optional: human-readable device, e.g. "NVIDIA H100 80GB HBM3"; NULL = the name */
    const char *(*device_name)(const struct gc_backend *b);
    /* optional: forget GL buffers registered by export_positions; the renderer calls it
     * before deleting them. NULL = the backend never registers GL buffers */
    enum gc_status (*render_detach)(struct gc_backend *b);
    /* optional: draws the state of the latest export_positions (made with device_light) as
     * the picture `job` describes, into its GL pixel buffer, and meters it; the renderer's
     * GL context must be current. NULL = the renderer draws with GL. GC_ERR_UNSUPPORTED
     * when it cannot here (no interop): the renderer then draws with GL. */
    enum gc_status (*render_light)(struct gc_backend *b, struct gc_light_job *job);
    /* optional, with render_light: gives GL back the object a picture drawn with keep_mapped
     * still holds; the renderer calls it before GL reads or draws over the picture. NULL =
     * the backend never keeps it. */
    enum gc_status (*render_release)(struct gc_backend *b);
    /* optional, with render_light: a fence behind the picture queued last, for frame pacing
     * when GL has no work in a frame (a GL fence would make the GPU switch to GL's context
     * just to signal it); NULL = failed. frame_wait: 1 passed, 0 not within timeout_s,
     * -1 failed. */
    void *(*frame_fence)(struct gc_backend *b);
    int (*frame_wait)(struct gc_backend *b, void *fence, double timeout_s);
    void (*frame_release)(struct gc_backend *b, void *fence);
    void (*destroy)(struct gc_backend *b);
};

struct gc_backend {
    const struct gc_backend_iface *iface;
    void *ctx;      /* backend-private state */
    size_t n;       /* bodies currently uploaded (0 before the first upload) */
    size_t i0, i1;  /* the range this process owns; [0, n) after an upload */
};

/* Options for gc_backend_create; zero-initialise and set what you need. */
struct gc_backend_options {
    int threads;      /* CPU: OpenMP threads, 0 = OpenMP default */
    int device;       /* CUDA: device index; default 0 */
    int no_interop;   /* CUDA: 1 = never register GL buffers, copy through the host */
    int quiet;        /* 1 = do not log which backend was chosen */
};

/* Creates a backend by name: "cpu", "cuda" or "auto" (CUDA when a usable device exists,
 * else CPU; one info line says which and why). Unknown names are an error listing the
 * available ones. On failure *out is NULL. */
enum gc_status gc_backend_create(const char *name, const struct gc_backend_options *opt,
                                 struct gc_backend **out);
void gc_backend_destroy(struct gc_backend *b);
/* Comma-separated list of backends compiled into this build, e.g. "cpu, cuda". */
const char *gc_backend_available(void);

enum gc_status gc_backend_upload(struct gc_backend *b, const struct gc_bodies *src);
enum gc_status gc_backend_download(struct gc_backend *b, struct gc_bodies *dst);
/* GC_ERR_UNSUPPORTED (logged) when the backend has no set_range and [i0, i1) is not all. */
enum gc_status gc_backend_set_range(struct gc_backend *b, size_t i0, size_t i1);
enum gc_status gc_backend_get_positions(struct gc_backend *b, size_t i0, size_t i1, float *dst);
enum gc_status gc_backend_set_positions(struct gc_backend *b, size_t i0, size_t i1,
                                        const float *src);
enum gc_status gc_backend_accel(struct gc_backend *b, float eps2);
enum gc_status gc_backend_kick(struct gc_backend *b, float dt);
enum gc_status gc_backend_drift(struct gc_backend *b, float dt);
enum gc_status gc_backend_kick_drift(struct gc_backend *b, float dt_kick, float dt_drift);
enum gc_status gc_backend_export_positions(struct gc_backend *b, struct gc_render_buffer *dst);
/* Returns GC_ERR_UNSUPPORTED when the backend has no potential slot. */
enum gc_status gc_backend_potential(struct gc_backend *b, float eps2, double *w);
enum gc_status gc_backend_sync(struct gc_backend *b);
enum gc_status gc_backend_render_detach(struct gc_backend *b);
/* 1 when the backend can draw pictures itself (render_light). */
int gc_backend_has_render_light(const struct gc_backend *b);
/* GC_ERR_UNSUPPORTED when the backend has no render_light. */
enum gc_status gc_backend_render_light(struct gc_backend *b, struct gc_light_job *job);
/* GC_OK when the backend has no render_release. */
enum gc_status gc_backend_render_release(struct gc_backend *b);
/* The frame fence slots; has_frame_fence is 1 when the backend has them. */
int gc_backend_has_frame_fence(const struct gc_backend *b);
void *gc_backend_frame_fence(struct gc_backend *b);
int gc_backend_frame_wait(struct gc_backend *b, void *fence, double timeout_s);
void gc_backend_frame_release(struct gc_backend *b, void *fence);
/* Accelerations of the bodies `in` as this backend computes them, written to out->vel
 * (xyz; out allocated with in->n bodies). Uploads `in` with zero velocities, then one
 * accel and one kick of dt = 1 leave v = a exactly (a * 1 + 0), read back with download:
 * only the interface's own primitives, so any backend can be checked against a reference.
 * Replaces whatever state the backend held. */
enum gc_status gc_backend_accelerations(struct gc_backend *b, const struct gc_bodies *in,
                                        float eps2, struct gc_bodies *out);
/* Hermite wrappers: GC_ERR_UNSUPPORTED (logged once per call) when the backend lacks them. */
int gc_backend_has_hermite(const struct gc_backend *b);
enum gc_status gc_backend_hermite_init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                                       const struct gc_bodies *bodies);
enum gc_status gc_backend_hermite_begin(struct gc_backend *b);
enum gc_status gc_backend_hermite_select(struct gc_backend *b, int64_t t_limit, int *due);
enum gc_status gc_backend_hermite_predict(struct gc_backend *b);
enum gc_status gc_backend_hermite_force(struct gc_backend *b);
enum gc_status gc_backend_hermite_correct(struct gc_backend *b);
enum gc_status gc_backend_hermite_view(struct gc_backend *b, int64_t t);
enum gc_status gc_backend_hermite_counters(struct gc_backend *b, struct gc_hermite_counters *out);
enum gc_status gc_backend_hermite_schedule(struct gc_backend *b, int64_t *t, uint8_t *level);
enum gc_status gc_backend_hermite_derivs(struct gc_backend *b, double *acc, double *jerk,
                                         double *snap);
/* GC_ERR_UNSUPPORTED (logged) when the backend cannot exchange Hermite state between ranks. */
enum gc_status gc_backend_hermite_pack(struct gc_backend *b, struct gc_hermite_record *dst,
                                       size_t *count);
enum gc_status gc_backend_hermite_unpack(struct gc_backend *b,
                                         const struct gc_hermite_record *src, size_t count);
/* Runs body(ctx) while a block is due: on the backend when it has a repeat slot (body's
 * selects must then pass due = NULL), else on the host. */
int gc_backend_has_repeat(const struct gc_backend *b);
enum gc_status gc_backend_repeat(struct gc_backend *b, enum gc_status (*body)(void *ctx),
                                 void *ctx);
const char *gc_backend_name(const struct gc_backend *b);
const char *gc_backend_device_name(const struct gc_backend *b);

/* Constructors of the individual backends (used by gc_backend_create). */
enum gc_status gc_backend_cpu_create(const struct gc_backend_options *opt,
                                     struct gc_backend **out);
#ifdef GC_ENABLE_CUDA
/* Returns GC_ERR_CUDA (logged unless quiet) when no usable CUDA device exists. */
enum gc_status gc_backend_cuda_create(const struct gc_backend_options *opt,
                                      struct gc_backend **out);
#endif

#ifdef __cplusplus
}
#endif
#endif
