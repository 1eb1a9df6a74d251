/* Measures galaxy centres, spin axes, the orbit plane and the extent of the stars (no GL). */
/* SPDX-License-Identifier: MIT */
#include "track.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Value below which a fraction q of v[0..n) lies (v is sorted in place). */
static float quantile(float *v, size_t n, double q)
{
    if (n == 0)
        return 0.0f;
    qsort(v, n, sizeof *v, cmp_float);
    return v[(size_t)(q * (double)(n - 1) + 0.5)];
}

static void normalise(float v[3], const float fallback[3])
{
    double l = sqrt((double)v[0] * v[0] + (double)v[1] * v[1] + (double)v[2] * v[2]);
    for (int k = 0; k < 3; k++)
        v[k] = l > 0.0 && isfinite(l) ? (float)(v[k] / l) : fallback[k];
}

static int has(const struct gc_bodies *b, size_t stride, unsigned g, unsigned comp)
{
    for (size_t i = 0; i < b->n; i += stride)
        if (GC_TAG_GALAXY(b->tag[i]) == g && GC_TAG_COMPONENT(b->tag[i]) == comp)
            return 1;
    return 0;
}

static int is_star(uint8_t tag)
{
    return GC_TAG_COMPONENT(tag) != GC_HALO;
}

/* Centre of galaxy g: per-axis median of its bulge bodies (the nucleus), or of its disk
 * bodies when it has no bulge, or of its stars (a cluster). A median is not pulled by tidal
 * tails (or a cluster's escapers), a mean is. */
static void centre_of(const struct gc_bodies *b, size_t stride, unsigned g, float *scratch,
                      float c[3], float v[3])
{
    static const unsigned order[3] = {GC_BULGE, GC_DISK, GC_STAR};
    for (int o = 0; o < 3; o++) {
        unsigned comp = order[o];
        size_t m = 0;
        double sv[3] = {0, 0, 0};
        for (size_t i = 0; i < b->n; i += stride)
            if (GC_TAG_GALAXY(b->tag[i]) == g && GC_TAG_COMPONENT(b->tag[i]) == comp) {
                for (int k = 0; k < 3; k++)
                    sv[k] += b->vel[4 * i + k];
                m++;
            }
        if (m > 0) {
            for (int k = 0; k < 3; k++) {
                size_t j = 0;
                for (size_t i = 0; i < b->n; i += stride)
                    if (GC_TAG_GALAXY(b->tag[i]) == g && GC_TAG_COMPONENT(b->tag[i]) == comp)
                        scratch[j++] = b->pos[4 * i + k];
                c[k] = quantile(scratch, m, 0.5);
                v[k] = (float)(sv[k] / (double)m);
            }
            return;
        }
    }
}

/* The unit eigenvector of the symmetric 3x3 matrix m with the smallest eigenvalue (cyclic
 * Jacobi rotations; m is destroyed). */
static void smallest_axis(double m[3][3], float out[3])
{
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int best = 0;
    for (int sweep = 0; sweep < 50; sweep++) {
        const double off = fabs(m[0][1]) + fabs(m[0][2]) + fabs(m[1][2]);
        if (!(off > 1e-15 * (fabs(m[0][0]) + fabs(m[1][1]) + fabs(m[2][2]))))
            break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double theta, t, c, s;
                if (m[p][q] == 0.0)
                    continue;
                theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q]);
                t = (theta >= 0.0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                c = 1.0 / sqrt(t * t + 1.0);
                s = t * c;
                for (int k = 0; k < 3; k++) { /* m <- m J (columns p, q) */
                    const double mp = m[k][p], mq = m[k][q];
                    m[k][p] = c * mp - s * mq;
                    m[k][q] = s * mp + c * mq;
                }
                for (int k = 0; k < 3; k++) { /* m <- J^T m (rows p, q) */
                    const double mp = m[p][k], mq = m[q][k];
                    m[p][k] = c * mp - s * mq;
                    m[q][k] = s * mp + c * mq;
                }
                for (int k = 0; k < 3; k++) { /* v <- v J */
                    const double vp = v[k][p], vq = v[k][q];
                    v[k][p] = c * vp - s * vq;
                    v[k][q] = s * vp + c * vq;
                }
            }
    }
    for (int k = 1; k < 3; k++)
        if (m[k][k] < m[best][best])
            best = k;
    for (int k = 0; k < 3; k++)
        out[k] = (float)v[k][best];
}

/* A disk star beyond twice each nucleus's half-mass radius from it. */
static int far_star(const struct gc_bodies *b, size_t i, const struct gc_track *t)
{
    const float *p = &b->pos[4 * i];
    if (GC_TAG_COMPONENT(b->tag[i]) != GC_DISK)
        return 0;
    for (int g = 0; g < t->galaxies; g++) {
        double r2 = 0.0;
        for (int k = 0; k < 3; k++)
            r2 += ((double)p[k] - t->centre[g][k]) * ((double)p[k] - t->centre[g][k]);
        if (r2 <= 4.0 * (double)t->half_mass[g] * t->half_mass[g])
            return 0;
    }
    return 1;
}

/* The plane the far disk stars lie closest to (the tidal tails once they are out): the
 * normal is the axis of least spread of their mass about its centre. */
