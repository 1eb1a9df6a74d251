/* The compute-backend interface: a small compute table plus a context pointer, chosen at run time; Hermite, picture and benchmark tables reached by lookup. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_BACKEND_H
#define GC_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_backend;
struct gc_render_buffer; /* render_buffer.h: where export writes positions for drawing */

/* How forces are computed. Each backend implements a method in a file of its own (one per
 * backend, plus a kernel file for a GPU); the force layer (src/force) chooses one. */
enum gc_force_method {
    GC_FORCE_ALLPAIRS = 0, /* every pair, exact to float rounding: O(N^2) */
    GC_FORCE_TREE,         /* Barnes-Hut octree with quadrupoles (tree_formulas.h): O(N log N) */
    GC_FORCE_METHODS
};

/* What one force or potential pass is asked for (N-body units, G = 1). */
struct gc_force_params {
    enum gc_force_method method;
    float eps2;  /* Plummer softening squared, > 0 */
    float theta; /* tree: opening angle (tree_formulas.h); unused by all-pairs */
};

/* Capability bits of a backend (gc_backend_iface.caps). */
#define GC_BACKEND_DEVICE 1u /* an accelerator with memory of its own: steps run asynchronously
                              * and at far higher rates than the host's, so more bodies are
                              * interactive and a potential-energy pass is cheap */

/* The compute table. Every slot takes the backend itself; slots marked optional may be NULL,
 * and the gc_backend_* wrappers below then fall back as described. Physics: G = 1, Plummer
 * softening, a_i = sum_j m_j r_ij / (r_ij^2 + eps^2)^(3/2), self-pairs included (they add
 * zero).
 *
 * The backend holds all n bodies. The "range" [i0, i1) (default: all) is the part this
 * process owns when ranks split the work: accel and potential compute only bodies i in the
 * range (against every j), kick and drift move only them. */
struct gc_backend_iface {
    const char *name; /* "cpu", "cuda" */
    unsigned caps;    /* GC_BACKEND_* bits */
    size_t tree_above; /* --force auto takes the tree above this many bodies here: where it
                        * is clearly faster than all pairs on this backend; 0 = the force
                        * layer's default */
    enum gc_status (*upload)(struct gc_backend *b, const struct gc_bodies *src);
    enum gc_status (*download)(struct gc_backend *b, struct gc_bodies *dst); /* pos + vel */
    /* recompute a from x with the given method (GC_ERR_UNSUPPORTED: not on this backend) */
    enum gc_status (*accel)(struct gc_backend *b, const struct gc_force_params *fp);
    enum gc_status (*kick)(struct gc_backend *b, float dt);  /* v += a dt */
    enum gc_status (*drift)(struct gc_backend *b, float dt); /* x += v dt */
    /* optional: v += a dt_close (none when 0), v += a dt_open, then x += v dt_drift, in one
     * pass, each kick rounded as the kick slot rounds it (the closing half kick of one
     * leapfrog step and the opening one of the next); NULL = kicks then drift */
    enum gc_status (*kick_drift)(struct gc_backend *b, float dt_close, float dt_open,
                                 float dt_drift);
    enum gc_status (*export_positions)(struct gc_backend *b, struct gc_render_buffer *dst);
    /* optional: the range's share of the softened potential energy,
     * W = -1/2 sum_{i in range} m_i sum_{j != i} m_j / sqrt(r^2+eps^2) (summed over ranks it
     * is the total), with the method's approximation; NULL = diagnostics compute it on the
     * host from a download */
    enum gc_status (*potential)(struct gc_backend *b, const struct gc_force_params *fp,
                                double *w);
    enum gc_status (*sync)(struct gc_backend *b); /* optional: NULL = already synchronous */
    /* ---- ranks, all three optional: NULL = this backend serves one process only ---- */
    /* restrict accel, potential, kick and drift to bodies [i0, i1) */
    enum gc_status (*set_range)(struct gc_backend *b, size_t i0, size_t i1);
    /* positions and masses (float4) of bodies [i0, i1) to / from host memory, for the
     * exchange between ranks */
    enum gc_status (*get_positions)(struct gc_backend *b, size_t i0, size_t i1, float *dst);
    enum gc_status (*set_positions)(struct gc_backend *b, size_t i0, size_t i1,
                                    const float *src);
    /* optional: the backend's table for one more concern (enum gc_backend_table), or NULL
     * when it has none; NULL slot = no extra tables at all */
    const void *(*lookup)(const struct gc_backend *b, int table);
    /* optional: human-readable device, e.g. "NVIDIA H100 80GB HBM3"; NULL = the name */
    const char *(*device_name)(const struct gc_backend *b);
    void (*destroy)(struct gc_backend *b);
};

