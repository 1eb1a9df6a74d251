/* The Hermite block-step kernels: block selection, force with jerk (and snap) of the active bodies with the prediction fused in, correction, view and potential, all in a fixed launch shape so one CUDA graph replays them. */
/* SPDX-License-Identifier: MIT */
#include <climits>
#include <type_traits>

#include <cuda_runtime.h>

#include "gc_kernels.h"
#include "hermite_formulas.h"
#include "hermite_plan.h"

/* Threads per block of every kernel here, and the length of a shared-memory j tile. */
#define HT GC_HERMITE_HT

/* The launch shape never changes (a graph replays it), so each kernel reads the active
 * count m from device memory and lays out its work from it (hermite_plan.h):
 *  - ni active bodies per block, each served by q = HT/ni threads that split the tile's j
 *    bodies between them (m >= HT: ni = HT, one thread per body; a block of one active body
 *    has all HT threads on its j range, as GPU Gems' "q threads per body");
 *  - the j range split into `slices` over blocks (HiGPUs' Bfactor) so that a small block
 *    step still fills the chip and a large one leaves few blocks idle in its last wave;
 *    the correct kernel adds the slices' partial sums in order. */
static __device__ __forceinline__ double tick_of(const gc_cuda_hermite &H)
{
    return ldexp(H.dt_max, -GC_HERMITE_LEVELS);
}

/* A body's key (gc_cuda_hermite.key): its level where its tick is a multiple of its step,
 * which every correction leaves true, so that the selection needs the level only
 * (gc_hermite_due_level, gc_hermite_next_due) and reads one byte a body instead of nine.
 * GC_CUDA_KEY_OFF marks a tick off that grid (a regularised group's parked slots, a state
 * not yet corrected): those are tested by the tick itself. */
#define KEY_LEVEL 0x3fu

static __device__ __forceinline__ unsigned char key_of(long long t, int level)
{
    return (unsigned char)(level | (gc_hermite_on_grid(t, level) ? 0u : GC_CUDA_KEY_OFF));
}

static __device__ __forceinline__ void load3(const double *p, int i, double out[3])
{
    out[0] = p[3 * (size_t)i];
    out[1] = p[3 * (size_t)i + 1];
    out[2] = p[3 * (size_t)i + 2];
}

static __device__ __forceinline__ void store3(double *p, int i, const double in[3])
{
    p[3 * (size_t)i] = in[0];
    p[3 * (size_t)i + 1] = in[1];
    p[3 * (size_t)i + 2] = in[2];
}

/* Body i's Taylor series from its own time to tick t (ap only when non-NULL). */
template <int ORDER>
static __device__ __forceinline__ void predict_body(const gc_cuda_hermite &H, int i, long long t,
                                                    double xp[3], double vp[3], double *ap)
{
    double x[3], v[3], a[3], j[3], s[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    const double h = (double)(t - H.t[i]) * tick_of(H);
    load3(H.x, i, x);
    load3(H.v, i, v);
    load3(H.a, i, a);
    load3(H.j, i, j);
    if (ORDER == 6) {
        load3(H.s, i, s);
        load3(H.c, i, c);
    }
    gc_hermite_predict(ORDER, h, x, v, a, j, s, c, xp, vp, ap);
}

/* A kernel launched as a programmatic dependent (gc_cuda_hermite.pdl) may be running
 * before the one ahead of it has finished: nothing before this line reads or writes what
 * that one writes. A no-op for an ordinary launch. */
static __device__ __forceinline__ void wait_previous()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* Lets the grid launched after this one as a programmatic dependent be scheduled now: its
 * blocks take multiprocessors as this grid's leave them and wait in wait_previous(), instead
 * of being launched once this grid has ended. */
static __device__ __forceinline__ void launch_next()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* The first error wins; the integrator reports it from the counters. */
static __device__ void record_error(gc_cuda_hermite_ctl *ctl, int code, long long i, long long j)
{
    if (atomicCAS(&ctl->error, 0, code) == 0) {
        ctl->error_i = i;
        ctl->error_j = j;
    }
}

static __device__ __forceinline__ bool finite3(const double p[3])
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

/* ---- selection: t_next = min_i (t_i + dt_i), then the bodies due then, compacted ---- */

/* Selection and correction keep ctl->t_min current between block steps: the selection takes
 * the minimum over the bodies it does not select, the correction over the ones it moves, and
 * the correction's last block joins the two. So a block step reads every body once (the
 * compaction) instead of twice; the full minimum runs only after the state changed otherwise
 * (start-up, other ranks' records). */

static __device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* The block's minimum of v, in thread 0. */
static __device__ long long block_min(long long v)
{
    __shared__ long long red[HT / 32];
    for (int off = 16; off > 0; off >>= 1) {
        const long long o = __shfl_down_sync(0xffffffffu, v, off);
        v = o < v ? o : v;
    }
    __syncthreads(); /* red may still be read by a previous call */
    if ((threadIdx.x & 31) == 0)
        red[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < HT / 32; w++)
            v = red[w] < v ? red[w] : v;
    return v;
}

/* Adds the block's minimum of v into ctl->t_rest, then tells whether this block is the
 * pass's last to finish (every other block's writes are then visible to it). */
static __device__ bool close_block(gc_cuda_hermite_ctl *ctl, long long v)
{
    __shared__ bool last;
    v = block_min(v);
    if (threadIdx.x == 0) {
        if (v != LLONG_MAX)
            atomicMin(&ctl->t_rest, v);
        __threadfence();
        last = atomicAdd(&ctl->done, 1u) == gridDim.x - 1;
        if (last)
            __threadfence();
    }
    __syncthreads();
    return last;
}

/* The last block of a pass, thread 0: the joined minimum becomes t_min. */
static __device__ __forceinline__ void take_min(gc_cuda_hermite_ctl *ctl)
{
    ctl->t_min = atomicExch((unsigned long long *)&ctl->t_rest, (unsigned long long)LLONG_MAX);
    ctl->done = 0;
}

/* The full minimum over every body, and a fresh (empty) active list. */
static __global__ void __launch_bounds__(HT) h_select_min(gc_cuda_hermite H)
{
    long long best = LLONG_MAX;
    for (int i = blockIdx.x * HT + threadIdx.x; i < H.n; i += gridDim.x * HT) {
        const long long ti = H.t[i] + GC_HERMITE_TICKS(H.level[i]);
        best = ti < best ? ti : best;
    }
    if (close_block(H.ctl, best) && threadIdx.x == 0) {
        take_min(H.ctl);
        H.ctl->count = 0;
        H.ctl->count_all = 0;
    }
}

static __device__ __forceinline__ unsigned warp_or(unsigned v)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __reduce_or_sync(0xffffffffu, v);
#else
    for (int off = 16; off > 0; off >>= 1)
        v |= __shfl_xor_sync(0xffffffffu, v, off);
    return v;
#endif
}

