/* The Hermite schemes' per-body and per-pair formulas, written once for the CPU backend and the CUDA kernels. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_HERMITE_FORMULAS_H
#define GC_HERMITE_FORMULAS_H

#include <math.h>
#include <stdint.h>

#include "hermite_timeline.h"
#include "host_device.h"

/* Interactions of body i with source j at separation r = x_j - x_i, relative velocity
 * v = v_j - v_i and relative acceleration A = a_j - a_i (predicted values), softened
 * r^2 -> r^2 + eps^2 (Plummer), derivatives checked against symbolic differentiation:
 *   a   = m r / r^3
 *   j   = m v / r^3 - 3 alpha a,             alpha = r.v / r^2
 *   s   = m A / r^3 - 6 alpha j - 3 beta a,  beta  = (v.v + r.A) / r^2 + alpha^2
 * (Nitadori & Makino 2008), r^2 softened. The caller gives rinv2 = 1 / r^2 and
 * mr3 = m / r^3 (each side takes the reciprocal square root its own fastest way: the CPU
 * divides, the GPU uses rsqrt). Accumulates into acc, jerk and, when snap is non-NULL, snap. */
GC_HD void gc_hermite_pair_terms(const double r[3], const double v[3], const double *A,
                                 double mr3, double rinv2, double acc[3], double jerk[3],
                                 double *snap)
{
    const double alpha = (r[0] * v[0] + r[1] * v[1] + r[2] * v[2]) * rinv2;
    double ak[3], jk[3];
    for (int k = 0; k < 3; k++) {
        ak[k] = mr3 * r[k];
        jk[k] = mr3 * v[k] - 3.0 * alpha * ak[k];
        acc[k] += ak[k];
        jerk[k] += jk[k];
    }
    if (snap) {
        const double beta = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] +
                             r[0] * A[0] + r[1] * A[1] + r[2] * A[2]) * rinv2 + alpha * alpha;
        for (int k = 0; k < 3; k++)
            snap[k] += mr3 * A[k] - 6.0 * alpha * jk[k] - 3.0 * beta * ak[k];
    }
}

/* The same terms in float, for the CUDA force kernel's mixed arithmetic: r is the
 * difference of positions taken in double and rounded, the sums are the caller's. Arranged
 * so that each term is one fused multiply-add: with a3 = 3 alpha and w = v - a3 r,
 *   jerk += mr3 w,   snap += mr3 (A - 2 a3 w - 3 beta r). */
GC_HD void gc_hermite_pair_terms_f(const float r[3], const float v[3], const float *A,
                                   float mr3, float rinv2, float acc[3], float jerk[3],
                                   float *snap)
{
    const float rv = r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
    const float a3 = 3.0f * rv * rinv2;
    float w[3];
    for (int k = 0; k < 3; k++) {
        w[k] = v[k] - a3 * r[k];
        acc[k] += mr3 * r[k];
        jerk[k] += mr3 * w[k];
    }
    if (snap) {
        const float alpha = rv * rinv2;
        const float b3 = 3.0f * ((v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + r[0] * A[0] +
                                  r[1] * A[1] + r[2] * A[2]) * rinv2 + alpha * alpha);
        for (int k = 0; k < 3; k++)
            snap[k] += mr3 * (A[k] - 2.0f * a3 * w[k] - b3 * r[k]);
    }
}

/* The same pair with its softened distance formed here (the CPU backend's form). */
GC_HD void gc_hermite_pair(const double r[3], const double v[3], const double *A, double m,
                           double eps2, double acc[3], double jerk[3], double *snap)
{
    const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + eps2;
    const double rinv2 = 1.0 / r2;
    gc_hermite_pair_terms(r, v, A, m * rinv2 * sqrt(rinv2), rinv2, acc, jerk, snap);
}

/* Taylor prediction over h: x, v (and a) from the derivatives up to jerk (order 4) or up to
 * crackle (order 6: snap s and crackle c too). xp/vp/ap may alias nothing. */
