/* The Barnes-Hut tree on the GPU: box and Morton keys, CUB radix sort, cells split generation by generation, moments bottom up, and the group walk with its interaction lists in shared memory. */
/* SPDX-License-Identifier: MIT */
/* Every step builds the tree afresh with no host round trip: each launch reads what the
 * previous one left in the control block (how many cells each generation has), so the
 * host queues a fixed sequence of launches. The formulas (keys, moments, opening radius,
 * interactions) are tree_formulas.h's, the CPU backend's too. */
#include <cuda_runtime.h>

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "gc_kernels.h"
#include "tree_formulas.h"

#define TT 256           /* threads of the build kernels */
#define BOX_BLOCKS 256   /* partial boxes of the first reduction pass */
#define WALK_WARPS 4     /* warps per walk block, each taking one group after another */
/* Cells a warp's walk may have pending, in shared memory: with 64 registers a thread, 8
 * blocks of 4 warps fit on a multiprocessor (228 KB of shared memory on sm_90). The walk
 * pops 32 cells and pushes their children; the stack peaks at ~650 cells at theta 0.55 and
 * 1M bodies, ~1300 at 0.3 (the CPU tree's replay of the walk). A push that finds it full
 * first moves its older half to the warp's list area in global memory (the walk takes it
 * back when the rest is done, in the same order); only with that area full too is a cell
 * summed body by body: exact, only slower, and counted in the figures. */
#define STACK 960
#define SPILL (STACK / 2)
#define WALK_BLOCKS_PER_SM(pot) ((pot) ? 7 : 8) /* the potential's walk needs a few more */
/* Each walking warp's list area in global memory. Its first LOCAL_CAP ints list the cells
 * its group adds to its local expansion (tree_formulas.h), while the walk goes on; they are
 * added up when it ends, so that the 20 sums are live only then (summing a full list in the
 * middle of the walk made the walk's own registers spill): ~1,300 a group at theta 0.5 and
 * 2^20 bodies, ~2,100 at theta 0.4. Beyond, cells go body by body as before (slower, and no
 * less accurate: the figures count such walks). The rest, from the top, holds what the stack
 * moved out. 8,192 ints a warp: a fixed amount whatever N. */
#define LIST_INTS 8192
#define LOCAL_CAP 4096
#define FULL 0xffffffffu

static_assert(GC_TREE_GROUP <= 32, "the walk gives each lane of a warp one body of a group");

/* The launchers' struct with its arrays typed for the kernels. */
struct tree_view {
    int n, cap, i0, i1;
    float theta, eps2;
    const float4 *pos;
    float4 *acc;
    const unsigned long long *key;
    const unsigned *idx;
    float4 *spos, *com, *quad, *quad2, *misc, *blo, *bhi;
    int2 *range;
    unsigned char *begins;
    int *group;
    int *local;
    float *group_us;
    gc_cuda_tree_ctl *ctl;
};

static tree_view view_of(const gc_cuda_tree *T)
{
    tree_view v;
    v.n = T->n;
    v.cap = T->cap;
    v.i0 = T->i0;
    v.i1 = T->i1;
    v.theta = T->theta;
    v.eps2 = T->eps2;
    v.pos = (const float4 *)T->pos;
    v.acc = (float4 *)T->acc;
    v.key = T->key;
    v.idx = T->idx;
    v.spos = (float4 *)T->spos;
    v.com = (float4 *)T->com;
    v.quad = (float4 *)T->quad;
    v.quad2 = (float4 *)T->quad2;
    v.misc = (float4 *)T->misc;
    v.blo = (float4 *)T->blo;
    v.bhi = (float4 *)T->bhi;
    v.range = (int2 *)T->range;
    v.begins = T->begins;
    v.group = T->group;
    v.local = T->local;
    v.group_us = T->group_us;
    v.ctl = T->ctl;
    return v;
}

/* ---- box, keys, gather ---- */

struct box6 {
    float lo[3], hi[3];
};

struct box_merge {
    __device__ __forceinline__ box6 operator()(const box6 &a, const box6 &b) const
    {
        box6 r;
        for (int k = 0; k < 3; k++) {
            r.lo[k] = fminf(a.lo[k], b.lo[k]);
            r.hi[k] = fmaxf(a.hi[k], b.hi[k]);
        }
        return r;
    }
};

static __device__ __forceinline__ box6 empty_box()
{
    box6 b;
    for (int k = 0; k < 3; k++) {
        b.lo[k] = INFINITY;
        b.hi[k] = -INFINITY;
    }
    return b;
}

/* Each block's box of the bodies it strides over (min and max are exact in any order). */
static __global__ void __launch_bounds__(TT) t_box(const float4 *__restrict__ pos, int n,
                                                   box6 *__restrict__ part)
{
    typedef cub::BlockReduce<box6, TT> reduce;
    __shared__ typename reduce::TempStorage tmp;
    box6 b = empty_box();
    for (int i = blockIdx.x * TT + threadIdx.x; i < n; i += gridDim.x * TT) {
        const float4 p = pos[i];
        b.lo[0] = fminf(b.lo[0], p.x);
        b.lo[1] = fminf(b.lo[1], p.y);
        b.lo[2] = fminf(b.lo[2], p.z);
        b.hi[0] = fmaxf(b.hi[0], p.x);
        b.hi[1] = fmaxf(b.hi[1], p.y);
        b.hi[2] = fmaxf(b.hi[2], p.z);
    }
    b = reduce(tmp).Reduce(b, box_merge());
    if (threadIdx.x == 0)
        part[blockIdx.x] = b;
}

