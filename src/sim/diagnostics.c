/* Energy, momentum, angular momentum and centre of mass, accumulated in double precision. */
/* SPDX-License-Identifier: MIT */
#include "diagnostics.h"

#include <math.h>
#include <string.h>

void gc_diagnostics_kinematics(const struct gc_bodies *b, struct gc_diagnostics *d)
{
    memset(d, 0, sizeof *d);
    for (size_t i = 0; i < b->n; i++) {
        const float *x = &b->pos[4 * i], *v = &b->vel[4 * i];
        const double m = x[3];
        d->mass += m;
        d->kinetic += 0.5 * m * ((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
        for (int k = 0; k < 3; k++) {
            d->momentum[k] += m * v[k];
            d->com[k] += m * x[k];
        }
        d->angular_momentum[0] += m * ((double)x[1] * v[2] - (double)x[2] * v[1]);
        d->angular_momentum[1] += m * ((double)x[2] * v[0] - (double)x[0] * v[2]);
        d->angular_momentum[2] += m * ((double)x[0] * v[1] - (double)x[1] * v[0]);
    }
    if (d->mass > 0.0)
        for (int k = 0; k < 3; k++) {
            d->com[k] /= d->mass;
            d->com_vel[k] = d->momentum[k] / d->mass;
        }
    d->energy = d->kinetic;
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

enum gc_status gc_diagnostics_measure(struct gc_sim *s, struct gc_bodies *scratch,
                                      struct gc_diagnostics *d)
{
    const float eps = s->p.eps;
    double w;
    enum gc_status st = gc_backend_download(s->backend, scratch);
    if (st != GC_OK)
        return st;
    gc_diagnostics_kinematics(scratch, d);
    st = gc_backend_potential(s->backend, eps * eps, &w);
    if (st == GC_ERR_UNSUPPORTED)
        w = gc_diagnostics_potential(scratch, eps);
    else if (st != GC_OK)
        return st;
    d->potential = w;
    d->energy = d->kinetic + w;
    return GC_OK;
}
