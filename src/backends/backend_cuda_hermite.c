/* The CUDA backend's Hermite primitives: device state, kernel launches, and the block-step loop replayed by one CUDA graph with a device-side while loop. */
/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cuda_ctx.h"
#include "backend_hermite.h"

struct cuda_hermite {
    struct gc_cuda_hermite d;        /* device arrays and settings, passed to the kernels */
    struct gc_hermite_record *d_rec; /* n records: exchange between ranks */
    struct gc_cuda_hermite_ctl *hc;  /* pinned host copy of the control block */
    double *h_wpart;                 /* host copy of the potential's partial sums */
    cudaGraphExec_t exec;            /* the recorded loop; NULL until the first repeat */
    cudaGraph_t graph;
    enum gc_status (*body)(void *);  /* what the graph was recorded from */
    void *body_ctx;
    long long *d_pidx;               /* the latest perturbations' bodies and values */
    double *d_pval;
    size_t pcap;                     /* perturbations they hold */
    int host_loop;                   /* 1: this driver cannot run the graph loop */
    int min_kept;                    /* 1: ctl->t_min is the minimum over the state as it is
                                      * (kept by the selection and correction kernels) */
    int selected;                    /* 1: a selection that no correction has followed */
    int starting;                    /* 1 from init to the first selection: start-up passes */
};

static void free_graph(struct cuda_hermite *h)
{
    if (h->exec)
        cudaGraphExecDestroy(h->exec);
    if (h->graph)
        cudaGraphDestroy(h->graph);
    h->exec = NULL;
    h->graph = NULL;
    h->body = NULL;
    h->body_ctx = NULL;
}

void gc_cuda_hermite_free(struct cuda_ctx *c)
{
    struct cuda_hermite *h = c->herm;
    if (!h)
        return;
    cudaStreamSynchronize(c->stream);
    free_graph(h);
    if (h->d.l2_window) { /* the set-aside goes back to the L2's other uses */
        cudaCtxResetPersistingL2Cache();
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0);
    }
    void *arrays[] = {h->d.x, h->d.v, h->d.a, h->d.j, h->d.s, h->d.c, h->d.m, h->d.t,
                      h->d.level, h->d.key, h->d.active, h->d.part, h->d.xv, h->d.vv,
                      h->d.ctl, h->d_rec, h->d.jr,
                      h->d.da, h->d.dj, h->d.dset, h->d_pidx, h->d_pval};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        cudaFree(arrays[k]);
    cudaFreeHost(h->hc);
    free(h->h_wpart);
    free(h);
    c->herm = NULL;
}

/* Bytes of the n bodies' source records (gc_cuda_hermite.jr: four float4s a body). */
static size_t record_bytes(size_t n)
{
    return 16 * n * sizeof(float);
}

static enum gc_status alloc_state(struct cuda_hermite *h, size_t n)
{
    double **d3[] = {&h->d.x, &h->d.v, &h->d.a, &h->d.j, &h->d.s, &h->d.c, &h->d.xv, &h->d.vv};
    const size_t part = gc_cuda_hermite_part_doubles((int)n, h->d.grid);
    for (size_t k = 0; k < sizeof d3 / sizeof d3[0]; k++) {
        GC_CUDA_TRY(cudaMalloc((void **)d3[k], 3 * n * sizeof(double)));
        GC_CUDA_TRY(cudaMemset(*d3[k], 0, 3 * n * sizeof(double)));
    }
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.m, n * sizeof(double)));
    if (h->d.mixed && h->d.order == 4)
        GC_CUDA_TRY(cudaMalloc((void **)&h->d.jr, record_bytes(n)));
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.t, n * sizeof(long long)));
    GC_CUDA_TRY(cudaMemset(h->d.t, 0, n * sizeof(long long)));
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.level, n));
    GC_CUDA_TRY(cudaMemset(h->d.level, 0, n));
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.key, (n + 15) & ~(size_t)15));
    GC_CUDA_TRY(cudaMemset(h->d.key, GC_CUDA_KEY_PAD, (n + 15) & ~(size_t)15));
    GC_CUDA_TRY(cudaMemset(h->d.key, GC_CUDA_KEY_OFF, n)); /* tested by the tick until corrected */
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.active, n * sizeof(int)));
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.part, part * sizeof(double)));
    GC_CUDA_TRY(cudaMalloc((void **)&h->d.ctl, sizeof *h->d.ctl));
    GC_CUDA_TRY(cudaMallocHost((void **)&h->hc, sizeof *h->hc));
    h->h_wpart = malloc((size_t)h->d.grid * sizeof(double));
    if (!h->h_wpart) {
        gc_log_error("cuda backend: out of host memory");
        return GC_ERR_NOMEM;
    }
    return GC_OK;
}