GC_HD void gc_hermite_predict(int order, double h, const double x[3], const double v[3],
                              const double a[3], const double j[3], const double s[3],
                              const double c[3], double xp[3], double vp[3], double *ap)
{
    const double h2 = h * h / 2.0, h3 = h2 * h / 3.0, h4 = h3 * h / 4.0, h5 = h4 * h / 5.0;
    for (int k = 0; k < 3; k++) {
        double px = x[k] + h * v[k] + h2 * a[k] + h3 * j[k];
        double pv = v[k] + h * a[k] + h2 * j[k];
        if (order == 6) {
            px += h4 * s[k] + h5 * c[k];
            pv += h3 * s[k] + h4 * c[k];
            if (ap)
                ap[k] = a[k] + h * j[k] + h2 * s[k] + h3 * c[k];
        } else if (ap) {
            ap[k] = a[k] + h * j[k];
        }
        xp[k] = px;
        vp[k] = pv;
    }
}

GC_HD double gc_hermite_norm(const double a[3])
{
    return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}

/* 4th order (Makino & Aarseth 1992): the 2nd and 3rd derivatives of a at the start of the
 * step interpolated from a0, j0 (start) and a1, j1 (end, at the predicted positions),
 *   s0 = (-6 (a0 - a1) - h (4 j0 + 2 j1)) / h^2,   c0 = (12 (a0 - a1) + 6 h (j0 + j1)) / h^3,
 * correct the prediction: x1 = xp + s0 h^4/24 + c0 h^5/120, v1 = vp + s0 h^3/6 + c0 h^4/24,
 * and give the snap and crackle at the end, s1 = s0 + c0 h, c1 = c0, for the next step's
 * criterion. On entry x, v, a, j hold the state at the start of the step (the prediction is
 * formed here again); on return x, v, a, j, s, c hold the end of the step. */
GC_HD void gc_hermite_correct4(double h, double x[3], double v[3], double a[3], double j[3],
                               double s[3], double c[3], const double a1[3], const double j1[3])
{
    const double hi = 1.0 / h, hi2 = hi * hi, hi3 = hi2 * hi;
    const double h2 = h * h / 2.0, h3 = h2 * h / 3.0, h4 = h3 * h / 4.0, h5 = h4 * h / 5.0;
    for (int k = 0; k < 3; k++) {
        const double da = a[k] - a1[k];
        const double s0 = (-6.0 * da - h * (4.0 * j[k] + 2.0 * j1[k])) * hi2;
        const double c0 = (12.0 * da + 6.0 * h * (j[k] + j1[k])) * hi3;
        const double xp = x[k] + h * v[k] + h2 * a[k] + h3 * j[k];
        const double vp = v[k] + h * a[k] + h2 * j[k];
        x[k] = xp + h4 * s0 + h5 * c0;
        v[k] = vp + h3 * s0 + h4 * c0;
        a[k] = a1[k];
        j[k] = j1[k];
        s[k] = s0 + h * c0;
        c[k] = c0;
    }
}

/* 6th order (Nitadori & Makino 2008):
 *   v1 = v0 + h/2 (a1 + a0) - h^2/10 (j1 - j0) + h^3/120 (s1 + s0)
 *   x1 = x0 + h/2 (v1 + v0) - h^2/10 (a1 - a0) + h^3/120 (j1 + j0)
 * (local error h^7, checked symbolically), and the quintic through a, j, s at both ends
 * gives crackle c, pop p and their derivative q at the end of the step:
 *   C = c0 h^3 = 60 da - h (36 j0 + 24 j1) - h^2 (9 s0 - 3 s1)
 *   P = p0 h^4 = -360 da + h (192 j0 + 168 j1) + h^2 (36 s0 - 24 s1)
 *   Q = q0 h^5 = 720 da - 360 h (j0 + j1) + 60 h^2 (s1 - s0),      da = a1 - a0
 *   c1 h^3 = C + P + Q/2,  p1 h^4 = P + Q,  q1 h^5 = Q.
 * x0, v0 are the state at the start (not the prediction); on return x, v, a, j, s, c hold the
 * end of the step, and pop/q (for the criterion) the 4th and 5th derivatives of a there. */
