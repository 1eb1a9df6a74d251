/* Runs that cannot finish are told before they start: a step timed on a sample, scaled to N; memory checked against what is free. */
/* SPDX-License-Identifier: MIT */
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "clock.h"
#include "force.h"
#include "integrator.h"
#include "log.h"
#include "sim.h"

/* Sample sizes: large enough that a step is milliseconds of real work, not launch overhead
 * (a GPU needs tens of thousands of bodies for that), small enough to cost little. */
#define SAMPLE_HOST 8192
#define SAMPLE_DEVICE 65536
#define SAMPLE_TREE 32768

/* Field `key` of /proc/meminfo (kB) in bytes; -1 when unknown. */
static double meminfo(const char *key)
{
    char line[256];
    double v = -1.0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return -1.0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, strlen(key)) == 0 && line[strlen(key)] == ':') {
            v = 1024.0 * atof(line + strlen(key) + 1);
            break;
        }
    fclose(f);
    return v;
}

/* Virtual and resident size of this process, bytes (/proc/self/statm). */
static void self_size(double *vm, double *rss)
{
    unsigned long pages = 0, resident = 0;
    const double page = (double)sysconf(_SC_PAGESIZE);
    FILE *f = fopen("/proc/self/statm", "r");
    *vm = *rss = 0.0;
    if (!f)
        return;
    if (fscanf(f, "%lu %lu", &pages, &resident) == 2) {
        *vm = page * (double)pages;
        *rss = page * (double)resident;
    }
    fclose(f);
}

/* What more this process may allocate: the machine's available memory, and the address
 * space left under RLIMIT_AS (ulimit -v). */
static double bytes_free(void)
{
    struct rlimit rl;
    double avail = meminfo("MemAvailable"), vm, rss;
    self_size(&vm, &rss);
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY) {
        const double left = (double)rl.rlim_cur - vm;
        if (avail < 0.0 || left < avail)
            avail = left > 0.0 ? left : 0.0;
    }
    return avail;
}

/* Every k-th body, their masses scaled so that the sample weighs what the whole does (the
 * tree's cost and the Hermite steps depend on the mass distribution). */
static enum gc_status sample(const struct gc_bodies *b, size_t m, struct gc_bodies *out)
{
    const size_t k = b->n / m;
    const double scale = (double)b->n / (double)m;
    enum gc_status st = gc_bodies_alloc(out, m);
    if (st == GC_OK && b->pos64)
        st = gc_bodies_alloc_f64(out);
    if (st != GC_OK) {
        gc_bodies_free(out);
        return st;
    }
    for (size_t i = 0; i < m; i++) {
        const size_t j = i * k;
        memcpy(&out->pos[4 * i], &b->pos[4 * j], 4 * sizeof *out->pos);
        memcpy(&out->vel[4 * i], &b->vel[4 * j], 4 * sizeof *out->vel);
        out->pos[4 * i + 3] = (float)(b->pos[4 * j + 3] * scale);
        out->tag[i] = b->tag[j];
        if (b->pos64) {
            memcpy(&out->pos64[3 * i], &b->pos64[3 * j], 3 * sizeof *out->pos64);
            memcpy(&out->vel64[3 * i], &b->vel64[3 * j], 3 * sizeof *out->vel64);
            out->mass64[i] = b->mass64[j] * scale;
        }
    }
    return GC_OK;
}

/* "1.2 s", "3.4 min", "5.6 h", "7.8 days". */
static const char *duration(double s, char *buf, size_t cap)
{
    if (s < 120.0)
        snprintf(buf, cap, "%.2g s", s);
    else if (s < 7200.0)
        snprintf(buf, cap, "%.2g min", s / 60.0);
    else if (s < 172800.0)
        snprintf(buf, cap, "%.2g h", s / 3600.0);
    else
        snprintf(buf, cap, "%.2g days", s / 86400.0);
    return buf;
}

/* Times the sample's start (one force pass, two for Hermite) and one step. */
static enum gc_status time_sample(const struct gc_options *o, const struct gc_bodies *s,
                                  struct gc_backend *backend, const char *force, double *pass_s,
                                  double *bytes_per_body)
{
    struct gc_sim *sim = NULL;
    struct gc_sim_params p = o->params;
    double vm, rss0, rss1, t0, t1, t2;
    const int block = gc_integrator_has(gc_integrator_find(p.integrator),
                                        GC_INTEGRATOR_BLOCK_STEPS);
    enum gc_status st;
    p.force = force;
    p.profile = 0;
    self_size(&vm, &rss0);
    t0 = gc_clock_seconds();
    st = gc_sim_create(backend, NULL, s, &p, NULL, &sim);
    if (st != GC_OK)
        return st;
    st = gc_backend_sync(backend);
    /* The first step warms caches and threads up; the second is timed. */
    if (st == GC_OK && !block)
        st = gc_sim_advance(sim, (double)p.dt);
    if (st == GC_OK)
        st = gc_backend_sync(backend);
    t1 = gc_clock_seconds();
    if (st == GC_OK && !block)
        st = gc_sim_advance(sim, 2.0 * (double)p.dt);
    if (st == GC_OK)
        st = gc_backend_sync(backend);
    t2 = gc_clock_seconds();
    self_size(&vm, &rss1);
    gc_sim_destroy(sim);
    /* Leapfrog: the step (one force pass and the kicks); Hermite: a pass of its start's two,
     * which is the cost of a block step in which every body is due. */
    *pass_s = block ? 0.5 * (t1 - t0) : t2 - t1;
    *bytes_per_body = rss1 > rss0 ? (rss1 - rss0) / (double)s->n : 0.0;
    return st;
}

