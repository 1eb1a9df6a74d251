/* Close groups of a Hermite run: found, advanced by algorithmic regularisation under the tide of nearby bodies, split, and shown as physical bodies. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "hermite_formulas.h"
#include "hermite_groups_couple.h"
#include "hermite_groups_merge.h"
#include "hermite_groups_scale.h"
#include "hermite_groups_split.h"
#include "hermite_groups_state.h"
#include "log.h"

enum gc_status gc_hermite_groups_create(double tol, double radius, size_t n,
                                        struct gc_hermite_groups **out)
{
    struct gc_hermite_groups *g = calloc(1, sizeof *g);
    *out = NULL;
    if (!g)
        return GC_ERR_NOMEM;
    g->tol = tol;
    g->radius_given = radius;
    g->n = n;
    g->group_of = malloc(n * sizeof *g->group_of);
    g->m = calloc(n, sizeof *g->m);
    g->hm = calloc(n, sizeof *g->hm);
    g->rec = calloc(n, sizeof *g->rec);
    g->fresh = calloc(n, 1);
    g->units = calloc(n, sizeof *g->units);
    g->parent = calloc(n, sizeof *g->parent);
    g->gcm = malloc((n + 1) * sizeof *g->gcm);
    g->gidx = malloc((n + 1) * sizeof *g->gidx);
    if (!g->group_of || !g->m || !g->hm || !g->rec || !g->fresh || !g->units || !g->parent ||
        !g->gcm || !g->gidx ||
        gc_bodies_alloc(&g->init, n) != GC_OK || gc_bodies_alloc_f64(&g->init) != GC_OK) {
        gc_hermite_groups_destroy(g);
        gc_log_error("regularisation: out of memory for %zu bodies", n);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        g->group_of[i] = -1;
    *out = g;
    return GC_OK;
}

void gc_hermite_groups_destroy(struct gc_hermite_groups *g)
{
    if (!g)
        return;
    for (size_t k = 0; k < g->ngroups; k++) {
        free(g->groups[k].slot);
        free(g->groups[k].off);
        gc_ar_destroy(g->groups[k].ar);
    }
    free(g->groups);
    free(g->group_of);
    free(g->m);
    free(g->hm);
    free(g->rec);
    free(g->block);
    free(g->fresh);
    free(g->units);
    free(g->parent);
    free(g->gcm);
    free(g->gidx);
    gc_groups_grid_free(&g->slots);
    gc_groups_grid_free(&g->centres);
    gc_bodies_free(&g->init);
    free(g);
}

/* Acceleration, jerk and snap of the fresh slots at tick t against every massive slot
 * predicted there (two passes: the snap needs the sources' accelerations), and a first
 * step from them (the start-up criterion), on a level whose steps t is a multiple of. Each
 * pass predicts the sources once and sums the fresh slots in parallel into a buffer, which
 * is written back after it: the same sums in the same order for any number of threads. */