GC_HD void gc_hermite_correct6(double h, double x[3], double v[3], double a[3], double j[3],
                               double s[3], double c[3], const double a1[3], const double j1[3],
                               const double s1[3], double pop[3], double q[3])
{
    const double hh = h * h, hi = 1.0 / h, hi3 = hi * hi * hi, hi4 = hi3 * hi, hi5 = hi4 * hi;
    for (int k = 0; k < 3; k++) {
        const double da = a1[k] - a[k];
        const double v1 = v[k] + 0.5 * h * (a1[k] + a[k]) - hh / 10.0 * (j1[k] - j[k]) +
                          hh * h / 120.0 * (s1[k] + s[k]);
        const double x1 = x[k] + 0.5 * h * (v1 + v[k]) - hh / 10.0 * da +
                          hh * h / 120.0 * (j1[k] + j[k]);
        const double C = 60.0 * da - h * (36.0 * j[k] + 24.0 * j1[k]) - hh * (9.0 * s[k] - 3.0 * s1[k]);
        const double P = -360.0 * da + h * (192.0 * j[k] + 168.0 * j1[k]) +
                         hh * (36.0 * s[k] - 24.0 * s1[k]);
        const double Q = 720.0 * da - 360.0 * h * (j[k] + j1[k]) + 60.0 * hh * (s1[k] - s[k]);
        x[k] = x1;
        v[k] = v1;
        a[k] = a1[k];
        j[k] = j1[k];
        s[k] = s1[k];
        c[k] = (C + P + 0.5 * Q) * hi3;
        pop[k] = (P + Q) * hi4;
        q[k] = Q * hi5;
    }
}

/* Time-step criteria. 4th order: Aarseth's dt = sqrt(eta (|a||s| + |j|^2) / (|j||c| + |s|^2)).
 * 6th order: the generalised criterion of Nitadori & Makino (2008),
 * dt = eta (A1 / A4)^(1/3), A_k = sqrt(|a^(k-1)| |a^(k+1)|) + |a^(k)| with a^(0) = a,
 * a^(1) = jerk, ..., a^(5) = q, over a floor. pop and q are differences of the two ends'
 * a, j and s over h^4 and h^5: at small steps they are rounding noise, which made the step
 * smaller and the noise larger until a smooth orbit ran down to the finest level (the
 * Pythagorean problem at eta <= 0.01). The floor is made of better determined derivatives,
 * each scaling as eta so that the error of a step stays ~eta^7:
 *   1/4 eta T3, T3 = sqrt((|a||s| + |j|^2) / (|j||c| + |s|^2)) (Aarseth's time scale): c's
 *       noise grows as 1/h^3 only, negligible down to steps of ~1e-3 T3;
 *   1/8 eta T2, T2 = |a| / A1: a, j and s come from the forces, with no noise to grow, so
 *       the step is bounded at any eta (T3 too ran away at eta 1e-4).
 * Where the generalised criterion is well determined it asks for more than either: on the
 * Pythagorean problem and a Plummer sphere at eta 0.15 the floors left the block steps as
 * they were, to within 1% (a floor of 1/2 eta T3 already took over and cost accuracy).
 * Both return +inf when the denominators vanish (uniform motion). */
GC_HD double gc_hermite_criterion4(double eta, const double a[3], const double j[3],
                                   const double s[3], const double c[3])
{
    const double na = gc_hermite_norm(a), nj = gc_hermite_norm(j), ns = gc_hermite_norm(s),
                 nc = gc_hermite_norm(c);
    const double den = nj * nc + ns * ns;
    return den > 0.0 ? sqrt(eta * (na * ns + nj * nj) / den) : INFINITY;
}