/* Whether body i, key position b of the thread's sixteen, is due at tn (lvl: its
 * gc_hermite_due_level); a body off the grid that is not due has its next tick folded into
 * rest. */
static __device__ __forceinline__ int due_key(const gc_cuda_hermite &H, const unsigned kw[4],
                                              int b, int i, int lvl, long long tn,
                                              long long &rest)
{
    const unsigned word = b < 8 ? (b < 4 ? kw[0] : kw[1]) : (b < 12 ? kw[2] : kw[3]);
    const unsigned k = (word >> (8 * (b & 3))) & 0xffu;
    if (!(k & GC_CUDA_KEY_OFF))
        return (int)k >= lvl;
    if (i >= H.n)
        return 0;
    const long long ti = H.t[i] + GC_HERMITE_TICKS(k & KEY_LEVEL);
    if (ti != tn)
        rest = ti < rest ? ti : rest;
    return ti == tn;
}

/* use_ctl = 0: t_limit is the argument and is stored for the graph's replays; 1 (inside
 * the graph): the stored one. The block is due when t_next <= t_limit and no error is
 * pending; inside a graph, `due` is also the while loop's condition. */
static __global__ void __launch_bounds__(HT) h_select_compact(gc_cuda_hermite H,
                                                              long long t_limit, int use_ctl)
{
    gc_cuda_hermite_ctl *ctl = H.ctl;
    launch_next();
    const long long tn = ctl->t_min;
    const long long lim = use_ctl ? ctl->t_limit : t_limit;
    const int due = tn <= lim && ctl->error == 0;
    const int lane = threadIdx.x & 31;
    long long rest = LLONG_MAX;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        ctl->due = due;
        if (!use_ctl)
            ctl->t_limit = t_limit;
        if (due) {
            ctl->t_next = tn;
            ctl->looped = use_ctl;
        }
        if (H.cond)
            cudaGraphSetConditional((cudaGraphConditionalHandle)H.cond, due ? 1u : 0u);
    }
    if (!due)
        return;
    /* Sixteen keys a thread in one load (key_of): a warp whose bodies are neither due nor
     * off the grid is done after four byte compares, and those bodies' next ticks follow
     * from the finest of their levels (per byte: 1 + level, 0 for none). Warp-uniform
     * loops: every lane takes part in the ballots. The list holds this rank's due bodies;
     * every rank's are counted too (the counters report those). */
    const int lvl = gc_hermite_due_level(tn);
    const unsigned l4 = 0x01010101u * (unsigned)lvl;
    const int words = (H.n + 15) / 16;
    unsigned finest = 0;
    for (int base = blockIdx.x * HT + (threadIdx.x & ~31); base < words; base += gridDim.x * HT) {
        const int w = base + lane;
        const unsigned pad = 0x01010101u * GC_CUDA_KEY_PAD;
        const uint4 k4 = w < words ? __ldg(reinterpret_cast<const uint4 *>(H.key) + w)
                                   : make_uint4(pad, pad, pad, pad);
        const unsigned kw[4] = {k4.x, k4.y, k4.z, k4.w};
        /* the key positions (0-15) whose body is due or off the grid in some lane: one
         * trip each of the loops below (one at m = 1), written once rather than unrolled,
         * whose length had the warp wait on instruction fetches */
        unsigned need = 0;
#pragma unroll
        for (int c = 0; c < 4; c++) {
            const unsigned f = __vcmpgeu4(kw[c], l4);
            need |= ((f & 1u) | (f >> 7 & 2u) | (f >> 14 & 4u) | (f >> 21 & 8u)) << (4 * c);
            finest = __vmaxu4(finest, __vcmpltu4(kw[c], l4) & __vadd4(kw[c], 0x01010101u));
        }
        need = warp_or(need);
        if (!need)
            continue;
        /* two passes over them, so that the warp takes its slots with one atomic */
        int mine_total = 0, all_total = 0;
        for (unsigned left = need; left; left &= left - 1) {
            const int b = __ffs(left) - 1;
            const int i = 16 * w + b;
            const int hit = due_key(H, kw, b, i, lvl, tn, rest);
            all_total += __popc(__ballot_sync(0xffffffffu, hit));
            mine_total += __popc(__ballot_sync(0xffffffffu, hit && i >= H.i0 && i < H.i1));
        }
        int slot = 0;
        if (lane == 0 && all_total)
            atomicAdd(&ctl->count_all, all_total);
        if (lane == 0 && mine_total)
            slot = atomicAdd(&ctl->count, mine_total);
        slot = __shfl_sync(0xffffffffu, slot, 0);
        long long unused = LLONG_MAX;
        for (unsigned left = need; mine_total && left; left &= left - 1) {
            const int b = __ffs(left) - 1;
            const int i = 16 * w + b;
            const bool mine = due_key(H, kw, b, i, lvl, tn, unused) && i >= H.i0 && i < H.i1;
            const unsigned mask = __ballot_sync(0xffffffffu, mine);
            if (mine)
                H.active[slot + __popc(mask & ((1u << lane) - 1u))] = i;
            slot += __popc(mask);
        }
    }
    finest = max(max(finest & 0xffu, (finest >> 8) & 0xffu),
                 max((finest >> 16) & 0xffu, finest >> 24));
    if (finest) {
        const long long ti = gc_hermite_next_due(tn, (int)finest - 1);
        rest = ti < rest ? ti : rest;
    }
    rest = block_min(rest);
    if (threadIdx.x == 0 && rest != LLONG_MAX)
        atomicMin(&ctl->t_rest, rest);
}

/* ---- force: acceleration, jerk (and snap) of the active bodies against all n ---- */

/* The force kernel's arithmetic (gc_cuda_hermite.mixed, the launcher picks):
 *  - DOUBLE: every operation in double;
 *  - MIXED: positions predicted in double and split into two floats (high part and the
 *    rest), differenced as such ("double-single": the high parts' difference is exact for
 *    nearby bodies, so the difference keeps a float's relative precision however far from
 *    the origin), everything after it (r^2, 1/r, the terms, velocity and acceleration
 *    differences) in float, the sums in float over one tile of HT bodies and in double
 *    across tiles, as the GRAPE-6-style libraries do. A double difference rounded to float
 *    is as precise but costs three conversions a pair, which share the special-function
 *    unit (16 a cycle per multiprocessor on sm_90) with the reciprocal square root and
 *    bounded the pass there (ncu: XU 61%, MIO-throttle stalls first).
 *  - MIXED_EXACT: MIXED that also skips and checks coincident pairs (eps = 0). */
enum { ARITH_DOUBLE, ARITH_MIXED, ARITH_MIXED_EXACT };