/* The partial boxes into the key frame, and a fresh control block with the root cell. */
static __global__ void __launch_bounds__(TT) t_frame(tree_view T,
                                                     const box6 *__restrict__ part)
{
    typedef cub::BlockReduce<box6, TT> reduce;
    __shared__ typename reduce::TempStorage tmp;
    box6 b = empty_box();
    for (int k = threadIdx.x; k < BOX_BLOCKS; k += TT)
        b = box_merge()(b, part[k]);
    b = reduce(tmp).Reduce(b, box_merge());
    if (threadIdx.x == 0) {
        gc_cuda_tree_ctl *c = T.ctl;
        float origin[3], scale;
        gc_tree_frame(b.lo, b.hi, origin, &scale);
        for (int k = 0; k < 3; k++)
            c->frame[k] = origin[k];
        c->frame[3] = scale;
        c->cells = 1;
        c->leaves = 0;
        c->leaf_bodies = 0;
        c->root_mass = 0.0f;
        c->overflow = 0;
        c->stack_full = 0;
        c->cell_int = 0;
        c->body_int = 0;
        c->mono_int = 0;
        c->local_int = 0;
        c->local_full = 0;
        c->groups = 0;
        c->next_group = 0;
        c->stack_spills = 0;
        c->walk_start = ~0ull;
        c->walk_last_taken = 0;
        c->walk_end = 0;
        for (int g = 0; g <= GC_TREE_LEVELS + 2; g++) {
            c->gen[g] = g == 0 ? 0 : 1;
            c->done[g] = 0;
        }
        T.range[0] = make_int2(0, T.n);
    }
}

static __global__ void __launch_bounds__(TT) t_keys(tree_view T,
                                                    unsigned long long *__restrict__ key,
                                                    unsigned *__restrict__ idx)
{
    const int i = blockIdx.x * TT + threadIdx.x;
    if (i >= T.n)
        return;
    const float4 p = T.pos[i];
    const float *f = T.ctl->frame;
    const float origin[3] = {f[0], f[1], f[2]};
    key[i] = gc_tree_key(p.x, p.y, p.z, origin, f[3]);
    idx[i] = (unsigned)i;
}

static __global__ void __launch_bounds__(TT) t_gather(tree_view T)
{
    const int k = blockIdx.x * TT + threadIdx.x;
    if (k < T.n)
        T.spos[k] = T.pos[T.idx[k]];
}

/* ---- cells: generation g's cells split into generation g + 1 ---- */

namespace cg = cooperative_groups;

/* A leaf's record; the leaves and their bodies are counted by the caller, once a block (a
 * global atomic per leaf, ~0.2 a body, queued up on one address). */
static __device__ __forceinline__ void set_leaf(const tree_view &T, int c, int b, int e,
                                                int &leaves, int &leaf_bodies)
{
    T.misc[c] = make_float4(0.0f, 0.0f, __int_as_float(b), __int_as_float(-(e - b)));
    leaves++;
    leaf_bodies += e - b;
}

/* The cells of generation g, [gen[g], gen[g+1]): each with more than GC_TREE_LEAF bodies
 * splits at the first level where its first and last keys differ, into the runs of equal
 * digit there, found by binary searches run side by side (one per digit value, so the
 * loads of a search step are in flight together). The children take consecutive slots of
 * the store; a cell that finds no room stays a leaf (summed directly: slower, exact). The
 * last block to finish writes where generation g + 1 ends, for the next launch. */