static enum gc_status fresh_derivatives(struct gc_hermite_groups *g, int64_t t)
{
    const double tt = (double)t * g->tick;
    const size_t n = g->n;
    size_t nf = 0;
    size_t *list = malloc(n * sizeof *list);
    double *src = malloc(9 * n * sizeof *src), *out = NULL, *ca = NULL;
    enum gc_status st = GC_OK;
    for (size_t i = 0; list && i < n; i++)
        if (g->fresh[i])
            list[nf++] = i;
    out = list ? malloc((9 * nf + 1) * sizeof *out) : NULL;
    if (!list || !src || !out) {
        free(list);
        free(src);
        free(out);
        gc_log_error("regularisation: out of memory for the derivatives of %zu bodies", n);
        return GC_ERR_NOMEM;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (size_t s = 0; s < n; s++)
            if (g->hm[s] > 0.0)
                gc_hermite_groups_predict(g, (int)s, tt, &src[9 * s], &src[9 * s + 3],
                                          &src[9 * s + 6]);
#pragma omp parallel for schedule(dynamic, 16) num_threads(g->threads) if (nf > 16)
        for (long q = 0; q < (long)nf; q++) {
            const size_t i = list[q];
            const struct gc_hermite_record *r = &g->rec[i];
            double *acc = &out[9 * q], *jerk = acc + 3, *snap = acc + 6;
            for (int d = 0; d < 9; d++)
                acc[d] = 0.0;
            for (size_t s = 0; s < n; s++) {
                double dx[3], dv[3], da[3];
                if (s == i || !(g->hm[s] > 0.0))
                    continue;
                for (int d = 0; d < 3; d++) {
                    dx[d] = src[9 * s + d] - r->x[d];
                    dv[d] = src[9 * s + 3 + d] - r->v[d];
                    da[d] = src[9 * s + 6 + d] - r->a[d];
                }
                gc_hermite_pair(dx, dv, da, g->hm[s], g->eps2, acc, jerk, pass ? snap : NULL);
            }
        }
        for (size_t q = 0; q < nf; q++) {
            struct gc_hermite_record *r = &g->rec[list[q]];
            memcpy(r->a, &out[9 * q], 3 * sizeof(double));
            memcpy(r->j, &out[9 * q + 3], 3 * sizeof(double));
            memcpy(r->s, &out[9 * q + 6], 3 * sizeof(double));
            memset(r->c, 0, sizeof r->c);
        }
    }
    free(src);
    free(out);
    /* the coupling to nearby groups, as the force pass adds it (without it a fresh slot's
     * first step would start from a force its next one does not continue); after the
     * points' derivatives, which the groups brought to t here predict the fresh slots by */
    if (nf > 0) {
        int *fl = malloc(nf * sizeof *fl);
        ca = calloc(6 * nf, sizeof *ca);
        for (size_t q = 0; fl && q < nf; q++)
            fl[q] = (int)list[q];
        st = fl && ca ? gc_hermite_groups_couple(g, fl, nf, t, ca, ca + 3 * nf) : GC_ERR_NOMEM;
        for (size_t q = 0; st == GC_OK && q < nf; q++)
            for (int d = 0; d < 3; d++) {
                g->rec[list[q]].a[d] += ca[3 * q + d];
                g->rec[list[q]].j[d] += ca[3 * nf + 3 * q + d];
            }
        free(fl);
        free(ca);
        if (st != GC_OK) {
            free(list);
            return st;
        }
    }
    free(list);
    for (size_t i = 0; i < g->n; i++) {
        struct gc_hermite_record *r = &g->rec[i];
        int lv;
        if (!g->fresh[i])
            continue;
        g->fresh[i] = 0;
        lv = gc_hermite_new_level(-1, gc_hermite_criterion_start(g->eta_start, r->a, r->j, r->s),
                                  0, g->dt_max);
        while (lv >= 0 && lv < GC_HERMITE_LEVELS - 1 && !gc_hermite_on_grid(t, lv))
            lv++;
        if (lv < 0 || !gc_hermite_on_grid(t, lv)) {
            gc_log_error("regularisation: body %zu needs a step below dt_max / 2^%d at "
                         "t = %.10g even as a group's centre (give a larger --ar-radius)", i,
                         GC_HERMITE_LEVELS, tt);
            return GC_ERR_INVALID;
        }
        r->level = lv;
    }
    return GC_OK;
}

/* The backend's state made anew with the new masses, then every slot's record: the
 * backend has no slot for a mass change, and groups change seldom. */
static enum gc_status rebuild(struct gc_hermite_groups *g, struct gc_force *f,
                              const struct gc_hermite_config *cfg)
{
    struct gc_hermite_counters c;
    enum gc_status st = gc_backend_hermite_counters(f->backend, &c);
    if (st != GC_OK)
        return st;
    g->blocks += c.blocks;
    g->body_steps += c.body_steps;
    for (size_t i = 0; i < g->n; i++) {
        memcpy(&g->init.pos64[3 * i], g->rec[i].x, 3 * sizeof(double));
        memcpy(&g->init.vel64[3 * i], g->rec[i].v, 3 * sizeof(double));
        g->init.mass64[i] = g->hm[i];
    }
    gc_bodies_sync_f32(&g->init);
    st = gc_backend_hermite_init(f->backend, cfg, &g->init);
    return st != GC_OK ? st : gc_backend_hermite_unpack(f->backend, g->rec, g->n);
}

/* Splits, merges and the rebuild at tick t, after the groups due then were advanced. */
static enum gc_status regroup(struct gc_hermite_groups *g, struct gc_force *f,
                              const struct gc_hermite_config *cfg, int64_t t)
{
    enum gc_status st = GC_OK;
    int changed = 0;
    for (size_t k = 0; k < g->ngroups && st == GC_OK; k++) {
        struct group *gr = &g->groups[k];
        const uint64_t before = g->dissolved;
        if (gr->alive && g->rec[gr->cm].t == t)
            st = gc_hermite_groups_split(g, gr, t);
        changed |= g->dissolved != before;
    }
    if (st == GC_OK)
        st = gc_hermite_groups_merge(g, t, &changed);
    if (st == GC_OK && changed)
        st = fresh_derivatives(g, t);
    if (st == GC_OK && changed)
        st = rebuild(g, f, cfg);
    return st;
}

/* The latest block's records into rec: only those bodies changed since the previous
 * block (rec holds the backend's state, or what was just written into it), so the block's
 * records alone keep rec current where the backend can give them; else every record. */
