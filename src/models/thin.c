/* Even, mass-preserving thinning of a body set by (galaxy, component) group. */
/* SPDX-License-Identifier: MIT */
#include "thin.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

#define NGROUPS 8 /* tag values: galaxy bit 2, component bits 0-1 */

/* Body i's mass, position (k = 0..2) and velocity (k = 3..5): in double where the set
 * carries it (a table, a snapshot), so that a set kept whole stays exact. */
static double mass_of(const struct gc_bodies *b, size_t i)
{
    return b->mass64 ? b->mass64[i] : (double)b->pos[4 * i + 3];
}

static double phase_of(const struct gc_bodies *b, size_t i, int k)
{
    if (b->pos64)
        return k < 3 ? b->pos64[3 * i + k] : b->vel64[3 * i + k - 3];
    return k < 3 ? (double)b->pos[4 * i + k] : (double)b->vel[4 * i + k - 3];
}

static int eligible(unsigned tag, int include_halo)
{
    return GC_TAG_COMPONENT(tag) != GC_HALO || include_halo;
}

size_t gc_thin_eligible(const struct gc_bodies *all, int include_halo)
{
    size_t c = 0;
    for (size_t i = 0; i < all->n; i++)
        c += eligible(all->tag[i], include_halo);
    return c;
}

enum gc_status gc_thin_select(const struct gc_bodies *all, size_t n, int include_halo,
                              struct gc_bodies *out)
{
    size_t size[NGROUPS] = {0}, take[NGROUPS] = {0}, seen[NGROUPS] = {0}, got[NGROUPS] = {0};
    double mass_all[NGROUPS] = {0}, mass_taken[NGROUPS] = {0};
    double mx_all[NGROUPS][6] = {{0}}, mx_taken[NGROUPS][6] = {{0}}; /* sum m*(x,y,z,vx,vy,vz) */
    size_t total = 0, groups = 0, assigned = 0, j = 0;
    enum gc_status st;

    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < all->n; i++) {
        unsigned t = all->tag[i] & (NGROUPS - 1);
        if (!eligible(t, include_halo))
            continue;
        size[t]++;
        mass_all[t] += mass_of(all, i);
        for (int k = 0; k < 6; k++)
            mx_all[t][k] += mass_of(all, i) * phase_of(all, i, k);
    }
    for (int g = 0; g < NGROUPS; g++) {
        total += size[g];
        groups += size[g] > 0;
    }
    if (n == 0)
        n = total;
    if (total == 0) {
        gc_log_error("no eligible bodies to choose from");
        return GC_ERR_INVALID;
    }
    if (n > total) {
        if (!include_halo && gc_thin_eligible(all, 1) >= n)
            gc_log_error("N = %zu is more than the %zu disk and bulge bodies available; "
                         "drop --no-halo to use up to %zu", n, total, gc_thin_eligible(all, 1));
        else
            gc_log_error("N = %zu is more than the %zu bodies available", n, total);
        return GC_ERR_INVALID;
    }
    if (n < groups) {
        gc_log_error("N = %zu is too small: need at least one body for each of the %zu "
                     "components", n, groups);
        return GC_ERR_INVALID;
    }

    /* Largest-remainder apportionment with one body guaranteed per group, so every
     * component keeps its mass even at tiny N. */
    {
        double rem[NGROUPS];
        size_t left = n - groups;
        size_t base_total = total;
        for (int g = 0; g < NGROUPS; g++) {
            if (!size[g]) {
                rem[g] = -1.0;
                continue;
            }
            double exact = (double)left * (double)size[g] / (double)base_total;
            size_t fl = (size_t)exact;
            if (fl + 1 > size[g])
                fl = size[g] - 1;
            take[g] = 1 + fl;
            rem[g] = exact - (double)fl;
            assigned += take[g];
        }
        while (assigned < n) {
            int best = -1;
            for (int g = 0; g < NGROUPS; g++)
                if (take[g] < size[g] && (best < 0 || rem[g] > rem[best]))
                    best = g;
            take[best]++;
            rem[best] = -1.0;
            assigned++;
        }
    }

    st = gc_bodies_alloc(out, n);
    if (st == GC_OK && all->pos64)
        st = gc_bodies_alloc_f64(out);
    if (st != GC_OK) {
        gc_bodies_free(out);
        return st;
    }
    /* The k-th chosen body of group g is the one at index floor(k * size / take) in the
     * group's own order: evenly spaced, starting with the first. */
    for (size_t i = 0; i < all->n; i++) {
        unsigned t = all->tag[i] & (NGROUPS - 1);
        size_t s;
        if (!eligible(t, include_halo))
            continue;
        s = seen[t]++;
        if (got[t] < take[t] && s == (size_t)(((unsigned long long)got[t] * size[t]) / take[t])) {
            memcpy(&out->pos[4 * j], &all->pos[4 * i], 4 * sizeof(float));
            memcpy(&out->vel[4 * j], &all->vel[4 * i], 4 * sizeof(float));
            out->tag[j] = all->tag[i];
            if (all->pos64) {
                memcpy(&out->pos64[3 * j], &all->pos64[3 * i], 3 * sizeof(double));
                memcpy(&out->vel64[3 * j], &all->vel64[3 * i], 3 * sizeof(double));
                out->mass64[j] = all->mass64[i];
            }
            mass_taken[t] += mass_of(all, i);
            got[t]++;
            j++;
        }
    }
    /* Every body kept: the set as it was, to the bit (a table written by --save in 17
     * digits restarts a double-precision run exactly). */
    if (n == total)
        return GC_OK;
    for (size_t i = 0; i < n; i++) {
        unsigned t = out->tag[i] & (NGROUPS - 1);
        if (out->mass64)
            out->mass64[i] *= mass_all[t] / mass_taken[t];
        else
            out->pos[4 * i + 3] = (float)(out->pos[4 * i + 3] * (mass_all[t] / mass_taken[t]));
        for (int k = 0; k < 6; k++)
            mx_taken[t][k] += mass_of(out, i) * phase_of(out, i, k);
    }
    /* A sparse sample of a hot component (a halo keeps 1 body in 10 at N = 8192) carries
     * sampling noise in its mean position and velocity; shift each group so its centre of
     * mass and bulk velocity equal the full group's. Otherwise the thinned system drifts
     * and the galaxies' orbit changes with N. */
    for (size_t i = 0; i < n; i++) {
        unsigned t = out->tag[i] & (NGROUPS - 1);
        for (int k = 0; k < 3; k++) {
            const double dx = (mx_all[t][k] - mx_taken[t][k]) / mass_all[t];
            const double dv = (mx_all[t][3 + k] - mx_taken[t][3 + k]) / mass_all[t];
            if (out->pos64) {
                out->pos64[3 * i + k] += dx;
                out->vel64[3 * i + k] += dv;
            } else {
                out->pos[4 * i + k] += (float)dx;
                out->vel[4 * i + k] += (float)dv;
            }
        }
    }
    /* The float arrays from the double ones (vel.w, free for callers, is kept). */
    for (size_t i = 0; out->pos64 && i < n; i++) {
        for (int k = 0; k < 3; k++) {
            out->pos[4 * i + k] = (float)out->pos64[3 * i + k];
            out->vel[4 * i + k] = (float)out->vel64[3 * i + k];
        }
        out->pos[4 * i + 3] = (float)out->mass64[i];
    }
    return GC_OK;
}
