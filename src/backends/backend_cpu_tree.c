/* The CPU backend's tree force method: the Barnes-Hut octree of tree_formulas.h built every pass (radix sort and cells generation by generation, OpenMP), walked once a group into interaction lists that the vector loops evaluate. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend_cpu.h"
#include "backend_tree.h"
#include "clock.h"
#include "log.h"
#include "tree_formulas.h"

/* One cell, as the walk reads it: the test (centre of mass, opening radius, children) and
 * the interaction's terms in one 64-byte line. Children of a cell are stored together, in
 * key order, and every cell comes after its parent, generation by generation, so moments
 * are computed backwards. */
struct node {
    int32_t first, count; /* internal: first child and children (> 0); leaf: first body and
                           * minus the bodies */
    int32_t begin, end;   /* its bodies, [begin, end) of the sorted order */
    float com[3], ropen2; /* centre of mass, opening radius squared */
    float m, nsoft, q6[6]; /* mass and the interactions' terms (gc_tree_cell_terms) */
};

struct keyed {
    uint64_t key;
    uint32_t i; /* body index */
};

/* One thread's interaction lists: bodies and far cells' masses, cells with their
 * quadrupoles, cells for the group's local expansion. */
struct cpu_walk {
    struct cpu_list bodies, cells, local;
};

struct cpu_tree {
    size_t cap;             /* bodies the arrays hold */
    struct keyed *order;    /* bodies sorted by key (ties by index) */
    struct keyed *spare;    /* the radix sort's other buffer */
    float *spos;            /* 4 per body in sorted order: x, y, z, m */
    float *sx, *sy, *sz, *sm; /* the same as arrays (interaction lists copy from them) */
    size_t *hist;           /* the sort's counts: 256 per thread */
    int hist_threads;
    struct node *node;
    struct gc_tree_moments *mo; /* the cells' moments */
    float *test;            /* what the walk tests of each cell, as arrays: com x, y, z and
                             * ropen2, node_cap + GC_CPU_PAD each (struct cpu_cell_tests) */
    int32_t *kids;          /* children of each cell of a generation (the build's) */
    size_t nodes, node_cap;
    int32_t gen[2 * GC_TREE_LEVELS + 4]; /* first cell of each generation, then nodes */
    int gens;
    unsigned char *begins;  /* per sorted body: 1 where a group begins */
    int32_t *group;         /* the groups' first bodies, ascending, then n */
    size_t groups;
    struct cpu_walk *walk;  /* one a thread */
    int walks;
    struct gc_tree_stats stats;
};

static void list_free(struct cpu_list *l)
{
    free(l->x);
    memset(l, 0, sizeof *l);
}

void gc_cpu_tree_free(struct cpu_ctx *c)
{
    struct cpu_tree *t = c->tree;
    if (!t)
        return;
    for (int w = 0; w < t->walks; w++) {
        list_free(&t->walk[w].bodies);
        list_free(&t->walk[w].cells);
        list_free(&t->walk[w].local);
    }
    free(t->walk);
    free(t->order);
    free(t->spare);
    free(t->spos);
    free(t->sx);
    free(t->hist);
    free(t->node);
    free(t->mo);
    free(t->test);
    free(t->kids);
    free(t->begins);
    free(t->group);
    free(t);
    c->tree = NULL;
}

