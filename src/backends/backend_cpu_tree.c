/* The CPU backend's tree force method: each group of bodies walks the tree of backend_cpu_tree_build.c once into interaction lists, which the vector loops evaluate (OpenMP over groups). */
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
 * number of ranks. The groups are taken a few at a time as threads free up; each one's walk
 * is timed (gc_cpu_tree_group_times). */
static enum gc_status tree_pass(struct cpu_ctx *c, const struct gc_force_params *fp,
                                double *phi)
{
    struct cpu_tree *t;
    const size_t n = c->n;
    const int threads = gc_cpu_threads(c);
    double t3, last_taken = 0.0, cells = 0.0, bodies = 0.0, mono = 0.0, local = 0.0;
    long cut = 0;
    int failed = 0;
    float *acc = malloc(3 * n * sizeof *acc);
    enum gc_status st;
    if (!acc) {
        gc_log_error("cpu backend: out of memory for the tree's forces");
        return GC_ERR_NOMEM;
    }
    st = gc_cpu_tree_build(c, fp->theta, fp->eps2, threads);
    t = c->tree;
    t3 = 1e3 * gc_clock_seconds();
    if (st == GC_OK) {
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : cells, bodies, mono, local, cut) \
    num_threads(threads)
        for (long g = 0; g < (long)t->groups; g++) {
#ifdef _OPENMP
            struct cpu_walk *w = &t->walk[omp_get_thread_num()];
#else
            struct cpu_walk *w = &t->walk[0];
#endif
            double counts[4] = {0.0, 0.0, 0.0, 0.0};
            const double start = gc_clock_seconds();
            int ok;
            if (g + 1 == (long)t->groups)
                last_taken = start;
            /* A stop during start-up is heard within a group's walk (stop.h). */
            if (gc_stop_cut()) {
                cut++;
                continue;
            }
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
            t->group_us[g] = (float)(1e6 * (gc_clock_seconds() - start));
            cells += counts[0];
            bodies += counts[1];
            mono += counts[2];
            local += counts[3];
        }
        if (failed) {
            gc_log_error("cpu backend: out of memory for the tree's interaction lists");
            st = GC_ERR_NOMEM;
        } else if (cut) {
            st = GC_ERR_INTERRUPTED; /* forces of the groups not walked are unset */
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
        t->stats.walk_ms = 1e3 * gc_clock_seconds() - t3;
        t->stats.tail_ms = t->groups ? t3 + t->stats.walk_ms - 1e3 * last_taken : 0.0;
        t->stats.cells = t->nodes;
        t->stats.groups = t->groups;
        t->stats.bytes = t->cap * (2 * sizeof *t->order + 8 * sizeof *t->spos + 1 +
                                   sizeof *t->group + sizeof *t->group_us) +
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
