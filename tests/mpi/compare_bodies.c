/* Compares the positions of two body files (tables or HDF5 snapshots): exit 0 when they agree within a tolerance relative to the system's size. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bodies.h"
#include "io.h"

/* Usage: compare_bodies A B TOL
 * Prints the largest position difference over all bodies and the RMS radius about the
 * centre of mass of A; fails (exit 1) when the difference exceeds TOL times that radius,
 * or the files hold different numbers of bodies; exit 2 when a file cannot be read. */
static double coord(const struct gc_bodies *b, size_t i, int k)
{
    return b->pos64 ? b->pos64[3 * i + k] : b->pos[4 * i + k];
}

int main(int argc, char **argv)
{
    struct gc_bodies a = {0}, b = {0};
    double tol, m = 0.0, c[3] = {0, 0, 0}, r2 = 0.0, dmax = 0.0, radius;
    int rc;
    if (argc != 4 || (tol = atof(argv[3])) <= 0.0) {
        fprintf(stderr, "usage: compare_bodies A B TOL\n");
        return 2;
    }
    if (gc_io_read(argv[1], &a, NULL) != GC_OK || gc_io_read(argv[2], &b, NULL) != GC_OK)
        return 2;
    if (a.n != b.n) {
        printf("FAIL %s has %zu bodies, %s %zu\n", argv[1], a.n, argv[2], b.n);
        return 1;
    }
    for (size_t i = 0; i < a.n; i++) {
        const double mi = a.pos[4 * i + 3];
        m += mi;
        for (int k = 0; k < 3; k++)
            c[k] += mi * coord(&a, i, k);
    }
    for (size_t i = 0; i < a.n; i++) {
        double d2 = 0.0;
        for (int k = 0; k < 3; k++) {
            const double x = coord(&a, i, k) - c[k] / m, d = coord(&a, i, k) - coord(&b, i, k);
            r2 += x * x;
            d2 += d * d;
        }
        dmax = isfinite(d2) ? fmax(dmax, sqrt(d2)) : INFINITY;
    }
    radius = sqrt(r2 / (double)a.n);
    rc = dmax <= tol * radius ? 0 : 1;
    printf("%s %zu bodies: largest position difference %.3g (%s), RMS radius %.4g, "
           "tolerance %.3g of it\n", rc ? "FAIL" : "ok  ", a.n, dmax,
           dmax == 0.0 ? "identical" : "differ", radius, tol);
    gc_bodies_free(&a);
    gc_bodies_free(&b);
    return rc;
}
