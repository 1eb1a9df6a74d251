/* Tests of the CUDA backend: forces against float64, update kernels, potential, export, energy drift. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_bench.h"
#include "backend_cuda.h"
#include "backend_picture.h"
#include "render_buffer.h"
#include "bodies.h"
#include "check.h"
#include "test_util.h"
#include "diagnostics.h"
#include "table.h"
#include "sim.h"
#include "test_util.h"

/* The accuracy bound for the float32 force pass against float64 (norm-wise). */
#define FORCE_RMS_TOL 1e-5
/* Rows of the float64 reference at large N: an even sample keeps the O(N) per row host
 * reference to ~0.3e9 pair evaluations at N = 81,920. */
#define REF_ROWS 4096

static const double PI = 3.14159265358979323846;

/* Plummer sphere (Aarseth, Henon & Wielen 1974) in Henon units (G = M = 1, E = -1/4):
 * virialised, so a leapfrog run of it conserves energy to a known order. */
static void plummer(struct gc_bodies *b, uint64_t seed)
{
    const double sc = 3.0 * PI / 16.0; /* length scale of Henon units */
    uint64_t s = seed;
    for (size_t i = 0; i < b->n; i++) {
        double r, x, y, v, z, ph;
        do
            r = 1.0 / sqrt(pow(urand(&s) * 0.999 + 1e-6, -2.0 / 3.0) - 1.0);
        while (r > 10.0);
        z = 2.0 * urand(&s) - 1.0;
        ph = 2.0 * PI * urand(&s);
        b->pos[4 * i + 0] = (float)(sc * r * sqrt(1 - z * z) * cos(ph));
        b->pos[4 * i + 1] = (float)(sc * r * sqrt(1 - z * z) * sin(ph));
        b->pos[4 * i + 2] = (float)(sc * r * z);
        b->pos[4 * i + 3] = (float)(1.0 / (double)b->n);
        do {
            x = urand(&s);
            y = urand(&s) * 0.1;
        } while (y > x * x * pow(1.0 - x * x, 3.5));
        v = x * sqrt(2.0) * pow(1.0 + r * r, -0.25) / sqrt(sc);
        z = 2.0 * urand(&s) - 1.0;
        ph = 2.0 * PI * urand(&s);
        b->vel[4 * i + 0] = (float)(v * sqrt(1 - z * z) * cos(ph));
        b->vel[4 * i + 1] = (float)(v * sqrt(1 - z * z) * sin(ph));
        b->vel[4 * i + 2] = (float)(v * z);
        b->vel[4 * i + 3] = 0.0f;
    }
}

/* Random bodies in a unit cube with masses in (0.5, 1.5) / n: not an equilibrium, just
 * arbitrary valid input for the force check. */
static void random_bodies(struct gc_bodies *b, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < b->n; i++) {
        for (int k = 0; k < 3; k++) {
            b->pos[4 * i + k] = (float)(2.0 * urand(&s) - 1.0);
            b->vel[4 * i + k] = (float)(0.1 * (2.0 * urand(&s) - 1.0));
        }
        b->pos[4 * i + 3] = (float)((0.5 + urand(&s)) / (double)b->n);
        b->vel[4 * i + 3] = 0.0f;
    }
}

/* a = accel(x) read back through the table: with v = 0, kick(1) leaves v = a exactly. */
static enum gc_status gpu_accel(struct gc_backend *b, const struct gc_bodies *in, float eps2,
                                struct gc_bodies *out)
{
    enum gc_status st;
    memcpy(out->pos, in->pos, in->n * 4 * sizeof(float));
    memset(out->vel, 0, in->n * 4 * sizeof(float));
    st = gc_backend_upload(b, out);
    if (st == GC_OK)
        st = gc_backend_accel(b, ALLPAIRS(eps2));
    if (st == GC_OK)
        st = gc_backend_kick(b, 1.0f);
    for (size_t i = 0; i < 4 * in->n; i++)
        out->vel[i] = NAN; /* poison: download must overwrite every element */
    if (st == GC_OK)
        st = gc_backend_download(b, out);
    return st;
}

