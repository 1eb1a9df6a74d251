/* The CPU backend's Hermite primitives: block selection, prediction, force with jerk (and snap), correction, in double with OpenMP; the reference the GPU is checked against. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cpu.h"
#include "hermite_formulas.h"
#include "log.h"

struct cpu_hermite {
    struct gc_hermite_config cfg;
    size_t n;
    double *x, *v, *a, *j, *s, *c; /* 3n each: the state at each body's own time */
    double *m;                     /* n masses */
    int64_t *t;                    /* n ticks: time of each body's state */
    uint8_t *level;                /* n levels: step dt_max / 2^level */
    double *xp, *vp, *ap;          /* 3n: every body predicted to the block time (sources) */
    double *a1, *j1, *s1;          /* 3n: new derivatives of the active bodies */
    double *xv, *vv;               /* 3n: the view (all bodies at one time) for download */
    double *da, *dj;               /* 3n: perturb's additions to the next correction */
    unsigned char *dset;           /* n: 1 where da, dj hold an addition */
    size_t *active;                /* indices of the bodies due at t_next */
    size_t nactive;
    int64_t t_next;                /* tick of the selected block */
    int due;                       /* 1 while a selected block waits to be computed */
    int starting;                  /* 1 from init to the first selection: start-up passes */
    struct gc_hermite_counters cnt;
};

#define V3(p, i) (&(p)[3 * (size_t)(i)])

/* Below this much work a loop stays on one thread: block steps are often tiny (a few active
 * bodies), and waking the thread team thousands of times a second costs more than it saves
 * (10x slower at N = 1024 on a busy 2-core machine). Units: body updates, or pairs. */
#define PAR_BODIES 8192
#define PAR_PAIRS 65536

void gc_cpu_hermite_free(struct cpu_ctx *c)
{
    struct cpu_hermite *h = c->h;
    if (!h)
        return;
    double *arrays[] = {h->x, h->v, h->a, h->j, h->s, h->c, h->m, h->xp, h->vp, h->ap,
                        h->a1, h->j1, h->s1, h->xv, h->vv, h->da, h->dj};
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        free(arrays[k]);
    free(h->dset);
    free(h->t);
    free(h->level);
    free(h->active);
    free(h);
    c->h = NULL;
}

static double tick(const struct cpu_hermite *h)
{
    return ldexp(h->cfg.dt_max, -GC_HERMITE_LEVELS);
}

/* Records the first error only (the counters carry it to the integrator). */
static void fail(struct cpu_hermite *h, int code, int64_t i, int64_t j)
{
    if (h->cnt.error)
        return;
    h->cnt.error = code;
    h->cnt.error_i = i;
    h->cnt.error_j = j;
}

static enum gc_status hermite_view(struct gc_backend *b, int64_t t);

static enum gc_status init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                           const struct gc_bodies *bodies)
{
    struct cpu_ctx *c = b->ctx;
    const size_t n = bodies->n;
    struct cpu_hermite *h;
    int ok;
    gc_cpu_hermite_free(c);
    h = calloc(1, sizeof *h);
    if (!h) {
        gc_log_error("cpu backend: out of memory for the Hermite state");
        return GC_ERR_NOMEM;
    }
    h->cfg = *cfg;
    h->n = n;
    double **arrays[] = {&h->x, &h->v, &h->a, &h->j, &h->s, &h->c, &h->xp, &h->vp, &h->ap,
                         &h->a1, &h->j1, &h->s1, &h->xv, &h->vv, &h->da, &h->dj};
    ok = 1;
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        ok &= (*arrays[k] = calloc(3 * n, sizeof(double))) != NULL;
    h->m = calloc(n, sizeof *h->m);
    h->t = calloc(n, sizeof *h->t);
    h->level = calloc(n, sizeof *h->level);
    h->active = calloc(n, sizeof *h->active);
    h->dset = calloc(n, 1);
    c->h = h;
    if (!ok || !h->m || !h->t || !h->level || !h->active || !h->dset) {
        gc_cpu_hermite_free(c);
        gc_log_error("cpu backend: out of memory for the Hermite state of %zu bodies", n);
        return GC_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            V3(h->x, i)[k] = bodies->pos64 ? bodies->pos64[3 * i + k] : bodies->pos[4 * i + k];
            V3(h->v, i)[k] = bodies->vel64 ? bodies->vel64[3 * i + k] : bodies->vel[4 * i + k];
        }
        h->m[i] = bodies->mass64 ? bodies->mass64[i] : bodies->pos[4 * i + 3];
        h->active[i] = i;
    }
    /* Every body is due at tick 0: the first predict/force/begin give its derivatives. */
    h->nactive = n;
    h->t_next = 0;
    h->due = 1;
    h->starting = 1;
    return hermite_view(b, 0);
}

