/* Algorithmic regularisation of one few-body group: the chain (a pair: Kepler drifts), the logarithmic-Hamiltonian leapfrog and its Gragg-Bulirsch-Stoer extrapolation. */
/* SPDX-License-Identifier: MIT */
#include "ar_chain.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kepler.h"
#include "log.h"

/* Extrapolation rows: the leapfrog is run with 2, 4, ..., 2 KMAX substeps. A step that has
 * not converged by then is retried at half the length. */
#define KMAX 10
/* Rows at which a converged step makes the next one longer or shorter: converging early
 * wastes nothing but says the step could be longer; late convergence costs many substeps. */
#define K_GROW 4
#define K_SHRINK 7

struct gc_ar {
    size_t n, nl;          /* bodies, chain links (n - 1) */
    size_t dim;            /* state length: 3 nl links, 3 nl link velocities, t, B */
    double *m, mtot, inv_mtot;
    int *order;            /* chain position -> body */
    double *y;             /* the state: X[3 nl], W[3 nl], t, B */
    double ds;             /* next step: in the regularised time s (n > 2), in time (a pair) */
    double tol;
    /* scratch */
    double *q, *v, *acc, *fext, *vold;   /* 3n each */
    double *y0, *y1, *row_prev, *row_cur; /* dim, dim, dim * KMAX each for the two rows */
    struct gc_ar_stats stats;
};

#define T_OF(g, y) ((y)[6 * (g)->nl])
#define B_OF(g, y) ((y)[6 * (g)->nl + 1])

#define MAX_RETRIES 60
#define CLOCK_ULPS 16.0

/* Body coordinates (relative to the centre of mass) from chain vectors: the first body of
 * the chain at 0, each next one a link further, then the mass-weighted mean removed. */
static void from_chain(const struct gc_ar *g, const double *X, double *q)
{
    double p[3] = {0, 0, 0}, c[3] = {0, 0, 0};
    const int *o = g->order;
    memset(&q[3 * o[0]], 0, 3 * sizeof *q);
    for (size_t k = 0; k < g->nl; k++) {
        double *qb = &q[3 * o[k + 1]];
        for (int d = 0; d < 3; d++) {
            qb[d] = p[d] += X[3 * k + d];
            c[d] += g->m[o[k + 1]] * p[d];
        }
    }
    for (int d = 0; d < 3; d++)
        c[d] *= g->inv_mtot;
    for (size_t i = 0; i < g->n; i++)
        for (int d = 0; d < 3; d++)
            q[3 * i + d] -= c[d];
}

/* Kinetic energy from the chain's link velocities, without writing the body velocities:
 * each body's velocity relative to the chain's first body, less the centre of mass's. */