/* (The second launch bound only steers ptxas, which otherwise spilled a register here.) */
static __global__ void __launch_bounds__(TT, 2) t_split(tree_view T, int g)
{
    typedef cub::BlockReduce<int, TT> reduce;
    __shared__ typename reduce::TempStorage tmp;
    gc_cuda_tree_ctl *ctl = T.ctl;
    const int begin = ctl->gen[g], end = ctl->gen[g + 1];
    const unsigned long long *key = T.key;
    int leaves = 0, leaf_bodies = 0;
    for (int c = begin + blockIdx.x * TT + threadIdx.x; c < end; c += gridDim.x * TT) {
        const int2 r = T.range[c];
        const int b = r.x, e = r.y;
        const int level = e - b > GC_TREE_LEAF ? gc_tree_split_level(key[b], key[e - 1])
                                               : GC_TREE_LEVELS + 1;
        if (level > GC_TREE_LEVELS) {
            set_leaf(T, c, b, e, leaves, leaf_bodies);
            continue;
        }
        const int d0 = gc_tree_digit(key[b], level), d1 = gc_tree_digit(key[e - 1], level);
        int lo[7], hi[7];
        bool busy = true;
#pragma unroll
        for (int v = 0; v < 7; v++) {
            lo[v] = b;
            hi[v] = d0 + 1 + v <= d1 ? e : b; /* only digit values d0+1 .. d1 are searched */
        }
        while (busy) {
            busy = false;
#pragma unroll
            for (int v = 0; v < 7; v++) {
                if (lo[v] < hi[v]) {
                    const int mid = lo[v] + (hi[v] - lo[v]) / 2;
                    if (gc_tree_digit(key[mid], level) < d0 + 1 + v)
                        lo[v] = mid + 1;
                    else
                        hi[v] = mid;
                    busy |= lo[v] < hi[v];
                }
            }
        }
        /* lo[v] is now the first body with digit >= d0 + 1 + v. */
        int kids = 1, start = b;
#pragma unroll
        for (int v = 0; v < 7; v++)
            if (d0 + 1 + v <= d1 && lo[v] > start) {
                kids++;
                start = lo[v];
            }
        /* The children's slots: one atomic for the lanes that split here together. */
        int slot;
        {
            const cg::coalesced_group here = cg::coalesced_threads();
            const int before = cg::exclusive_scan(here, kids), last = here.num_threads() - 1;
            int base = 0;
            if (here.thread_rank() == last)
                base = atomicAdd(&ctl->cells, before + kids);
            slot = here.shfl(base, last) + before;
        }
        if (slot + kids > T.cap) {
            /* The slots of ours that the store does have become empty leaves, attached to
             * nothing: the next generations see valid cells there. */
            for (int k = slot; k < T.cap && k < slot + kids; k++)
                T.range[k] = make_int2(b, b);
            atomicAdd(&ctl->overflow, 1);
            set_leaf(T, c, b, e, leaves, leaf_bodies);
            continue;
        }
        start = b;
        kids = 0;
#pragma unroll
        for (int v = 0; v < 7; v++)
            if (d0 + 1 + v <= d1 && lo[v] > start) {
                T.range[slot + kids++] = make_int2(start, lo[v]);
                start = lo[v];
            }
        T.range[slot + kids++] = make_int2(start, e);
        T.misc[c] = make_float4(0.0f, 0.0f, __int_as_float(slot), __int_as_float(kids));
    }
    leaves = reduce(tmp).Sum(leaves);
    __syncthreads(); /* tmp is used again */
    leaf_bodies = reduce(tmp).Sum(leaf_bodies);
    __syncthreads();
    if (threadIdx.x == 0) {
        if (leaves > 0) {
            atomicAdd(&ctl->leaves, leaves);
            atomicAdd(&ctl->leaf_bodies, (unsigned long long)leaf_bodies);
        }
        __threadfence();
        if (atomicAdd(&ctl->done[g], 1u) == gridDim.x - 1) {
            const int made = atomicAdd(&ctl->cells, 0);
            ctl->gen[g + 2] = made < T.cap ? made : T.cap;
        }
    }
}

/* ---- groups: where each begins, by gc_tree_group_step over the pieces of the tree ---- */

/* Marks where groups begin in the piece c (bodies r) of packing cell `cell`; parent: the cell
 * whose children are being packed (-1: the root packs itself), whose larger children a
 * group spanning packing cells keeps clear of. */
static __device__ void mark(const tree_view &T, int c, int2 r, bool leaf, int cell, int parent,
                            gc_tree_pack *g)
{
    const float4 lo4 = T.blo[c], hi4 = T.bhi[c];
    const float lo[3] = {lo4.x, lo4.y, lo4.z}, hi[3] = {hi4.x, hi4.y, hi4.z};
    bool apart = false;
    if (parent >= 0 && gc_tree_pack_crosses(g, r.y - r.x, cell)) {
        const float4 pm = T.misc[parent];
        const int first = __float_as_int(pm.z), count = __float_as_int(pm.w);
        for (int k = 0; k < count && !apart; k++) {
            const int2 rk = T.range[first + k];
            if (rk.y - rk.x <= GC_TREE_PACK)
                continue;
            const float4 a = T.blo[first + k], b = T.bhi[first + k];
            const float olo[3] = {a.x, a.y, a.z}, ohi[3] = {b.x, b.y, b.z};
            apart = gc_tree_pack_reaches(g, lo, hi, olo, ohi);
        }
    }
    switch (gc_tree_group_step(g, r.y - r.x, leaf, lo, hi, cell, apart)) {
    case GC_TREE_GROUP_BEGINS:
        T.begins[r.x] = 1;
        break;
    case GC_TREE_GROUP_CUT:
        for (int b = r.x; b < r.y; b += GC_TREE_GROUP)
            T.begins[b] = 1;
        break;
    default:
        break;
    }
}

/* The pieces of packing cell c in key order (as the CPU backend's pack). */
static __device__ void pack(const tree_view &T, int c, int parent, gc_tree_pack *g)
{
    const int2 rc = T.range[c];
    for (int b = rc.x; b < rc.y;) {
        int p = c;
        int2 r = rc;
        int count = __float_as_int(T.misc[p].w);
        while (r.y - r.x > GC_TREE_GROUP && count > 0) {
            p = __float_as_int(T.misc[p].z);
            r = T.range[p];
            while (r.y <= b)
                r = T.range[++p];
            count = __float_as_int(T.misc[p].w);
        }
        mark(T, p, r, count <= 0, c, parent, g);
        b = r.y;
    }
}

/* The groups (tree_formulas.h): each cell of more than GC_TREE_PACK bodies packs its
 * children, and the root packs itself when it is that small (and is cut when it is a large
 * leaf). Cells the store lost to an overflow belong to no cell and are never reached. Runs
 * after the moments: the packing reads the cells' boxes. */