static enum gc_status predict(struct gc_backend *b)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    const long n = (long)h->n;
    const double dtick = tick(h);
    if (!h->due)
        return GC_OK;
#pragma omp parallel for schedule(static) num_threads(gc_cpu_threads(c)) if (n > PAR_BODIES)
    for (long i = 0; i < n; i++) {
        const double dt = (double)(h->t_next - h->t[i]) * dtick;
        gc_hermite_predict(h->cfg.order, dt, V3(h->x, i), V3(h->v, i), V3(h->a, i),
                           V3(h->j, i), V3(h->s, i), V3(h->c, i), V3(h->xp, i), V3(h->vp, i),
                           V3(h->ap, i));
    }
    return GC_OK;
}

/* The loop is over active i only, each thread writing its own results, j in a fixed order:
 * results repeat exactly run to run. Self-pairs are skipped by index (eps may be 0); two
 * distinct bodies at the same place with eps = 0 are an error, not a NaN. */
static enum gc_status hermite_force(struct gc_backend *b)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    const long na = (long)h->nactive, n = (long)h->n;
    const int snap = h->cfg.order == 6 || h->starting; /* start-up: snap for the first step */
    const double eps2 = h->cfg.eps2;
    if (!h->due)
        return GC_OK;
#pragma omp parallel for schedule(dynamic, 4) num_threads(gc_cpu_threads(c)) \
    if ((double)na * (double)n > PAR_PAIRS)
    for (long q = 0; q < na; q++) {
        const size_t i = h->active[q];
        double acc[3] = {0, 0, 0}, jerk[3] = {0, 0, 0}, sn[3] = {0, 0, 0};
        if (i < c->i0 || i >= c->i1)
            continue;
        for (long jj = 0; jj < n; jj++) {
            double r[3], v[3], A[3];
            if ((size_t)jj == i)
                continue;
            for (int k = 0; k < 3; k++) {
                r[k] = V3(h->xp, jj)[k] - V3(h->xp, i)[k];
                v[k] = V3(h->vp, jj)[k] - V3(h->vp, i)[k];
                A[k] = V3(h->ap, jj)[k] - V3(h->ap, i)[k];
            }
            if (eps2 == 0.0 && r[0] == 0.0 && r[1] == 0.0 && r[2] == 0.0) {
#pragma omp critical(gc_cpu_hermite_fail)
                fail(h, GC_HERMITE_ERR_COINCIDENT, (int64_t)i, jj);
                continue;
            }
            gc_hermite_pair(r, v, A, h->m[jj], eps2, acc, jerk, snap ? sn : NULL);
        }
        for (int k = 0; k < 3; k++) {
            V3(h->a1, i)[k] = acc[k];
            V3(h->j1, i)[k] = jerk[k];
            V3(h->s1, i)[k] = sn[k];
        }
    }
    return GC_OK;
}

/* The perturbation given for body i since its force pass, added to its new derivatives
 * (by the correction, so that it may arrive after the force pass) and then forgotten. */
static void add_perturbation(struct cpu_hermite *h, size_t i)
{
    if (!h->dset[i])
        return;
    for (int k = 0; k < 3; k++) {
        V3(h->a1, i)[k] += V3(h->da, i)[k];
        V3(h->j1, i)[k] += V3(h->dj, i)[k];
    }
    h->dset[i] = 0;
}