/* x, v, m in double on the host (pos64/vel64/mass64 when the bodies have them), then up. */
static enum gc_status upload_state(struct cuda_hermite *h, const struct gc_bodies *bodies)
{
    const size_t n = bodies->n;
    double *x = malloc(3 * n * sizeof *x), *v = malloc(3 * n * sizeof *v),
           *m = malloc(n * sizeof *m);
    cudaError_t e = cudaSuccess;
    if (!x || !v || !m) {
        free(x);
        free(v);
        free(m);
        gc_log_error("cuda backend: out of host memory for %zu bodies", n);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            x[3 * i + k] = bodies->pos64 ? bodies->pos64[3 * i + k] : bodies->pos[4 * i + k];
            v[3 * i + k] = bodies->vel64 ? bodies->vel64[3 * i + k] : bodies->vel[4 * i + k];
        }
        m[i] = bodies->mass64 ? bodies->mass64[i] : bodies->pos[4 * i + 3];
    }
    if (e == cudaSuccess)
        e = cudaMemcpy(h->d.x, x, 3 * n * sizeof *x, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(h->d.v, v, 3 * n * sizeof *v, cudaMemcpyHostToDevice);
    if (e == cudaSuccess)
        e = cudaMemcpy(h->d.m, m, n * sizeof *m, cudaMemcpyHostToDevice);
    free(x);
    free(v);
    free(m);
    GC_CUDA_TRY(e);
    return GC_OK;
}

static enum gc_status hermite_view(struct gc_backend *b, int64_t t);

/* What the device offers the block step's launches (gc_cuda_hermite.pdl, .l2_window): a
 * capability it lacks leaves its field 0. The window is the records' first bytes, all of
 * them persisting, in 4/5 of the largest set-aside: the rest of the L2 keeps the ticks and
 * keys that every block step reads while the other records stream through it (of the
 * shares measured, this gave the fastest small block steps, ahead of the whole set-aside and
 * of every record at a hit ratio: docs/perf-log/hermite-gpu.md). */
static void use_device(struct cuda_ctx *c, struct cuda_hermite *h)
{
    int major = 0, persist = 0, window = 0;
    size_t keep = h->d.jr ? record_bytes((size_t)h->d.n) : 0;
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, c->device);
    cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize, c->device);
    cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, c->device);
    h->d.pdl = major >= 9;
    persist = persist / 5 * 4;
    keep = keep < (size_t)persist ? keep : (size_t)persist;
    keep = keep < (size_t)window ? keep : (size_t)window;
    if (keep && cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, keep) == cudaSuccess)
        h->d.l2_window = keep;
    (void)cudaGetLastError(); /* an attribute this runtime does not know is no error */
}

