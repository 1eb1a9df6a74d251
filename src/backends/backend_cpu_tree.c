/* The CPU backend's tree force method: the Barnes-Hut octree of tree_formulas.h built every pass, walked by groups of bodies (OpenMP over groups). */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "backend_tree.h"
#include "clock.h"
#include "log.h"
#include "stop.h"
#include "tree_formulas.h"

/* One cell. Children of a cell are stored together, in key order, and every cell comes
 * after its parent (cells are made breadth first), so moments are computed backwards. */
struct node {
    int32_t first, count; /* internal: first child and children (> 0); leaf: first body and
                           * minus the bodies */
    int32_t begin, end;   /* its bodies, [begin, end) of the sorted order */
    struct gc_tree_moments mo;
    float q6[6], nsoft;   /* the interactions' terms (gc_tree_cell_terms) */
    float ropen2;         /* opening radius squared */
};

struct keyed {
    uint64_t key;
    uint32_t i; /* body index */
};

struct cpu_tree {
    size_t cap;             /* bodies the arrays hold */
    struct keyed *order;    /* bodies sorted by key (ties by index) */
    float *spos;            /* 4 per body in sorted order: x, y, z, m */
    struct node *node;
    size_t nodes, node_cap;
    unsigned char *begins;  /* per sorted body: 1 where a group begins */
    int32_t *group;         /* the groups' first bodies, ascending, then n */
    float *group_us;        /* each group's walk, microseconds */
    size_t groups;
    struct gc_tree_stats stats;
};

void gc_cpu_tree_free(struct cpu_ctx *c)
{
    struct cpu_tree *t = c->tree;
    if (!t)
        return;
    free(t->order);
    free(t->spos);
    free(t->node);
    free(t->begins);
    free(t->group);
    free(t->group_us);
    free(t);
    c->tree = NULL;
}

static enum gc_status reserve(struct cpu_ctx *c)
{
    struct cpu_tree *t = c->tree;
    if (!t) {
        t = c->tree = calloc(1, sizeof *t);
        if (!t)
            goto nomem;
    }
    if (c->n > t->cap) {
        free(t->order);
        free(t->spos);
        free(t->begins);
        free(t->group);
        free(t->group_us);
        t->order = malloc(c->n * sizeof *t->order);
        t->spos = malloc(4 * c->n * sizeof *t->spos);
        t->begins = malloc(c->n);
        t->group = malloc((c->n + 1) * sizeof *t->group);
        t->group_us = malloc((c->n + 1) * sizeof *t->group_us);
        t->cap = t->order && t->spos && t->begins && t->group && t->group_us ? c->n : 0;
        if (!t->cap)
            goto nomem;
    }
    return GC_OK;
nomem:
    gc_log_error("cpu backend: out of memory for the tree of %zu bodies", c->n);
    gc_cpu_tree_free(c);
    return GC_ERR_NOMEM;
}

static int by_key(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* Keys over the cube of the bodies' box, sorted; positions gathered in that order. */
static void sort_bodies(struct cpu_ctx *c)
{
    struct cpu_tree *t = c->tree;
    const long n = (long)c->n;
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    float origin[3], scale;
    const float *xs[3] = {c->x, c->y, c->z};
    for (long i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], xs[k][i]);
            hi[k] = fmaxf(hi[k], xs[k][i]);
        }
    gc_tree_frame(lo, hi, origin, &scale);
#pragma omp parallel for schedule(static) num_threads(gc_cpu_threads(c))
    for (long i = 0; i < n; i++) {
        t->order[i].key = gc_tree_key(c->x[i], c->y[i], c->z[i], origin, scale);
        t->order[i].i = (uint32_t)i;
    }
    qsort(t->order, (size_t)n, sizeof *t->order, by_key);
#pragma omp parallel for schedule(static) num_threads(gc_cpu_threads(c))
    for (long k = 0; k < n; k++) {
        const uint32_t i = t->order[k].i;
        float *p = t->spos + 4 * k;
        p[0] = c->x[i];
        p[1] = c->y[i];
        p[2] = c->z[i];
        p[3] = c->m[i];
    }
}

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

static enum gc_status add_node(struct cpu_tree *t, int32_t begin, int32_t end)
{
    if (t->nodes == t->node_cap) {
        size_t cap = t->node_cap ? 2 * t->node_cap : 1024;
        struct node *p = realloc(t->node, cap * sizeof *p);
        if (!p) {
            gc_log_error("cpu backend: out of memory for %zu tree cells", cap);
            return GC_ERR_NOMEM;
        }
        t->node = p;
        t->node_cap = cap;
    }
    memset(&t->node[t->nodes], 0, sizeof t->node[0]);
    t->node[t->nodes].begin = begin;
    t->node[t->nodes].end = end;
    t->nodes++;
    return GC_OK;
}

