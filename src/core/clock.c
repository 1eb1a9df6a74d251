/* The monotonic clock (clock.h). */
/* SPDX-License-Identifier: MIT */
#include "clock.h"

#include <time.h>

double gc_clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
