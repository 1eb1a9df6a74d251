/* Energy, momentum, angular momentum and centre of mass, accumulated in double precision. */
/* SPDX-License-Identifier: MIT */
#include "diagnostics.h"

#include <math.h>
#include <string.h>

void gc_diagnostics_sums(const struct gc_bodies *b, size_t i0, size_t i1,
                         double v[GC_DIAGNOSTICS_SUMS])
{
    memset(v, 0, GC_DIAGNOSTICS_SUMS * sizeof *v);
    for (size_t i = i0; i < i1; i++) {
        double x[3], u[3], m;
        for (int k = 0; k < 3; k++) {
            x[k] = b->pos64 ? b->pos64[3 * i + k] : b->pos[4 * i + k];
            u[k] = b->vel64 ? b->vel64[3 * i + k] : b->vel[4 * i + k];
        }
        m = b->mass64 ? b->mass64[i] : b->pos[4 * i + 3];
        v[0] += m;
        v[1] += 0.5 * m * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        for (int k = 0; k < 3; k++) {
            v[2 + k] += m * u[k];
            v[8 + k] += m * x[k];
        }
        v[5] += m * (x[1] * u[2] - x[2] * u[1]);
        v[6] += m * (x[2] * u[0] - x[0] * u[2]);
        v[7] += m * (x[0] * u[1] - x[1] * u[0]);
    }
}

void gc_diagnostics_from_sums(const double v[GC_DIAGNOSTICS_SUMS], struct gc_diagnostics *d)
{
    memset(d, 0, sizeof *d);
    d->mass = v[0];
    d->kinetic = v[1];
    for (int k = 0; k < 3; k++) {
        d->momentum[k] = v[2 + k];
        d->angular_momentum[k] = v[5 + k];
        d->com[k] = v[0] > 0.0 ? v[8 + k] / v[0] : 0.0;
        d->com_vel[k] = v[0] > 0.0 ? v[2 + k] / v[0] : 0.0;
    }
    d->energy = d->kinetic;
}

void gc_diagnostics_kinematics(const struct gc_bodies *b, struct gc_diagnostics *d)
{
    double v[GC_DIAGNOSTICS_SUMS];
    gc_diagnostics_sums(b, 0, b->n, v);
    gc_diagnostics_from_sums(v, d);
}

double gc_diagnostics_potential(const struct gc_bodies *b, double eps)
{
    const long n = (long)b->n;
    const double eps2 = eps * eps;
    double w = 0.0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : w)
    for (long i = 0; i < n; i++) {
        const float *xi = &b->pos[4 * i];
        double phi = 0.0;
        for (long j = i + 1; j < n; j++) {
            const float *xj = &b->pos[4 * j];
            const double dx = (double)xj[0] - xi[0], dy = (double)xj[1] - xi[1],
                         dz = (double)xj[2] - xi[2];
            phi += xj[3] / sqrt(dx * dx + dy * dy + dz * dz + eps2);
        }
        w -= xi[3] * phi;
    }
    return w;
}

void gc_diagnostics_compute(const struct gc_bodies *b, double eps, struct gc_diagnostics *d)
{
    gc_diagnostics_kinematics(b, d);
    d->potential = gc_diagnostics_potential(b, eps);
    d->energy = d->kinetic + d->potential;
}

double gc_diagnostics_potential_range(const struct gc_bodies *b, size_t i0, size_t i1,
                                      double eps)
{
    const long n = (long)b->n, a = (long)i0, e = (long)i1;
    const double eps2 = eps * eps;
    double w = 0.0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : w)
    for (long i = a; i < e; i++) {
        const float *xi = &b->pos[4 * i];
        double phi = 0.0;
        for (long j = 0; j < n; j++) {
            const float *xj = &b->pos[4 * j];
            const double dx = (double)xj[0] - xi[0], dy = (double)xj[1] - xi[1],
                         dz = (double)xj[2] - xi[2];
            if (j != i)
                phi += xj[3] / sqrt(dx * dx + dy * dy + dz * dz + eps2);
        }
        w -= 0.5 * xi[3] * phi;
    }
    return w;
}

double gc_diagnostics_potential64_range(const struct gc_bodies *b, size_t i0, size_t i1)
{
    const long n = (long)b->n, a = (long)i0, e = (long)i1;
    double w = 0.0;
#pragma omp parallel for schedule(dynamic, 16) reduction(+ : w)
    for (long i = a; i < e; i++) {
        const double *xi = &b->pos64[3 * i];
        double phi = 0.0;
        for (long j = 0; j < n; j++) {
            const double *xj = &b->pos64[3 * j];
            const double dx = xj[0] - xi[0], dy = xj[1] - xi[1], dz = xj[2] - xi[2];
            if (j != i)
                phi += b->mass64[j] / sqrt(dx * dx + dy * dy + dz * dz);
        }
        w -= 0.5 * b->mass64[i] * phi;
    }
    return w;
}