/* Cells breadth first: a cell of more than GC_TREE_LEAF bodies splits at the first level
 * where its first and last keys differ, into the runs of equal digit there. */
static enum gc_status build(struct cpu_tree *t, size_t n)
{
    enum gc_status st;
    t->nodes = 0;
    t->stats.leaves = 0;
    t->stats.leaf_bodies = 0;
    st = add_node(t, 0, (int32_t)n);
    for (size_t c = 0; c < t->nodes && st == GC_OK; c++) {
        const int32_t b = t->node[c].begin, e = t->node[c].end;
        const int level = e - b > GC_TREE_LEAF
                              ? gc_tree_split_level(t->order[b].key, t->order[e - 1].key)
                              : GC_TREE_LEVELS + 1;
        int32_t start = b, kids = 0;
        if (level > GC_TREE_LEVELS) {
            t->node[c].first = b;
            t->node[c].count = -(e - b);
            t->stats.leaves++;
            t->stats.leaf_bodies += (uint64_t)(e - b);
            continue;
        }
        t->node[c].first = (int32_t)t->nodes;
        for (int v = gc_tree_digit(t->order[b].key, level) + 1; v <= 8 && st == GC_OK; v++) {
            const int32_t stop = v == 8 ? e : lower_digit(t->order, start, e, level, v);
            if (stop > start) {
                st = add_node(t, start, stop);
                kids++;
            }
            start = stop;
            if (start == e)
                break;
        }
        t->node[c].count = kids;
    }
    return st;
}

/* Marks where groups begin in piece nd (gc_tree_group_step) of packing cell `cell`; parent:
 * the cell whose children are being packed (NULL: the root packs itself), whose larger
 * children a group spanning packing cells keeps clear of. */