static enum gc_status reserve(struct cpu_ctx *c, int threads)
{
    struct cpu_tree *t = c->tree;
    if (!t) {
        t = c->tree = calloc(1, sizeof *t);
        if (!t)
            goto nomem;
    }
    if (c->n > t->cap) {
        free(t->order);
        free(t->spare);
        free(t->spos);
        free(t->sx);
        free(t->begins);
        free(t->group);
        t->order = malloc(c->n * sizeof *t->order);
        t->spare = malloc(c->n * sizeof *t->spare);
        t->spos = malloc(4 * c->n * sizeof *t->spos);
        t->sx = malloc(4 * c->n * sizeof *t->sx);
        t->begins = malloc(c->n);
        t->group = malloc((c->n + 1) * sizeof *t->group);
        t->cap = t->order && t->spare && t->spos && t->sx && t->begins && t->group ? c->n : 0;
        if (!t->cap)
            goto nomem;
        t->sy = t->sx + c->n;
        t->sz = t->sy + c->n;
        t->sm = t->sz + c->n;
    }
    if (threads > t->walks) {
        struct cpu_walk *w = realloc(t->walk, (size_t)threads * sizeof *w);
        if (!w)
            goto nomem;
        memset(w + t->walks, 0, (size_t)(threads - t->walks) * sizeof *w);
        t->walk = w;
        t->walks = threads;
    }
    if (threads > t->hist_threads) {
        free(t->hist);
        t->hist = malloc((size_t)threads * 256 * sizeof *t->hist);
        t->hist_threads = t->hist ? threads : 0;
        if (!t->hist)
            goto nomem;
    }
    return GC_OK;
nomem:
    gc_log_error("cpu backend: out of memory for the tree of %zu bodies", c->n);
    gc_cpu_tree_free(c);
    return GC_ERR_NOMEM;
}

/* ---- keys and the sort ---- */

/* Stable least-significant-digit radix sort of order[0..n) by key, 8 bits a pass, each pass
 * split over the threads by ranges of the input (a thread's counts give its bodies' places):
 * equal keys keep their order, the bodies' indices, as the GPU's sort keeps them. Digits
 * that no two keys differ in are skipped. */
static void radix_sort(struct cpu_tree *t, long n, uint64_t varying, int threads)
{
    for (int shift = 0; shift < 64; shift += 8) {
        struct keyed *src = t->order, *dst = t->spare;
        size_t *hist = t->hist;
        if (!((varying >> shift) & 0xffu))
            continue;
#pragma omp parallel num_threads(threads)
        {
#ifdef _OPENMP
            const int me = omp_get_thread_num(), all = omp_get_num_threads();
#else
            const int me = 0, all = 1;
#endif
            const long lo = n * me / all, hi = n * (me + 1) / all;
            size_t *h = hist + 256 * me;
            memset(h, 0, 256 * sizeof *h);
            for (long i = lo; i < hi; i++)
                h[(src[i].key >> shift) & 0xffu]++;
#pragma omp barrier
#pragma omp single
            {
                size_t sum = 0;
                for (int d = 0; d < 256; d++)
                    for (int k = 0; k < all; k++) {
                        const size_t count = hist[256 * k + d];
                        hist[256 * k + d] = sum;
                        sum += count;
                    }
            }
            for (long i = lo; i < hi; i++)
                dst[h[(src[i].key >> shift) & 0xffu]++] = src[i];
        }
        t->order = dst;
        t->spare = src;
    }
}

/* Keys over the cube of the bodies' box, sorted; positions gathered in that order. */
static void sort_bodies(struct cpu_ctx *c, int threads)
{
    struct cpu_tree *t = c->tree;
    const long n = (long)c->n;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    float origin[3], scale;
    uint64_t any = 0, all = ~(uint64_t)0;
    const float *x = c->x, *y = c->y, *z = c->z;
#pragma omp parallel for schedule(static) num_threads(threads) \
    reduction(min : lo[:3]) reduction(max : hi[:3])
    for (long i = 0; i < n; i++) {
        lo[0] = fminf(lo[0], x[i]);
        lo[1] = fminf(lo[1], y[i]);
        lo[2] = fminf(lo[2], z[i]);
        hi[0] = fmaxf(hi[0], x[i]);
        hi[1] = fmaxf(hi[1], y[i]);
        hi[2] = fmaxf(hi[2], z[i]);
    }
    gc_tree_frame(lo, hi, origin, &scale);
#pragma omp parallel for schedule(static) num_threads(threads) reduction(| : any) \
    reduction(& : all)
    for (long i = 0; i < n; i++) {
        const uint64_t k = gc_tree_key(x[i], y[i], z[i], origin, scale);
        t->order[i].key = k;
        t->order[i].i = (uint32_t)i;
        any |= k;
        all &= k;
    }
    radix_sort(t, n, any ^ all, threads);
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long k = 0; k < n; k++) {
        const uint32_t i = t->order[k].i;
        float *p = t->spos + 4 * k;
        p[0] = t->sx[k] = x[i];
        p[1] = t->sy[k] = y[i];
        p[2] = t->sz[k] = z[i];
        p[3] = t->sm[k] = c->m[i];
    }
}

