/* The CPU backend's vector loops: each instruction set's all-pairs forces and potential against float64 and against the portable loops, the choice of the set, and threads. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend_bench.h"
#include "backend_cpu_simd.h"
#include "check.h"
#include "test_util.h"

#define EPS2 (0.025f * 0.025f)
/* Float pairs summed in double every 64 terms: the force error is float rounding. The
 * scalar loop these replaced measured 1.35e-7 (RMS) and 7.4e-7 (worst body) on 1,000 bodies
 * of the built-in pair; the vector loops measure 0.4-1.3e-7 and 3.4-9.6e-7 here. */
#define RMS_TOL 2e-7
#define BODY_TOL 2e-6

static const char *const isas[] = {"portable", "avx2", "avx512"};

static struct gc_backend *make(const char *isa, int threads)
{
    struct gc_backend_options opt = {0};
    struct gc_backend *be = NULL;
    opt.quiet = 1;
    opt.cpu_isa = isa;
    opt.threads = threads;
    return gc_backend_create("cpu", &opt, &be) == GC_OK ? be : NULL;
}

/* a_i in double, from the formula, self-pair skipped. */
static void reference(const struct gc_bodies *b, double *a)
{
    for (size_t i = 0; i < b->n; i++) {
        double s[3] = {0, 0, 0};
        for (size_t j = 0; j < b->n; j++) {
            double d[3], r2 = (double)EPS2;
            if (j == i)
                continue;
            for (int k = 0; k < 3; k++) {
                d[k] = (double)b->pos[4 * j + k] - b->pos[4 * i + k];
                r2 += d[k] * d[k];
            }
            for (int k = 0; k < 3; k++)
                s[k] += b->pos[4 * j + 3] * d[k] / (r2 * sqrt(r2));
        }
        memcpy(a + 3 * i, s, sizeof s);
    }
}

static double potential_ref(const struct gc_bodies *b)
{
    double w = 0.0;
    for (size_t i = 0; i < b->n; i++)
        for (size_t j = 0; j < i; j++) {
            double r2 = (double)EPS2;
            for (int k = 0; k < 3; k++) {
                const double d = (double)b->pos[4 * j + k] - b->pos[4 * i + k];
                r2 += d * d;
            }
            w -= (double)b->pos[4 * i + 3] * b->pos[4 * j + 3] / sqrt(r2);
        }
    return w;
}

/* Relative RMS of acc (vel xyz) against ref, and the worst body's relative error. */
static void errors(const struct gc_bodies *acc, const double *ref, double *rms, double *worst)
{
    double num = 0.0, den = 0.0;
    *worst = 0.0;
    for (size_t i = 0; i < acc->n; i++) {
        double e2 = 0.0, a2 = 0.0;
        for (int k = 0; k < 3; k++) {
            const double d = acc->vel[4 * i + k] - ref[3 * i + k];
            e2 += d * d;
            a2 += ref[3 * i + k] * ref[3 * i + k];
        }
        num += e2;
        den += a2;
        *worst = fmax(*worst, a2 > 0.0 ? sqrt(e2 / a2) : sqrt(e2));
    }
    *rms = den > 0.0 ? sqrt(num / den) : sqrt(num);
}

/* N = 1 and 2, N not a multiple of any vector width or tile, and N over several tiles and
 * sum blocks: each set against float64, against the portable loops, and its potential. */
