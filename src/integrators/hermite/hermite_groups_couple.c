/* The two-way coupling of regularised groups and the bodies near them: exact member forces in place of the centre-of-mass point, added to the block's force pass. */
/* SPDX-License-Identifier: MIT */
#include "hermite_groups_couple.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend_hermite.h"
#include "hermite_formulas.h"

/* A slot as point masses: a group's members (at the group's time) or the body itself. */
struct side {
    int k;
    double x[3 * GC_AR_MAX_BODIES], v[3 * GC_AR_MAX_BODIES], m[GC_AR_MAX_BODIES];
    double cx[3], cv[3], mt; /* the slot's Hermite prediction and mass */
};

static void side_of(const struct gc_hermite_groups *g, int s, double tt, struct side *o)
{
    const int grp = g->group_of[s];
    gc_hermite_groups_predict(g, s, tt, o->cx, o->cv, NULL);
    o->mt = g->hm[s];
    if (grp >= 0 && g->groups[grp].cm == s) {
        const struct group *gr = &g->groups[grp];
        o->k = gr->k;
        gc_hermite_groups_members(g, gr, o->x, o->v);
        for (int q = 0; q < gr->k; q++)
            o->m[q] = gc_ar_masses(gr->ar)[q];
    } else {
        o->k = 1;
        for (int d = 0; d < 3; d++) {
            o->x[d] = o->cx[d];
            o->v[d] = o->cv[d];
        }
        o->m[0] = o->mt;
    }
}

/* The mean over P's members (mass-weighted) of the acceleration and jerk from S's members,
 * less the same between the two points: what resolving both adds to P's Hermite force. */
static void correction(const struct side *P, const struct side *S, double acc[3], double jerk[3])
{
    double r[3], u[3];
    for (int a = 0; a < P->k; a++)
        for (int b = 0; b < S->k; b++) {
            for (int d = 0; d < 3; d++) {
                r[d] = S->x[3 * b + d] - P->x[3 * a + d];
                u[d] = S->v[3 * b + d] - P->v[3 * a + d];
            }
            gc_hermite_pair(r, u, NULL, S->m[b] * P->m[a] / P->mt, 0.0, acc, jerk, NULL);
        }
    for (int d = 0; d < 3; d++) {
        r[d] = S->cx[d] - P->cx[d];
        u[d] = S->cv[d] - P->cv[d];
    }
    gc_hermite_pair(r, u, NULL, -S->mt, 0.0, acc, jerk, NULL);
}

/* Slots a and b are coupled exactly when either is a group's centre with the other within
 * its reach (symmetric, so that each pair's corrections cancel in the momentum). */
static int coupled(const struct gc_hermite_groups *g, int a, int b)
{
    const int ga = g->group_of[a], gb = g->group_of[b];
    return (ga >= 0 && g->groups[ga].cm == a && gc_hermite_groups_near(g, &g->groups[ga], b)) ||
           (gb >= 0 && g->groups[gb].cm == b && gc_hermite_groups_near(g, &g->groups[gb], a));
}

/* Every group coupled to one of the nu units (or centred on one) brought to time tt: the
 * searches in parallel, the list in group order, one group per thread. */
static enum gc_status sync_groups(struct gc_hermite_groups *g, const int *units, size_t nu,
                                  double tt)
{
    int *list = malloc((g->ngroups + 1) * sizeof *list);
    int *cand = malloc((g->ngroups + 1) * sizeof *cand);
    long nsync = 0;
    int failed = 0;
    enum gc_status st = list && cand ? gc_hermite_groups_index(g) : GC_ERR_NOMEM;
    if (st != GC_OK) {
        free(list);
        free(cand);
        return st;
    }
    /* a group is synced when a unit is its centre or coupled to it: within the reach of
     * either centre, so among the centres in the cells around the unit */
    for (size_t k = 0; k < g->ngroups; k++)
        list[k] = 0;
    for (size_t q = 0; q < nu; q++) {
        const int u = units[q], gu = g->group_of[u];
        const size_t nc = gc_groups_grid_near(&g->centres, g->rec[u].x, cand);
        if (gu >= 0 && g->groups[gu].alive && g->groups[gu].cm == u)
            list[gu] = 1;
        for (size_t c = 0; c < nc; c++)
            if (!list[cand[c]] && coupled(g, u, g->groups[cand[c]].cm))
                list[cand[c]] = 1;
    }
    free(cand);
    for (size_t k = 0; k < g->ngroups; k++)
        if (list[k])
            list[nsync++] = (int)k;
    gc_hermite_groups_offsets(g);
#pragma omp parallel for schedule(dynamic, 1) num_threads(g->threads) reduction(| : failed) \
    if (nsync > 1)
    for (long q = 0; q < nsync; q++)
        failed |= gc_hermite_groups_advance(g, &g->groups[list[q]], tt) != GC_OK;
    for (long q = 0; !failed && q < nsync; q++)
        gc_hermite_groups_update_reach(g, &g->groups[list[q]]);
    free(list);
    return failed ? GC_ERR_INVALID : GC_OK;
}

/* The corrections of the nu units at tt, added to acc and jerk (3 nu each); hit[q] = 1 where
 * unit q has any. Each unit in parallel, each writing only its own row. */
/* What a unit p is coupled to, in ascending order (a scan of every slot's or group's): for a
 * centre, the slots within its reach and the centres whose reach holds it; for a body, the
 * groups whose reach holds it. out needs room for every slot and group. */