/* ---- the cells ---- */

/* First index in [b, e) whose digit at `level` is >= v (the digits there are sorted). */
static int32_t lower_digit(const struct keyed *o, int32_t b, int32_t e, int level, int v)
{
    while (b < e) {
        const int32_t mid = b + (e - b) / 2;
        if (gc_tree_digit(o[mid].key, level) < v)
            b = mid + 1;
        else
            e = mid;
    }
    return b;
}

/* A cell of more than GC_TREE_LEAF bodies splits at the first level where its first and
 * last keys differ, into the runs of equal digit there: their bounds into cut[0..kids]
 * (cut[0] = begin). Returns the children, 0 for a leaf. */
static int split(const struct keyed *o, int32_t b, int32_t e, int32_t cut[9])
{
    const int level = e - b > GC_TREE_LEAF ? gc_tree_split_level(o[b].key, o[e - 1].key)
                                           : GC_TREE_LEVELS + 1;
    int32_t start = b;
    int kids = 0;
    cut[0] = b;
    if (level > GC_TREE_LEVELS)
        return 0;
    for (int v = gc_tree_digit(o[b].key, level) + 1; v <= 8 && start < e; v++) {
        const int32_t stop = v == 8 ? e : lower_digit(o, start, e, level, v);
        if (stop > start)
            cut[++kids] = stop;
        start = stop;
    }
    return kids;
}

static enum gc_status grow_nodes(struct cpu_tree *t, size_t need)
{
    size_t cap = t->node_cap ? t->node_cap : 1024;
    struct node *nd;
    struct gc_tree_moments *mo;
    int32_t *kids;
    float *test;
    if (need <= t->node_cap)
        return GC_OK;
    while (cap < need)
        cap *= 2;
    /* The tests are made afresh each pass (moments): no need to keep them. */
    test = calloc(4 * (cap + GC_CPU_PAD), sizeof *test);
    if (test) {
        free(t->test);
        t->test = test;
    }
    nd = realloc(t->node, cap * sizeof *nd);
    if (nd)
        t->node = nd;
    mo = realloc(t->mo, cap * sizeof *mo);
    if (mo)
        t->mo = mo;
    kids = realloc(t->kids, cap * sizeof *kids);
    if (kids)
        t->kids = kids;
    if (!nd || !mo || !kids || !test) {
        gc_log_error("cpu backend: out of memory for %zu tree cells", cap);
        return GC_ERR_NOMEM;
    }
    t->node_cap = cap;
    return GC_OK;
}

/* The cells, one generation at a time: the children of every cell of a generation are
 * counted in parallel, placed after the generation in the order of their parents, then
 * written in parallel, so the cells come out in the order a breadth-first build gives. */