static void test_forces(void)
{
    static const size_t ns[] = {1, 2, 3, 5, 17, 63, 65, 1000, 4099};
    for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
        struct gc_bodies b, acc[3];
        const size_t n = ns[t];
        double *ref = malloc(3 * n * sizeof *ref), wref;
        int have[3] = {0, 0, 0};
        CHECK(random_ball(&b, n, 1.0, 0.0, 11 + t) == 1);
        /* Two clumps far apart beside the ball: offsets of very different sizes. */
        for (size_t i = 0; i < n; i += 7)
            b.pos[4 * i] += i % 2 ? 30.0f : -30.0f;
        reference(&b, ref);
        wref = potential_ref(&b);
        for (int s = 0; s < 3; s++) {
            struct gc_backend *be = make(isas[s], 2);
            const struct gc_force_params fp = {.method = GC_FORCE_ALLPAIRS, .eps2 = EPS2};
            double rms, worst, w = 0.0;
            if (!be) {
                CHECK(s > 0); /* the portable loops run everywhere */
                continue;
            }
            have[s] = 1;
            CHECK(gc_bodies_alloc(&acc[s], n) == GC_OK);
            CHECK(gc_backend_accelerations(be, &b, &fp, &acc[s]) == GC_OK);
            errors(&acc[s], ref, &rms, &worst);
            CHECK(gc_backend_potential(be, &fp, &w) == GC_OK);
            printf("%-8s N %5zu: force vs float64 RMS %.2e, worst body %.2e; W %.2e\n",
                   isas[s], n, rms, worst, n > 1 ? fabs(w - wref) / fabs(wref) : w);
            if (n == 1) {
                /* The self-pair adds exactly zero, and there is no other. */
                CHECK(acc[s].vel[0] == 0.0f && acc[s].vel[1] == 0.0f && acc[s].vel[2] == 0.0f);
                CHECK(w == 0.0);
            } else {
                CHECK_LT(rms, RMS_TOL);
                CHECK_LT(worst, BODY_TOL);
                CHECK_LT(fabs(w - wref), 2e-7 * fabs(wref)); /* a few roundings a pair */
            }
            gc_backend_destroy(be);
        }
        /* Each set against the portable loops: the same forces within float rounding. */
        for (int s = 1; s < 3; s++)
            if (have[s] && have[0] && n > 1) {
                double rms, worst, *p = malloc(3 * n * sizeof *p);
                for (size_t i = 0; i < n; i++)
                    for (int k = 0; k < 3; k++)
                        p[3 * i + k] = acc[0].vel[4 * i + k];
                errors(&acc[s], p, &rms, &worst);
                CHECK_LT(rms, 2.0 * RMS_TOL);
                free(p);
            }
        for (int s = 0; s < 3; s++)
            if (have[s])
                gc_bodies_free(&acc[s]);
        gc_bodies_free(&b);
        free(ref);
    }
}

/* One pair at separations from 1e-3 to 1e3 softening lengths: the root and its refinement
 * alone (the offsets are exact, the first body sits at the origin). The portable loops
 * take the scalar loop's formula (a correctly rounded root and division, then three
 * products: 4.5e-7 at worst); the vector sets may not be worse anywhere. A Newton step of
 * the first order only, from AVX2's 12-bit estimate (2.6e-4 on AMD Zen), would leave 5e-7. */
static void test_pair_sweep(void)
{
    double portable = 0.0;
    for (int s = 0; s < 3; s++) {
        struct gc_backend *be = make(isas[s], 1);
        const struct gc_force_params fp = {.method = GC_FORCE_ALLPAIRS, .eps2 = EPS2};
        struct gc_bodies b, acc;
        uint64_t seed = 3;
        double worst = 0.0;
        if (!be)
            continue;
        CHECK(gc_bodies_alloc(&b, 2) == GC_OK && gc_bodies_alloc(&acc, 2) == GC_OK);
        for (int k = 0; k < 3000; k++) {
            const double r = 0.025 * pow(10.0, -3.0 + 6.0 * k / 2999.0);
            double u[3], u2 = 0.0, d2 = (double)EPS2, a[3], e2 = 0.0, a2 = 0.0;
            for (int c = 0; c < 3; c++) {
                u[c] = 2.0 * urand(&seed) - 1.0;
                u2 += u[c] * u[c];
            }
            memset(b.pos, 0, 8 * sizeof *b.pos);
            b.pos[3] = 1.0f;
            b.pos[7] = 1.0f;
            for (int c = 0; c < 3; c++) {
                b.pos[4 + c] = (float)(r * u[c] / sqrt(u2));
                d2 += (double)b.pos[4 + c] * b.pos[4 + c];
            }
            CHECK(gc_backend_accelerations(be, &b, &fp, &acc) == GC_OK);
            for (int c = 0; c < 3; c++) {
                a[c] = b.pos[4 + c] / (d2 * sqrt(d2));
                e2 += (acc.vel[c] - a[c]) * (acc.vel[c] - a[c]);
                a2 += a[c] * a[c];
            }
            worst = fmax(worst, sqrt(e2 / a2));
        }
        printf("%-8s one pair at 1e-3 to 1e3 eps: worst relative error %.2e\n", isas[s], worst);
        if (s == 0)
            portable = worst;
        CHECK_LT(worst, s == 0 ? 6e-7 : portable);
        gc_bodies_free(&b);
        gc_bodies_free(&acc);
        gc_backend_destroy(be);
    }
}

