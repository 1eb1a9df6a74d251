/* Minimal test assertions: report file:line and count failures; tests return non-zero on any. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CHECK_H
#define GC_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int check_failures = 0;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);    \
            check_failures++;                                                          \
        }                                                                              \
    } while (0)

/* Like CHECK, with the two values printed. */
#define CHECK_NEAR(a, b, tol)                                                          \
    do {                                                                               \
        double ca_ = (double)(a), cb_ = (double)(b), ct_ = (double)(tol);               \
        if (!(fabs(ca_ - cb_) <= ct_)) {                                               \
            fprintf(stderr, "%s:%d: CHECK_NEAR failed: %s = %.10g, %s = %.10g, tol %.3g\n", \
                    __FILE__, __LINE__, #a, ca_, #b, cb_, ct_);                        \
            check_failures++;                                                          \
        }                                                                              \
    } while (0)

#define CHECK_LT(a, b)                                                                 \
    do {                                                                               \
        double ca_ = (double)(a), cb_ = (double)(b);                                   \
        if (!(ca_ < cb_)) {                                                            \
            fprintf(stderr, "%s:%d: CHECK_LT failed: %s = %.6g is not below %s = %.6g\n", \
                    __FILE__, __LINE__, #a, ca_, #b, cb_);                             \
            check_failures++;                                                          \
        }                                                                              \
    } while (0)

/* Exit status for main: 0 when every check passed. */
#define CHECK_DONE()                                                                   \
    (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1)     \
                    : (printf("all checks passed\n"), 0))

/* Return value that ctest reports as "skipped" (SKIP_RETURN_CODE 77). */
#define CHECK_SKIP 77

#endif