/* One tile of j bodies predicted to the block time, in shared memory. */
template <int ORDER>
struct htile {
    double x[HT], y[HT], z[HT], m[HT];
    double vx[HT], vy[HT], vz[HT];
    double ax[ORDER == 6 ? HT : 1], ay[ORDER == 6 ? HT : 1], az[ORDER == 6 ? HT : 1];
    int id[HT];
};

/* A mixed tile's body: three 16-byte loads per pair (and one float for 6th order). */
struct __align__(16) mbody {
    float4 hi; /* x, y, z high parts; mass */
    float4 lo; /* x, y, z low parts; vx */
    float4 w;  /* vy, vz, ax, ay (the accelerations: 6th order) */
};

/* x as hi + lo, each a float rounded to nearest: hi + lo carries 48 of x's bits. */
static __device__ __forceinline__ void split(double x, float &hi, float &lo)
{
    hi = __double2float_rn(x);
    lo = __double2float_rn(x - (double)hi);
}

template <int ORDER>
struct mtile {
    mbody b[HT];
    float az[ORDER == 6 ? HT : 1];
    int id[HT];
};

/* A body as a source of the mixed 4th-order pass (H.jr, kept by every write of the state):
 * its position split (hi + lo, 48 bits), mass, and velocity, acceleration and jerk in
 * float, 64 bytes beside its tick, against 112 read from the double state. Predicting a
 * source is then reading 72 bytes, which at small blocks is the whole cost of the pass
 * (every body is a source at every block step). The terms after the position are rounded
 * to float as GRAPE-6's predictor did: their error, ~6e-8 of the step's displacement, stays
 * below the float pair terms' own. */
struct jrec {
    float4 hi; /* x, y, z high parts; mass */
    float4 lo; /* x, y, z low parts; vx */
    float4 va; /* vy, vz, ax, ay */
    float4 aj; /* az, jx, jy, jz */
};

static __device__ void store_jrec(const gc_cuda_hermite &H, int i, const double x[3],
                                  const double v[3], const double a[3], const double j[3])
{
    float h[3], l[3];
    jrec r;
    for (int c = 0; c < 3; c++)
        split(x[c], h[c], l[c]);
    r.hi = make_float4(h[0], h[1], h[2], (float)H.m[i]);
    r.lo = make_float4(l[0], l[1], l[2], (float)v[0]);
    r.va = make_float4((float)v[1], (float)v[2], (float)a[0], (float)a[1]);
    r.aj = make_float4((float)a[2], (float)j[0], (float)j[1], (float)j[2]);
    reinterpret_cast<jrec *>(H.jr)[i] = r;
}

/* Source j from its record, predicted to tick tn into tile slot b: the displacement and
 * the velocity in float, the position's sum in double and split again. */
static __device__ __forceinline__ void load_jrec(const gc_cuda_hermite &H, mbody &b, int j,
                                                 long long tn)
{
    const jrec *R = reinterpret_cast<const jrec *>(H.jr) + j;
    const float4 hi = __ldg(&R->hi), lo = __ldg(&R->lo), va = __ldg(&R->va),
                 aj = __ldg(&R->aj);
    const float h = (float)((double)(tn - H.t[j]) * tick_of(H));
    const float xh[3] = {hi.x, hi.y, hi.z}, xl[3] = {lo.x, lo.y, lo.z};
    const float v[3] = {lo.w, va.x, va.y}, a[3] = {va.z, va.w, aj.x}, jj[3] = {aj.y, aj.z, aj.w};
    float ph[3], pl[3], vp[3];
    for (int c = 0; c < 3; c++) {
        const float dx = h * fmaf(h, fmaf(h, jj[c] * (1.0f / 6.0f), 0.5f * a[c]), v[c]);
        vp[c] = fmaf(h, fmaf(h, 0.5f * jj[c], a[c]), v[c]);
        split((double)xh[c] + (double)xl[c] + (double)dx, ph[c], pl[c]);
    }
    b.hi = make_float4(ph[0], ph[1], ph[2], hi.w);
    b.lo = make_float4(pl[0], pl[1], pl[2], vp[0]);
    b.w = make_float4(vp[1], vp[2], 0.0f, 0.0f);
}

/* Body i (predicted xi, vi, ai) and tile body k: adds acceleration, jerk (and snap) into
 * acc[0..2], acc[3..5] (and acc[6..8]) with the formulas the CPU uses
 * (gc_hermite_pair_terms); the reciprocal distance by rsqrt. */
template <int ORDER>
static __device__ __forceinline__ void pair(const htile<ORDER> &T, int k, int i,
                                            const double xi[3], const double vi[3],
                                            const double ai[3], double eps2,
                                            gc_cuda_hermite_ctl *ctl, double *acc)
{
    const double r[3] = {T.x[k] - xi[0], T.y[k] - xi[1], T.z[k] - xi[2]};
    const double r2 = fma(r[2], r[2], fma(r[1], r[1], fma(r[0], r[0], eps2)));
    if (r2 == 0.0) { /* only with eps = 0: the self-pair, padding or a collision */
        if (T.id[k] >= 0 && T.id[k] != i)
            record_error(ctl, GC_HERMITE_ERR_COINCIDENT, i, T.id[k]);
        return;
    }
    const double rinv = rsqrt(r2);
    const double rinv2 = rinv * rinv;
    const double w[3] = {T.vx[k] - vi[0], T.vy[k] - vi[1], T.vz[k] - vi[2]};
    if (ORDER == 6) {
        const double A[3] = {T.ax[k] - ai[0], T.ay[k] - ai[1], T.az[k] - ai[2]};
        gc_hermite_pair_terms(r, w, A, T.m[k] * rinv * rinv2, rinv2, acc, acc + 3, acc + 6);
    } else {
        gc_hermite_pair_terms(r, w, nullptr, T.m[k] * rinv * rinv2, rinv2, acc, acc + 3,
                              nullptr);
    }
}

/* The same pair in mixed arithmetic (gc_hermite_pair_terms_f after the double-single
 * difference; xh, xl: body i's position split), source b (id: its index, -1 padding; az:
 * its z acceleration, 6th order). */