static enum gc_status build(struct cpu_tree *t, size_t n, int threads)
{
    size_t g0 = 0, g1 = 1;
    uint64_t leaves = 0, leaf_bodies = 0;
    enum gc_status st = grow_nodes(t, 1);
    if (st != GC_OK)
        return st;
    memset(&t->node[0], 0, sizeof t->node[0]);
    t->node[0].end = (int32_t)n;
    t->gens = 0;
    while (g0 < g1 && st == GC_OK) {
        size_t next = g1;
        t->gen[t->gens++] = (int32_t)g0;
#pragma omp parallel for schedule(static) num_threads(threads) \
    reduction(+ : leaves, leaf_bodies)
        for (long c = (long)g0; c < (long)g1; c++) {
            struct node *nd = &t->node[c];
            int32_t cut[9];
            t->kids[c] = split(t->order, nd->begin, nd->end, cut);
            if (!t->kids[c]) {
                nd->first = nd->begin;
                nd->count = -(nd->end - nd->begin);
                leaves++;
                leaf_bodies += (uint64_t)(nd->end - nd->begin);
            }
        }
        for (size_t c = g0; c < g1; c++)
            if (t->kids[c]) {
                t->node[c].first = (int32_t)next;
                t->node[c].count = t->kids[c];
                next += (size_t)t->kids[c];
            }
        st = grow_nodes(t, next);
        if (st != GC_OK)
            break;
#pragma omp parallel for schedule(static) num_threads(threads)
        for (long c = (long)g0; c < (long)g1; c++) {
            int32_t cut[9];
            const struct node *nd = &t->node[c];
            if (!t->kids[c])
                continue;
            split(t->order, nd->begin, nd->end, cut);
            for (int k = 0; k < t->kids[c]; k++) {
                struct node *ch = &t->node[nd->first + k];
                memset(ch, 0, sizeof *ch);
                ch->begin = cut[k];
                ch->end = cut[k + 1];
            }
        }
        g0 = g1;
        g1 = next;
    }
    t->nodes = g1;
    t->gen[t->gens] = (int32_t)g1;
    t->stats.leaves = leaves;
    t->stats.leaf_bodies = leaf_bodies;
    return st;
}

/* Marks where groups begin in piece nd (gc_tree_group_step). */
static void mark(struct cpu_tree *t, const struct node *nd, int *fill)
{
    switch (gc_tree_group_step(fill, nd->end - nd->begin, nd->count < 0)) {
    case GC_TREE_GROUP_BEGINS:
        t->begins[nd->begin] = 1;
        break;
    case GC_TREE_GROUP_CUT:
        for (int32_t b = nd->begin; b < nd->end; b += GC_TREE_GROUP)
            t->begins[b] = 1;
        break;
    default:
        break;
    }
}

/* The pieces of packing cell nd in key order: from each body b not yet covered, down to the
 * largest cell of at most GC_TREE_GROUP bodies that holds it (or a leaf). */
static void pack(struct cpu_tree *t, const struct node *nd, int *fill)
{
    for (int32_t b = nd->begin; b < nd->end;) {
        const struct node *p = nd;
        while (p->end - p->begin > GC_TREE_GROUP && p->count > 0) {
            const struct node *ch = &t->node[p->first];
            while (ch->end <= b)
                ch++;
            p = ch;
        }
        mark(t, p, fill);
        b = p->end;
    }
}

/* The groups of the tree (tree_formulas.h), their first bodies in sorted order. */
static void find_groups(struct cpu_tree *t, size_t n)
{
    int fill = 0;
    t->groups = 0;
    t->group[0] = 0;
    if (n == 0)
        return;
    memset(t->begins, 0, n);
    if (n <= GC_TREE_PACK)
        pack(t, &t->node[0], &fill);
    else
        mark(t, &t->node[0], &fill); /* a larger root is cut if it is a leaf */
    for (size_t c = 0; c < t->nodes; c++) {
        const struct node *nd = &t->node[c];
        if (nd->count < 0 || nd->end - nd->begin <= GC_TREE_PACK)
            continue;
        fill = 0;
        for (int k = 0; k < nd->count; k++) {
            const struct node *ch = &t->node[nd->first + k];
            if (ch->end - ch->begin > GC_TREE_PACK)
                mark(t, ch, &fill);
            else
                pack(t, ch, &fill);
        }
    }
    for (size_t b = 0; b < n; b++)
        if (t->begins[b])
            t->group[t->groups++] = (int32_t)b;
    t->group[t->groups] = (int32_t)n;
}