static enum gc_status perturb(struct gc_backend *b, const int64_t *idx, const double *acc,
                              const double *jerk, size_t count)
{
    struct cpu_hermite *h = ((struct cpu_ctx *)b->ctx)->h;
    for (size_t k = 0; k < count; k++) {
        const size_t i = (size_t)idx[k];
        if (idx[k] < 0 || i >= h->n)
            return GC_ERR_INVALID;
        memcpy(V3(h->da, i), &acc[3 * k], 3 * sizeof *acc);
        memcpy(V3(h->dj, i), &jerk[3 * k], 3 * sizeof *jerk);
        h->dset[i] = 1;
    }
    return GC_OK;
}

static int finite3(const double *p)
{
    return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

/* Start-up: the new derivatives become the state (the snap too once the second pass of a
 * 6th-order start has computed it with known accelerations), then a first step each. The
 * block at tick 0 stays selected, so a second force pass can follow. */
static enum gc_status begin(struct gc_backend *b)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    for (size_t q = 0; q < h->nactive; q++) {
        const size_t i = h->active[q];
        int k;
        if (i < c->i0 || i >= c->i1)
            continue;
        add_perturbation(h, i);
        memcpy(V3(h->a, i), V3(h->a1, i), 3 * sizeof(double));
        memcpy(V3(h->j, i), V3(h->j1, i), 3 * sizeof(double));
        memcpy(V3(h->s, i), V3(h->s1, i), 3 * sizeof(double));
        if (!finite3(V3(h->a, i)) || !finite3(V3(h->j, i)))
            fail(h, GC_HERMITE_ERR_NONFINITE, (int64_t)i, -1);
        k = h->cfg.fixed_level >= 0
                ? h->cfg.fixed_level
                : gc_hermite_new_level(-1, gc_hermite_criterion_start(h->cfg.eta_start,
                                                                      V3(h->a, i), V3(h->j, i), V3(h->s, i)),
                                       0, h->cfg.dt_max);
        if (k < 0) {
            fail(h, GC_HERMITE_ERR_LEVELS, (int64_t)i, -1);
            k = GC_HERMITE_LEVELS - 1;
        }
        h->level[i] = (uint8_t)k;
        h->t[i] = 0;
    }
    return GC_OK;
}

static enum gc_status hermite_select(struct gc_backend *b, int64_t t_limit, int *due)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    int64_t t_next = INT64_MAX;
    h->starting = 0;
    for (size_t i = 0; i < h->n; i++) {
        const int64_t ti = h->t[i] + GC_HERMITE_TICKS(h->level[i]);
        if (ti < t_next)
            t_next = ti;
    }
    h->nactive = 0;
    h->due = t_next <= t_limit && !h->cnt.error;
    if (h->due) {
        for (size_t i = 0; i < h->n; i++)
            if (h->t[i] + GC_HERMITE_TICKS(h->level[i]) == t_next)
                h->active[h->nactive++] = i;
        h->t_next = t_next;
    }
    if (due)
        *due = h->due;
    return GC_OK;
}

static enum gc_status correct(struct gc_backend *b)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    const long na = (long)h->nactive;
    const double dtick = tick(h);
    if (!h->due)
        return GC_OK;