static void ref_row(const struct gc_bodies *b, size_t i, double eps2, double a[3])
{
    a[0] = a[1] = a[2] = 0.0;
    for (size_t j = 0; j < b->n; j++) {
        const double dx = (double)b->pos[4 * j] - b->pos[4 * i];
        const double dy = (double)b->pos[4 * j + 1] - b->pos[4 * i + 1];
        const double dz = (double)b->pos[4 * j + 2] - b->pos[4 * i + 2];
        const double r2 = dx * dx + dy * dy + dz * dz + eps2;
        const double s = b->pos[4 * j + 3] / (r2 * sqrt(r2));
        a[0] += dx * s;
        a[1] += dy * s;
        a[2] += dz * s;
    }
}

/* Norm-wise relative RMS error of the GPU forces over (a sample of) rows. */
static void check_forces(struct gc_backend *b, const struct gc_bodies *in, float eps2,
                         const char *what)
{
    struct gc_bodies out;
    const size_t n = in->n, rows = n < REF_ROWS ? n : REF_ROWS;
    double num = 0.0, den = 0.0, worst = 0.0;
    int finite = 1;
    CHECK(gc_bodies_alloc(&out, n) == GC_OK);
    CHECK(gpu_accel(b, in, eps2, &out) == GC_OK);
    for (size_t i = 0; i < 4 * n; i++)
        if (i % 4 != 3 && !isfinite(out.vel[i]))
            finite = 0;
    CHECK(finite);
#pragma omp parallel for reduction(+ : num, den) reduction(max : worst) schedule(dynamic, 8)
    for (long r = 0; r < (long)rows; r++) {
        const size_t i = (size_t)r * n / rows;
        double a[3], d2 = 0.0, a2 = 0.0;
        ref_row(in, i, (double)eps2, a);
        for (int k = 0; k < 3; k++) {
            const double d = (double)out.vel[4 * i + k] - a[k];
            d2 += d * d;
            a2 += a[k] * a[k];
        }
        num += d2;
        den += a2;
        if (a2 > 0.0 && sqrt(d2 / a2) > worst)
            worst = sqrt(d2 / a2);
    }
    if (n == 1) {
        /* A lone body feels nothing: the self-pair must add exactly zero. */
        CHECK(out.vel[0] == 0.0f && out.vel[1] == 0.0f && out.vel[2] == 0.0f);
    } else {
        const double rms = sqrt(num / den);
        printf("forces %-28s N = %6zu (%s, %s): relative RMS %.3e, max per-body %.3e\n", what,
               n, gc_backend_bench(b)->plan(b), rows == n ? "all rows" : "4096 sampled rows",
               rms, worst);
        CHECK_LT(rms, FORCE_RMS_TOL);
    }
    gc_bodies_free(&out);
}

static void test_forces(struct gc_backend *b)
{
    static const size_t ns[] = {1, 7, 1000, 4096 + 13, 81920};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        struct gc_bodies in;
        CHECK(gc_bodies_alloc(&in, ns[k]) == GC_OK);
        random_bodies(&in, 17 + k);
        check_forces(b, &in, 0.01f * 0.01f, "random cube");
        gc_bodies_free(&in);
    }
}

/* The real data set at full size, with its archive softening (eps = 0.025). */
static void test_forces_dubinski(struct gc_backend *b, const char *path)
{
    struct gc_bodies in;
    CHECK(gc_table_read(path, &in) == GC_OK);
    if (in.n == 0)
        return;
    check_forces(b, &in, GC_DEFAULT_EPS * GC_DEFAULT_EPS, "dubinski.tab");
    gc_bodies_free(&in);
}

/* Same input twice gives the same bits: the j-split partials are summed in fixed order. */
static void test_repeatable(struct gc_backend *b)
{
    struct gc_bodies in, o1, o2;
    CHECK(gc_bodies_alloc(&in, 5000) == GC_OK);
    CHECK(gc_bodies_alloc(&o1, 5000) == GC_OK);
    CHECK(gc_bodies_alloc(&o2, 5000) == GC_OK);
    random_bodies(&in, 99);
    CHECK(gpu_accel(b, &in, 1e-4f, &o1) == GC_OK);
    CHECK(gpu_accel(b, &in, 1e-4f, &o2) == GC_OK);
    CHECK(memcmp(o1.vel, o2.vel, 5000 * 4 * sizeof(float)) == 0);
    gc_bodies_free(&in);
    gc_bodies_free(&o1);
    gc_bodies_free(&o2);
}

