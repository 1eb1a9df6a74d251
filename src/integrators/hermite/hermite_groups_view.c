/* What the world sees of the regularised groups: physical bodies in downloads, the report's figures, the membership. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "hermite_groups.h"
#include "hermite_groups_state.h"
#include "log.h"

/* Members at t: the group's state copied and advanced there without the tide (a view
 * between the group's steps, as the Hermite bodies are predicted there), then put on the
 * centre's prediction to t. At the group's own time (every synchronised output) exact. */
static enum gc_status member_view(const struct gc_hermite_groups *g, const struct group *gr,
                                  double t, double *x, double *v)
{
    const int k = gr->k;
    double cx[3], cv[3];
    if (t <= gc_ar_time(gr->ar)) {
        gc_ar_state(gr->ar, x, v);
    } else {
        struct gc_ar *copy = NULL;
        enum gc_status st;
        gc_ar_state(gr->ar, x, v);
        st = gc_ar_create((size_t)k, gc_ar_masses(gr->ar), x, v, gc_ar_time(gr->ar),
                          g->tol, &copy);
        if (st == GC_OK)
            st = gc_ar_advance(copy, t, NULL);
        if (st == GC_OK)
            gc_ar_state(copy, x, v);
        gc_ar_destroy(copy);
        if (st != GC_OK)
            return st;
    }
    gc_hermite_groups_predict(g, gr->cm, t, cx, cv, NULL);
    for (int q = 0; q < k; q++)
        for (int d = 0; d < 3; d++) {
            x[3 * q + d] += cx[d];
            v[3 * q + d] += cv[d];
        }
    return GC_OK;
}

enum gc_status gc_hermite_groups_physical(struct gc_hermite_groups *g, double t,
                                          struct gc_bodies *dst)
{
    for (size_t k = 0; k < g->ngroups; k++) {
        const struct group *gr = &g->groups[k];
        double x[3 * GC_AR_MAX_BODIES], v[3 * GC_AR_MAX_BODIES];
        enum gc_status st;
        if (!gr->alive)
            continue;
        st = member_view(g, gr, t, x, v);
        if (st != GC_OK)
            return st;
        for (int q = 0; q < gr->k; q++) {
            const size_t s = (size_t)gr->slot[q];
            for (int d = 0; d < 3; d++) {
                if (dst->pos64) {
                    dst->pos64[3 * s + d] = x[3 * q + d];
                    dst->vel64[3 * s + d] = v[3 * q + d];
                }
                dst->pos[4 * s + d] = (float)x[3 * q + d];
                dst->vel[4 * s + d] = (float)v[3 * q + d];
            }
            if (dst->mass64)
                dst->mass64[s] = g->m[s];
            dst->pos[4 * s + 3] = (float)g->m[s];
        }
    }
    return GC_OK;
}

/* The most bound pair of any group (the hardest binary): its orbit's a and e. */
void gc_hermite_groups_report(const struct gc_hermite_groups *g, struct gc_groups_report *out)
{
    double best = 0.0;
    memset(out, 0, sizeof *out);
    out->formed = g->formed;
    out->dissolved = g->dissolved;
    out->radius = g->radius;
    out->s_beside = g->s_beside;
    out->s_wait = g->s_wait;
    out->s_after = g->s_after;
    for (size_t k = 0; k < g->ngroups; k++) {
        const struct group *gr = &g->groups[k];
        double x[3 * GC_AR_MAX_BODIES], v[3 * GC_AR_MAX_BODIES];
        const double *m;
        if (!gr->alive)
            continue;
        out->groups++;
        out->members += (size_t)gr->k;
        m = gc_ar_masses(gr->ar);
        gc_ar_state(gr->ar, x, v);
        for (int a = 0; a < gr->k; a++)
            for (int b = a + 1; b < gr->k; b++) {
                double dx[3], dv[3], v2 = 0.0, r2 = 0.0, e;
                for (int d = 0; d < 3; d++) {
                    dx[d] = x[3 * b + d] - x[3 * a + d];
                    dv[d] = v[3 * b + d] - v[3 * a + d];
                    v2 += dv[d] * dv[d];
                    r2 += dx[d] * dx[d];
                }
                e = 0.5 * m[a] * m[b] / (m[a] + m[b]) * v2 - m[a] * m[b] / sqrt(r2);
                if (e < best) {
                    best = e;
                    out->have_binary = 1;
                    gc_ar_kepler_elements(m[a], m[b], dx, dv, &out->a, &out->e);
                }
            }
    }
}

void gc_hermite_groups_membership(const struct gc_hermite_groups *g, int32_t *group)
{
    for (size_t i = 0; i < g->n; i++)
        group[i] = g->group_of[i];
}

void gc_hermite_groups_counted(const struct gc_hermite_groups *g, uint64_t *blocks,
                               uint64_t *body_steps)
{
    *blocks = g->blocks;
    *body_steps = g->body_steps;
}

size_t gc_hermite_groups_count(const struct gc_hermite_groups *g)
{
    return gc_hermite_groups_alive(g);
}