/* Forces are the same bits on any number of threads (tiles sum in a fixed order), and more
 * threads than cores are allowed. */
static void test_threads(void)
{
    struct gc_bodies b, a1, a3;
    struct gc_backend *one = make(NULL, 1), *three = make(NULL, 3);
    const struct gc_force_params fp = {.method = GC_FORCE_ALLPAIRS, .eps2 = EPS2};
    CHECK(one && three);
    CHECK(random_ball(&b, 777, 1.0, 0.0, 5) == 1);
    CHECK(gc_bodies_alloc(&a1, b.n) == GC_OK && gc_bodies_alloc(&a3, b.n) == GC_OK);
    if (one && three) {
        CHECK(gc_backend_accelerations(one, &b, &fp, &a1) == GC_OK);
        CHECK(gc_backend_accelerations(three, &b, &fp, &a3) == GC_OK);
        CHECK(memcmp(a1.vel, a3.vel, 4 * b.n * sizeof(float)) == 0);
        CHECK(strstr(gc_backend_device_name(three), "3 OpenMP threads") != NULL);
    }
    gc_backend_destroy(one);
    gc_backend_destroy(three);
    gc_bodies_free(&b);
    gc_bodies_free(&a1);
    gc_bodies_free(&a3);
}

/* The set is chosen once, at creation: by the option, else by GC_CPU_ISA (how a whole run is
 * made to take the portable loops, as on a CPU without AVX2), else the widest. */
static void test_choice(void)
{
    struct gc_backend_options opt = {0};
    struct gc_backend *be = NULL;
    const struct cpu_kernels *k = NULL;
    const struct cpu_kernels *first = NULL;
    opt.quiet = 1;
    CHECK(gc_cpu_kernels_choose("portable", &k) == GC_OK && strcmp(k->isa, "portable") == 0);
    /* "auto" takes the widest set this CPU runs: the first of the list asked by name that
     * is not refused (a CPU without AVX-512, or valgrind, which has none, takes AVX2). */
    for (int s = 2; s >= 0; s--)
        if (gc_cpu_kernels_choose(isas[s], &k) == GC_OK && !first)
            first = k;
    CHECK(gc_cpu_kernels_choose(NULL, &k) == GC_OK && k == first);
    printf("auto takes the %s loops\n", first ? first->isa : "(none)");
    CHECK(gc_cpu_kernels_choose("sse9", &k) == GC_ERR_INVALID);
    setenv("GC_CPU_ISA", "portable", 1);
    CHECK(gc_backend_create("cpu", &opt, &be) == GC_OK);
    CHECK(be && strstr(gc_backend_device_name(be), "portable loops") != NULL);
    gc_backend_destroy(be);
    setenv("GC_CPU_ISA", "sse9", 1);
    CHECK(gc_backend_create("cpu", &opt, &be) == GC_ERR_INVALID && be == NULL);
    opt.cpu_isa = "portable"; /* the option wins over the environment */
    CHECK(gc_backend_create("cpu", &opt, &be) == GC_OK);
    gc_backend_destroy(be);
    unsetenv("GC_CPU_ISA");
}

/* The benchmark's peak: each factor it names is in a sane range, and the loops' executed
 * flops an interaction are at least the 20 the convention counts. */
static void test_peak(void)
{
    struct gc_backend *be = make(NULL, 1);
    const struct gc_backend_bench *t = be ? gc_backend_bench(be) : NULL;
    struct gc_bench_peak pk;
    struct gc_cpu_peak p;
    gc_cpu_peak_estimate(1, &p);
    printf("peak of one thread: %.1f GFLOP/s = %s\n", p.flops * 1e-9, p.how);
    CHECK(p.cores == 1 && p.pipes == 2 && p.lanes >= 4 && p.lanes <= 16);
    CHECK(p.ghz > 0.2 && p.ghz < 10.0);
    CHECK(t && t->peak && t->peak(be, &pk) == GC_OK);
    CHECK(pk.pair_flops >= 20.0 && pk.flops > 0.0);
    gc_backend_destroy(be);
}

int main(void)
{
    test_forces();
    test_pair_sweep();
    test_threads();
    test_choice();
    test_peak();
    return CHECK_DONE();
}