/* The tables beyond compute, each in its own header, reached through gc_backend_hermite
 * (backend_hermite.h), gc_backend_picture (backend_picture.h), gc_backend_bench
 * (backend_bench.h), gc_backend_tree (backend_tree.h) and gc_backend_state
 * (backend_state.h). */
enum gc_backend_table {
    GC_TABLE_HERMITE,
    GC_TABLE_PICTURE,
    GC_TABLE_BENCH,
    GC_TABLE_TREE,
    GC_TABLE_STATE
};

struct gc_backend {
    const struct gc_backend_iface *iface;
    void *ctx;      /* backend-private state */
    size_t n;       /* bodies currently uploaded (0 before the first upload) */
    size_t i0, i1;  /* the range this process owns; [0, n) after an upload */
    int threads;    /* host threads for work done beside the backend's own (--threads);
                     * 0 = the OpenMP default; set by gc_backend_create */
    const char *chosen; /* why "auto" took this backend ("auto: ..."); NULL = asked by name */
};

/* Options for gc_backend_create; zero-initialise and set what you need. */
struct gc_backend_options {
    int threads;      /* CPU: OpenMP threads, 0 = OpenMP default */
    int device;       /* CUDA: device index; default 0 */
    int no_interop;   /* CUDA: 1 = never register GL buffers, copy through the host */
    int quiet;        /* 1 = do not log which backend was chosen */
    const char *cpu_isa; /* CPU: the force loops' instruction set, "avx512", "avx2" or
                          * "portable"; NULL = the environment's GC_CPU_ISA, else the
                          * widest this CPU runs */
};

/* Creates a backend by name: "cpu", "cuda" or "auto" (CUDA when a usable device exists,
 * else CPU; one info line says which and why). Unknown names are an error listing the
 * available ones. On failure *out is NULL. */
enum gc_status gc_backend_create(const char *name, const struct gc_backend_options *opt,
                                 struct gc_backend **out);
void gc_backend_destroy(struct gc_backend *b);
/* The line gc_backend_create logs unless quiet: which backend "auto" took and why (nothing
 * for a backend asked by name). */
void gc_backend_say_choice(const struct gc_backend *b);
/* Comma-separated list of backends compiled into this build, e.g. "cpu, cuda". */
const char *gc_backend_available(void);

enum gc_status gc_backend_upload(struct gc_backend *b, const struct gc_bodies *src);
enum gc_status gc_backend_download(struct gc_backend *b, struct gc_bodies *dst);
/* GC_ERR_UNSUPPORTED (logged) when the backend has no set_range and [i0, i1) is not all. */
enum gc_status gc_backend_set_range(struct gc_backend *b, size_t i0, size_t i1);
enum gc_status gc_backend_get_positions(struct gc_backend *b, size_t i0, size_t i1, float *dst);
enum gc_status gc_backend_set_positions(struct gc_backend *b, size_t i0, size_t i1,
                                        const float *src);
enum gc_status gc_backend_accel(struct gc_backend *b, const struct gc_force_params *fp);
enum gc_status gc_backend_kick(struct gc_backend *b, float dt);
enum gc_status gc_backend_drift(struct gc_backend *b, float dt);
enum gc_status gc_backend_kick_drift(struct gc_backend *b, float dt_close, float dt_open,
                                     float dt_drift);
enum gc_status gc_backend_export_positions(struct gc_backend *b, struct gc_render_buffer *dst);
/* Returns GC_ERR_UNSUPPORTED when the backend has no potential slot. */
enum gc_status gc_backend_potential(struct gc_backend *b, const struct gc_force_params *fp,
                                    double *w);
enum gc_status gc_backend_sync(struct gc_backend *b);
/* Accelerations of the bodies `in` as this backend computes them with fp, written to
 * out->vel (xyz; out allocated with in->n bodies). Uploads `in` with zero velocities, then
 * one accel and one kick of dt = 1 leave v = a exactly (a * 1 + 0), read back with download:
 * only the table's own primitives, so any backend can be checked against a reference.
 * Replaces whatever state the backend held. */
enum gc_status gc_backend_accelerations(struct gc_backend *b, const struct gc_bodies *in,
                                        const struct gc_force_params *fp,
                                        struct gc_bodies *out);
const char *gc_backend_name(const struct gc_backend *b);
const char *gc_backend_device_name(const struct gc_backend *b);
/* The host threads a caller's own parallel work beside this backend may use: the
 * options' threads (--threads), else the OpenMP default. Always >= 1. */
int gc_backend_host_threads(const struct gc_backend *b);
/* The backend's tree_above (0: none of its own). */
size_t gc_backend_tree_above(const struct gc_backend *b);
/* 1 when the backend is an accelerator (GC_BACKEND_DEVICE). */
int gc_backend_is_device(const struct gc_backend *b);
/* The backend's table for `table`, or NULL (the typed lookups of the other headers use it). */
const void *gc_backend_lookup(const struct gc_backend *b, enum gc_backend_table table);

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