#pragma omp parallel for schedule(static) num_threads(gc_cpu_threads(c)) if (na > PAR_BODIES)
    for (long q = 0; q < na; q++) {
        const size_t i = h->active[q];
        const double dt = (double)(h->t_next - h->t[i]) * dtick;
        double req, pop[3], qq[3];
        int k;
        if (i < c->i0 || i >= c->i1)
            continue;
        add_perturbation(h, i);
        if (h->cfg.order == 6) {
            gc_hermite_correct6(dt, V3(h->x, i), V3(h->v, i), V3(h->a, i), V3(h->j, i),
                                V3(h->s, i), V3(h->c, i), V3(h->a1, i), V3(h->j1, i),
                                V3(h->s1, i), pop, qq);
            req = gc_hermite_criterion6(h->cfg.eta, V3(h->a, i), V3(h->j, i), V3(h->s, i),
                                        V3(h->c, i), pop, qq);
        } else {
            gc_hermite_correct4(dt, V3(h->x, i), V3(h->v, i), V3(h->a, i), V3(h->j, i),
                                V3(h->s, i), V3(h->c, i), V3(h->a1, i), V3(h->j1, i));
            req = gc_hermite_criterion4(h->cfg.eta, V3(h->a, i), V3(h->j, i), V3(h->s, i),
                                        V3(h->c, i));
        }
        if (!finite3(V3(h->x, i)) || !finite3(V3(h->v, i))) {
#pragma omp critical(gc_cpu_hermite_fail)
            fail(h, GC_HERMITE_ERR_NONFINITE, (int64_t)i, -1);
        }
        k = h->cfg.fixed_level >= 0 ? h->cfg.fixed_level
                                    : gc_hermite_new_level(h->level[i], req, h->t_next,
                                                           h->cfg.dt_max);
        if (k < 0) {
#pragma omp critical(gc_cpu_hermite_fail)
            fail(h, GC_HERMITE_ERR_LEVELS, (int64_t)i, -1);
            k = GC_HERMITE_LEVELS - 1;
        }
        h->level[i] = (uint8_t)k;
        h->t[i] = h->t_next;
    }
    h->cnt.blocks++;
    h->cnt.body_steps += h->nactive;
    h->cnt.last_active = h->nactive;
    h->cnt.t_last = h->t_next;
    h->due = 0;
    return GC_OK;
}

/* Body i's state as a record. */
static void record_of(const struct cpu_hermite *h, size_t i, struct gc_hermite_record *r)
{
    r->i = (int64_t)i;
    r->t = h->t[i];
    r->level = h->level[i];
    memcpy(r->x, V3(h->x, i), sizeof r->x);
    memcpy(r->v, V3(h->v, i), sizeof r->v);
    memcpy(r->a, V3(h->a, i), sizeof r->a);
    memcpy(r->j, V3(h->j, i), sizeof r->j);
    memcpy(r->s, V3(h->s, i), sizeof r->s);
    memcpy(r->c, V3(h->c, i), sizeof r->c);
}

/* The records of the block's bodies in the range, in the order of the active list. */
static enum gc_status pack(struct gc_backend *b, struct gc_hermite_record *dst, size_t *count)
{
    const struct cpu_ctx *c = b->ctx;
    const struct cpu_hermite *h = c->h;
    size_t k = 0;
    for (size_t q = 0; q < h->nactive; q++) {
        const size_t i = h->active[q];
        if (i >= c->i0 && i < c->i1)
            record_of(h, i, &dst[k++]);
    }
    *count = k;
    return GC_OK;
}

/* Every body's record, in body order (each rank holds every body's state). */
static enum gc_status state(struct gc_backend *b, struct gc_hermite_record *all)
{
    const struct cpu_ctx *c = b->ctx;
    for (size_t i = 0; i < c->h->n; i++)
        record_of(c->h, i, &all[i]);
    return GC_OK;
}

static enum gc_status unpack(struct gc_backend *b, const struct gc_hermite_record *src,
                             size_t count)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    for (size_t k = 0; k < count; k++) {
        const struct gc_hermite_record *r = &src[k];
        const size_t i = (size_t)r->i;
        if (r->i < 0 || i >= h->n || r->level < 0 || r->level >= GC_HERMITE_LEVELS) {
            gc_log_error("cpu backend: Hermite record %zu names body %lld (level %lld) of %zu",
                         k, (long long)r->i, (long long)r->level, h->n);
            return GC_ERR_INVALID;
        }
        h->t[i] = r->t;
        h->level[i] = (uint8_t)r->level;
        memcpy(V3(h->x, i), r->x, sizeof r->x);
        memcpy(V3(h->v, i), r->v, sizeof r->v);
        memcpy(V3(h->a, i), r->a, sizeof r->a);
        memcpy(V3(h->j, i), r->j, sizeof r->j);
        memcpy(V3(h->s, i), r->s, sizeof r->s);
        memcpy(V3(h->c, i), r->c, sizeof r->c);
    }
    return GC_OK;
}

/* The view: positions and velocities of every body at tick t, in double (download) and in
 * the float arrays that export and download read. Levels go to the tag-free vel.w slot at
 * download time. */
