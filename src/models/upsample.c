/* Upsampling of a body set: each body split into parts scattered about it (upsample.h). */
/* SPDX-License-Identifier: MIT */
#include "upsample.h"

#include <string.h>

#include "log.h"
#include "rng.h"

/* Bodies per random stream (rng.h): chunks can be made by any thread. */
#define CHUNK 4096

enum gc_status gc_upsample(const struct gc_bodies *small, size_t n, double sigma, uint64_t seed,
                           struct gc_bodies *out)
{
    const size_t m = small->n;
    const long long nchunks = (long long)((n + CHUNK - 1) / CHUNK);
    enum gc_status st;
    memset(out, 0, sizeof *out);
    if (m == 0 || n < m) {
        gc_log_error("cannot make %zu bodies from %zu by splitting them", n, m);
        return GC_ERR_INVALID;
    }
    st = gc_bodies_alloc(out, n);
    if (st != GC_OK)
        return st;
#pragma omp parallel for schedule(dynamic, 1)
    for (long long c = 0; c < nchunks; c++) {
        struct rng g;
        const size_t i0 = (size_t)c * CHUNK, i1 = i0 + CHUNK < n ? i0 + CHUNK : n;
        rng_seed(&g, seed, 0xa5u /* upsampling */, (uint64_t)c);
        for (size_t i = i0; i < i1; i++) {
            const size_t p = i % m;
            /* parts of p: n / m, and one more for the first n mod m bodies */
            const size_t parts = n / m + (p < n % m);
            const float *x = small->pos + 4 * p, *v = small->vel + 4 * p;
            for (int k = 0; k < 3; k++) {
                const double dx = parts > 1 ? sigma * gaussian(&g) : 0.0;
                out->pos[4 * i + k] = (float)((double)x[k] + dx);
                out->vel[4 * i + k] = v[k];
            }
            out->pos[4 * i + 3] = (float)((double)x[3] / (double)parts);
            out->tag[i] = small->tag[p];
        }
    }
    return GC_OK;
}