enum gc_status gc_plan_check(const struct gc_options *o, const struct gc_bodies *bodies,
                             struct gc_backend *backend, int ranks, struct gc_plan *out)
{
    struct gc_plan plan;
    struct gc_bodies s = {0};
    enum gc_force_method method;
    const double n = (double)bodies->n;
    const int device = gc_backend_is_device(backend);
    const int block = gc_integrator_has(gc_integrator_find(o->params.integrator),
                                        GC_INTEGRATOR_BLOCK_STEPS);
    const double body_bytes = 4.0 * sizeof(float) * 2 + 1 + (bodies->pos64 ? 7 * 8.0 : 0.0);
    size_t m;
    double pass_s = 0.0, per_body = 0.0, scale;
    char a[32];
    enum gc_status st;

    memset(&plan, 0, sizeof plan);
    if (out)
        *out = plan;
    st = gc_force_method_choose(o->params.force, bodies->n, backend, &method);
    if (st != GC_OK)
        return st;
    if (block)
        method = GC_FORCE_ALLPAIRS; /* a collisional scheme always takes every pair */
    m = method == GC_FORCE_TREE ? SAMPLE_TREE : device ? SAMPLE_DEVICE : SAMPLE_HOST;
    if (bodies->n <= m)
        return GC_OK; /* the run itself is as small as the sample */
    st = sample(bodies, m, &s);
    if (st == GC_OK) {
        /* The sample's messages (its force method, say) are not the run's. */
        gc_log_set_level(GC_LOG_ERROR);
        st = time_sample(o, &s, backend, gc_force_method_name(method), &pass_s, &per_body);
        gc_log_set_level(o->quiet ? GC_LOG_ERROR : GC_LOG_INFO);
    }
    gc_bodies_free(&s);
    if (st != GC_OK)
        return GC_OK; /* no estimate; the run says what fails */
    /* All pairs cost N^2, the tree N log N; ranks share the work. */
    scale = method == GC_FORCE_TREE ? (n * log2(n)) / ((double)m * log2((double)m))
                                    : (n / (double)m) * (n / (double)m);
    plan.step_s = pass_s * scale / (double)(ranks > 0 ? ranks : 1);
    plan.n_one_second = method == GC_FORCE_TREE || pass_s <= 0.0
                            ? 0
                            : (size_t)((double)m * sqrt(1.0 / pass_s));
    /* The simulation's own arrays (as the sample grew this process), and the modes' two
     * copies of the bodies (diagnostics, snapshots); the initial bodies are allocated. */
    plan.bytes_needed = n * (per_body + 2.0 * body_bytes);
    plan.bytes_free = bytes_free();
    if (out)
        *out = plan;
    if (plan.bytes_free > 0.0 && plan.bytes_needed > plan.bytes_free) {
        gc_log_error("%zu bodies need about %.3g GB more memory on the %s backend (%.0f bytes "
                     "a body), but %.3g GB is available: use fewer bodies (-n)", bodies->n,
                     1e-9 * plan.bytes_needed, gc_backend_name(backend),
                     per_body + 2.0 * body_bytes, 1e-9 * plan.bytes_free);
        return GC_ERR_NOMEM;
    }
    if (plan.step_s > GC_PLAN_SLOW_STEP_S) {
        char faster[320];
        int k = 0;
        faster[0] = '\0';
        if (plan.n_one_second > 0 && plan.n_one_second < bodies->n)
            k += snprintf(faster + k, sizeof faster - (size_t)k, "fewer bodies (-n %zu takes "
                          "about 1 s a %s)", plan.n_one_second, block ? "force pass" : "step");
        if (!device && strstr(gc_backend_available(), "cuda"))
            k += snprintf(faster + k, sizeof faster - (size_t)k, "%sa GPU (--backend cuda)",
                          k ? ", " : "");
        if (method == GC_FORCE_ALLPAIRS && !block)
            k += snprintf(faster + k, sizeof faster - (size_t)k, "%sthe tree force "
                          "(--force tree)", k ? ", " : "");
        gc_log_warn("%zu bodies: a %s will take about %s on the %s backend (%s; timed on %zu "
                    "of them)%s%s; the run starts now and reports its progress (Ctrl-C stops "
                    "it after the step in progress, a second Ctrl-C at once)", bodies->n, block ? "force pass over every body" : "step",
                    duration(plan.step_s, a, sizeof a), gc_backend_name(backend),
                    method == GC_FORCE_TREE ? "tree force" : "all pairs", m,
                    k ? ": for a faster run, " : "", faster);
    }
    return GC_OK;
}