/* Moments one generation at a time from the last back to the root (children before their
 * parent), the cells of a generation in parallel. */
static void moments(struct cpu_tree *t, float theta, float eps2, int threads)
{
    for (int g = t->gens - 1; g >= 0; g--) {
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads)
        for (long c = t->gen[g]; c < t->gen[g + 1]; c++) {
            struct node *nd = &t->node[c];
            struct gc_tree_moments *mo = &t->mo[c];
            if (nd->count < 0)
                gc_tree_leaf_moments(t->spos + 4 * (size_t)nd->first, -nd->count, mo);
            else
                gc_tree_combine(t->mo + nd->first, nd->count, mo);
            nd->ropen2 = gc_tree_open_radius2(mo, theta);
            gc_tree_cell_terms(mo, eps2, nd->q6, &nd->nsoft);
            nd->m = mo->m;
            for (int k = 0; k < 3; k++)
                nd->com[k] = t->test[k * (t->node_cap + GC_CPU_PAD) + (size_t)c] = mo->com[k];
            t->test[3 * (t->node_cap + GC_CPU_PAD) + (size_t)c] = nd->ropen2;
        }
    }
}

/* ---- the walk ---- */

/* The arrays of l live in one block, moved into a larger one as the list grows. Returns 0
 * without memory. */
static __attribute__((noinline)) int list_grow(struct cpu_list *l, size_t more, int cells)
{
    const int arrays = cells ? 11 : 4;
    size_t cap = l->cap ? 2 * l->cap : 4096;
    float *blk;
    while (cap < l->n + more + GC_CPU_PAD)
        cap *= 2;
    blk = malloc((size_t)arrays * cap * sizeof *blk);
    if (!blk)
        return 0;
    {
        float *old[11] = {l->x, l->y, l->z, l->m, l->q[0], l->q[1], l->q[2], l->q[3], l->q[4],
                          l->q[5], l->nsoft};
        float **neu[11] = {&l->x, &l->y, &l->z, &l->m, &l->q[0], &l->q[1], &l->q[2], &l->q[3],
                           &l->q[4], &l->q[5], &l->nsoft};
        for (int a = 0; a < arrays; a++) {
            *neu[a] = blk + (size_t)a * cap;
            if (l->n)
                memcpy(*neu[a], old[a], l->n * sizeof *blk);
        }
        free(old[0]);
    }
    l->cap = cap;
    return 1;
}

/* Room for `more` entries (and the padding) in l; 0 without memory. */
static inline int list_room(struct cpu_list *l, size_t more, int cells)
{
    return l->n + more + GC_CPU_PAD <= l->cap || list_grow(l, more, cells);
}

static void push_body(struct cpu_list *l, float x, float y, float z, float m)
{
    l->x[l->n] = x;
    l->y[l->n] = y;
    l->z[l->n] = z;
    l->m[l->n++] = m;
}

static void push_cell(struct cpu_list *l, const struct node *nd)
{
    l->x[l->n] = nd->com[0];
    l->y[l->n] = nd->com[1];
    l->z[l->n] = nd->com[2];
    l->m[l->n] = nd->m;
    for (int k = 0; k < 6; k++)
        l->q[k][l->n] = nd->q6[k];
    l->nsoft[l->n++] = nd->nsoft;
}

/* Zero-mass entries up to a whole number of vectors: they add exactly nothing. */
static void pad(struct cpu_list *l, int cells)
{
    while (l->n % GC_CPU_PAD) {
        l->x[l->n] = l->y[l->n] = l->z[l->n] = l->m[l->n] = 0.0f;
        if (cells) {
            for (int k = 0; k < 6; k++)
                l->q[k][l->n] = 0.0f;
            l->nsoft[l->n] = 0.0f;
        }
        l->n++;
    }
}