/* Kick, drift and fused kick+drift against the same arithmetic on the host. */
static void test_updates(struct gc_backend *b)
{
    const size_t n = 3001;
    const float dt = 0.01f, eps2 = 1e-4f;
    struct gc_bodies in, acc, out;
    double worst = 0.0;
    CHECK(gc_bodies_alloc(&in, n) == GC_OK);
    CHECK(gc_bodies_alloc(&acc, n) == GC_OK);
    CHECK(gc_bodies_alloc(&out, n) == GC_OK);
    random_bodies(&in, 5);
    CHECK(gpu_accel(b, &in, eps2, &acc) == GC_OK);
    CHECK(gc_backend_upload(b, &in) == GC_OK);
    CHECK(gc_backend_accel(b, ALLPAIRS(eps2)) == GC_OK);
    CHECK(gc_backend_kick_drift(b, 0.0f, 0.5f * dt, dt) == GC_OK);
    CHECK(gc_backend_kick(b, 0.25f * dt) == GC_OK);
    CHECK(gc_backend_drift(b, -dt) == GC_OK);
    CHECK(gc_backend_download(b, &out) == GC_OK);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 3; k++) {
            const double v1 = in.vel[4 * i + k] + 0.5 * dt * acc.vel[4 * i + k];
            const double x1 = in.pos[4 * i + k] + dt * v1;
            const double v2 = v1 + 0.25 * dt * acc.vel[4 * i + k];
            const double x2 = x1 - dt * v2;
            worst = fmax(worst, fabs(out.vel[4 * i + k] - v2) / (fabs(v2) + 1e-3));
            worst = fmax(worst, fabs(out.pos[4 * i + k] - x2) / (fabs(x2) + 1e-3));
        }
    CHECK_LT(worst, 1e-5);
    CHECK(out.pos[3] == in.pos[3]); /* masses untouched */
    gc_bodies_free(&in);
    gc_bodies_free(&acc);
    gc_bodies_free(&out);
}

/* GPU potential (float pairs, double sums) against the host's all-double one. */
static void test_potential(struct gc_backend *b)
{
    struct gc_bodies in;
    double w = 0.0, ref;
    CHECK(gc_bodies_alloc(&in, 4109) == GC_OK);
    plummer(&in, 3);
    CHECK(gc_backend_upload(b, &in) == GC_OK);
    CHECK(gc_backend_potential(b, ALLPAIRS(0.05f * 0.05f),
                               &w) == GC_OK);
    ref = gc_diagnostics_potential(&in, 0.05f);
    printf("potential N = 4109: gpu %.10f, float64 host %.10f, relative %.2e\n", w, ref,
           fabs(w - ref) / fabs(ref));
    CHECK(ref < 0.0);
    CHECK_LT(fabs(w - ref) / fabs(ref), 1e-5);
    gc_bodies_free(&in);
}

/* Without interop (or with a VBO name but --no-interop) export copies through the host. */
static void test_export_host(void)
{
    struct gc_backend_options o = {0};
    struct gc_backend *b = NULL;
    struct gc_bodies in, dl;
    struct gc_render_buffer rb = {0};
    o.no_interop = 1;
    o.quiet = 1;
    CHECK(gc_backend_create("cuda", &o, &b) == GC_OK);
    if (!b)
        return;
    CHECK(gc_bodies_alloc(&in, 777) == GC_OK);
    CHECK(gc_bodies_alloc(&dl, 777) == GC_OK);
    random_bodies(&in, 8);
    CHECK(gc_backend_upload(b, &in) == GC_OK);
    rb.n = 777;
    rb.vbo_pos = 12345; /* ignored under no_interop */
    rb.h_pos = calloc(4 * 777, sizeof(float));
    rb.h_vel = calloc(4 * 777, sizeof(float));
    rb.written_to_vbo = 1;
    CHECK(gc_backend_export_positions(b, &rb) == GC_OK);
    CHECK(rb.written_to_vbo == 0);
    CHECK(gc_backend_download(b, &dl) == GC_OK);
    CHECK(memcmp(rb.h_pos, dl.pos, 777 * 4 * sizeof(float)) == 0);
    CHECK(memcmp(rb.h_vel, dl.vel, 777 * 4 * sizeof(float)) == 0);
    /* No staging array and no interop: a clear error, not a crash. */
    free(rb.h_pos);
    rb.h_pos = NULL;
    CHECK(gc_backend_export_positions(b, &rb) == GC_ERR_UNSUPPORTED);
    CHECK(gc_backend_picture_detach(b) == GC_OK);
    free(rb.h_vel);
    gc_bodies_free(&in);
    gc_bodies_free(&dl);
    gc_backend_destroy(b);
}

