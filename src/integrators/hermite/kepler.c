/* The two-body problem solved in closed form: universal variables, Stumpff functions, Laguerre-Conway iterations. */
/* SPDX-License-Identifier: MIT */
#include "kepler.h"

#include <math.h>
#include <string.h>

/* Stumpff functions c2(z) = (1 - cos sqrt z) / z and c3(z) = (sqrt z - sin sqrt z) / z^1.5
 * (their hyperbolic forms for z < 0), by series near 0 where the closed forms cancel. */
static void stumpff(double z, double *c2, double *c3)
{
    if (fabs(z) < 1e-3) {
        *c2 = 0.5 - z * (1.0 / 24.0 - z * (1.0 / 720.0 - z / 40320.0));
        *c3 = 1.0 / 6.0 - z * (1.0 / 120.0 - z * (1.0 / 5040.0 - z / 362880.0));
    } else if (z > 0.0) {
        const double s = sqrt(z);
        *c2 = (1.0 - cos(s)) / z;
        *c3 = (s - sin(s)) / (z * s);
    } else {
        const double s = sqrt(-z);
        *c2 = (cosh(s) - 1.0) / -z;
        *c3 = (sinh(s) - s) / (-z * s);
    }
}

int gc_kepler_drift(double mu, const double r0[3], const double v0[3], double dt, double r[3],
                    double v[3])
{
    const double rn0 = sqrt(r0[0] * r0[0] + r0[1] * r0[1] + r0[2] * r0[2]);
    const double v2 = v0[0] * v0[0] + v0[1] * v0[1] + v0[2] * v0[2];
    const double sm = sqrt(mu);
    const double pi = 3.14159265358979323846;
    double alpha, rv, x, c2, c3, f, g, fd, gd, rn, dx = INFINITY;
    memcpy(r, r0, 3 * sizeof *r);
    memcpy(v, v0, 3 * sizeof *v);
    if (!(rn0 > 0.0) || !(mu > 0.0))
        return -1;
    if (dt == 0.0)
        return 0;
    alpha = 2.0 / rn0 - v2 / mu; /* 1/a */
    rv = (r0[0] * v0[0] + r0[1] * v0[1] + r0[2] * v0[2]) / sm;
    if (alpha > 0.0) {
        /* whole periods dropped: the anomaly stays within one orbit */
        const double period = 2.0 * pi / (sm * alpha * sqrt(alpha));
        dt = fmod(dt, period);
    }
    x = alpha > 0.0 ? sm * dt * alpha : sm * dt / rn0;
    for (int it = 0; it < 64 && fabs(dx) > 1e-15 * fabs(x); it++) {
        const double z = alpha * x * x;
        double F, dF, ddF, disc;
        stumpff(z, &c2, &c3);
        F = rv * x * x * c2 + (1.0 - alpha * rn0) * x * x * x * c3 + rn0 * x - sm * dt;
        dF = rv * x * (1.0 - z * c3) + (1.0 - alpha * rn0) * x * x * c2 + rn0;
        ddF = rv * (1.0 - z * c2) + (1.0 - alpha * rn0) * x * (1.0 - z * c3);
        disc = sqrt(fabs(16.0 * dF * dF - 20.0 * F * ddF));
        dx = 5.0 * F / (dF + (dF >= 0.0 ? disc : -disc));
        x -= dx;
        if (F == 0.0)
            break;
    }
    /* round-off can keep the last correction above 1e-15 of x: 1e-12 is converged */
    if (!isfinite(x) || fabs(dx) > 1e-12 * fabs(x)) {
        memcpy(r, r0, 3 * sizeof *r);
        return -1;
    }
    stumpff(alpha * x * x, &c2, &c3);
    f = 1.0 - x * x / rn0 * c2;
    g = dt - x * x * x / sm * c3;
    for (int d = 0; d < 3; d++)
        r[d] = f * r0[d] + g * v0[d];
    rn = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    fd = sm / (rn * rn0) * x * (alpha * x * x * c3 - 1.0);
    gd = 1.0 - x * x / rn * c2;
    for (int d = 0; d < 3; d++)
        v[d] = fd * r0[d] + gd * v0[d];
    return 0;
}
