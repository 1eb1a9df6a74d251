/* The compute-backend interface: a table of primitives plus a context pointer, chosen at run time. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_H
#define GC_BACKEND_H

#include <stddef.h>

#include "bodies.h"
#include "render_buffer.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_backend;

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
    /* optional: human-readable device, e.g. "NVIDIA H100 80GB HBM3"; NULL = the name */
    const char *(*device_name)(const struct gc_backend *b);
    /* optional: forget GL buffers registered by export_positions; the renderer calls it
     * before deleting them. NULL = the backend never registers GL buffers */
    enum gc_status (*render_detach)(struct gc_backend *b);
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
/* Accelerations of the bodies `in` as this backend computes them, written to out->vel
 * (xyz; out allocated with in->n bodies). Uploads `in` with zero velocities, then one
 * accel and one kick of dt = 1 leave v = a exactly (a * 1 + 0), read back with download:
 * only the interface's own primitives, so any backend can be checked against a reference.
 * Replaces whatever state the backend held. */
enum gc_status gc_backend_accelerations(struct gc_backend *b, const struct gc_bodies *in,
                                        float eps2, struct gc_bodies *out);
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