static enum gc_status hermite_view(struct gc_backend *b, int64_t t)
{
    struct cpu_ctx *c = b->ctx;
    struct cpu_hermite *h = c->h;
    const long n = (long)h->n;
    const double dtick = tick(h);
#pragma omp parallel for schedule(static) num_threads(gc_cpu_threads(c)) if (n > PAR_BODIES)
    for (long i = 0; i < n; i++) {
        double *x = V3(h->xv, i), *v = V3(h->vv, i);
        gc_hermite_predict(h->cfg.order, (double)(t - h->t[i]) * dtick, V3(h->x, i),
                           V3(h->v, i), V3(h->a, i), V3(h->j, i), V3(h->s, i), V3(h->c, i),
                           x, v, NULL);
        c->x[i] = (float)x[0];
        c->y[i] = (float)x[1];
        c->z[i] = (float)x[2];
        c->vx[i] = (float)v[0];
        c->vy[i] = (float)v[1];
        c->vz[i] = (float)v[2];
        c->m[i] = (float)h->m[i];
    }
    return GC_OK;
}

void gc_cpu_hermite_levels(const struct cpu_ctx *c, float *vel4)
{
    const struct cpu_hermite *h = c->h;
    for (size_t i = 0; i < h->n; i++)
        vel4[4 * i + 3] = (float)h->level[i];
}

void gc_cpu_hermite_download(const struct cpu_ctx *c, struct gc_bodies *dst)
{
    const struct cpu_hermite *h = c->h;
    for (size_t i = 0; i < h->n; i++) {
        dst->vel[4 * i + 3] = (float)h->level[i];
        if (dst->pos64) {
            memcpy(&dst->pos64[3 * i], V3(h->xv, i), 3 * sizeof(double));
            memcpy(&dst->vel64[3 * i], V3(h->vv, i), 3 * sizeof(double));
            dst->mass64[i] = h->m[i];
        }
    }
}

enum gc_status gc_cpu_hermite_potential(const struct cpu_ctx *c, double *w)
{
    const struct cpu_hermite *h = c->h;
    const long n = (long)h->n, i0 = (long)c->i0, i1 = (long)c->i1;
    const double eps2 = h->cfg.eps2;
    double total = 0.0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : total) num_threads(gc_cpu_threads(c))
    for (long i = i0; i < i1; i++) {
        double phi = 0.0;
        for (long j = 0; j < n; j++) {
            double r2 = eps2;
            if (j == i)
                continue;
            for (int k = 0; k < 3; k++) {
                const double d = V3(h->xv, j)[k] - V3(h->xv, i)[k];
                r2 += d * d;
            }
            phi += h->m[j] / sqrt(r2);
        }
        total += h->m[i] * phi;
    }
    *w = -0.5 * total;
    return GC_OK;
}

static enum gc_status counters(struct gc_backend *b, struct gc_hermite_counters *out)
{
    const struct cpu_ctx *c = b->ctx;
    *out = c->h->cnt;
    return GC_OK;
}

static enum gc_status schedule(struct gc_backend *b, int64_t *t, uint8_t *level)
{
    const struct cpu_ctx *c = b->ctx;
    const struct cpu_hermite *h = c->h;
    memcpy(t, h->t, h->n * sizeof *t);
    memcpy(level, h->level, h->n * sizeof *level);
    return GC_OK;
}

static enum gc_status derivs(struct gc_backend *b, double *acc, double *jerk, double *snap)
{
    const struct cpu_ctx *c = b->ctx;
    const struct cpu_hermite *h = c->h;
    memcpy(acc, h->a, 3 * h->n * sizeof *acc);
    memcpy(jerk, h->j, 3 * h->n * sizeof *jerk);
    if (snap)
        memcpy(snap, h->s, 3 * h->n * sizeof *snap);
    return GC_OK;
}

const struct gc_backend_hermite gc_cpu_hermite_table = {
    .init = init,
    .begin = begin,
    .select = hermite_select,
    .predict = predict,
    .force = hermite_force,
    .correct = correct,
    .view = hermite_view,
    .counters = counters,
    .schedule = schedule,
    .derivs = derivs,
    .pack = pack,
    .unpack = unpack,
    .state = state,
    .repeat = NULL, /* the integrator loops on the host */
    .perturb = perturb,
};