template <int ORDER, bool EXACT>
static __device__ __forceinline__ void pair_mixed(const mbody &b, float az, int id, int i,
                                                  const float xh[3], const float xl[3],
                                                  const float vi[3], const float ai[3],
                                                  float eps2, gc_cuda_hermite_ctl *ctl,
                                                  float *acc)
{
    const float4 hi = b.hi, lo = b.lo, w4 = b.w;
    const float r[3] = {(hi.x - xh[0]) + (lo.x - xl[0]), (hi.y - xh[1]) + (lo.y - xl[1]),
                        (hi.z - xh[2]) + (lo.z - xl[2])};
    const float r2 = fmaf(r[2], r[2], fmaf(r[1], r[1], fmaf(r[0], r[0], eps2)));
    if (EXACT && r2 == 0.0f) {
        if (id >= 0 && id != i)
            record_error(ctl, GC_HERMITE_ERR_COINCIDENT, i, id);
        return;
    }
    const float rinv = rsqrtf(r2);
    const float rinv2 = rinv * rinv;
    const float w[3] = {lo.w - vi[0], w4.x - vi[1], w4.y - vi[2]};
    if (ORDER == 6) {
        const float A[3] = {w4.z - ai[0], w4.w - ai[1], az - ai[2]};
        gc_hermite_pair_terms_f(r, w, A, hi.w * rinv * rinv2, rinv2, acc, acc + 3, acc + 6);
    } else {
        gc_hermite_pair_terms_f(r, w, nullptr, hi.w * rinv * rinv2, rinv2, acc, acc + 3,
                                nullptr);
    }
}

template <int ORDER, bool EXACT>
static __device__ __forceinline__ void pair_mixed(const mtile<ORDER> &T, int k, int i,
                                                  const float xh[3], const float xl[3],
                                                  const float vi[3], const float ai[3],
                                                  float eps2, gc_cuda_hermite_ctl *ctl,
                                                  float *acc)
{
    pair_mixed<ORDER, EXACT>(T.b[k], ORDER == 6 ? T.az[k] : 0.0f, T.id[k], i, xh, xl, vi, ai,
                             eps2, ctl, acc);
}

/* Tile body j predicted to tick tn (or padding when j >= n: no mass, id -1). */
template <int ORDER>
static __device__ __forceinline__ void load_tile(const gc_cuda_hermite &H, htile<ORDER> &T,
                                                 int j, long long tn)
{
    const int t = threadIdx.x;
    if (j < H.n) {
        double xp[3], vp[3], ap[3] = {0, 0, 0};
        predict_body<ORDER>(H, j, tn, xp, vp, ORDER == 6 ? ap : nullptr);
        T.x[t] = xp[0];
        T.y[t] = xp[1];
        T.z[t] = xp[2];
        T.m[t] = H.m[j];
        T.vx[t] = vp[0];
        T.vy[t] = vp[1];
        T.vz[t] = vp[2];
        if (ORDER == 6) {
            T.ax[t] = ap[0];
            T.ay[t] = ap[1];
            T.az[t] = ap[2];
        }
        T.id[t] = j;
    } else { /* skipped below when it would divide by zero */
        T.x[t] = T.y[t] = T.z[t] = 0.0;
        T.m[t] = 0.0;
        T.vx[t] = T.vy[t] = T.vz[t] = 0.0;
        if (ORDER == 6)
            T.ax[t] = T.ay[t] = T.az[t] = 0.0;
        T.id[t] = -1;
    }
}

template <int ORDER>
static __device__ __forceinline__ void load_tile(const gc_cuda_hermite &H, mtile<ORDER> &T,
                                                 int j, long long tn)
{
    mbody &b = T.b[threadIdx.x];
    double xp[3] = {0, 0, 0}, vp[3] = {0, 0, 0}, ap[3] = {0, 0, 0};
    float h[3], l[3];
    if (ORDER == 4 && H.jr) {
        if (j < H.n)
            load_jrec(H, b, j, tn);
        else
            b.hi = b.lo = b.w = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        T.id[threadIdx.x] = j < H.n ? j : -1;
        return;
    }
    if (j < H.n)
        predict_body<ORDER>(H, j, tn, xp, vp, ORDER == 6 ? ap : nullptr);
    for (int c = 0; c < 3; c++)
        split(xp[c], h[c], l[c]);
    b.hi = make_float4(h[0], h[1], h[2], j < H.n ? (float)H.m[j] : 0.0f);
    b.lo = make_float4(l[0], l[1], l[2], (float)vp[0]);
    b.w = make_float4((float)vp[1], (float)vp[2], (float)ap[0], (float)ap[1]);
    if (ORDER == 6)
        T.az[threadIdx.x] = (float)ap[2];
    T.id[threadIdx.x] = j < H.n ? j : -1;
}

/* Active bodies a thread of the force pass takes once m fills blocks of that many times HT
 * (hermite_plan.h): two for the mixed 4th-order pass, so that each tile record it loads
 * from shared memory serves two pairs (its pair is 37 instructions, 3 of them the loads);
 * one for the others, whose registers have no room for a second body. */
static __device__ __forceinline__ int bodies_per_thread(const gc_cuda_hermite &H)
{
    return H.order == 4 && H.mixed ? 2 : 1;
}

/* Active body aidx's prediction for the force pass: its index (-1 past m), position (split
 * for the mixed pairs), velocity and acceleration. */
template <int ORDER, typename real>
static __device__ __forceinline__ int active_body(const gc_cuda_hermite &H, int aidx, int m,
                                                  long long tn, double xi[3], float xh[3],
                                                  float xl[3], real vi[3], real ai[3])
{
    const int i = aidx < m ? H.active[aidx] : -1;
    double vd[3] = {0, 0, 0}, ad[3] = {0, 0, 0};
    if constexpr (ORDER == 4 && std::is_same<real, float>::value) {
        if (H.jr) {
            /* Predicted from its record exactly as it is as a source, so that its pair with
             * itself has r = 0 (skipped, or nothing with softening) and no pair sees a
             * difference of two predictions. */
            mbody b;
            b.hi = b.lo = b.w = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (i >= 0)
                load_jrec(H, b, i, tn);
            const float h4[3] = {b.hi.x, b.hi.y, b.hi.z}, l4[3] = {b.lo.x, b.lo.y, b.lo.z},
                        v4[3] = {b.lo.w, b.w.x, b.w.y};
            for (int k = 0; k < 3; k++) {
                xh[k] = h4[k];
                xl[k] = l4[k];
                xi[k] = (double)h4[k] + (double)l4[k];
                vi[k] = v4[k];
                ai[k] = 0.0f;
            }
            return i;
        }
    }
    xi[0] = xi[1] = xi[2] = 0.0;
    if (i >= 0)
        predict_body<ORDER>(H, i, tn, xi, vd, ORDER == 6 ? ad : nullptr);
    for (int k = 0; k < 3; k++) {
        vi[k] = (real)vd[k];
        ai[k] = (real)ad[k];
        split(xi[k], xh[k], xl[k]);
    }
    return i;
}

/* Each j body is predicted to the block time as its tile is loaded, so no separate
 * prediction pass over all n bodies is needed per block step. */