static __global__ void __launch_bounds__(TT) t_groups(tree_view T)
{
    const int cells = min(T.ctl->cells, T.cap);
    for (int c = blockIdx.x * TT + threadIdx.x; c < cells; c += gridDim.x * TT) {
        const int2 r = T.range[c];
        const float4 misc = T.misc[c];
        const int first = __float_as_int(misc.z), count = __float_as_int(misc.w);
        gc_tree_pack g = {0, {0, 0, 0}, {0, 0, 0}, 0, 0};
        if (c == 0 && T.n > 0 && T.n <= GC_TREE_PACK)
            pack(T, 0, -1, &g);
        else if (c == 0 && T.n > 0)
            mark(T, 0, r, count <= 0, 0, -1, &g); /* a larger root is cut if it is a leaf */
        if (count <= 0 || r.y - r.x <= GC_TREE_PACK)
            continue;
        g.fill = 0;
        for (int k = 0; k < count; k++) {
            const int2 rk = T.range[first + k];
            if (rk.y - rk.x > GC_TREE_PACK)
                mark(T, first + k, rk, __float_as_int(T.misc[first + k].w) <= 0, first + k, c,
                     &g);
            else
                pack(T, first + k, c, &g);
        }
    }
}

/* ---- moments, generation by generation from the last ---- */

static __device__ __forceinline__ void load_moments(const tree_view &T, int c,
                                                    gc_tree_moments &m)
{
    const float4 a = T.com[c], q = T.quad[c], q2 = T.quad2[c], lo = T.blo[c], hi = T.bhi[c];
    m.com[0] = a.x;
    m.com[1] = a.y;
    m.com[2] = a.z;
    m.m = a.w;
    m.q[0] = q.x;
    m.q[1] = q.y;
    m.q[2] = q.w; /* quad holds xx yy zz xy, quad2 xz yz (gc_tree_cell_terms) */
    m.q[3] = q2.x;
    m.q[4] = q2.y;
    m.s2 = q2.w;
    m.lo[0] = lo.x;
    m.lo[1] = lo.y;
    m.lo[2] = lo.z;
    m.hi[0] = hi.x;
    m.hi[1] = hi.y;
    m.hi[2] = hi.z;
}

static __global__ void __launch_bounds__(TT) t_moments(tree_view T, int g)
{
    const int begin = T.ctl->gen[g], end = T.ctl->gen[g + 1];
    for (int c = begin + blockIdx.x * TT + threadIdx.x; c < end; c += gridDim.x * TT) {
        const float4 misc = T.misc[c];
        const int first = __float_as_int(misc.z), count = __float_as_int(misc.w);
        gc_tree_moments m;
        if (count <= 0) { /* a leaf (an empty one only where the store overflowed) */
            gc_tree_leaf_moments((const float *)(T.spos + first), -count, &m);
        } else {
            gc_tree_moments ch[8];
            for (int k = 0; k < count; k++)
                load_moments(T, first + k, ch[k]);
            gc_tree_combine(ch, count, &m);
        }
        float q6[6], nsoft;
        gc_tree_cell_terms(&m, T.eps2, q6, &nsoft);
        T.com[c] = make_float4(m.com[0], m.com[1], m.com[2], m.m);
        T.quad[c] = make_float4(q6[0], q6[1], q6[2], q6[3]);
        T.quad2[c] = make_float4(q6[4], q6[5], nsoft, m.s2);
        T.blo[c] = make_float4(m.lo[0], m.lo[1], m.lo[2], 0.0f);
        T.bhi[c] = make_float4(m.hi[0], m.hi[1], m.hi[2], 0.0f);
        T.misc[c] = make_float4(0.0f, gc_tree_open_radius2(&m, T.theta), misc.z, misc.w);
        if (c == 0)
            T.ctl->root_mass = m.m;
    }
}

/* ---- the walk: one warp per group of 32 consecutive bodies ---- */

/* Per warp: the cells still to test (a stack: the last ones pushed are tested first, 32 at
 * a time), the accepted cells and the bodies of opened leaves waiting for their batch of
 * 32, and the batch of cells being evaluated, as every lane reads them (broadcast). */
struct walk_smem {
    int stack[STACK];
    int cells[64];
    float4 bodies[64];
    float4 com[32], quad[32], quad2[32];
    int scan[32], first[32];
    unsigned long long start; /* when the warp took its group (clock_ns) */
    int group;                /* which group that is */
};

template <bool POT>
static __device__ __forceinline__ void eval_cells(const tree_view &T, walk_smem &s, int count,
                                                  int lane, const float4 x, float a[3],
                                                  float *p)
{
    if (lane < count) {
        const int c = s.cells[lane];
        s.com[lane] = T.com[c];
        s.quad[lane] = T.quad[c];
        s.quad2[lane] = T.quad2[c];
    }
    __syncwarp();
#pragma unroll 4
    for (int k = 0; k < count; k++) {
        const float4 cm = s.com[k], qa = s.quad[k], qb = s.quad2[k];
        const float q[6] = {qa.x, qa.y, qa.z, qa.w, qb.x, qb.y};
        const float dx = cm.x - x.x, dy = cm.y - x.y, dz = cm.z - x.z;
        const float rinv = rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, T.eps2))));
        gc_tree_cell_force(dx, dy, dz, cm.w, q, qb.z, rinv, a, POT ? p : nullptr);
    }
    __syncwarp();
}

