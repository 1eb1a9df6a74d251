/* The CPU backend's tree, built every pass: keys over the bodies' box, a parallel radix sort, cells generation by generation, moments and groups (OpenMP). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "backend_cpu_tree.h"
#include "clock.h"
#include "log.h"
#include "stop.h"

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
    free(t->group_us);
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
        free(t->group_us);
        t->order = malloc(c->n * sizeof *t->order);
        t->spare = malloc(c->n * sizeof *t->spare);
        t->spos = malloc(4 * c->n * sizeof *t->spos);
        t->sx = malloc(4 * c->n * sizeof *t->sx);
        t->begins = malloc(c->n);
        t->group = malloc((c->n + 1) * sizeof *t->group);
        t->group_us = malloc((c->n + 1) * sizeof *t->group_us);
        t->cap = 0;
        if (!t->order || !t->spare || !t->spos || !t->sx || !t->begins || !t->group ||
            !t->group_us)
            goto nomem;
        t->cap = c->n;
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

/* Bodies sorted by one thread: a pass over fewer takes less than its two barriers. */
#define SMALL_SORT 16384

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
#pragma omp parallel num_threads(threads) if (n > SMALL_SORT)
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

/* Generations of at most this many cells are built by one thread: their work is a few
 * microseconds, less than waking the others, and each parallel loop ends on a barrier that
 * waits for a thread which another process may have taken off its core. */
#define SMALL_GEN 1024

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
#pragma omp parallel for schedule(static) num_threads(threads) if (g1 - g0 > SMALL_GEN) \
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
#pragma omp parallel for schedule(static) num_threads(threads) if (g1 - g0 > SMALL_GEN)
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

/* Marks where groups begin in piece nd (gc_tree_group_step) of packing cell `cell`; parent:
 * the cell whose children are being packed (NULL: the root packs itself), whose larger
 * children a group spanning packing cells keeps clear of. */
static void mark(struct cpu_tree *t, const struct node *nd, int32_t cell,
                 const struct node *parent, struct gc_tree_pack *g)
{
    const int nb = nd->end - nd->begin;
    const struct gc_tree_moments *mo = &t->mo[nd - t->node];
    int apart = 0;
    for (int k = 0; parent && gc_tree_pack_crosses(g, nb, cell) && k < parent->count && !apart;
         k++) {
        const int32_t j = parent->first + k;
        apart = t->node[j].end - t->node[j].begin > GC_TREE_PACK &&
                gc_tree_pack_reaches(g, mo->lo, mo->hi, t->mo[j].lo, t->mo[j].hi);
    }
    switch (gc_tree_group_step(g, nb, nd->count < 0, mo->lo, mo->hi, cell, apart)) {
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
static void pack(struct cpu_tree *t, const struct node *nd, const struct node *parent,
                 struct gc_tree_pack *g)
{
    const int32_t cell = (int32_t)(nd - t->node);
    for (int32_t b = nd->begin; b < nd->end;) {
        const struct node *p = nd;
        while (p->end - p->begin > GC_TREE_GROUP && p->count > 0) {
            const struct node *ch = &t->node[p->first];
            while (ch->end <= b)
                ch++;
            p = ch;
        }
        mark(t, p, cell, parent, g);
        b = p->end;
    }
}

/* The groups of the tree (tree_formulas.h), their first bodies in sorted order; the cells'
 * boxes are made (moments) before. */
static void find_groups(struct cpu_tree *t, size_t n)
{
    struct gc_tree_pack g = {0};
    t->groups = 0;
    t->group[0] = 0;
    if (n == 0)
        return;
    memset(t->begins, 0, n);
    if (n <= GC_TREE_PACK)
        pack(t, &t->node[0], NULL, &g);
    else
        mark(t, &t->node[0], 0, NULL, &g); /* a larger root is cut if it is a leaf */
    for (size_t c = 0; c < t->nodes; c++) {
        const struct node *nd = &t->node[c];
        if (nd->count < 0 || nd->end - nd->begin <= GC_TREE_PACK)
            continue;
        g.fill = 0;
        for (int k = 0; k < nd->count; k++) {
            const struct node *ch = &t->node[nd->first + k];
            if (ch->end - ch->begin > GC_TREE_PACK)
                mark(t, ch, nd->first + k, nd, &g);
            else
                pack(t, ch, nd, &g);
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
#pragma omp parallel for schedule(dynamic, 64) num_threads(threads) \
    if (t->gen[g + 1] - t->gen[g] > SMALL_GEN / 4)
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

enum gc_status gc_cpu_tree_build(struct cpu_ctx *c, float theta, float eps2, int threads)
{
    struct cpu_tree *t;
    double t0, t1, t2;
    enum gc_status st = reserve(c, threads);
    if (st != GC_OK)
        return st;
    t = c->tree;
    t0 = 1e3 * gc_clock_seconds();
    sort_bodies(c, threads);
    t1 = 1e3 * gc_clock_seconds();
    /* Each phase is long at millions of bodies: a stop is heard between them too. */
    st = gc_stop_cut() ? GC_ERR_INTERRUPTED : build(t, c->n, threads);
    t2 = 1e3 * gc_clock_seconds();
    if (st == GC_OK && gc_stop_cut())
        st = GC_ERR_INTERRUPTED;
    if (st == GC_OK) {
        moments(t, theta, eps2, threads);
        find_groups(t, c->n);
    }
    t->stats.sort_ms = t1 - t0;
    t->stats.build_ms = t2 - t1;
    t->stats.moments_ms = 1e3 * gc_clock_seconds() - t2;
    return st;
}
