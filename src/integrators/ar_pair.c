/* A two-body group: its relative orbit carried by Kepler's solution between kicks of the external field, the same leapfrog extrapolated as the chain's. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "ar_chain_impl.h"
#include "kepler.h"
#include "log.h"

/* Why a pair differs from a chain: the logarithmic-Hamiltonian leapfrog follows a Kepler
 * orbit's shape exactly but its time only to the step's order, so its extrapolation took
 * ~1000 force evaluations an orbit at a tolerance of 1e-12 (e = 0.73, a weak field). With
 * the two-body motion solved in closed form the leapfrog's only error is the external
 * field's: a weakly perturbed pair converges in the first rows, a free one is one Kepler
 * step.
 *
 * Steps are in time, at most PAIR_STEP_DYN of the local dynamical time sqrt(r^3 / M): the
 * extrapolation's error estimate holds only where the substeps resolve the orbit's own
 * pace, which near the pericentre of an eccentric orbit is fast (at a fixed fraction of the
 * period, 1/16, an e = 0.9 pair in a field drifted to 8e-10 in 200 orbits where its error
 * estimate said 1e-12; at 0.2 of the dynamical time to 2e-12). */
#define PAIR_STEP_DYN 0.2

/* The link (y: relative position, velocity, t) carried over tau on its Kepler orbit. */
static int drift(const struct gc_ar *g, double *y, double tau)
{
    double r[3], w[3];
    if (gc_kepler_drift(g->mtot, y, y + 3, tau, r, w) != 0)
        return -1;
    memcpy(y, r, sizeof r);
    memcpy(y + 3, w, sizeof w);
    T_OF(g, y) += tau;
    return 0;
}

/* The field's pull across the pair over h; B takes its work on the relative motion (its
 * mean moves the centre of mass, which is not ours to move), with the mean of the old and
 * new velocities (exact for a velocity-independent force over a kick). */
static void kick(struct gc_ar *g, double *y, double h, const struct gc_ar_perturb *p)
{
    const int a = g->order[0], b = g->order[1];
    const double fa = g->m[b] * g->inv_mtot, fb = g->m[a] * g->inv_mtot, mu = g->m[b] * fb;
    double work = 0.0;
    for (int d = 0; d < 3; d++) {
        g->q[3 * a + d] = -fa * y[d];
        g->q[3 * b + d] = fb * y[d];
    }
    memset(g->fext, 0, 6 * sizeof *g->fext);
    p->accel(p->ctx, T_OF(g, y), 2, g->q, g->fext);
    g->stats.evals++;
    for (int d = 0; d < 3; d++) {
        const double da = g->fext[3 * b + d] - g->fext[3 * a + d], w0 = y[3 + d];
        y[3 + d] += h * da;
        work += 0.5 * (w0 + y[3 + d]) * da;
    }
    B_OF(g, y) -= h * mu * work;
}

void gc_ar_pair_leapfrog(struct gc_ar *g, const double *y0, double *y, double H, int nsub,
                         const struct gc_ar_perturb *p)
{
    const double h = H / nsub;
    int bad;
    memcpy(y, y0, g->dim * sizeof *y);
    bad = drift(g, y, 0.5 * h);
    for (int i = 0; i < nsub && !bad; i++) {
        kick(g, y, h, p);
        bad = drift(g, y, i + 1 < nsub ? h : 0.5 * h);
    }
    /* every row ends at the same time, which the extrapolation then leaves as it is */
    T_OF(g, y) = T_OF(g, y0) + H;
    if (bad)
        y[0] = NAN; /* no convergence: the step is retried shorter */
}

/* PAIR_STEP_DYN of the local dynamical time. */
static double step_cap(const struct gc_ar *g)
{
    const double *y = g->y;
    const double r = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    return PAIR_STEP_DYN * sqrt(r * r * r / g->mtot);
}

double gc_ar_pair_first_step(const struct gc_ar *g)
{
    return step_cap(g);
}

enum gc_status gc_ar_pair_advance(struct gc_ar *g, double t_end, const struct gc_ar_perturb *p)
{
    const int free_pair = !p || !p->accel;
    while (T_OF(g, g->y) < t_end) {
        const double left = t_end - T_OF(g, g->y);
        const double plan = free_pair ? left : fmin(fmin(g->ds, step_cap(g)), left);
        double H = plan, next;
        int row = 0;
        memcpy(g->y0, g->y, g->dim * sizeof *g->y);
        if (free_pair) {
            memcpy(g->y1, g->y0, g->dim * sizeof *g->y1);
            if (drift(g, g->y1, H) != 0) {
                gc_log_error("regularisation: the Kepler orbit of a pair does not solve at "
                             "t = %.10g", T_OF(g, g->y0));
                return GC_ERR_INVALID;
            }
        } else {
            enum gc_status st = gc_ar_step(g, g->y0, g->y1, &H, &row, p);
            if (st != GC_OK)
                return st;
        }
        g->stats.steps++;
        next = row < K_GROW ? 1.5 * H : row > K_SHRINK ? 0.7 * H : H;
        /* a step cut short by the end or the cap says nothing against a longer one */
        if (H == plan && plan < g->ds && row <= K_SHRINK)
            next = fmax(next, g->ds);
        if (!free_pair)
            g->ds = next;
        memcpy(g->y, g->y1, g->dim * sizeof *g->y);
        if (H == left)
            T_OF(g, g->y) = t_end; /* lands exactly */
        for (size_t k = 0; k < g->dim; k++)
            if (!isfinite(g->y[k])) {
                gc_log_error("regularisation: the state of a pair became infinite or NaN at "
                             "t = %.10g", T_OF(g, g->y0));
                return GC_ERR_INVALID;
            }
    }
    return GC_OK;
}