template <bool POT>
static __device__ __forceinline__ void eval_bodies(const tree_view &T, const walk_smem &s,
                                                   int count, const float4 x, float a[3],
                                                   float *p)
{
#pragma unroll 8
    for (int k = 0; k < count; k++) {
        const float4 y = s.bodies[k];
        const float dx = y.x - x.x, dy = y.y - x.y, dz = y.z - x.z;
        const float rinv = rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, T.eps2))));
        gc_tree_body_force(dx, dy, dz, y.w, rinv, a, POT ? p : nullptr);
    }
    __syncwarp();
}

/* With 32 or more bodies waiting, evaluates the first 32 and moves the rest down; returns
 * how many wait now (fewer than 32). */
template <bool POT>
static __device__ __forceinline__ int flush_bodies(const tree_view &T, walk_smem &s, int nbody,
                                                   int lane, const float4 x, float a[3],
                                                   float *p)
{
    if (nbody < 32)
        return nbody;
    eval_bodies<POT>(T, s, 32, x, a, p);
    nbody -= 32;
    if (lane < nbody)
        s.bodies[lane] = s.bodies[32 + lane];
    __syncwarp();
    return nbody;
}

static __device__ __forceinline__ int warp_inclusive_scan(int v, int lane)
{
    for (int off = 1; off < 32; off <<= 1) {
        const int o = __shfl_up_sync(FULL, v, off);
        if (lane >= off)
            v += o;
    }
    return v;
}

/* The walking warp's list area (made from the kernel's parameters where it is used: kept in
 * registers, its address spilled the walk's). */
static __device__ __forceinline__ int *list_area(const tree_view &T)
{
    return T.local + (size_t)(blockIdx.x * WALK_WARPS + (threadIdx.x >> 5)) * LIST_INTS;
}

/* The device's clock in nanoseconds (the same on every multiprocessor). */
static __device__ __forceinline__ unsigned long long clock_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* The sums of the group's local expansion (tree_formulas.h) over the nlocal cells of its
 * list, in every lane: each lane adds every 32nd cell, then the lanes' sums are added. */