static void tails_plane(const struct gc_bodies *b, size_t stride, struct gc_track *t)
{
    double w = 0.0, mean[3] = {0, 0, 0}, m[3][3] = {{0}};
    size_t n = 0;
    memcpy(t->tails_axis, t->orbit_axis, sizeof t->tails_axis);
    for (size_t i = 0; i < b->n; i += stride)
        if (far_star(b, i, t)) {
            w += b->pos[4 * i + 3];
            n++;
            for (int k = 0; k < 3; k++)
                mean[k] += (double)b->pos[4 * i + 3] * b->pos[4 * i + k];
        }
    if (n < GC_TRACK_TAIL_MIN || !(w > 0.0))
        return;
    for (int k = 0; k < 3; k++)
        mean[k] /= w;
    for (size_t i = 0; i < b->n; i += stride)
        if (far_star(b, i, t)) {
            const float *p = &b->pos[4 * i];
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++)
                    m[r][c] += (double)p[3] * ((double)p[r] - mean[r]) * ((double)p[c] - mean[c]);
        }
    smallest_axis(m, t->tails_axis);
    if (t->tails_axis[0] * t->orbit_axis[0] + t->tails_axis[1] * t->orbit_axis[1] +
            t->tails_axis[2] * t->orbit_axis[2] < 0.0f)
        for (int k = 0; k < 3; k++)
            t->tails_axis[k] = -t->tails_axis[k];
}

enum gc_status gc_track_measure(const struct gc_bodies *b, size_t max_samples,
                                struct gc_track *t)
{
    static const float z_up[3] = {0.0f, 0.0f, 1.0f};
    size_t stride = 1, m = 0;
    double mass = 0.0, mx[3] = {0, 0, 0};
    int present[2] = {0, 0};
    float *scratch;

    memset(t, 0, sizeof *t);
    if (max_samples > 0 && b->n > max_samples)
        stride = b->n / max_samples;
    for (size_t i = 0; i < b->n; i += stride)
        if (is_star(b->tag[i])) {
            double w = b->pos[4 * i + 3];
            present[GC_TAG_GALAXY(b->tag[i])] = 1;
            mass += w;
            for (int k = 0; k < 3; k++)
                mx[k] += w * b->pos[4 * i + k];
            m++;
        }
    if (m == 0) {
        gc_log_error("track: no stars to frame (only halo bodies)");
        return GC_ERR_INVALID;
    }
    scratch = malloc(m * sizeof *scratch);
    if (!scratch) {
        gc_log_error("track: out of memory for %zu samples", m);
        return GC_ERR_NOMEM;
    }
    for (int k = 0; k < 3; k++)
        t->com[k] = (float)(mass > 0.0 ? mx[k] / mass : 0.0);

    for (unsigned g = 0; g < 2; g++) {
        double l[3] = {0, 0, 0};
        size_t nd = 0;
        unsigned spin; /* the disk; for a cluster (no disk), its stars */
        if (!present[g])
            continue;
        t->galaxies++;
        centre_of(b, stride, g, scratch, t->centre[g], t->vel[g]);
        spin = has(b, stride, g, GC_DISK) ? GC_DISK : GC_STAR;
        for (size_t i = 0; i < b->n; i += stride) {
            const float *p = &b->pos[4 * i], *v = &b->vel[4 * i];
            double d[3], u[3];
            if (GC_TAG_GALAXY(b->tag[i]) != g || GC_TAG_COMPONENT(b->tag[i]) != spin)
                continue;
            for (int k = 0; k < 3; k++) {
                d[k] = p[k] - t->centre[g][k];
                u[k] = v[k] - t->vel[g][k];
            }
            l[0] += p[3] * (d[1] * u[2] - d[2] * u[1]);
            l[1] += p[3] * (d[2] * u[0] - d[0] * u[2]);
            l[2] += p[3] * (d[0] * u[1] - d[1] * u[0]);
            scratch[nd++] = (float)sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        }
        /* Disk bodies of one galaxy (and a cluster's stars) have equal masses: the median
         * radius is the half-mass one. */
        t->half_mass[g] = quantile(scratch, nd, 0.5);
        for (int k = 0; k < 3; k++)
            t->axis[g][k] = (float)l[k];
        normalise(t->axis[g], z_up);
    }
    if (!present[0]) {
        /* Keep the one galaxy in slot 0 so callers can use centre[0] either way. */
        memcpy(t->centre[0], t->centre[1], sizeof t->centre[0]);
        memcpy(t->vel[0], t->vel[1], sizeof t->vel[0]);
        memcpy(t->axis[0], t->axis[1], sizeof t->axis[0]);
        t->half_mass[0] = t->half_mass[1];
    }
    if (t->galaxies == 2) {
        float d[3], u[3];
        for (int k = 0; k < 3; k++) {
            d[k] = t->centre[1][k] - t->centre[0][k];
            u[k] = t->vel[1][k] - t->vel[0][k];
        }
        t->separation = sqrtf(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
        t->orbit_axis[0] = d[1] * u[2] - d[2] * u[1];
        t->orbit_axis[1] = d[2] * u[0] - d[0] * u[2];
        t->orbit_axis[2] = d[0] * u[1] - d[1] * u[0];
        /* After the merger the relative orbit is noise: fall back to the mean disk spin. */
        {
            float mean[3];
            for (int k = 0; k < 3; k++)
                mean[k] = t->axis[0][k] + t->axis[1][k];
            normalise(mean, z_up);
            normalise(t->orbit_axis, mean);
        }
    } else {
        memcpy(t->orbit_axis, t->axis[0], sizeof t->orbit_axis);
    }
    {
        size_t j = 0;
        for (size_t i = 0; i < b->n; i += stride)
            if (is_star(b->tag[i])) {
                double d[3];
                for (int k = 0; k < 3; k++)
                    d[k] = b->pos[4 * i + k] - t->com[k];
                scratch[j++] = (float)sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
            }
        t->extent = quantile(scratch, j, 0.9);
    }
    free(scratch);
    tails_plane(b, stride, t);
    return GC_OK;
}
