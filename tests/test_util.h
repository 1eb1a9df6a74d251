/* Shared helpers for the core tests: fixture paths and small random body sets. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_TEST_UTIL_H
#define GC_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "bodies.h"

/* The all-pairs force pass with softening squared e2, as the backend calls take it. */
#define ALLPAIRS(e2) (&(struct gc_force_params){.method = GC_FORCE_ALLPAIRS, .eps2 = (e2)})

/* Monotonic wall clock in seconds (for the timings tests print, never for pass/fail). */
static inline double test_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Path of a scratch file for fixtures written by the test itself. */
static inline const char *tmp_path(const char *name)
{
    static char buf[4][1024];
    static int k = 0;
    const char *dir = getenv("GC_TEST_TMP");
    char *out = buf[k++ & 3];
    snprintf(out, sizeof buf[0], "%s/%s", dir && *dir ? dir : "/tmp", name);
    return out;
}

/* Where to get the Dubinski table, for the skip message. */
#define GC_TEST_DUBINSKI_HELP                                                                \
    "the Dubinski table is not in the repository: docs/usage.md, \"Data\", says where to " \
    "get it"

/* Where the real Dubinski table is looked for: $GC_SHARED_DATA (the tests' data folder,
 * tests/CMakeLists.txt), else ../shared/data. */
static inline const char *dubinski_wanted(void)
{
    static char buf[1024];
    const char *dir = getenv("GC_SHARED_DATA");
    snprintf(buf, sizeof buf, "%s/dubinski.tab.gz", dir && *dir ? dir : "../shared/data");
    return buf;
}

/* Path of the real Dubinski table, or NULL when it is not present. */
static inline const char *dubinski_path(void)
{
    const char *path = dubinski_wanted();
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fclose(f);
    return path;
}

/* Whether the command line asks for a test's part on the real Dubinski table (argument
 * "dubinski"). ctest registers that part as its own test, so that a machine without the
 * file reports it skipped (dubinski_skip) instead of passing it unrun. */
static inline int dubinski_part(int argc, char **argv)
{
    return argc > 1 && strcmp(argv[1], "dubinski") == 0;
}

/* Says why the Dubinski part cannot run and where to get the file; the status ctest reads
 * as "skipped". */
static inline int dubinski_skip(void)
{
    printf("SKIP: %s not found (%s)\n", dubinski_wanted(), GC_TEST_DUBINSKI_HELP);
    return 77;
}

static inline void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return;
    }
    fputs(text, f);
    fclose(f);
}

static inline double urand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * (1.0 / 9007199254740992.0);
}

/* n bodies uniformly in a ball of radius r with random masses in [0.5, 1.5]/n and small
 * random velocities: a generic, non-symmetric test system. */
static inline int random_ball(struct gc_bodies *b, size_t n, double r, double vscale,
                              uint64_t seed)
{
    uint64_t s = seed;
    if (gc_bodies_alloc(b, n) != GC_OK)
        return 0;
    for (size_t i = 0; i < n; i++) {
        double x, y, z;
        do {
            x = 2 * urand(&s) - 1;
            y = 2 * urand(&s) - 1;
            z = 2 * urand(&s) - 1;
        } while (x * x + y * y + z * z > 1.0);
        b->pos[4 * i + 0] = (float)(r * x);
        b->pos[4 * i + 1] = (float)(r * y);
        b->pos[4 * i + 2] = (float)(r * z);
        b->pos[4 * i + 3] = (float)((0.5 + urand(&s)) / (double)n);
        for (int k = 0; k < 3; k++)
            b->vel[4 * i + k] = (float)(vscale * (2 * urand(&s) - 1));
        b->tag[i] = GC_TAG(i & 1, GC_DISK);
    }
    return 1;
}

#endif