static double kinetic_chain(const struct gc_ar *g, const double *W)
{
    double p[3] = {0, 0, 0}, c[3] = {0, 0, 0}, t;
    const int *o = g->order;
    for (size_t k = 0; k < g->nl; k++)
        for (int d = 0; d < 3; d++)
            c[d] += g->m[o[k + 1]] * (p[d] += W[3 * k + d]);
    for (int d = 0; d < 3; d++)
        c[d] *= g->inv_mtot;
    memset(p, 0, sizeof p);
    t = g->m[o[0]] * (c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
    for (size_t k = 0; k < g->nl; k++) {
        double w2 = 0.0;
        for (int d = 0; d < 3; d++) {
            p[d] += W[3 * k + d];
            w2 += (p[d] - c[d]) * (p[d] - c[d]);
        }
        t += g->m[o[k + 1]] * w2;
    }
    return 0.5 * t;
}

static void to_chain(const struct gc_ar *g, const double *q, double *X)
{
    for (size_t k = 0; k < g->nl; k++)
        for (int d = 0; d < 3; d++)
            X[3 * k + d] = q[3 * g->order[k + 1] + d] - q[3 * g->order[k] + d];
}

/* Accelerations of the bodies (acc, 3n) and U = sum m_i m_j / r_ij. Separations of
 * neighbours and next-neighbours along the chain come from the links themselves (where
 * round-off matters: the close pairs), the others from the body coordinates q (unused, and
 * may be unset, for n <= 3). */
static double internal(const struct gc_ar *g, const double *X, const double *q, double *acc)
{
    double u = 0.0;
    const int *o = g->order;
    memset(acc, 0, 3 * g->n * sizeof *acc);
    for (size_t ka = 0; ka < g->n; ka++) {
        const int a = o[ka];
        const double ma = g->m[a];
        for (size_t kb = ka + 1; kb < g->n; kb++) {
            const int b = o[kb];
            const double mb = g->m[b];
            double r[3], r2, ri, ri3;
            if (kb == ka + 1)
                memcpy(r, &X[3 * ka], sizeof r);
            else if (kb == ka + 2)
                for (int d = 0; d < 3; d++)
                    r[d] = X[3 * ka + d] + X[3 * ka + 3 + d];
            else
                for (int d = 0; d < 3; d++)
                    r[d] = q[3 * b + d] - q[3 * a + d];
            r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
            ri = 1.0 / sqrt(r2);
            ri3 = ri * ri * ri;
            u += ma * mb * ri;
            for (int d = 0; d < 3; d++) {
                acc[3 * a + d] += mb * ri3 * r[d];
                acc[3 * b + d] -= ma * ri3 * r[d];
            }
        }
    }
    return u;
}

/* Drift: time advances by h / (T + B) (the logarithmic Hamiltonian's momentum part). */
static void drift(struct gc_ar *g, double *y, double h)
{
    const size_t L = 3 * g->nl;
    const double dt = h / (kinetic_chain(g, y + L) + B_OF(g, y));
    for (size_t k = 0; k < L; k++)
        y[k] += dt * y[L + k];
    T_OF(g, y) += dt;
}

/* Kick: velocities by dt = h / U of the internal plus the external acceleration; B takes
 * the external force's work with the mean of the old and new velocities (exact for a
 * velocity-independent force over a kick). */
static void kick(struct gc_ar *g, double *y, double h, const struct gc_ar_perturb *p)
{
    const size_t L = 3 * g->nl, n = g->n;
    double u, dt, fm[3] = {0, 0, 0}, work = 0.0;
    if (n > 3 || (p && p->accel))
        from_chain(g, y, g->q);
    u = internal(g, y, g->q, g->acc);
    dt = h / u;
    g->stats.evals++;
    if (p && p->accel) {
        memset(g->fext, 0, 3 * n * sizeof *g->fext);
        p->accel(p->ctx, T_OF(g, y), n, g->q, g->fext);
        /* the mean acceleration moves the centre of mass, which is not ours to move */
        for (size_t i = 0; i < n; i++)
            for (int d = 0; d < 3; d++)
                fm[d] += g->m[i] * g->fext[3 * i + d] / g->mtot;
        for (size_t i = 0; i < n; i++)
            for (int d = 0; d < 3; d++) {
                g->fext[3 * i + d] -= fm[d];
                g->acc[3 * i + d] += g->fext[3 * i + d];
            }
        from_chain(g, y + L, g->vold);
    }
    for (size_t k = 0; k < g->nl; k++)
        for (int d = 0; d < 3; d++)
            y[L + 3 * k + d] += dt * (g->acc[3 * g->order[k + 1] + d] - g->acc[3 * g->order[k] + d]);
    if (p && p->accel) {
        from_chain(g, y + L, g->v);
        for (size_t i = 0; i < 3 * n; i++)
            work += g->m[i / 3] * 0.5 * (g->v[i] + g->vold[i]) * g->fext[i];
        B_OF(g, y) -= dt * work;
    }
}

static void pair_leapfrog(struct gc_ar *g, const double *y0, double *y, double H, int nsub,
                          const struct gc_ar_perturb *p);

/* The leapfrog over H with nsub substeps: D(h/2) K(h) D(h) ... K(h) D(h/2). */
static void leapfrog(struct gc_ar *g, const double *y0, double *y, double H, int nsub,
                     const struct gc_ar_perturb *p)
{
    const double h = H / nsub;
    if (g->n == 2) {
        pair_leapfrog(g, y0, y, H, nsub, p);
        return;
    }
    memcpy(y, y0, g->dim * sizeof *y);
    drift(g, y, 0.5 * h);
    for (int i = 0; i < nsub; i++) {
        kick(g, y, h, p);
        drift(g, y, i + 1 < nsub ? h : 0.5 * h);
    }
}

static double norm3(const double *a)
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* Largest difference of two estimates, each part against its own scale: a link's change
 * against its length, a link velocity's against the larger of itself and the circular
 * speed at that length, time against the step's span, B against itself. */
static double difference(const struct gc_ar *g, const double *a, const double *b,
                         const double *y0)
{
    const size_t L = 3 * g->nl;
    double err = 0.0, d[3], span, bs;
    for (size_t k = 0; k < g->nl; k++) {
        double lx = norm3(&a[3 * k]), lv = norm3(&a[L + 3 * k]), vc;
        vc = sqrt(g->mtot / lx);
        for (int c = 0; c < 3; c++)
            d[c] = a[3 * k + c] - b[3 * k + c];
        err = fmax(err, norm3(d) / lx);
        for (int c = 0; c < 3; c++)
            d[c] = a[L + 3 * k + c] - b[L + 3 * k + c];
        err = fmax(err, norm3(d) / fmax(lv, vc));
    }
    /* the clock's own resolution at t is all the time can agree to: a near-radial pass
     * takes steps shorter than that, whose time would otherwise never converge */
    span = fmax(fabs(T_OF(g, a) - T_OF(g, y0)), CLOCK_ULPS * DBL_EPSILON * fabs(T_OF(g, y0)));
    err = fmax(err, span > 0.0 ? fabs(T_OF(g, a) - T_OF(g, b)) / span : 0.0);
    bs = fabs(B_OF(g, y0));
    if (bs > 0.0)
        err = fmax(err, fabs(B_OF(g, a) - B_OF(g, b)) / bs);
    return isfinite(err) ? err : INFINITY;
}

/* One extrapolated step of length H from y0 into y; returns the row it converged at, or -1. */
static int gbs_step(struct gc_ar *g, const double *y0, double *y, double H,
                    const struct gc_ar_perturb *p)
{
    const size_t D = g->dim;
    for (int k = 0; k < KMAX; k++) {
        const int nk = 2 * (k + 1);
        double *cur = g->row_cur, *prev = g->row_prev;
        leapfrog(g, y0, cur, H, nk, p);
        /* Richardson in h^2 (Neville): entry j of row k from entries j-1 of rows k, k-1. */
        for (int j = 1; j <= k; j++) {
            const double r = (double)nk / (double)(2 * (k - j + 1));
            const double f = 1.0 / (r * r - 1.0);
            for (size_t i = 0; i < D; i++)
                cur[j * D + i] = cur[(j - 1) * D + i] +
                                 (cur[(j - 1) * D + i] - prev[(j - 1) * D + i]) * f;
        }
        if (k >= 1 && difference(g, &cur[k * D], &cur[(k - 1) * D], y0) <= g->tol) {
            memcpy(y, &cur[k * D], D * sizeof *y);
            return k;
        }
        g->row_cur = prev;
        g->row_prev = cur;
    }
    return -1;
}

/* A step that converges: halves H until it does. *H receives the length used, *row the row
 * it converged at. */
static enum gc_status ar_step(struct gc_ar *g, const double *y0, double *y, double *H, int *row,
                              const struct gc_ar_perturb *p)
{
    for (int tries = 0; tries < MAX_RETRIES; tries++) {
        *row = gbs_step(g, y0, y, *H, p);
        /* >=: a step the clock cannot see still moves the bodies (in s) */
        if (*row >= 0 && isfinite(T_OF(g, y)) && T_OF(g, y) >= T_OF(g, y0))
            return GC_OK;
        g->stats.rejected++;
        *H *= 0.5;
    }
    gc_log_error("regularisation: a step of a %zu-body group at t = %.10g does not converge to "
                 "%g", g->n, T_OF(g, y0), g->tol);
    return GC_ERR_INVALID;
}

/* ---- a two-body group ---- */

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
static int pair_drift(const struct gc_ar *g, double *y, double tau)
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
static void pair_kick(struct gc_ar *g, double *y, double h, const struct gc_ar_perturb *p)
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

static void pair_leapfrog(struct gc_ar *g, const double *y0, double *y, double H, int nsub,
                          const struct gc_ar_perturb *p)
{
    const double h = H / nsub;
    int bad;
    memcpy(y, y0, g->dim * sizeof *y);
    bad = pair_drift(g, y, 0.5 * h);
    for (int i = 0; i < nsub && !bad; i++) {
        pair_kick(g, y, h, p);
        bad = pair_drift(g, y, i + 1 < nsub ? h : 0.5 * h);
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

static double pair_first_step(const struct gc_ar *g)
{
    return step_cap(g);
}

static enum gc_status pair_advance(struct gc_ar *g, double t_end, const struct gc_ar_perturb *p)
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
            if (pair_drift(g, g->y1, H) != 0) {
                gc_log_error("regularisation: the Kepler orbit of a pair does not solve at "
                             "t = %.10g", T_OF(g, g->y0));
                return GC_ERR_INVALID;
            }
        } else {
            enum gc_status st = ar_step(g, g->y0, g->y1, &H, &row, p);
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

/* ---- the chain ---- */

/* |q_b - q_a| of bodies a and b. */
static double distance(const double *q, size_t a, size_t b)
{
    double r[3];
    for (int d = 0; d < 3; d++)
        r[d] = q[3 * b + d] - q[3 * a + d];
    return norm3(r);
}

/* The chain of nearest neighbours: the closest pair first, then the body closest to either
 * end joins there, until every body is in. */
static void build_chain(const struct gc_ar *g, const double *q, int *order)
{
    const size_t n = g->n;
    unsigned char in[GC_AR_MAX_BODIES] = {0};
    size_t len = 2, best_a = 0, best_b = 1;
    double best = INFINITY;
    int head[2 * GC_AR_MAX_BODIES], lo = GC_AR_MAX_BODIES, hi;
    for (size_t a = 0; a < n; a++)
        for (size_t b = a + 1; b < n; b++) {
            const double r = distance(q, a, b);
            if (r < best) {
                best = r;
                best_a = a;
                best_b = b;
            }
        }
    head[lo] = (int)best_a;
    head[lo + 1] = (int)best_b;
    hi = lo + 1;
    in[best_a] = in[best_b] = 1;
    for (; len < n; len++) {
        double bd = INFINITY;
        size_t bi = 0;
        int at_lo = 0;
        for (size_t i = 0; i < n; i++) {
            if (in[i])
                continue;
            for (int e = 0; e < 2; e++) {
                const double r = distance(q, (size_t)(e ? head[hi] : head[lo]), i);
                if (r < bd) {
                    bd = r;
                    bi = i;
                    at_lo = !e;
                }
            }
        }
        in[bi] = 1;
        if (at_lo)
            head[--lo] = (int)bi;
        else
            head[++hi] = (int)bi;
    }
    for (size_t k = 0; k < n; k++)
        order[k] = head[lo + (int)k];
}

/* Rebuilds the chain when the nearest-neighbour order has changed. */
static void rechain(struct gc_ar *g)
{
    const size_t L = 3 * g->nl;
    int order[GC_AR_MAX_BODIES];
    if (g->n < 3)
        return;
    from_chain(g, g->y, g->q);
    from_chain(g, g->y + L, g->v);
    build_chain(g, g->q, order);
    if (memcmp(order, g->order, g->n * sizeof *order) == 0)
        return;
    memcpy(g->order, order, g->n * sizeof *order);
    to_chain(g, g->q, g->y);
    to_chain(g, g->v, g->y + L);
}

/* A first step: a tenth of the shortest pair's dynamical time, in s (ds = U dt). */
static double first_ds(struct gc_ar *g)
{
    double tmin = INFINITY, u;
    from_chain(g, g->y, g->q);
    u = internal(g, g->y, g->q, g->acc);
    for (size_t a = 0; a < g->n; a++)
        for (size_t b = a + 1; b < g->n; b++) {
            double r[3], rr;
            for (int d = 0; d < 3; d++)
                r[d] = g->q[3 * b + d] - g->q[3 * a + d];
            rr = norm3(r);
            tmin = fmin(tmin, sqrt(rr * rr * rr / (g->m[a] + g->m[b])));
        }
    return 0.1 * tmin * u;
}

enum gc_status gc_ar_create(size_t n, const double *m, const double *x, const double *v,
                            double t, double tol, struct gc_ar **out)
{
    struct gc_ar *g;
    double cx[3] = {0, 0, 0}, cv[3] = {0, 0, 0}, *q, *w;
    int ok;
    *out = NULL;
    if (n < 2 || n > GC_AR_MAX_BODIES) {
        gc_log_error("regularisation: a group has 2 to %d bodies, not %zu", GC_AR_MAX_BODIES, n);
        return GC_ERR_INVALID;
    }
    g = calloc(1, sizeof *g);
    if (!g)
        return GC_ERR_NOMEM;
    g->n = n;
    g->nl = n - 1;
    g->dim = 6 * g->nl + 2;
    g->tol = tol > 0.0 ? tol : GC_AR_DEFAULT_TOL;
    g->m = malloc(n * sizeof *g->m);
    g->order = malloc(n * sizeof *g->order);
    g->y = calloc(g->dim, sizeof *g->y);
    g->q = calloc(3 * n, sizeof(double));
    g->v = calloc(3 * n, sizeof(double));
    g->acc = calloc(3 * n, sizeof(double));
    g->fext = calloc(3 * n, sizeof(double));
    g->vold = calloc(3 * n, sizeof(double));
    g->y0 = calloc(g->dim, sizeof(double));
    g->y1 = calloc(g->dim, sizeof(double));
    g->row_prev = calloc(g->dim * KMAX, sizeof(double));
    g->row_cur = calloc(g->dim * KMAX, sizeof(double));
    ok = g->m && g->order && g->y && g->q && g->v && g->acc && g->fext && g->vold && g->y0 &&
         g->y1 && g->row_prev && g->row_cur;
    if (!ok) {
        gc_ar_destroy(g);
        gc_log_error("regularisation: out of memory for a %zu-body group", n);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        if (!(m[i] > 0.0)) {
            gc_ar_destroy(g);
            gc_log_error("regularisation: body %zu of a group has mass %g", i, m[i]);
            return GC_ERR_INVALID;
        }
        g->m[i] = m[i];
        g->mtot += m[i];
        for (int d = 0; d < 3; d++) {
            cx[d] += m[i] * x[3 * i + d];
            cv[d] += m[i] * v[3 * i + d];
        }
    }
    g->inv_mtot = 1.0 / g->mtot;
    q = g->q;
    w = g->v;
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 3; d++) {
            q[3 * i + d] = x[3 * i + d] - cx[d] / g->mtot;
            w[3 * i + d] = v[3 * i + d] - cv[d] / g->mtot;
        }
    build_chain(g, q, g->order);
    to_chain(g, q, g->y);
    to_chain(g, w, g->y + 3 * g->nl);
    T_OF(g, g->y) = t;
    B_OF(g, g->y) = -gc_ar_energy(g);
    for (size_t k = 0; k < g->nl; k++)
        if (!(norm3(&g->y[3 * k]) > 0.0)) {
            gc_ar_destroy(g);
            gc_log_error("regularisation: two bodies of a group are at the same place");
            return GC_ERR_INVALID;
        }
    g->ds = n == 2 ? pair_first_step(g) : first_ds(g);
    *out = g;
    return GC_OK;
}

void gc_ar_destroy(struct gc_ar *g)
{
    if (!g)
        return;
    free(g->m);
    free(g->order);
    free(g->y);
    free(g->q);
    free(g->v);
    free(g->acc);
    free(g->fext);
    free(g->vold);
    free(g->y0);
    free(g->y1);
    free(g->row_prev);
    free(g->row_cur);
    free(g);
}

/* The last step lands on t_end: its length in s is found on t(H) (smooth: every trial is
 * converged) by regula falsi with the Illinois rule inside a bracket that always holds
 * t_end, and the residual, a few ulps of the step's span, is closed to first order. */
static enum gc_status land(struct gc_ar *g, double t_end, double H, const struct gc_ar_perturb *p)
{
    const size_t L = 3 * g->nl;
    const double t0 = T_OF(g, g->y0), span = t_end - t0;
    /* how close is close enough: 1e-13 of the step, or the clock's own resolution */
    const double near = fmax(1e-13 * span, 4.0 * DBL_EPSILON * fabs(t_end));
    double ha = 0.0, fa = t0 - t_end, hb = H, fb = T_OF(g, g->y1) - t_end, dt;
    enum gc_status st = GC_OK;
    int row, side = 0;
    for (int it = 0; it < 60; it++) {
        double hc = (ha * fb - hb * fa) / (fb - fa), h, fc;
        if (!(hc > ha && hc < hb))
            hc = 0.5 * (ha + hb);
        h = hc;
        st = ar_step(g, g->y0, g->y1, &h, &row, p);
        if (st != GC_OK)
            return st;
        fc = T_OF(g, g->y1) - t_end;
        if (fabs(fc) <= near || hb - ha <= 4.0 * DBL_EPSILON * hb)
            break; /* landed */
        if (h < hc && fc < 0.0)
            break; /* the solver needed a shorter step, which ends short: go on from there */
        /* h, not hc: a shortened step that still passes t_end narrows the bracket too */
        if (fc < 0.0) {
            ha = h;
            fa = fc;
            if (side == -1)
                fb *= 0.5;
            side = -1;
        } else {
            hb = h;
            fb = fc;
            if (side == 1)
                fa *= 0.5;
            side = 1;
        }
    }
    /* t(H) jumps where the extrapolation converges at another row, and the bracket can
     * close on such a jump past t_end: then the step to the bracket's near side is taken
     * (it ends before t_end) and the caller steps on from there. */
    if (T_OF(g, g->y1) - t_end > 1e3 * near && ha > 0.0) {
        double h = ha;
        st = ar_step(g, g->y0, g->y1, &h, &row, p);
        if (st != GC_OK)
            return st;
        if (T_OF(g, g->y1) <= t_end) {
            memcpy(g->y, g->y1, g->dim * sizeof *g->y);
            return GC_OK;
        }
    }
    memcpy(g->y, g->y1, g->dim * sizeof *g->y);
    dt = t_end - T_OF(g, g->y);
    if (dt < 0.0 && -dt > 1e3 * near) {
        gc_log_error("regularisation: a %zu-body group cannot land on t = %.15g", g->n, t_end);
        return GC_ERR_INVALID;
    }
    if (fabs(dt) <= 1e3 * near) {
        from_chain(g, g->y, g->q);
        internal(g, g->y, g->q, g->acc);
        for (size_t k = 0; k < g->nl; k++)
            for (int d = 0; d < 3; d++) {
                g->y[3 * k + d] += dt * g->y[L + 3 * k + d];
                g->y[L + 3 * k + d] += dt * (g->acc[3 * g->order[k + 1] + d] -
                                             g->acc[3 * g->order[k] + d]);
            }
        T_OF(g, g->y) = t_end;
    }
    return GC_OK;
}

enum gc_status gc_ar_advance(struct gc_ar *g, double t_end, const struct gc_ar_perturb *p)
{
    if (g->n == 2)
        return pair_advance(g, t_end, p);
    while (T_OF(g, g->y) < t_end) {
        double H = g->ds;
        int row;
        enum gc_status st;
        memcpy(g->y0, g->y, g->dim * sizeof *g->y);
        st = ar_step(g, g->y0, g->y1, &H, &row, p);
        if (st != GC_OK)
            return st;
        g->stats.steps++;
        g->ds = row < K_GROW ? 1.5 * H : row > K_SHRINK ? 0.7 * H : H;
        if (T_OF(g, g->y1) > t_end) {
            st = land(g, t_end, H, p);
            if (st != GC_OK)
                return st;
        } else {
            memcpy(g->y, g->y1, g->dim * sizeof *g->y);
        }
        for (size_t k = 0; k < g->dim; k++)
            if (!isfinite(g->y[k])) {
                gc_log_error("regularisation: the state of a %zu-body group became infinite "
                             "or NaN at t = %.10g", g->n, T_OF(g, g->y0));
                return GC_ERR_INVALID;
            }
        rechain(g);
    }
    return GC_OK;
}

size_t gc_ar_n(const struct gc_ar *g)
{
    return g->n;
}

double gc_ar_time(const struct gc_ar *g)
{
    return T_OF(g, g->y);
}

const double *gc_ar_masses(const struct gc_ar *g)
{
    return g->m;
}

void gc_ar_state(const struct gc_ar *g, double *x, double *v)
{
    from_chain(g, g->y, x);
    from_chain(g, g->y + 3 * g->nl, v);
}

double gc_ar_energy(const struct gc_ar *g)
{
    struct gc_ar *w = (struct gc_ar *)g; /* scratch arrays only */
    from_chain(w, g->y, w->q);
    return kinetic_chain(g, g->y + 3 * g->nl) - internal(w, g->y, w->q, w->acc);
}

double gc_ar_energy_carried(const struct gc_ar *g)
{
    return -B_OF(g, g->y);
}

void gc_ar_stats(const struct gc_ar *g, struct gc_ar_stats *out)
{
    *out = g->stats;
}

void gc_ar_kepler_elements(double m1, double m2, const double dx[3], const double dv[3],
                           double *a, double *e)
{
    const double mu = m1 + m2, r = norm3(dx);
    const double v2 = dv[0] * dv[0] + dv[1] * dv[1] + dv[2] * dv[2];
    const double h[3] = {dx[1] * dv[2] - dx[2] * dv[1], dx[2] * dv[0] - dx[0] * dv[2],
                         dx[0] * dv[1] - dx[1] * dv[0]};
    /* the eccentricity vector, v x h / mu - x / r: accurate also for e near 1 */
    const double ev[3] = {(dv[1] * h[2] - dv[2] * h[1]) / mu - dx[0] / r,
                          (dv[2] * h[0] - dv[0] * h[2]) / mu - dx[1] / r,
                          (dv[0] * h[1] - dv[1] * h[0]) / mu - dx[2] / r};
    *a = 1.0 / (2.0 / r - v2 / mu);
    *e = norm3(ev);
}