template <bool POT>
static __device__ __forceinline__ void local_sums(const tree_view &T,
                                                  const int *__restrict__ list, int nlocal,
                                                  int lane, const float bc[3],
                                                  float L[GC_TREE_LOCAL_TERMS])
{
#pragma unroll
    for (int t = 0; t < GC_TREE_LOCAL_TERMS; t++)
        L[t] = 0.0f;
    __syncwarp(); /* the list's entries, written by every lane, are seen by all */
    for (int k = lane; k < nlocal; k += 32) {
        const int c = list[k];
        const float4 cm = T.com[c], qa = T.quad[c], qb = T.quad2[c];
        const float q[6] = {qa.x, qa.y, qa.z, qa.w, qb.x, qb.y};
        const float dx = cm.x - bc[0], dy = cm.y - bc[1], dz = cm.z - bc[2];
        const float rinv = rsqrtf(fmaf(dz, dz, fmaf(dy, dy, fmaf(dx, dx, T.eps2))));
        gc_tree_local_add(dx, dy, dz, cm.w, q, qb.z, rinv, L, POT);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
#pragma unroll
        for (int t = 0; t < (POT ? GC_TREE_LOCAL_TERMS : GC_TREE_LOCAL_TERMS - 1); t++)
            L[t] += __shfl_xor_sync(FULL, L[t], off);
}

/* The expansion at the lane's body, from the nlocal cells of the list. */
template <bool POT>
static __device__ __forceinline__ void eval_local(const tree_view &T,
                                                  const int *__restrict__ list, int nlocal,
                                                  int lane, const float bc[3], const float4 x,
                                                  float a[3], float *p)
{
    float L[GC_TREE_LOCAL_TERMS];
    local_sums<POT>(T, list, nlocal, lane, bc, L);
    gc_tree_local_eval(L, x.x - bc[0], x.y - bc[1], x.z - bc[2], a, POT ? p : nullptr);
}

/* The group of bodies [g0, g1): its box, then the tree from the root: a cell far enough from
 * every point of the box (gc_tree_open_radius2) goes to the group's local list when it is
 * also far beside the box's size (gc_tree_local), else to the cell list; a leaf that is not
 * far enough to the body list (its bodies, summed directly), any other cell's children to
 * the stack. A full cell or body list is evaluated by every lane for its body; the local list
 * (in global memory, `list`) when the walk ends. Forces of the bodies in [i0, i1) are
 * written in their original order; with POT the potentials (self-pair included) go to phi
 * instead. */
template <bool POT>
static __device__ __forceinline__ void walk_group(const tree_view &T, walk_smem &s,
                                                  int g0, int g1, int lane,
                                                  float *__restrict__ phi)
{
    const int k = g0 + lane;
    const bool valid = k < g1;
    const float4 x = T.spos[valid ? k : g0];
    /* A lane past the group gets an index no range holds, so that whether the lane's body is
     * ours is worked out again from i where it is needed (one register less to keep). */
    const unsigned i = valid ? T.idx[k] : 0xffffffffu;
    if (!__any_sync(FULL, i >= (unsigned)T.i0 && i < (unsigned)T.i1))
        return;
    float lo[3] = {x.x, x.y, x.z}, hi[3] = {x.x, x.y, x.z}, bc[3], bh[3];
    for (int off = 16; off > 0; off >>= 1)
        for (int d = 0; d < 3; d++) {
            lo[d] = fminf(lo[d], __shfl_xor_sync(FULL, lo[d], off));
            hi[d] = fmaxf(hi[d], __shfl_xor_sync(FULL, hi[d], off));
        }
    float h2 = 0.0f;
    for (int d = 0; d < 3; d++) {
        bc[d] = 0.5f * (lo[d] + hi[d]);
        bh[d] = 0.5f * (hi[d] - lo[d]);
        h2 += bh[d] * bh[d];
    }
    const float rl2 = gc_tree_local_radius2(h2, T.theta);
    float a[3] = {0.0f, 0.0f, 0.0f}, p = 0.0f;
    /* nlocal cells listed from the bottom of the list area, spilled cells from its top */
    int top = 1, ncell = 0, nbody = 0, nlocal = 0, spilled = 0;
    /* 1: the stack filled (a cell summed directly), 2: the local list filled, 4: the stack
     * moved cells to the list area */
    int full = 0;
    unsigned long long cells_done = 0, bodies_done = 0, mono_done = 0;
    if (lane == 0)
        s.stack[0] = 0;
    __syncwarp();
    for (;;) {
        if (top == 0) {
            if (spilled == 0)
                break;
            /* the stack's older cells back, the newest of them on top as before */
            const int back = spilled < SPILL ? spilled : SPILL;
            const int *spill = list_area(T) + LIST_INTS - spilled;
            for (int j = lane; j < back; j += 32)
                s.stack[j] = spill[back - 1 - j];
            spilled -= back;
            top = back;
            __syncwarp();
        }
        const int take = top < 32 ? top : 32;
        top -= take;
        const int node = lane < take ? s.stack[top + lane] : -1;
        __syncwarp(); /* every lane has read its cell before pushes overwrite the slots */
        bool accept = false, far = false, local = false, open_leaf = false, open_cell = false;
        int first = 0, count = 0;
        float4 cm = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (node >= 0) {
            const float4 misc = T.misc[node];
            cm = T.com[node];
            const float c3[3] = {cm.x, cm.y, cm.z};
            const float d2 = gc_tree_box_dist2(c3, bc, bh);
            first = __float_as_int(misc.z);
            count = __float_as_int(misc.w);
            if (d2 > misc.y) {
                const float ex = cm.x - bc[0], ey = cm.y - bc[1], ez = cm.z - bc[2];
                local = gc_tree_local(ex * ex + ey * ey + ez * ez, rl2);
                far = gc_tree_far(d2, misc.y);
                accept = !far;
            } else if (count < 0) {
                open_leaf = true;
            } else {
                open_cell = true;
            }
        }
        /* Cells for the local expansion join the group's list while it has room. */
        unsigned lm = __ballot_sync(FULL, local);
        if (nlocal + __popc(lm) > LOCAL_CAP) {
            full |= 2;
            lm = 0;
        } else if (local) {
            list_area(T)[nlocal + __popc(lm & ((1u << lane) - 1u))] = node;
            far = accept = false;
        }
        nlocal += __popc(lm);
        /* Far cells join the body list as one body each (mass at the centre of mass). */
        const unsigned fm = __ballot_sync(FULL, far);
        if (far)
            s.bodies[nbody + __popc(fm & ((1u << lane) - 1u))] = cm;
        nbody += __popc(fm);
        mono_done += (unsigned long long)__popc(fm);
        __syncwarp();
        nbody = flush_bodies<POT>(T, s, nbody, lane, x, a, &p);
        /* Accepted cells join the cell list; 32 of them make a batch. */
        const unsigned am = __ballot_sync(FULL, accept);
        if (accept)
            s.cells[ncell + __popc(am & ((1u << lane) - 1u))] = node;
        ncell += __popc(am);
        __syncwarp();
        if (ncell >= 32) {
            eval_cells<POT>(T, s, 32, lane, x, a, &p);
            cells_done += 32;
            ncell -= 32;
            if (lane < ncell)
                s.cells[lane] = s.cells[32 + lane];
            __syncwarp();
        }
        /* Opened cells push their children. A stack too full for them moves its older
         * SPILL cells to the list area first; with that full as well they are summed
         * directly (their bodies' range), which is exact, only slower. */
        const int nk = open_cell ? count : 0;
        const int incl = warp_inclusive_scan(nk, lane);
        const int total = __shfl_sync(FULL, incl, 31);
        if (top + total > STACK && spilled + SPILL <= LIST_INTS - LOCAL_CAP) {
            int *spill = list_area(T) + LIST_INTS - spilled - SPILL;
            for (int j = lane; j < SPILL; j += 32)
                spill[SPILL - 1 - j] = s.stack[j];
            __syncwarp();
            for (int base = 0; base < top - SPILL; base += 32) {
                const int j = base + lane;
                const int v = j < top - SPILL ? s.stack[SPILL + j] : 0;
                __syncwarp();
                if (j < top - SPILL)
                    s.stack[j] = v;
                __syncwarp();
            }
            spilled += SPILL;
            top -= SPILL;
            full |= 4;
        }
        if (top + total <= STACK) {
            for (int c = 0; c < nk; c++)
                s.stack[top + incl - nk + c] = first + c;
            top += total;
        } else if (open_cell) {
            const int2 r = T.range[node];
            open_leaf = true;
            first = r.x;
            count = -(r.y - r.x);
            full |= 1;
        }
        __syncwarp();
        /* Bodies of opened leaves, in batches of 32: lane j of a round fetches the j-th body
         * of the concatenated ranges (found by a binary search over the ranges' scan). */
        const int nb = open_leaf ? -count : 0;
        const int incl2 = warp_inclusive_scan(nb, lane);
        const int total2 = __shfl_sync(FULL, incl2, 31);
        bodies_done += (unsigned long long)total2;
        s.scan[lane] = incl2;
        s.first[lane] = first;
        __syncwarp();
        for (int base = 0; base < total2; base += 32) {
            const int j = base + lane;
            if (j < total2) {
                int lo_s = 0, hi_s = 31;
                while (lo_s < hi_s) {
                    const int mid = (lo_s + hi_s) >> 1;
                    if (s.scan[mid] > j)
                        hi_s = mid;
                    else
                        lo_s = mid + 1;
                }
                const int start = lo_s ? s.scan[lo_s - 1] : 0;
                s.bodies[nbody + lane] = T.spos[s.first[lo_s] + (j - start)];
            }
            nbody += total2 - base < 32 ? total2 - base : 32;
            __syncwarp();
            nbody = flush_bodies<POT>(T, s, nbody, lane, x, a, &p);
        }
    }
    if (ncell > 0) {
        eval_cells<POT>(T, s, ncell, lane, x, a, &p);
        cells_done += (unsigned long long)ncell;
    }
    if (nbody > 0)
        eval_bodies<POT>(T, s, nbody, x, a, &p);
    if (nlocal > 0)
        eval_local<POT>(T, list_area(T), nlocal, lane, bc, x, a, &p);
    const bool own = i >= (unsigned)T.i0 && i < (unsigned)T.i1;
    const unsigned owners = __ballot_sync(FULL, own);
    if (own) {
        if (POT)
            phi[i] = p;
        else
            T.acc[i] = make_float4(a[0], a[1], a[2], 0.0f);
    }
    if (lane == 0) {
        const unsigned long long m = (unsigned long long)__popc(owners);
        atomicAdd(&T.ctl->cell_int, cells_done * m);
        atomicAdd(&T.ctl->body_int, bodies_done * m);
        atomicAdd(&T.ctl->mono_int, mono_done * m);
        atomicAdd(&T.ctl->local_int, (unsigned long long)nlocal * m);
        if (full & 1)
            atomicAdd(&T.ctl->stack_full, 1);
        if (full & 2)
            atomicAdd(&T.ctl->local_full, 1);
        if (full & 4)
            atomicAdd(&T.ctl->stack_spills, 1);
    }
    __syncwarp(); /* the next group's walk reuses the shared lists */
}

/* As many warps as fit on the device at once, each taking the next group in key order
 * until none is left: a group whose walk is long holds up one warp, not a block's share of
 * the grid, and neighbouring groups run together and share the cells in cache. */
template <bool POT>
static __global__ void __launch_bounds__(32 * WALK_WARPS, WALK_BLOCKS_PER_SM(POT))
t_walk(tree_view T, float *__restrict__ phi)
{
    __shared__ walk_smem smem[WALK_WARPS];
    const int lane = threadIdx.x & 31;
    walk_smem &s = smem[threadIdx.x >> 5];
    if (lane == 0)
        atomicMin(&T.ctl->walk_start, clock_ns());
    for (;;) {
        int g = 0, g1 = 0;
        if (lane == 0) {
            /* the count is read afresh each time: one load a group, one register less */
            const int groups = T.ctl->groups;
            g = (int)atomicAdd(&T.ctl->next_group, 1u);
            g1 = g >= groups ? -1 : g + 1 < groups ? T.group[g + 1] : T.n;
            /* the group and its start wait in shared memory: registers are short */
            s.group = g;
            s.start = clock_ns();
            if (g == groups - 1)
                T.ctl->walk_last_taken = s.start;
        }
        g1 = __shfl_sync(FULL, g1, 0);
        if (g1 < 0)
            break; /* the whole warp: no block-wide barrier follows */
        g = __shfl_sync(FULL, g, 0);
        walk_group<POT>(T, s, T.group[g], g1, lane, phi);
        if (lane == 0)
            T.group_us[s.group] = 1e-3f * (float)(clock_ns() - s.start);
    }
    if (lane == 0)
        atomicMax(&T.ctl->walk_end, clock_ns());
}

/* Per-block sums of m_i (phi_i + m_i / eps) over the range, in double: the self-pair the
 * walk summed directly (m_i / eps) taken out. */
static __global__ void __launch_bounds__(TT) t_potential_sum(tree_view T,
                                                             const float *__restrict__ phi,
                                                             double *__restrict__ part)
{
    typedef cub::BlockReduce<double, TT> reduce;
    __shared__ typename reduce::TempStorage tmp;
    const double ieps = 1.0 / sqrt((double)T.eps2);
    double v = 0.0;
    for (int i = T.i0 + blockIdx.x * TT + threadIdx.x; i < T.i1; i += gridDim.x * TT) {
        const double m = (double)T.pos[i].w;
        v += m * ((double)phi[i] + m * ieps);
    }
    v = reduce(tmp).Sum(v);
    if (threadIdx.x == 0)
        part[blockIdx.x] = v;
}

/* ---- launchers ---- */

static int blocks_for(int n)
{
    return (n + TT - 1) / TT > 0 ? (n + TT - 1) / TT : 1;
}

extern "C" size_t gc_cuda_tree_cell_cap(size_t n)
{
    /* The galaxy models use ~0.25 cells a body at GC_TREE_LEAF = 16 (docs/physics.md); half a
     * body's worth leaves room, and a cell that finds none is summed directly. */
    return n / 2 + 4096;
}

extern "C" size_t gc_cuda_tree_sort_bytes(int n)
{
    size_t bytes = 0;
    cub::DoubleBuffer<unsigned long long> k(nullptr, nullptr);
    cub::DoubleBuffer<unsigned> v(nullptr, nullptr);
    if (cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, 3 * GC_TREE_LEVELS) !=
        cudaSuccess)
        return 0;
    return bytes;
}