template <int ORDER, int ARITH>
static __global__ void __launch_bounds__(HT, 2) h_force(gc_cuda_hermite H)
{
    constexpr bool MIXED = ARITH != ARITH_DOUBLE;
    constexpr bool TWO = MIXED && ORDER == 4; /* may take two bodies a thread */
    using tile_t = typename std::conditional<MIXED, mtile<ORDER>, htile<ORDER>>::type;
    using real = typename std::conditional<MIXED, float, double>::type;
    __shared__ tile_t tile;
    __shared__ double red[HT / 32][9];
    constexpr int NV = ORDER == 6 ? 9 : 6;
    gc_cuda_hermite_ctl *ctl = H.ctl;
    wait_previous();
    launch_next();
    if (!ctl->due)
        return;
    const int m = ctl->count;
    const long long tn = ctl->t_next;
    const gc_hermite_plan p = gc_hermite_plan_of(m, H.n, H.grid, bodies_per_thread(H));
    const int ntiles = (H.n + HT - 1) / HT;
    const int units = p.groups * p.slices;
    const int il = threadIdx.x / p.q, lane = threadIdx.x % p.q;
    const real eps2 = (real)H.eps2;
    const bool two = TWO && p.per == 2;

    for (int u = blockIdx.x; u < units; u += gridDim.x) {
        const int g = u / p.slices, sl = u % p.slices;
        const int aidx = g * p.ni + il, aidx2 = aidx + HT;
        double xi[3], xi2[3], acc[NV], acc2[TWO ? NV : 1];
        real vi[3], ai[3], part[NV], vi2[3], ai2[3], part2[TWO ? NV : 1];
        float xh[3], xl[3], xh2[3], xl2[3]; /* positions split, for the mixed pairs */
        const int i = active_body<ORDER, real>(H, aidx, m, tn, xi, xh, xl, vi, ai);
        const bool valid = i >= 0;
        /* the second body (two a thread), or the first again where there is none */
        const int i2 = two ? active_body<ORDER, real>(H, aidx2 < m ? aidx2 : aidx, m, tn, xi2,
                                                      xh2, xl2, vi2, ai2)
                           : -1;
        for (int k = 0; k < NV; k++)
            acc[k] = 0.0;
        if (TWO)
            for (int k = 0; k < NV; k++)
                acc2[k] = 0.0;
        const int t0 = sl * p.tps, t1 = min(t0 + p.tps, ntiles);
        const bool stream = MIXED && ORDER == 4 && p.ni == 1 && H.jr;
        if constexpr (MIXED && ORDER == 4) {
            if (stream) {
                /* One active body (m = 1): no record is shared, so each thread takes its
                 * sources straight from their records, three loads in flight (four spill
                 * registers), with no tile and no barrier between them; the pass is then a
                 * stream over the sources instead of a chain of tile loads each waiting on
                 * memory. */
                constexpr bool EX = ARITH == ARITH_MIXED_EXACT;
                const int jend = min(t1 * HT, H.n);
                int j = t0 * HT + threadIdx.x;
                for (int k = 0; k < NV; k++)
                    part[k] = 0;
                for (; j + 2 * HT < jend; j += 3 * HT) {
                    mbody b[3];
                    for (int u = 0; u < 3; u++)
                        load_jrec(H, b[u], j + u * HT, tn);
                    for (int u = 0; u < 3; u++)
                        pair_mixed<ORDER, EX>(b[u], 0.0f, j + u * HT, i, xh, xl, vi, ai, eps2,
                                              ctl, part);
                }
                for (; j < jend; j += HT) {
                    mbody b;
                    load_jrec(H, b, j, tn);
                    pair_mixed<ORDER, EX>(b, 0.0f, j, i, xh, xl, vi, ai, eps2, ctl, part);
                }
                for (int k = 0; k < NV; k++)
                    acc[k] += (double)part[k];
            }
        }
        for (int tt = t0; !stream && tt < t1; tt++) {
            __syncthreads(); /* the previous tile has been used by every thread */
            load_tile<ORDER>(H, tile, tt * HT + threadIdx.x, tn);
            __syncthreads();
            if (!valid)
                continue;
            for (int k = 0; k < NV; k++)
                part[k] = 0;
            if constexpr (TWO) {
                if (two) {
                    /* Two bodies a thread: each record loaded once for both pairs. */
                    for (int k = 0; k < NV; k++)
                        part2[k] = 0;
#pragma unroll 4
                    for (int k = 0; k < HT; k++) {
                        pair_mixed<ORDER, ARITH == ARITH_MIXED_EXACT>(tile, k, i, xh, xl, vi,
                                                                      ai, eps2, ctl, part);
                        pair_mixed<ORDER, ARITH == ARITH_MIXED_EXACT>(tile, k, i2, xh2, xl2,
                                                                      vi2, ai2, eps2, ctl,
                                                                      part2);
                    }
                    for (int k = 0; k < NV; k++) {
                        acc[k] += (double)part[k];
                        acc2[k] += (double)part2[k];
                    }
                    continue;
                }
            }
            /* One thread per body (m >= HT, the bulk of the work): a fixed-count loop the
             * compiler unrolls, so independent pairs overlap their latencies. */
            if (p.q == 1) {
#pragma unroll 4
                for (int k = 0; k < HT; k++) {
                    if constexpr (MIXED)
                        pair_mixed<ORDER, ARITH == ARITH_MIXED_EXACT>(tile, k, i, xh, xl, vi,
                                                                      ai, eps2, ctl, part);
                    else
                        pair<ORDER>(tile, k, i, xi, vi, ai, eps2, ctl, part);
                }
            } else {
                for (int k = lane; k < HT; k += p.q) {
                    if constexpr (MIXED)
                        pair_mixed<ORDER, ARITH == ARITH_MIXED_EXACT>(tile, k, i, xh, xl, vi,
                                                                      ai, eps2, ctl, part);
                    else
                        pair<ORDER>(tile, k, i, xi, vi, ai, eps2, ctl, part);
                }
            }
            for (int k = 0; k < NV; k++)
                acc[k] += (double)part[k];
        }
        /* The q threads of one body: shuffles inside a warp, shared memory across warps. */
        if (p.q > 1) {
            const int w = p.q < 32 ? p.q : 32;
            for (int off = w / 2; off > 0; off >>= 1)
                for (int k = 0; k < NV; k++)
                    acc[k] += __shfl_down_sync(0xffffffffu, acc[k], off, w);
            if (p.q > 32) {
                __syncthreads();
                if ((threadIdx.x & 31) == 0)
                    for (int k = 0; k < NV; k++)
                        red[threadIdx.x >> 5][k] = acc[k];
                __syncthreads();
                if (lane == 0)
                    for (int ww = 1; ww < p.q / 32; ww++)
                        for (int k = 0; k < NV; k++)
                            acc[k] += red[(threadIdx.x >> 5) + ww][k];
            }
        }
        if (valid && lane == 0) {
            double *dst = H.part + ((size_t)sl * (size_t)m + (size_t)aidx) * NV;
            for (int k = 0; k < NV; k++)
                dst[k] = acc[k];
        }
        if (TWO && two && valid && aidx2 < m) {
            double *dst = H.part + ((size_t)sl * (size_t)m + (size_t)aidx2) * NV;
            for (int k = 0; k < NV; k++)
                dst[k] = acc2[k];
        }
        (void)i2;
    }
}