static enum gc_status init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                           const struct gc_bodies *bodies)
{
    struct cuda_ctx *c = b->ctx;
    const size_t n = bodies->n;
    struct cuda_hermite *h;
    enum gc_status st;
    int grid;
    gc_cuda_hermite_free(c);
    if (n != c->n || n > (size_t)1 << 30) {
        gc_log_error("cuda backend: Hermite needs the %zu bodies uploaded first (and at most "
                     "2^30; %zu given)", c->n, n);
        return GC_ERR_INVALID;
    }
    h = calloc(1, sizeof *h);
    if (!h) {
        gc_log_error("cuda backend: out of memory for the Hermite state");
        return GC_ERR_NOMEM;
    }
    c->herm = h;
    h->d.n = (int)n;
    h->d.i0 = (int)c->i0;
    h->d.i1 = (int)c->i1;
    h->d.order = cfg->order;
    h->d.fixed_level = cfg->fixed_level;
    h->d.eps2 = cfg->eps2;
    h->d.eta = cfg->eta;
    h->d.eta_start = cfg->eta_start;
    h->d.dt_max = cfg->dt_max;
    h->starting = 1;
    h->d.mixed = cfg->mixed;
    grid = gc_cuda_hermite_grid(cfg->order, cfg->mixed, c->sm_count);
    if (grid <= 0) {
        gc_log_error("cuda backend: no Hermite kernel for this device: %s",
                     cudaGetErrorString((cudaError_t)-grid));
        gc_cuda_hermite_free(c);
        return GC_ERR_CUDA;
    }
    h->d.grid = grid;
    st = alloc_state(h, n);
    if (st == GC_OK)
        use_device(c, h);
    if (st == GC_OK)
        st = upload_state(h, bodies);
    if (st == GC_OK && gc_cuda_hermite_launch_reset(&h->d, c->stream) != 0)
        st = GC_ERR_CUDA;
    if (st == GC_OK)
        st = hermite_view(b, 0);
    if (st != GC_OK) {
        if (st == GC_ERR_CUDA)
            gc_log_error("cuda backend: cannot set up the Hermite state of %zu bodies", n);
        gc_cuda_hermite_free(c);
        return st;
    }
    gc_log_info("cuda backend: hermite%d, %s force kernel, %d blocks of 256%s; %.0f%% of "
                "the sources' records kept in the L2", cfg->order,
                cfg->mixed ? "mixed precision (double-single differences, float terms)"
                           : "double precision",
                grid, h->d.pdl ? ", programmatic dependent launches" : "",
                h->d.l2_window ? 100.0 * (double)h->d.l2_window / (double)record_bytes(n)
                               : 0.0);
    return GC_OK;
}

#define LAUNCH(call)                                                                       \
    do {                                                                                   \
        int e_ = (call);                                                                   \
        if (e_ != 0) {                                                                     \
            gc_log_error("cuda backend: %s: %s", #call, cudaGetErrorString((cudaError_t)e_)); \
            return GC_ERR_CUDA;                                                            \
        }                                                                                  \
    } while (0)

/* The start-up passes compute the snap for both orders (gc_hermite_criterion_start): they
 * run the 6th-order double kernels, whatever the order of the run. */
static struct gc_cuda_hermite start_kernels(const struct cuda_hermite *h)
{
    struct gc_cuda_hermite d = h->d;
    if (h->starting) {
        d.order = 6;
        d.mixed = 0;
    }
    return d;
}

static enum gc_status begin(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    const struct gc_cuda_hermite d = start_kernels(c->herm);
    LAUNCH(gc_cuda_hermite_launch_correct(&d, 1, c->stream));
    c->herm->min_kept = 0;
    return GC_OK;
}

static int capturing(const struct cuda_ctx *c)
{
    enum cudaStreamCaptureStatus s = cudaStreamCaptureStatusNone;
    return cudaStreamIsCapturing(c->stream, &s) == cudaSuccess &&
           s == cudaStreamCaptureStatusActive;
}

static enum gc_status hermite_select(struct gc_backend *b, int64_t t_limit, int *due)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    const int full = !h->min_kept || h->selected;
    h->starting = 0;
    LAUNCH(gc_cuda_hermite_launch_select(&h->d, (long long)t_limit, capturing(c), full,
                                         c->stream));
    h->min_kept = 1;
    h->selected = 1;
    if (due) {
        GC_CUDA_TRY(cudaMemcpyAsync(&h->hc->due, &h->d.ctl->due, sizeof(int),
                                    cudaMemcpyDeviceToHost, c->stream));
        GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
        *due = h->hc->due;
    }
    return GC_OK;
}

/* The force kernel predicts each j body as it loads it, so there is nothing to do here. */
static enum gc_status predict(struct gc_backend *b)
{
    (void)b;
    return GC_OK;
}

static enum gc_status hermite_force(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    const struct gc_cuda_hermite d = start_kernels(c->herm);
    LAUNCH(gc_cuda_hermite_launch_force(&d, c->stream));
    return GC_OK;
}