static size_t coupled_to(const struct gc_hermite_groups *g, int p, int *out)
{
    const int own = g->group_of[p];
    size_t k = 0, nc, w = 0;
    if (own >= 0) {
        k = gc_groups_grid_near(&g->slots, g->rec[p].x, out);
        nc = gc_groups_grid_near(&g->centres, g->rec[p].x, out + k);
        for (size_t c = 0; c < nc; c++)
            out[k + c] = g->groups[out[k + c]].cm;
        k += nc;
        gc_groups_sort(out, k);
        for (size_t q = 0; q < k; q++) {
            const int s = out[q];
            if ((w == 0 || out[w - 1] != s) && s != p && g->hm[s] > 0.0 && coupled(g, p, s))
                out[w++] = s;
        }
        return w;
    }
    k = gc_groups_grid_near(&g->centres, g->rec[p].x, out);
    gc_groups_sort(out, k);
    for (size_t q = 0; q < k; q++)
        if (g->groups[out[q]].alive && coupled(g, p, g->groups[out[q]].cm))
            out[w++] = out[q];
    return w;
}

static enum gc_status corrections(struct gc_hermite_groups *g, const int *units, size_t nu,
                                  double tt, double *acc, double *jerk, unsigned char *hit)
{
    int nomem = gc_hermite_groups_index(g) != GC_OK;
    const size_t room = g->n + g->ngroups + 1;
#pragma omp parallel num_threads(g->threads) if (nu * g->ngroups > 65536) reduction(| : nomem)
    {
        struct side *P = malloc(sizeof *P), *S = malloc(sizeof *S);
        int *with = malloc(room * sizeof *with);
        nomem |= !P || !S || !with;
#pragma omp for schedule(dynamic, 16)
        for (long q = 0; q < (long)nu; q++) {
            const int p = units[q], own = g->group_of[p];
            size_t k;
            if (!P || !S || !with || nomem)
                continue;
            side_of(g, p, tt, P);
            /* a centre: the slots coupled to it; a body: the groups coupled to it */
            k = coupled_to(g, p, with);
            for (size_t c = 0; c < k; c++) {
                side_of(g, own >= 0 ? with[c] : g->groups[with[c]].cm, tt, S);
                correction(P, S, &acc[3 * q], &jerk[3 * q]);
            }
            hit[q] = (unsigned char)(k > 0);
        }
        free(P);
        free(S);
        free(with);
    }
    return nomem ? GC_ERR_NOMEM : GC_OK;
}

enum gc_status gc_hermite_groups_couple(struct gc_hermite_groups *g, const int *units,
                                        size_t nu, int64_t t, double *acc, double *jerk)
{
    const double tt = (double)t * g->tick;
    unsigned char *hit = malloc(nu + 1);
    enum gc_status st = hit ? sync_groups(g, units, nu, tt) : GC_ERR_NOMEM;
    if (st == GC_OK)
        st = corrections(g, units, nu, tt, acc, jerk, hit);
    free(hit);
    return st;
}

enum gc_status gc_hermite_groups_couple_block(struct gc_hermite_groups *g,
                                              struct gc_backend *b)
{
    int64_t t_next = INT64_MAX, *idx = NULL;
    size_t na = 0, nc = 0;
    double *acc = NULL, *jerk = NULL, tt;
    unsigned char *hit = NULL;
    enum gc_status st = GC_OK;
    if (gc_hermite_groups_alive(g) == 0)
        return GC_OK;
    for (size_t i = 0; i < g->n; i++)
        if (g->hm[i] > 0.0 && g->rec[i].t + GC_HERMITE_TICKS(g->rec[i].level) < t_next)
            t_next = g->rec[i].t + GC_HERMITE_TICKS(g->rec[i].level);
    tt = (double)t_next * g->tick;
    for (size_t i = 0; i < g->n; i++)
        if (g->hm[i] > 0.0 && g->rec[i].t + GC_HERMITE_TICKS(g->rec[i].level) == t_next)
            g->units[na++] = (int)i;
    /* every group coupled to a body of the block is brought to the block's time */
    st = sync_groups(g, g->units, na, tt);
    if (st != GC_OK)
        return st;
    idx = malloc((na + 1) * sizeof *idx);
    acc = calloc(3 * na + 1, sizeof *acc);
    jerk = calloc(3 * na + 1, sizeof *jerk);
    hit = calloc(na + 1, 1);
    if (!idx || !acc || !jerk || !hit) {
        st = GC_ERR_NOMEM;
        goto out;
    }
    st = corrections(g, g->units, na, tt, acc, jerk, hit);
    if (st != GC_OK)
        goto out;
    /* the rows with any, in unit order */
    for (size_t q = 0; q < na; q++) {
        if (!hit[q])
            continue;
        memmove(&acc[3 * nc], &acc[3 * q], 3 * sizeof *acc);
        memmove(&jerk[3 * nc], &jerk[3 * q], 3 * sizeof *jerk);
        idx[nc++] = g->units[q];
    }
    st = gc_backend_hermite_perturb(b, idx, acc, jerk, nc);
    if (st == GC_ERR_UNSUPPORTED)
        st = GC_OK; /* a backend without the slot: point-mass coupling */
out:
    free(idx);
    free(acc);
    free(jerk);
    free(hit);
    return st;
}