extern "C" size_t gc_cuda_tree_scratch_bytes(void)
{
    return BOX_BLOCKS * sizeof(box6);
}

extern "C" int gc_cuda_tree_launch_sort(gc_cuda_tree *T, void *temp, size_t temp_bytes,
                                        void *scratch, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    cub::DoubleBuffer<unsigned long long> k(T->keys[0], T->keys[1]);
    cub::DoubleBuffer<unsigned> v(T->idxs[0], T->idxs[1]);
    cudaError_t e;
    t_box<<<BOX_BLOCKS, TT, 0, s>>>((const float4 *)T->pos, T->n, (box6 *)scratch);
    t_frame<<<1, TT, 0, s>>>(view_of(T), (const box6 *)scratch);
    t_keys<<<blocks_for(T->n), TT, 0, s>>>(view_of(T), T->keys[0], T->idxs[0]);
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    e = cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, T->n, 0, 3 * GC_TREE_LEVELS, s);
    if (e != cudaSuccess)
        return (int)e;
    /* The sort's last pass chose the buffer; the host knows which without waiting. */
    T->key = k.Current();
    T->idx = v.Current();
    t_gather<<<blocks_for(T->n), TT, 0, s>>>(view_of(T));
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_tree_launch_build(const gc_cuda_tree *T, int sm_count, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int grid = sm_count * 4;
    const tree_view v = view_of(T);
    for (int g = 0; g <= GC_TREE_LEVELS; g++)
        t_split<<<grid, TT, 0, s>>>(v, g);
    return (int)cudaGetLastError();
}