/* ---- correction (or, at start-up, the first derivatives and steps) ---- */

/* Corrects active body i (slot q of the list) from its summed new derivatives a1, j1, s1,
 * gives it its next level and moves its time to tn (begin: the start-up's first steps).
 * Returns the tick it is next due. */
template <int ORDER>
static __device__ long long correct_body(const gc_cuda_hermite &H, gc_cuda_hermite_ctl *ctl,
                                         int i, double a1[3], double j1[3], double s1[3],
                                         int begin, long long tn, double tick)
{
    double x[3], v[3], a[3], j[3], s[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    int k;
    if (H.dset && H.dset[i]) { /* a regularised group's members in place of its centre */
        double da[3], dj[3];
        load3(H.da, i, da);
        load3(H.dj, i, dj);
        for (k = 0; k < 3; k++) {
            a1[k] += da[k];
            j1[k] += dj[k];
        }
        H.dset[i] = 0;
    }
    if (begin) {
        if (!finite3(a1) || !finite3(j1))
            record_error(ctl, GC_HERMITE_ERR_NONFINITE, i, -1);
        k = H.fixed_level >= 0
                ? H.fixed_level
                : gc_hermite_new_level(-1, gc_hermite_criterion_start(H.eta_start, a1, j1, s1),
                                       0, H.dt_max);
        store3(H.a, i, a1);
        store3(H.j, i, j1);
        store3(H.s, i, s1);
        H.t[i] = 0;
        if (H.jr) { /* x and v are the state's */
            load3(H.x, i, x);
            load3(H.v, i, v);
            store_jrec(H, i, x, v, a1, j1);
        }
    } else {
        const double h = (double)(tn - H.t[i]) * tick;
        double req;
        load3(H.x, i, x);
        load3(H.v, i, v);
        load3(H.a, i, a);
        load3(H.j, i, j);
        if (ORDER == 6) {
            double pop[3], qq[3];
            load3(H.s, i, s);
            gc_hermite_correct6(h, x, v, a, j, s, c, a1, j1, s1, pop, qq);
            req = gc_hermite_criterion6(H.eta, a, j, s, c, pop, qq);
        } else {
            gc_hermite_correct4(h, x, v, a, j, s, c, a1, j1);
            req = gc_hermite_criterion4(H.eta, a, j, s, c);
        }
        if (!finite3(x) || !finite3(v))
            record_error(ctl, GC_HERMITE_ERR_NONFINITE, i, -1);
        k = H.fixed_level >= 0 ? H.fixed_level
                               : gc_hermite_new_level(H.level[i], req, tn, H.dt_max);
        store3(H.x, i, x);
        store3(H.v, i, v);
        store3(H.a, i, a);
        store3(H.j, i, j);
        store3(H.s, i, s);
        store3(H.c, i, c);
        H.t[i] = tn;
        if (H.jr)
            store_jrec(H, i, x, v, a, j);
    }
    if (k < 0) {
        record_error(ctl, GC_HERMITE_ERR_LEVELS, i, -1);
        k = GC_HERMITE_LEVELS - 1;
    }
    H.level[i] = (unsigned char)k;
    H.key[i] = key_of(H.t[i], k);
    return H.t[i] + GC_HERMITE_TICKS(k);
}

/* The slices' partial sums of active slot q, in slice order from `first` every `stride`. */
template <int ORDER>
static __device__ __forceinline__ void sum_slices(const gc_cuda_hermite &H, int m, int q,
                                                  int slices, int first, int stride,
                                                  double out[9])
{
    constexpr int NV = ORDER == 6 ? 9 : 6;
    for (int k = 0; k < 9; k++)
        out[k] = 0.0;
    for (int sl = first; sl < slices; sl += stride) {
        const double *r = H.part + ((size_t)sl * (size_t)m + (size_t)q) * NV;
        for (int k = 0; k < NV; k++)
            out[k] += r[k];
    }
}

/* A small block leaves its forces in many slices (the j range split so that it fills the
 * chip): one thread adding hundreds of rows would wait on each load in turn, most of a
 * block step at m = 1. Then a warp sums each body's slices (lane-strided, then a
 * fixed shuffle tree) and its first lane corrects the body; with a few bodies but no more
 * than blocks, a block sums each (its threads' loads all in flight at once, not a warp's
 * chain of eight or more). */
#define WARP_SUM_SLICES 8

/* Fewest bodies for a block a body: below it one warp a body measured as fast or faster
 * (slower at m = 1 and faster from m = 4 where measured: docs/perf-log/hermite-gpu.md). */
#define BLOCK_SUM_MIN 4

/* sum[0..NV) added over the block, in a fixed order, into thread 0's. */
template <int NV>
static __device__ void block_sum(double sum[9])
{
    __shared__ double red[HT / 32][NV];
    for (int off = 16; off > 0; off >>= 1)
        for (int k = 0; k < NV; k++)
            sum[k] += __shfl_xor_sync(0xffffffffu, sum[k], off);
    if ((threadIdx.x & 31) == 0)
        for (int k = 0; k < NV; k++)
            red[threadIdx.x >> 5][k] = sum[k];
    __syncthreads();
    if (threadIdx.x == 0)
        for (int w = 1; w < HT / 32; w++)
            for (int k = 0; k < NV; k++)
                sum[k] += red[w][k];
}

template <int ORDER>
static __global__ void __launch_bounds__(HT) h_correct(gc_cuda_hermite H, int begin)
{
    gc_cuda_hermite_ctl *ctl = H.ctl;
    /* The selection's fields are final before the force pass lets this grid start. */
    if (!ctl->due)
        return;
    const int m = ctl->count;
    const long long tn = ctl->t_next;
    const int all = ctl->count_all;
    wait_previous();
    const gc_hermite_plan p = gc_hermite_plan_of(m, H.n, H.grid, bodies_per_thread(H));
    const double tick = tick_of(H);
    long long next = LLONG_MAX; /* the earliest tick a body corrected here is due again */
    double sum[9];
    if (p.slices >= WARP_SUM_SLICES && m >= BLOCK_SUM_MIN && m <= (int)gridDim.x) {
        const int q = blockIdx.x; /* the same in every thread: block_sum's barrier is safe */
        if (q < m) {
            sum_slices<ORDER>(H, m, q, p.slices, threadIdx.x, HT, sum);
            block_sum<ORDER == 6 ? 9 : 6>(sum);
            if (threadIdx.x == 0)
                next = correct_body<ORDER>(H, ctl, H.active[q], sum, sum + 3, sum + 6, begin,
                                           tn, tick);
        }
    } else if (p.slices >= WARP_SUM_SLICES) {
        const int lane = threadIdx.x & 31;
        const int warps = gridDim.x * (HT / 32);
        for (int q = (blockIdx.x * HT + threadIdx.x) >> 5; q < m; q += warps) {
            sum_slices<ORDER>(H, m, q, p.slices, lane, 32, sum);
            for (int off = 16; off > 0; off >>= 1)
                for (int k = 0; k < 9; k++)
                    sum[k] += __shfl_xor_sync(0xffffffffu, sum[k], off);
            if (lane == 0) {
                const long long d = correct_body<ORDER>(H, ctl, H.active[q], sum, sum + 3,
                                                        sum + 6, begin, tn, tick);
                next = d < next ? d : next;
            }
        }
    } else {
        for (int q = blockIdx.x * HT + threadIdx.x; q < m; q += gridDim.x * HT) {
            sum_slices<ORDER>(H, m, q, p.slices, 0, 1, sum);
            const long long d =
                correct_body<ORDER>(H, ctl, H.active[q], sum, sum + 3, sum + 6, begin, tn, tick);
            next = d < next ? d : next;
        }
    }
    if (!close_block(ctl, next) || threadIdx.x != 0)
        return;
    /* the last block: the next block's tick, the counters, an empty list for the next
     * selection (start-up keeps the list: its second force pass uses it again) */
    take_min(ctl);
    ctl->last_count = m;
    if (!begin) {
        const unsigned long long now = global_ns();
        ctl->blocks++;
        ctl->body_steps += (unsigned long long)all;
        ctl->last_active = (unsigned long long)all;
        ctl->t_last = tn;
        ctl->count = 0;
        ctl->count_all = 0;
        if (ctl->looped) {
            if (ctl->stamp && all > 0) {
                const int bin = 63 - __clzll((long long)all);
                ctl->loop_steps[bin]++;
                ctl->loop_ns[bin] += now - ctl->stamp;
            }
            ctl->stamp = now;
        } else {
            ctl->stamp = 0;
        }
    }
}

static __global__ void h_perturb(gc_cuda_hermite H, const long long *idx, const double *val,
                                 int count)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < count; k += gridDim.x * blockDim.x) {
        const int i = (int)idx[k];
        double a[3], j[3];
        for (int d = 0; d < 3; d++) {
            a[d] = val[3 * k + d];
            j[d] = val[3 * (count + k) + d];
        }
        store3(H.da, i, a);
        store3(H.dj, i, j);
        H.dset[i] = 1;
    }
}