/* One group's walk: every cell far enough from the group's box (gc_tree_open_radius2)
 * acts as a whole: through the group's local expansion when it is also far beside the
 * group's size (gc_tree_local), through its mass alone when far beyond its opening radius
 * (gc_tree_far), else through its quadrupole; every leaf that is not far enough gives its
 * bodies. The walk only lists them (once for the whole group); the vector loops then take
 * each body of the group against the lists. The bodies the range [i0, i1) owns get their
 * accelerations (and, with phi, their potentials). Returns 0 without memory. */
static int walk_group(const struct cpu_ctx *c, const struct cpu_tree *t, struct cpu_walk *w,
                      size_t g0, size_t g1, const struct gc_force_params *fp, float *acc,
                      double *phi, double *counts)
{
    float bc[3], bh[3], lo[3], hi[3], h2 = 0.0f, rl2;
    float out[GC_TREE_GROUP][4];
    const float eps2 = fp->eps2;
    float L[GC_TREE_LOCAL_TERMS] = {0};
    int32_t stack[64 * 8];
    const size_t stride = t->node_cap + GC_CPU_PAD;
    const struct cpu_cell_tests tests = {t->test, t->test + stride, t->test + 2 * stride,
                                         t->test + 3 * stride};
    int top = 0, own = 0, n = (int)(g1 - g0);
    double cells, bodies = 0.0, mono = 0.0, local;
    for (int k = 0; k < 3; k++)
        lo[k] = hi[k] = t->spos[4 * g0 + k];
    for (int j = 0; j < n; j++) {
        const float *x = t->spos + 4 * (g0 + (size_t)j);
        const uint32_t i = t->order[g0 + (size_t)j].i;
        own += i >= c->i0 && i < c->i1;
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], x[k]);
            hi[k] = fmaxf(hi[k], x[k]);
        }
    }
    if (!own)
        return 1;
    for (int k = 0; k < 3; k++) {
        bc[k] = 0.5f * (lo[k] + hi[k]);
        bh[k] = 0.5f * (hi[k] - lo[k]);
        h2 += bh[k] * bh[k];
    }
    rl2 = gc_tree_local_radius2(h2, fp->theta);
    w->bodies.n = w->cells.n = w->local.n = 0;
    if (!list_room(&w->local, 8, 1) || !list_room(&w->cells, 8, 1))
        return 0;
    /* Depth first from the root: each opened cell's children are tested together (the
     * vector loops' tree_fates), then listed by their fates; the stack holds at most 8
     * cells per level of the tree. */
    for (int32_t first = 0, k = 1;;) {
        unsigned fate[GC_CPU_FATES];
        /* The cells' lines are fetched while they are tested, and the next cell's children
         * while these are listed: a walk reads its cells from the L2 cache or beyond. */
        for (int j = 0; j < k; j++)
            __builtin_prefetch(&t->node[first + j]);
        if (top > 0) {
            const struct node *next = &t->node[stack[top - 1]];
            __builtin_prefetch(tests.x + next->first);
            __builtin_prefetch(tests.y + next->first);
            __builtin_prefetch(tests.z + next->first);
            __builtin_prefetch(tests.ropen2 + next->first);
        }
        c->kernels->tree_fates(&tests, (size_t)first, k, bc, bh, rl2, fate);
        for (unsigned m = fate[GC_CPU_LOCAL]; m; m &= m - 1)
            push_cell(&w->local, &t->node[first + __builtin_ctz(m)]);
        for (unsigned m = fate[GC_CPU_QUAD]; m; m &= m - 1)
            push_cell(&w->cells, &t->node[first + __builtin_ctz(m)]);
        if (fate[GC_CPU_MASS] && !list_room(&w->bodies, 8, 0))
            return 0;
        for (unsigned m = fate[GC_CPU_MASS]; m; m &= m - 1) {
            const struct node *nd = &t->node[first + __builtin_ctz(m)];
            push_body(&w->bodies, nd->com[0], nd->com[1], nd->com[2], nd->m);
            mono += 1.0;
        }
        for (unsigned m = fate[GC_CPU_OPEN]; m; m &= m - 1) {
            const int32_t j = first + __builtin_ctz(m);
            const struct node *nd = &t->node[j];
            if (nd->count > 0) {
                stack[top++] = j;
            } else {
                const size_t kb = (size_t)-nd->count, f = (size_t)nd->first;
                struct cpu_list *b = &w->bodies;
                if (!list_room(b, kb, 0))
                    return 0;
                memcpy(b->x + b->n, t->sx + f, kb * sizeof *b->x);
                memcpy(b->y + b->n, t->sy + f, kb * sizeof *b->y);
                memcpy(b->z + b->n, t->sz + f, kb * sizeof *b->z);
                memcpy(b->m + b->n, t->sm + f, kb * sizeof *b->m);
                b->n += kb;
                bodies += (double)kb;
            }
        }
        if (!list_room(&w->local, 8, 1) || !list_room(&w->cells, 8, 1))
            return 0;
        if (top == 0)
            break;
        first = t->node[stack[--top]].first;
        k = t->node[stack[top]].count;
    }
    cells = (double)w->cells.n;
    local = (double)w->local.n;
    pad(&w->bodies, 0);
    pad(&w->cells, 1);
    pad(&w->local, 1);
    if (w->local.n)
        c->kernels->tree_local(&w->local, bc, eps2, L, phi != NULL);
    c->kernels->tree_lists(&w->bodies, &w->cells, t->sx + g0, t->sy + g0, t->sz + g0, n, eps2,
                           out, phi != NULL);
    for (int j = 0; j < n; j++) {
        const uint32_t i = t->order[g0 + (size_t)j].i;
        float a[3] = {out[j][0], out[j][1], out[j][2]}, p = out[j][3];
        if (i < c->i0 || i >= c->i1)
            continue;
        if (local > 0.0)
            gc_tree_local_eval(L, t->sx[g0 + j] - bc[0], t->sy[g0 + j] - bc[1],
                               t->sz[g0 + j] - bc[2], a, phi ? &p : NULL);
        for (int k = 0; k < 3; k++)
            acc[3 * (size_t)i + k] = a[k];
        if (phi)
            phi[i] = p;
    }
    counts[0] += cells * own;
    counts[1] += bodies * own;
    counts[2] += mono * own;
    counts[3] += local * own;
    return 1;
}