GC_HD double gc_hermite_criterion6(double eta, const double a[3], const double j[3],
                                   const double s[3], const double c[3], const double pop[3],
                                   const double q[3])
{
    const double na = gc_hermite_norm(a), nj = gc_hermite_norm(j), ns = gc_hermite_norm(s),
                 nc = gc_hermite_norm(c);
    const double a1 = sqrt(na * ns) + nj;
    const double a4 = sqrt(nc * gc_hermite_norm(q)) + gc_hermite_norm(pop);
    const double den = nj * nc + ns * ns;
    const double dt = a4 > 0.0 ? eta * cbrt(a1 / a4) : INFINITY;
    const double t3 = den > 0.0 ? 0.25 * eta * sqrt((na * ns + nj * nj) / den) : 0.0;
    const double t2 = a1 > 0.0 ? 0.125 * eta * na / a1 : 0.0;
    const double lo = t3 > t2 ? t3 : t2;
    return dt > lo ? dt : lo;
}

/* The start-up step: eta_start times the shorter of |a|/|j| and sqrt(|a|/|s|). The jerk
 * alone fails where it happens to be small (a body at rest, or one whose jerk cancels by
 * chance): |a|/|j| then allows dt_max, and one such first step cost a Plummer run 1e-6 in
 * energy. So the start-up force passes compute the snap for both orders (a
 * second pass, once the first has given every body's acceleration); s = 0 means unknown. */
GC_HD double gc_hermite_criterion_start(double eta_start, const double a[3], const double j[3],
                                        const double s[3])
{
    const double na = gc_hermite_norm(a), nj = gc_hermite_norm(j), ns = gc_hermite_norm(s);
    double t = nj > 0.0 ? na / nj : INFINITY;
    if (ns > 0.0 && sqrt(na / ns) < t)
        t = sqrt(na / ns);
    return eta_start * t;
}

/* Whether tick t is a multiple of level's step ("on its grid"). */
GC_HD int gc_hermite_on_grid(int64_t t, int level)
{
    return (t & (GC_HERMITE_TICKS(level) - 1)) == 0;
}

/* The level of the next step of a body that has just reached tick t at level `level`, for a
 * requested step dt_req (N-body units; level k steps dt_max / 2^k). The step halves as often
 * as needed; it doubles (once) only when dt_req allows twice the step and t is a multiple of
 * the doubled step, so every body's time stays a multiple of its step. A first step
 * (level < 0) is the largest power-of-two fraction of dt_max not above dt_req. Returns -1
 * when even the finest level is too coarse (an encounter the timeline cannot resolve). */
GC_HD int gc_hermite_new_level(int level, double dt_req, int64_t t, double dt_max)
{
    int k = level < 0 ? 0 : level;
    double dt = ldexp(dt_max, -k);
    if (!(dt_req > 0.0))
        return -1;
    while (dt > dt_req) {
        if (++k > GC_HERMITE_LEVELS - 1)
            return -1;
        dt *= 0.5;
    }
    if (level >= 0 && k == level && k > 0 && dt_req >= 2.0 * dt && gc_hermite_on_grid(t, k - 1))
        k--;
    return k;
}

/* The block tick tn against bodies whose ticks are on their levels' grids (what
 * gc_hermite_new_level keeps) and behind tn: such a body is due at tn exactly when its step
 * divides tn, that is when its level is at least gc_hermite_due_level(tn) (0 when every step
 * divides tn); one not due is next due at gc_hermite_next_due(tn, its level), the first
 * multiple of its step after tn, which is earliest for the finest level. So a selection
 * needs only the bodies' levels, not their ticks. */
GC_HD int gc_hermite_due_level(int64_t tn)
{
    int z;
    if (tn <= 0)
        return 0;
#ifdef __CUDA_ARCH__
    z = __ffsll(tn) - 1;
#else
    z = __builtin_ctzll((unsigned long long)tn);
#endif
    return z >= GC_HERMITE_LEVELS ? 0 : GC_HERMITE_LEVELS - z;
}

GC_HD int64_t gc_hermite_next_due(int64_t tn, int level)
{
    const int64_t step = GC_HERMITE_TICKS(level);
    return (tn & ~(step - 1)) + step;
}

#endif