/* ---- reset, view, potential ---- */

static __global__ void h_reset(gc_cuda_hermite H)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < H.i1 - H.i0;
         k += gridDim.x * blockDim.x)
        H.active[k] = H.i0 + k;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        gc_cuda_hermite_ctl z = {};
        z.t_min = LLONG_MAX;
        z.t_rest = LLONG_MAX;
        z.count = H.i1 - H.i0; /* every body is due at tick 0: this rank's in the list */
        z.count_all = H.n;
        z.due = 1;
        *H.ctl = z;
    }
}

template <int ORDER>
static __global__ void h_view(gc_cuda_hermite H, long long t, float4 *pos, float4 *vel)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < H.n; i += gridDim.x * blockDim.x) {
        double x[3], v[3];
        predict_body<ORDER>(H, i, t, x, v, nullptr);
        store3(H.xv, i, x);
        store3(H.vv, i, v);
        pos[i] = make_float4((float)x[0], (float)x[1], (float)x[2], (float)H.m[i]);
        vel[i] = make_float4((float)v[0], (float)v[1], (float)v[2], (float)H.level[i]);
    }
}

/* Per-block partial sums of m_i sum_{j != i} m_j / sqrt(r^2 + eps^2) over the view, double. */
static __global__ void __launch_bounds__(HT) h_potential(gc_cuda_hermite H, double *out)
{
    __shared__ double sx[HT], sy[HT], sz[HT], sm[HT], red[HT / 32];
    double total = 0.0;
    for (int ib = H.i0 + blockIdx.x * HT; ib < H.i1; ib += gridDim.x * HT) {
        const int i = ib + threadIdx.x;
        double xi[3] = {0, 0, 0}, phi = 0.0;
        if (i < H.i1)
            load3(H.xv, i, xi);
        for (int jb = 0; jb < H.n; jb += HT) {
            const int j = jb + threadIdx.x;
            __syncthreads();
            if (j < H.n) {
                sx[threadIdx.x] = H.xv[3 * (size_t)j];
                sy[threadIdx.x] = H.xv[3 * (size_t)j + 1];
                sz[threadIdx.x] = H.xv[3 * (size_t)j + 2];
                sm[threadIdx.x] = H.m[j];
            }
            __syncthreads();
            const int kmax = min(HT, H.n - jb);
            for (int k = 0; k < kmax; k++) {
                const double dx = sx[k] - xi[0], dy = sy[k] - xi[1], dz = sz[k] - xi[2];
                if (jb + k != i)
                    phi += sm[k] * rsqrt(fma(dz, dz, fma(dy, dy, fma(dx, dx, H.eps2))));
            }
        }
        if (i < H.i1)
            total += H.m[i] * phi;
    }
    for (int off = 16; off > 0; off >>= 1)
        total += __shfl_down_sync(0xffffffffu, total, off);
    if ((threadIdx.x & 31) == 0)
        red[threadIdx.x >> 5] = total;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < HT / 32; w++)
            total += red[w];
        out[blockIdx.x] = total;
    }
}

/* ---- exchange between ranks ---- */

static __device__ gc_hermite_record record_of(const gc_cuda_hermite &H, int i)
{
    gc_hermite_record r;
    r.i = i;
    r.t = H.t[i];
    r.level = H.level[i];
    load3(H.x, i, r.x);
    load3(H.v, i, r.v);
    load3(H.a, i, r.a);
    load3(H.j, i, r.j);
    load3(H.s, i, r.s);
    load3(H.c, i, r.c);
    return r;
}

static __global__ void h_pack(gc_cuda_hermite H, gc_hermite_record *rec)
{
    const int m = H.ctl->last_count;
    for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < m; q += gridDim.x * blockDim.x)
        rec[q] = record_of(H, H.active[q]);
}

static __global__ void h_state(gc_cuda_hermite H, gc_hermite_record *rec)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < H.n; i += gridDim.x * blockDim.x)
        rec[i] = record_of(H, i);
}