static void mark(struct cpu_tree *t, const struct node *nd, int32_t cell,
                 const struct node *parent, struct gc_tree_pack *g)
{
    const int nb = nd->end - nd->begin;
    int apart = 0;
    for (int k = 0; parent && gc_tree_pack_crosses(g, nb, cell) && k < parent->count && !apart;
         k++) {
        const struct node *ch = &t->node[parent->first + k];
        apart = ch->end - ch->begin > GC_TREE_PACK &&
                gc_tree_pack_reaches(g, nd->mo.lo, nd->mo.hi, ch->mo.lo, ch->mo.hi);
    }
    switch (gc_tree_group_step(g, nb, nd->count < 0, nd->mo.lo, nd->mo.hi, cell, apart)) {
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

/* Moments from the last cell back to the root: children before their parent. */
static void moments(struct cpu_tree *t, float theta, float eps2)
{
    for (size_t c = t->nodes; c-- > 0;) {
        struct node *nd = &t->node[c];
        if (nd->count < 0) {
            gc_tree_leaf_moments(t->spos + 4 * (size_t)nd->first, -nd->count, &nd->mo);
        } else {
            struct gc_tree_moments ch[8];
            for (int k = 0; k < nd->count; k++)
                ch[k] = t->node[nd->first + k].mo;
            gc_tree_combine(ch, nd->count, &nd->mo);
        }
        nd->ropen2 = gc_tree_open_radius2(&nd->mo, theta);
        gc_tree_cell_terms(&nd->mo, eps2, nd->q6, &nd->nsoft);
    }
}

/* One group's walk: every cell far enough from the group's box (gc_tree_open_radius2)
 * acts as a whole, through the group's local expansion when it is also far beside the
 * group's size (gc_tree_local), else on each body; every leaf that is not far enough is
 * summed body by body. The bodies the range [i0, i1) owns get their accelerations (and,
 * with phi, their potentials). */
static void walk_group(const struct cpu_ctx *c, const struct cpu_tree *t, size_t g0,
                       size_t g1, const struct gc_force_params *fp, float *acc, double *phi,
                       double *counts)
{
    float bc[3], bh[3], lo[3], hi[3], a[GC_TREE_GROUP][3], p[GC_TREE_GROUP], h2 = 0.0f, rl2;
    const float eps2 = fp->eps2;
    float L[GC_TREE_LOCAL_TERMS] = {0};
    int32_t stack[64 * 8];
    int top = 0, own = 0, n = (int)(g1 - g0);
    double cells = 0.0, bodies = 0.0, mono = 0.0, local = 0.0;
    for (int k = 0; k < 3; k++) {
        lo[k] = hi[k] = t->spos[4 * g0 + k];
    }
    for (int j = 0; j < n; j++) {
        const float *x = t->spos + 4 * (g0 + (size_t)j);
        const uint32_t i = t->order[g0 + (size_t)j].i;
        own += i >= c->i0 && i < c->i1;
        for (int k = 0; k < 3; k++) {
            lo[k] = fminf(lo[k], x[k]);
            hi[k] = fmaxf(hi[k], x[k]);
        }
        a[j][0] = a[j][1] = a[j][2] = p[j] = 0.0f;
    }
    if (!own)
        return;
    for (int k = 0; k < 3; k++) {
        bc[k] = 0.5f * (lo[k] + hi[k]);
        bh[k] = 0.5f * (hi[k] - lo[k]);
        h2 += bh[k] * bh[k];
    }
    rl2 = gc_tree_local_radius2(h2, fp->theta);
    stack[top++] = 0;
    while (top > 0) {
        const struct node *nd = &t->node[stack[--top]];
        const float d2 = gc_tree_box_dist2(nd->mo.com, bc, bh);
        const float dx0 = nd->mo.com[0] - bc[0], dy0 = nd->mo.com[1] - bc[1],
                    dz0 = nd->mo.com[2] - bc[2], dc2 = dx0 * dx0 + dy0 * dy0 + dz0 * dz0;
        if (d2 > nd->ropen2 && gc_tree_local(dc2, rl2)) {
            gc_tree_local_add(dx0, dy0, dz0, nd->mo.m, nd->q6, nd->nsoft,
                              1.0f / sqrtf(dc2 + eps2), L, phi != NULL);
            local += 1.0;
        } else if (d2 > nd->ropen2 && gc_tree_far(d2, nd->ropen2)) {
            for (int j = 0; j < n; j++) {
                const float *x = t->spos + 4 * (g0 + (size_t)j);
                const float dx = nd->mo.com[0] - x[0], dy = nd->mo.com[1] - x[1],
                            dz = nd->mo.com[2] - x[2];
                gc_tree_body_force(dx, dy, dz, nd->mo.m,
                                   1.0f / sqrtf(dx * dx + dy * dy + dz * dz + eps2), a[j],
                                   phi ? &p[j] : NULL);
            }
            mono += 1.0;
        } else if (d2 > nd->ropen2) {
            for (int j = 0; j < n; j++) {
                const float *x = t->spos + 4 * (g0 + (size_t)j);
                const float dx = nd->mo.com[0] - x[0], dy = nd->mo.com[1] - x[1],
                            dz = nd->mo.com[2] - x[2];
                gc_tree_cell_force(dx, dy, dz, nd->mo.m, nd->q6, nd->nsoft,
                                   1.0f / sqrtf(dx * dx + dy * dy + dz * dz + eps2), a[j],
                                   phi ? &p[j] : NULL);
            }
            cells += 1.0;
        } else if (nd->count < 0) {
            for (int32_t s = nd->first; s < nd->first - nd->count; s++) {
                const float *y = t->spos + 4 * (size_t)s;
                for (int j = 0; j < n; j++) {
                    const float *x = t->spos + 4 * (g0 + (size_t)j);
                    const float dx = y[0] - x[0], dy = y[1] - x[1], dz = y[2] - x[2];
                    gc_tree_body_force(dx, dy, dz, y[3],
                                       1.0f / sqrtf(dx * dx + dy * dy + dz * dz + eps2), a[j],
                                       phi ? &p[j] : NULL);
                }
            }
            bodies += (double)-nd->count;
        } else {
            /* Depth first: the stack holds at most 8 cells per level of the tree. */
            for (int k = nd->count - 1; k >= 0; k--)
                stack[top++] = nd->first + k;
        }
    }
    for (int j = 0; j < n; j++) {
        const uint32_t i = t->order[g0 + (size_t)j].i;
        const float *x = t->spos + 4 * (g0 + (size_t)j);
        if (i < c->i0 || i >= c->i1)
            continue;
        if (local > 0.0)
            gc_tree_local_eval(L, x[0] - bc[0], x[1] - bc[1], x[2] - bc[2], a[j],
                               phi ? &p[j] : NULL);
        for (int k = 0; k < 3; k++)
            acc[3 * (size_t)i + k] = a[j][k];
        if (phi)
            phi[i] = p[j];
    }
    counts[0] += cells * own;
    counts[1] += bodies * own;
    counts[2] += mono * own;
    counts[3] += local * own;
}

/* Builds the tree over all bodies, then walks every group that holds a body of the range.
 * Groups and walks do not depend on the range, so a body's force is the same bits on any
 * number of ranks. */
static enum gc_status tree_pass(struct cpu_ctx *c, const struct gc_force_params *fp,
                                double *phi)
{
    struct cpu_tree *t;
    const size_t n = c->n;
    double t0, t1, t2, t3, last_taken = 0.0, cells = 0.0, bodies = 0.0, mono = 0.0,
           local = 0.0;
    long cut = 0;
    float *acc;
    enum gc_status st = reserve(c);
    if (st != GC_OK)
        return st;
    t = c->tree;
    acc = malloc(3 * n * sizeof *acc);
    if (!acc) {
        gc_log_error("cpu backend: out of memory for the tree's forces");
        return GC_ERR_NOMEM;
    }
    t0 = 1e3 * gc_clock_seconds();
    sort_bodies(c);
    t1 = 1e3 * gc_clock_seconds();
    /* Each phase takes a second at millions of bodies: a stop is heard between them too. */
    st = gc_stop_cut() ? GC_ERR_INTERRUPTED : build(t, n);
    t2 = 1e3 * gc_clock_seconds();
    if (st == GC_OK && gc_stop_cut())
        st = GC_ERR_INTERRUPTED;
    if (st == GC_OK) {
        moments(t, fp->theta, fp->eps2);
        find_groups(t, n);
    }
    t3 = 1e3 * gc_clock_seconds();
    if (st == GC_OK) {
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : cells, bodies, mono, local, cut) \
    num_threads(gc_cpu_threads(c))
        for (long g = 0; g < (long)t->groups; g++) {
            double counts[4] = {0.0, 0.0, 0.0, 0.0};
            const double start = gc_clock_seconds();
            if (g + 1 == (long)t->groups)
                last_taken = start;
            /* A stop during start-up is heard within a group's walk (stop.h). */
            if (gc_stop_cut()) {
                cut++;
                continue;
            }
            walk_group(c, t, (size_t)t->group[g], (size_t)t->group[g + 1], fp, acc, phi,
                       counts);
            t->group_us[g] = (float)(1e6 * (gc_clock_seconds() - start));
            cells += counts[0];
            bodies += counts[1];
            mono += counts[2];
            local += counts[3];
        }
        if (!phi)
            for (size_t i = c->i0; i < c->i1; i++) {
                c->ax[i] = acc[3 * i];
                c->ay[i] = acc[3 * i + 1];
                c->az[i] = acc[3 * i + 2];
            }
        t->stats.sort_ms = t1 - t0;
        t->stats.build_ms = t2 - t1;
        t->stats.moments_ms = t3 - t2;
        t->stats.walk_ms = 1e3 * gc_clock_seconds() - t3;
        t->stats.tail_ms = t->groups ? t3 + t->stats.walk_ms - 1e3 * last_taken : 0.0;
        t->stats.cells = t->nodes;
        t->stats.groups = t->groups;
        t->stats.bytes = t->cap * (sizeof *t->order + 4 * sizeof *t->spos + 1 +
                                   sizeof *t->group) +
                         t->node_cap * sizeof *t->node + 3 * n * sizeof *acc;
        t->stats.root_mass = t->node[0].mo.m;
        t->stats.cell_interactions = c->i1 > c->i0 ? cells / (double)(c->i1 - c->i0) : 0.0;
        t->stats.body_interactions = c->i1 > c->i0 ? bodies / (double)(c->i1 - c->i0) : 0.0;
        t->stats.mono_interactions = c->i1 > c->i0 ? mono / (double)(c->i1 - c->i0) : 0.0;
        t->stats.local_cells = c->i1 > c->i0 ? local / (double)(c->i1 - c->i0) : 0.0;
        t->stats.complete = 1;
        t->stats.valid = 1;
    }
    if (st == GC_OK && cut)
        st = GC_ERR_INTERRUPTED;
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

enum gc_status gc_cpu_tree_group_times(const struct cpu_ctx *c, float *us, size_t cap,
                                       size_t *count)
{
    const struct cpu_tree *t = c->tree;
    *count = t && t->stats.valid ? t->groups : 0;
    if (*count)
        memcpy(us, t->group_us, (*count < cap ? *count : cap) * sizeof *us);
    return GC_OK;
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