static enum gc_status fetch_block(struct gc_hermite_groups *g, struct gc_force *f)
{
    size_t m = 0;
    enum gc_status st;
    if (!g->incremental) {
        g->slots_ok = 0;
        return gc_backend_hermite_state(f->backend, g->rec);
    }
    st = gc_backend_hermite_pack(f->backend, g->block, &m);
    for (size_t k = 0; k < m && st == GC_OK; k++) {
        const int64_t i = g->block[k].i;
        if (i < 0 || (size_t)i >= g->n)
            return GC_ERR_INVALID;
        g->rec[i] = g->block[k];
        gc_hermite_groups_moved(g, (int)i);
    }
    return st;
}

static enum gc_status block_part(struct gc_hermite_groups *g, struct gc_force *f,
                                 const struct gc_hermite_config *cfg);

enum gc_status gc_hermite_groups_block(struct gc_hermite_groups *g, struct gc_force *f,
                                       const struct gc_hermite_config *cfg)
{
    const double t0 = gc_clock_seconds();
    double t1;
    enum gc_status st = gc_backend_sync(f->backend);
    t1 = gc_clock_seconds();
    g->s_wait += t1 - t0;
    if (st == GC_OK)
        st = block_part(g, f, cfg);
    g->s_after += gc_clock_seconds() - t1;
    return st;
}

static enum gc_status block_part(struct gc_hermite_groups *g, struct gc_force *f,
                                 const struct gc_hermite_config *cfg)
{
    struct gc_hermite_counters c;
    enum gc_status st = gc_backend_hermite_counters(f->backend, &c);
    long nact = 0;
    int *act = (int *)g->parent; /* the due groups (merge() reuses it afterwards) */
    int failed = 0;
    if (st == GC_OK && !c.error)
        st = fetch_block(g, f);
    if (st == GC_OK && !c.error)
        st = gc_hermite_groups_index(g);
    if (st != GC_OK || c.error)
        return st;
    for (size_t k = 0; k < g->ngroups; k++)
        if (g->groups[k].alive && g->rec[g->groups[k].cm].t == c.t_last)
            act[nact++] = (int)k;
    /* one group per thread: each writes only its own group and reads the others' offsets,
     * so results do not depend on the threads */
    gc_hermite_groups_offsets(g);
#pragma omp parallel for schedule(dynamic, 1) num_threads(g->threads) reduction(| : failed) \
    if (nact > 1)
    for (long q = 0; q < nact; q++)
        failed |= gc_hermite_groups_advance(g, &g->groups[act[q]], (double)c.t_last * g->tick) != GC_OK;
    if (failed)
        return GC_ERR_INVALID;
    for (long q = 0; q < nact; q++)
        gc_hermite_groups_update_reach(g, &g->groups[act[q]]);
    return regroup(g, f, cfg, c.t_last);
}

enum gc_status gc_hermite_groups_start(struct gc_hermite_groups *g, struct gc_force *f,
                                       const struct gc_hermite_config *cfg,
                                       const struct gc_bodies *bodies)
{
    enum gc_status st;
    g->order = cfg->order;
    g->eps2 = cfg->eps2;
    g->dt_max = cfg->dt_max;
    g->tick = ldexp(cfg->dt_max, -GC_HERMITE_LEVELS);
    g->eta_start = cfg->eta_start;
    g->threads = gc_backend_host_threads(f->backend);
    /* with several ranks each backend packs its own range only: every record then */
    g->incremental = f->comm->size == 1 && gc_backend_hermite_has_pack(f->backend);
    if (g->incremental && !g->block && !(g->block = malloc(g->n * sizeof *g->block)))
        return GC_ERR_NOMEM;
    for (size_t i = 0; i < g->n; i++)
        g->hm[i] = g->m[i] = bodies->mass64 ? bodies->mass64[i] : bodies->pos[4 * i + 3];
    g->slots_ok = 0;
    st = gc_backend_hermite_state(f->backend, g->rec);
    if (st != GC_OK)
        return st;
    st = gc_hermite_groups_scale(g);
    if (st != GC_OK)
        return st;
    if (!(g->radius > 0.0) || !isfinite(g->radius)) {
        gc_log_error("regularisation: no regularisation radius for these bodies (give "
                     "--ar-radius)");
        return GC_ERR_INVALID;
    }
    return regroup(g, f, cfg, 0);
}

enum gc_status gc_hermite_groups_before_correct(struct gc_hermite_groups *g, struct gc_force *f)
{
    const double t0 = gc_clock_seconds();
    const enum gc_status st = gc_hermite_groups_couple_block(g, f->backend);
    g->s_beside += gc_clock_seconds() - t0;
    return st;
}