static __global__ void h_unpack(gc_cuda_hermite H, const gc_hermite_record *rec, int count)
{
    for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < count; k += gridDim.x * blockDim.x) {
        const gc_hermite_record r = rec[k];
        const int i = (int)r.i;
        if (r.i < 0 || r.i >= H.n || r.level < 0 || r.level >= GC_HERMITE_LEVELS) {
            record_error(H.ctl, GC_HERMITE_ERR_NONFINITE, r.i, -1);
            continue;
        }
        H.t[i] = r.t;
        H.level[i] = (unsigned char)r.level;
        H.key[i] = key_of(r.t, (int)r.level);
        store3(H.x, i, r.x);
        store3(H.v, i, r.v);
        store3(H.a, i, r.a);
        store3(H.j, i, r.j);
        store3(H.s, i, r.s);
        store3(H.c, i, r.c);
        if (H.jr)
            store_jrec(H, i, r.x, r.v, r.a, r.j);
    }
}

extern "C" int gc_cuda_hermite_launch_pack(const struct gc_cuda_hermite *h,
                                           struct gc_hermite_record *d_rec, void *stream)
{
    h_pack<<<h->grid, HT, 0, (cudaStream_t)stream>>>(*h, d_rec);
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_hermite_launch_state(const struct gc_cuda_hermite *h,
                                            struct gc_hermite_record *d_rec, void *stream)
{
    h_state<<<h->grid, HT, 0, (cudaStream_t)stream>>>(*h, d_rec);
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_hermite_launch_unpack(const struct gc_cuda_hermite *h,
                                             const struct gc_hermite_record *d_rec,
                                             int count, void *stream)
{
    if (count <= 0)
        return 0;
    h_unpack<<<h->grid, HT, 0, (cudaStream_t)stream>>>(*h, d_rec, count);
    return (int)cudaGetLastError();
}

/* ---- launchers ---- */

template <typename K>
static int occupancy_grid(K kernel, int sm_count)
{
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, HT, 0);
    if (e != cudaSuccess)
        return -(int)e;
    return sm_count * (per_sm > 0 ? per_sm : 1);
}

extern "C" int gc_cuda_hermite_grid(int order, int mixed, int sm_count)
{
    if (mixed)
        return order == 6 ? occupancy_grid(h_force<6, ARITH_MIXED>, sm_count)
                          : occupancy_grid(h_force<4, ARITH_MIXED>, sm_count);
    return order == 6 ? occupancy_grid(h_force<6, ARITH_DOUBLE>, sm_count)
                      : occupancy_grid(h_force<4, ARITH_DOUBLE>, sm_count);
}

extern "C" size_t gc_cuda_hermite_part_doubles(int n, int grid)
{
    /* gc_hermite_plan_of keeps slices * m within these rows for every m. */
    return (size_t)gc_hermite_part_rows(n, grid) * 9;
}

extern "C" int gc_cuda_hermite_launch_select(const struct gc_cuda_hermite *h, long long t_limit,
                                             int use_ctl, int full, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (full)
        h_select_min<<<h->grid, HT, 0, s>>>(*h);
    h_select_compact<<<h->grid, HT, 0, s>>>(*h, t_limit, use_ctl);
    return (int)cudaGetLastError();
}

/* The grid's launch of a block step's kernel after the first: as a programmatic dependent
 * where h->pdl, and over the source records' L2 window where `window` and h->l2_window. */
template <typename... P, typename... A>
static int launch_step(const gc_cuda_hermite *h, bool window, cudaStream_t s,
                       void (*kernel)(P...), A... args)
{
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute at[2];
    unsigned na = 0;
    cfg.gridDim = dim3((unsigned)h->grid);
    cfg.blockDim = dim3(HT);
    cfg.stream = s;
    if (h->pdl) {
        at[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        at[na].val.programmaticStreamSerializationAllowed = 1;
        na++;
    }
    if (window && h->l2_window && h->jr) {
        at[na].id = cudaLaunchAttributeAccessPolicyWindow;
        at[na].val.accessPolicyWindow.base_ptr = h->jr;
        at[na].val.accessPolicyWindow.num_bytes = h->l2_window;
        at[na].val.accessPolicyWindow.hitRatio = 1.0f;
        at[na].val.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        at[na].val.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        na++;
    }
    cfg.attrs = at;
    cfg.numAttrs = na;
    return (int)cudaLaunchKernelEx(&cfg, kernel, args...);
}

extern "C" int gc_cuda_hermite_launch_force(const struct gc_cuda_hermite *h, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int arith = !h->mixed ? ARITH_DOUBLE : h->eps2 > 0.0 ? ARITH_MIXED : ARITH_MIXED_EXACT;
    const gc_cuda_hermite H = *h;
    if (h->order == 6) {
        if (arith == ARITH_MIXED)
            return launch_step(h, true, s, h_force<6, ARITH_MIXED>, H);
        if (arith == ARITH_MIXED_EXACT)
            return launch_step(h, true, s, h_force<6, ARITH_MIXED_EXACT>, H);
        return launch_step(h, true, s, h_force<6, ARITH_DOUBLE>, H);
    }
    if (arith == ARITH_MIXED)
        return launch_step(h, true, s, h_force<4, ARITH_MIXED>, H);
    if (arith == ARITH_MIXED_EXACT)
        return launch_step(h, true, s, h_force<4, ARITH_MIXED_EXACT>, H);
    return launch_step(h, true, s, h_force<4, ARITH_DOUBLE>, H);
}

extern "C" int gc_cuda_hermite_launch_correct(const struct gc_cuda_hermite *h, int begin,
                                              void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const gc_cuda_hermite H = *h;
    if (h->order == 6)
        return launch_step(h, false, s, h_correct<6>, H, begin);
    return launch_step(h, false, s, h_correct<4>, H, begin);
}

extern "C" int gc_cuda_hermite_launch_perturb(const struct gc_cuda_hermite *h,
                                              const long long *idx, const double *val,
                                              int count, void *stream)
{
    if (count > 0)
        h_perturb<<<(count + HT - 1) / HT, HT, 0, (cudaStream_t)stream>>>(*h, idx, val, count);
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_hermite_launch_reset(const struct gc_cuda_hermite *h, void *stream)
{
    h_reset<<<h->grid, HT, 0, (cudaStream_t)stream>>>(*h);
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_hermite_launch_view(const struct gc_cuda_hermite *h, long long t,
                                           float *d_pos, float *d_vel, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (h->order == 6)
        h_view<6><<<h->grid, HT, 0, s>>>(*h, t, (float4 *)d_pos, (float4 *)d_vel);
    else
        h_view<4><<<h->grid, HT, 0, s>>>(*h, t, (float4 *)d_pos, (float4 *)d_vel);
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_hermite_launch_potential(const struct gc_cuda_hermite *h, double *d_out,
                                                int *blocks, void *stream)
{
    const int nb = (h->i1 - h->i0 + HT - 1) / HT;
    *blocks = nb < 1 ? 1 : nb < h->grid ? nb : h->grid;
    h_potential<<<*blocks, HT, 0, (cudaStream_t)stream>>>(*h, d_out);
    return (int)cudaGetLastError();
}