extern "C" int gc_cuda_tree_launch_moments(const gc_cuda_tree *T, int sm_count, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int grid = sm_count * 4;
    const tree_view v = view_of(T);
    for (int g = GC_TREE_LEVELS; g >= 0; g--)
        t_moments<<<grid, TT, 0, s>>>(v, g);
    return (int)cudaGetLastError();
}

extern "C" size_t gc_cuda_tree_group_bytes(int n)
{
    size_t bytes = 0;
    if (cub::DeviceSelect::Flagged(nullptr, bytes, thrust::counting_iterator<int>(0),
                                   (const unsigned char *)nullptr, (int *)nullptr,
                                   (int *)nullptr, n) != cudaSuccess)
        return 0;
    return bytes;
}

extern "C" int gc_cuda_tree_launch_groups(const gc_cuda_tree *T, void *temp, size_t temp_bytes,
                                          int sm_count, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    cudaError_t e = cudaMemsetAsync(T->begins, 0, (size_t)T->n, s);
    if (e != cudaSuccess)
        return (int)e;
    t_groups<<<sm_count * 4, TT, 0, s>>>(view_of(T));
    e = cudaGetLastError();
    if (e != cudaSuccess)
        return (int)e;
    /* The marked bodies' indices, in order, and how many into the control block. */
    return (int)cub::DeviceSelect::Flagged(temp, temp_bytes, thrust::counting_iterator<int>(0),
                                           T->begins, T->group, &T->ctl->groups, T->n, s);
}

template <bool POT> static int launch_walk(const gc_cuda_tree *T, float *phi, int sm_count,
                                           cudaStream_t s)
{
    int per_sm = 0;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, t_walk<POT>,
                                                                  32 * WALK_WARPS, 0);
    if (e != cudaSuccess)
        return (int)e;
    /* No more blocks than the list areas were made for. */
    per_sm = per_sm < 1 ? 1 : per_sm > WALK_BLOCKS_PER_SM(false) ? WALK_BLOCKS_PER_SM(false) : per_sm;
    t_walk<POT><<<sm_count * per_sm, 32 * WALK_WARPS, 0, s>>>(view_of(T), phi);
    return (int)cudaGetLastError();
}

extern "C" size_t gc_cuda_tree_local_ints(int sm_count)
{
    return (size_t)sm_count * WALK_BLOCKS_PER_SM(false) * WALK_WARPS * LIST_INTS;
}

extern "C" int gc_cuda_tree_launch_walk(const gc_cuda_tree *T, float *phi, int sm_count,
                                        void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    return phi ? launch_walk<true>(T, phi, sm_count, s)
               : launch_walk<false>(T, nullptr, sm_count, s);
}

extern "C" int gc_cuda_tree_potential_blocks(void)
{
    return BOX_BLOCKS;
}

extern "C" int gc_cuda_tree_launch_potential_sum(const gc_cuda_tree *T, const float *phi,
                                                 double *part, void *stream)
{
    t_potential_sum<<<BOX_BLOCKS, TT, 0, (cudaStream_t)stream>>>(view_of(T), phi, part);
    return (int)cudaGetLastError();
}