/* Builds the tree over all bodies, then walks every group that holds a body of the range.
 * Groups and walks do not depend on the range, so a body's force is the same bits on any
 * number of ranks. The groups are taken a few at a time as threads free up. */
static enum gc_status tree_pass(struct cpu_ctx *c, const struct gc_force_params *fp,
                                double *phi)
{
    struct cpu_tree *t;
    const size_t n = c->n;
    const int threads = gc_cpu_threads(c);
    double t0, t1, t2, t3, cells = 0.0, bodies = 0.0, mono = 0.0, local = 0.0;
    int failed = 0;
    float *acc;
    enum gc_status st = reserve(c, threads);
    if (st != GC_OK)
        return st;
    t = c->tree;
    acc = malloc(3 * n * sizeof *acc);
    if (!acc) {
        gc_log_error("cpu backend: out of memory for the tree's forces");
        return GC_ERR_NOMEM;
    }
    t0 = 1e3 * gc_clock_seconds();
    sort_bodies(c, threads);
    t1 = 1e3 * gc_clock_seconds();
    st = build(t, n, threads);
    if (st == GC_OK)
        find_groups(t, n);
    t2 = 1e3 * gc_clock_seconds();
    if (st == GC_OK)
        moments(t, fp->theta, fp->eps2, threads);
    t3 = 1e3 * gc_clock_seconds();
    if (st == GC_OK) {
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : cells, bodies, mono, local) \
    num_threads(threads)
        for (long g = 0; g < (long)t->groups; g++) {
#ifdef _OPENMP
            struct cpu_walk *w = &t->walk[omp_get_thread_num()];
#else
            struct cpu_walk *w = &t->walk[0];
#endif
            double counts[4] = {0.0, 0.0, 0.0, 0.0};
            int ok;
#pragma omp atomic read
            ok = failed;
            ok = !ok;
            if (ok)
                ok = walk_group(c, t, w, (size_t)t->group[g], (size_t)t->group[g + 1], fp, acc,
                                phi, counts);
            if (!ok) {
#pragma omp atomic write
                failed = 1;
            }
            cells += counts[0];
            bodies += counts[1];
            mono += counts[2];
            local += counts[3];
        }
        if (failed) {
            gc_log_error("cpu backend: out of memory for the tree's interaction lists");
            st = GC_ERR_NOMEM;
        }
    }
    if (st == GC_OK) {
        size_t lists = 0;
        if (!phi)
            for (size_t i = c->i0; i < c->i1; i++) {
                c->ax[i] = acc[3 * i];
                c->ay[i] = acc[3 * i + 1];
                c->az[i] = acc[3 * i + 2];
            }
        for (int w = 0; w < t->walks; w++)
            lists += (4 * t->walk[w].bodies.cap + 11 * (t->walk[w].cells.cap +
                                                        t->walk[w].local.cap)) * sizeof(float);
        t->stats.sort_ms = t1 - t0;
        t->stats.build_ms = t2 - t1;
        t->stats.moments_ms = t3 - t2;
        t->stats.walk_ms = 1e3 * gc_clock_seconds() - t3;
        t->stats.cells = t->nodes;
        t->stats.groups = t->groups;
        t->stats.bytes = t->cap * (2 * sizeof *t->order + 8 * sizeof *t->spos + 1 +
                                   sizeof *t->group) +
                         t->node_cap * (sizeof *t->node + sizeof *t->mo + sizeof *t->kids +
                                        4 * sizeof *t->test) +
                         3 * n * sizeof *acc + lists;
        t->stats.root_mass = t->node[0].m;
        t->stats.cell_interactions = c->i1 > c->i0 ? cells / (double)(c->i1 - c->i0) : 0.0;
        t->stats.body_interactions = c->i1 > c->i0 ? bodies / (double)(c->i1 - c->i0) : 0.0;
        t->stats.mono_interactions = c->i1 > c->i0 ? mono / (double)(c->i1 - c->i0) : 0.0;
        t->stats.local_cells = c->i1 > c->i0 ? local / (double)(c->i1 - c->i0) : 0.0;
        t->stats.complete = 1;
        t->stats.valid = 1;
    }
    free(acc);
    return st;
}
static enum gc_status tree_accel(struct cpu_ctx *c, const struct gc_force_params *fp)
{
    return tree_pass(c, fp, NULL);
}

/* W = 1/2 sum_i m_i phi_i with the tree's potentials; the self-pair, always summed directly
 * (theta <= 1 opens every cell that holds a body of the group), is taken out exactly. */
static enum gc_status tree_potential(struct cpu_ctx *c, const struct gc_force_params *fp,
                                     double *w)
{
    double *phi = malloc(c->n * sizeof *phi), total = 0.0;
    enum gc_status st;
    if (!phi) {
        gc_log_error("cpu backend: out of memory for the tree's potentials");
        return GC_ERR_NOMEM;
    }
    st = tree_pass(c, fp, phi);
    for (size_t i = c->i0; st == GC_OK && i < c->i1; i++)
        total += (double)c->m[i] * (phi[i] + (double)c->m[i] / sqrt((double)fp->eps2));
    free(phi);
    if (st == GC_OK)
        *w = 0.5 * total;
    return st;
}

enum gc_status gc_cpu_tree_stats(const struct cpu_ctx *c, struct gc_tree_stats *out)
{
    memset(out, 0, sizeof *out);
    if (c->tree)
        *out = c->tree->stats;
    return GC_OK;
}

const struct cpu_force_method gc_cpu_tree = {
    .accel = tree_accel,
    .potential = tree_potential,
};