static enum gc_status correct(struct gc_backend *b)
{
    struct cuda_ctx *c = b->ctx;
    LAUNCH(gc_cuda_hermite_launch_correct(&c->herm->d, 0, c->stream));
    c->herm->selected = 0;
    return GC_OK;
}

static enum gc_status hermite_view(struct gc_backend *b, int64_t t)
{
    struct cuda_ctx *c = b->ctx;
    LAUNCH(gc_cuda_hermite_launch_view(&c->herm->d, (long long)t, c->d_pos, c->d_vel,
                                       c->stream));
    return GC_OK;
}

static enum gc_status counters(struct gc_backend *b, struct gc_hermite_counters *out)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    const struct gc_cuda_hermite_ctl *k = h->hc;
    GC_CUDA_TRY(cudaMemcpyAsync(h->hc, h->d.ctl, sizeof *h->hc, cudaMemcpyDeviceToHost,
                                c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    GC_CUDA_TRY(cudaGetLastError());
    out->blocks = k->blocks;
    out->body_steps = k->body_steps;
    out->last_active = k->last_active;
    out->t_last = k->t_last;
    out->error = k->error;
    out->error_i = k->error_i;
    out->error_j = k->error_j;
    for (int bin = 0; bin < GC_HERMITE_TIME_BINS; bin++) {
        out->loop_steps[bin] = k->loop_steps[bin];
        out->loop_ns[bin] = k->loop_ns[bin];
    }
    return GC_OK;
}

static enum gc_status schedule(struct gc_backend *b, int64_t *t, uint8_t *level)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    const size_t n = (size_t)h->d.n;
    GC_CUDA_TRY(cudaMemcpyAsync(t, h->d.t, n * sizeof *t, cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(level, h->d.level, n, cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

static enum gc_status derivs(struct gc_backend *b, double *acc, double *jerk, double *snap)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    const size_t bytes = 3 * (size_t)h->d.n * sizeof(double);
    GC_CUDA_TRY(cudaMemcpyAsync(acc, h->d.a, bytes, cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(jerk, h->d.j, bytes, cudaMemcpyDeviceToHost, c->stream));
    if (snap)
        GC_CUDA_TRY(cudaMemcpyAsync(snap, h->d.s, bytes, cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

/* Block steps a trip of the graph's while loop: a trip has a cost of its own beside its
 * kernels, which small block steps feel. The copies after the one that ends the loop find
 * nothing due and return. */
#define LOOP_STEPS 8
/* Records LOOP_STEPS calls of body into the body graph of a conditional while node whose
 * condition the selection kernels set. Returns 0 when this driver or runtime cannot (the
 * caller then loops on the host); the stream is left usable either way. */
static int record_loop(struct cuda_ctx *c, struct cuda_hermite *h,
                       enum gc_status (*body)(void *), void *ctx)
{
    cudaGraphConditionalHandle handle;
    struct cudaGraphNodeParams np;
    cudaGraphNode_t node;
    cudaGraph_t captured = NULL;
    cudaError_t e;
    enum gc_status st = GC_OK;
    free_graph(h);
    e = cudaGraphCreate(&h->graph, 0);
    if (e == cudaSuccess)
        e = cudaGraphConditionalHandleCreate(&handle, h->graph, 1, cudaGraphCondAssignDefault);
    if (e == cudaSuccess) {
        memset(&np, 0, sizeof np);
        np.type = cudaGraphNodeTypeConditional;
        np.conditional.handle = handle;
        np.conditional.type = cudaGraphCondTypeWhile;
        np.conditional.size = 1;
        e = cudaGraphAddNode(&node, h->graph, NULL, NULL, 0, &np);
    }
    if (e == cudaSuccess)
        e = cudaStreamBeginCaptureToGraph(c->stream, np.conditional.phGraph_out[0], NULL, NULL,
                                          0, cudaStreamCaptureModeThreadLocal);
    if (e != cudaSuccess)
        goto fail;
    h->d.cond = (unsigned long long)handle;
    for (int k = 0; k < LOOP_STEPS && st == GC_OK; k++)
        st = body(ctx);
    h->d.cond = 0;
    e = cudaStreamEndCapture(c->stream, &captured);
    if (st != GC_OK && e == cudaSuccess)
        e = cudaErrorUnknown;
    if (e == cudaSuccess)
        e = cudaGraphInstantiate(&h->exec, h->graph, 0);
    if (e != cudaSuccess)
        goto fail;
    h->body = body;
    h->body_ctx = ctx;
    return 1;
fail:
    if (h->d.pdl)
        gc_log_info("cuda backend: no CUDA graph loop with programmatic dependent launches "
                    "here (%s); trying without them", cudaGetErrorString(e));
    else
        gc_log_info("cuda backend: no CUDA graph with a device-side loop here (%s); block "
                    "steps are launched from the host", cudaGetErrorString(e));
    (void)cudaGetLastError();
    free_graph(h);
    return 0;
}

/* One eager call of body stores the time limit on the device (and does the first block
 * step); the graph then repeats body while a block is due, with no host round trip. */
static enum gc_status repeat(struct gc_backend *b, enum gc_status (*body)(void *ctx), void *ctx)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    enum gc_status st = body(ctx);
    if (st != GC_OK)
        return st;
    if (!h->host_loop && !(h->exec && h->body == body && h->body_ctx == ctx)) {
        h->host_loop = !record_loop(c, h, body, ctx);
        if (h->host_loop && h->d.pdl) { /* a graph without the dependents' edges */
            h->d.pdl = 0;
            h->host_loop = !record_loop(c, h, body, ctx);
        }
    }
    if (!h->host_loop) {
        GC_CUDA_TRY(cudaGraphLaunch(h->exec, c->stream));
        return GC_OK;
    }
    for (;;) {
        GC_CUDA_TRY(cudaMemcpyAsync(&h->hc->due, &h->d.ctl->due, sizeof(int),
                                    cudaMemcpyDeviceToHost, c->stream));
        GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
        if (!h->hc->due)
            return GC_OK;
        st = body(ctx);
        if (st != GC_OK)
            return st;
    }
}

void gc_cuda_hermite_set_range(struct cuda_ctx *c)
{
    c->herm->d.i0 = (int)c->i0;
    c->herm->d.i1 = (int)c->i1;
    c->herm->min_kept = 0;
    free_graph(c->herm); /* a recorded loop would keep the old range */
}

static enum gc_status pack(struct gc_backend *b, struct gc_hermite_record *dst, size_t *count)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    int m;
    if (!h->d_rec)
        GC_CUDA_TRY(cudaMalloc((void **)&h->d_rec, (size_t)h->d.n * sizeof *h->d_rec));
    LAUNCH(gc_cuda_hermite_launch_pack(&h->d, h->d_rec, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(&h->hc->last_count, &h->d.ctl->last_count, sizeof(int),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    m = h->hc->last_count;
    if (m > 0)
        GC_CUDA_TRY(cudaMemcpy(dst, h->d_rec, (size_t)m * sizeof *h->d_rec,
                               cudaMemcpyDeviceToHost));
    *count = (size_t)m;
    return GC_OK;
}

/* Every body's record to the host: snapshots that a run continues from, and the
 * regularised groups, which are found and advanced on the host (once per block step there:
 * n records, ~170 bytes each). */
static enum gc_status state(struct gc_backend *b, struct gc_hermite_record *all)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    if (!h->d_rec)
        GC_CUDA_TRY(cudaMalloc((void **)&h->d_rec, (size_t)h->d.n * sizeof *h->d_rec));
    LAUNCH(gc_cuda_hermite_launch_state(&h->d, h->d_rec, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(all, h->d_rec, (size_t)h->d.n * sizeof *h->d_rec,
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

static enum gc_status unpack(struct gc_backend *b, const struct gc_hermite_record *src,
                             size_t count)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    if (count == 0)
        return GC_OK;
    if (count > (size_t)h->d.n) {
        gc_log_error("cuda backend: %zu Hermite records for %d bodies", count, h->d.n);
        return GC_ERR_INVALID;
    }
    if (!h->d_rec)
        GC_CUDA_TRY(cudaMalloc((void **)&h->d_rec, (size_t)h->d.n * sizeof *h->d_rec));
    GC_CUDA_TRY(cudaMemcpyAsync(h->d_rec, src, count * sizeof *h->d_rec, cudaMemcpyHostToDevice,
                                c->stream));
    LAUNCH(gc_cuda_hermite_launch_unpack(&h->d, h->d_rec, (int)count, c->stream));
    h->min_kept = 0;
    /* src may be reused by the caller once this returns */
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

enum gc_status gc_cuda_hermite_download(struct cuda_ctx *c, struct gc_bodies *dst)
{
    struct cuda_hermite *h = c->herm;
    const size_t n = (size_t)h->d.n;
    if (!dst->pos64)
        return GC_OK;
    GC_CUDA_TRY(cudaMemcpyAsync(dst->pos64, h->d.xv, 3 * n * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(dst->vel64, h->d.vv, 3 * n * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(dst->mass64, h->d.m, n * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    return GC_OK;
}

enum gc_status gc_cuda_hermite_potential(struct cuda_ctx *c, double *w)
{
    struct cuda_hermite *h = c->herm;
    int nb = 0;
    double sum = 0.0;
    LAUNCH(gc_cuda_hermite_launch_potential(&h->d, h->d.part, &nb, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(h->h_wpart, h->d.part, (size_t)nb * sizeof(double),
                                cudaMemcpyDeviceToHost, c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    for (int k = 0; k < nb; k++)
        sum += h->h_wpart[k];
    *w = -0.5 * sum;
    return GC_OK;
}

/* The additions arrive on the host once per block step with groups (a host-driven loop):
 * copied up, scattered into per-body slots, added by the correction. */
static enum gc_status perturb(struct gc_backend *b, const int64_t *idx, const double *acc,
                              const double *jerk, size_t count)
{
    struct cuda_ctx *c = b->ctx;
    struct cuda_hermite *h = c->herm;
    const size_t n = (size_t)h->d.n;
    for (size_t k = 0; k < count; k++)
        if (idx[k] < 0 || (size_t)idx[k] >= n)
            return GC_ERR_INVALID;
    if (count == 0)
        return GC_OK;
    if (!h->d.dset) {
        GC_CUDA_TRY(cudaMalloc((void **)&h->d.da, 3 * n * sizeof(double)));
        GC_CUDA_TRY(cudaMalloc((void **)&h->d.dj, 3 * n * sizeof(double)));
        GC_CUDA_TRY(cudaMalloc((void **)&h->d.dset, n));
        GC_CUDA_TRY(cudaMemsetAsync(h->d.dset, 0, n, c->stream));
        free_graph(h); /* a recorded loop holds the kernels' arguments without them */
    }
    if (count > h->pcap) {
        cudaFree(h->d_pidx);
        cudaFree(h->d_pval);
        h->d_pidx = NULL;
        h->d_pval = NULL;
        h->pcap = 0;
        GC_CUDA_TRY(cudaMalloc((void **)&h->d_pidx, count * sizeof(long long)));
        GC_CUDA_TRY(cudaMalloc((void **)&h->d_pval, 6 * count * sizeof(double)));
        h->pcap = count;
    }
    /* From pageable memory: the copies have taken the data when they return. */
    GC_CUDA_TRY(cudaMemcpyAsync(h->d_pidx, idx, count * sizeof(long long),
                                cudaMemcpyHostToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(h->d_pval, acc, 3 * count * sizeof(double),
                                cudaMemcpyHostToDevice, c->stream));
    GC_CUDA_TRY(cudaMemcpyAsync(h->d_pval + 3 * count, jerk, 3 * count * sizeof(double),
                                cudaMemcpyHostToDevice, c->stream));
    LAUNCH(gc_cuda_hermite_launch_perturb(&h->d, h->d_pidx, h->d_pval, (int)count, c->stream));
    return GC_OK;
}

const struct gc_backend_hermite gc_cuda_hermite_table = {
    .init = init,
    .begin = begin,
    .select = hermite_select,
    .predict = predict,
    .force = hermite_force,
    .correct = correct,
    .view = hermite_view,
    .counters = counters,
    .schedule = schedule,
    .derivs = derivs,
    .pack = pack,
    .unpack = unpack,
    .state = state,
    .repeat = repeat,
    .perturb = perturb,
};