/* 1000 leapfrog steps of a 2048-body Plummer sphere on the GPU and the CPU. With
 * dt = 1/256 of a Henon time unit (crossing time ~2.8) and eps = 0.05 the leapfrog's
 * energy error stays ~1e-5 (second order, bounded); 1e-3 leaves room for float32 while
 * still catching a wrong kick order or a half step missed (those drift by per cents). The
 * GPU's drift must also match the CPU's to within the same bound ("drift unchanged"). */
static void test_energy_drift(struct gc_backend *gpu)
{
    struct gc_backend *cpu = NULL;
    struct gc_backend *bs[2];
    struct gc_bodies in, scratch;
    struct gc_sim_params p;
    double drift[2] = {1, 1};
    CHECK(gc_backend_create("cpu", NULL, &cpu) == GC_OK);
    bs[0] = gpu;
    bs[1] = cpu;
    CHECK(gc_bodies_alloc(&in, 2048) == GC_OK);
    CHECK(gc_bodies_alloc(&scratch, 2048) == GC_OK);
    plummer(&in, 11);
    gc_sim_params_default(&p);
    p.dt = 1.0f / 256.0f;
    p.eps = 0.05f;
    for (int k = 0; k < 2 && cpu; k++) {
        struct gc_sim *sim = NULL;
        struct gc_diagnostics d0, d1;
        CHECK(gc_sim_create(bs[k], NULL, &in, &p, NULL, &sim) == GC_OK);
        CHECK(gc_sim_measure(sim, &scratch, &d0) == GC_OK);
        CHECK(d0.energy < 0.0 && fabs(d0.energy) > 0.1); /* never a vacuous check */
        CHECK(gc_sim_advance(sim, gc_sim_time(sim) + (double)(1000) * gc_sim_params(sim)->dt) ==
          GC_OK);
        CHECK(gc_backend_sync(bs[k]) == GC_OK);
        CHECK(gc_sim_measure(sim, &scratch, &d1) == GC_OK);
        drift[k] = (d1.energy - d0.energy) / fabs(d0.energy);
        {
            /* Pairwise forces are antisymmetric, so total momentum changes only by float
             * rounding of the sums: ~1e-7 of the bodies' momentum scale over the run. */
            double dp = 0.0;
            for (int c = 0; c < 3; c++)
                dp += (d1.momentum[c] - d0.momentum[c]) * (d1.momentum[c] - d0.momentum[c]);
            dp = sqrt(dp);
            printf("energy drift over 1000 steps, %s: E0 %.8f, E1 %.8f, dE/|E0| %.3e, "
                   "|P1 - P0| %.2e\n", gc_backend_name(bs[k]), d0.energy, d1.energy,
                   drift[k], dp);
            CHECK_LT(dp, 1e-5);
        }
        CHECK_LT(fabs(drift[k]), 1e-3);
        gc_sim_destroy(sim);
    }
    CHECK_LT(fabs(drift[0] - drift[1]), 1e-3);
    gc_backend_destroy(cpu);
    gc_bodies_free(&in);
    gc_bodies_free(&scratch);
}

/* Usage: test_backend_cuda [dubinski]. With "dubinski", only the forces on the real table
 * (their own ctest test, skipped without the file); without, everything else. */
int main(int argc, char **argv)
{
    struct gc_backend_options o = {0};
    struct gc_backend *b = NULL;
    const char *dub = NULL;
    if (gc_backend_cuda_device_count() == 0) {
        printf("SKIP: no CUDA device\n");
        return CHECK_SKIP;
    }
    if (dubinski_part(argc, argv) && !(dub = dubinski_path()))
        return dubinski_skip();
    /* A device exists, so from here on every failure is a real failure. */
    CHECK(gc_backend_create("cuda", &o, &b) == GC_OK);
    if (!b)
        return CHECK_DONE();
    printf("device: %s\n", gc_backend_device_name(b));
    if (dub) {
        test_forces_dubinski(b, dub);
        gc_backend_destroy(b);
        return CHECK_DONE();
    }
    CHECK(strcmp(gc_backend_name(b), "cuda") == 0);
    o.device = 99;
    {
        struct gc_backend *bad = NULL;
        CHECK(gc_backend_create("cuda", &o, &bad) == GC_ERR_INVALID && bad == NULL);
    }
    test_forces(b);
    test_repeatable(b);
    test_updates(b);
    test_potential(b);
    test_export_host();
    test_energy_drift(b);
    gc_backend_destroy(b);
    return CHECK_DONE();
}
