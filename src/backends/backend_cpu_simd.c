/* Which instruction set the CPU backend's force loops use, chosen at run time from the CPU's features, and the FP32 peak of the cores they run on. */
/* SPDX-License-Identifier: MIT */
#include "backend_cpu_simd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"

/* Whether this CPU (and its operating system, which must save the wide registers) runs a
 * set. GCC's and Clang's __builtin_cpu_supports check both. */
static int supported(const struct cpu_kernels *k)
{
#if defined(GC_CPU_X86)
    __builtin_cpu_init();
    if (k == &gc_cpu_kernels_avx512)
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
               __builtin_cpu_supports("fma");
    if (k == &gc_cpu_kernels_avx2)
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
    return k == &gc_cpu_kernels_portable;
}

/* Widest first: "auto" takes the first this CPU runs. */
static const struct cpu_kernels *const sets[] = {
#if defined(GC_CPU_X86)
    &gc_cpu_kernels_avx512,
    &gc_cpu_kernels_avx2,
#endif
    &gc_cpu_kernels_portable,
};
#define NSETS (sizeof sets / sizeof sets[0])

enum gc_status gc_cpu_kernels_choose(const char *request, const struct cpu_kernels **out)
{
    const int any = !request || !*request || strcmp(request, "auto") == 0;
    for (size_t k = 0; k < NSETS; k++) {
        if (!any && strcmp(request, sets[k]->isa) != 0)
            continue;
        if (supported(sets[k])) {
            *out = sets[k];
            return GC_OK;
        }
        if (any)
            continue; /* the next narrower set; the portable loops run everywhere */
        gc_log_error("cpu backend: this CPU does not run the '%s' loops (it lacks the "
                     "instructions, or the operating system does not enable them)", request);
        return GC_ERR_UNSUPPORTED;
    }
    if (strcmp(request, "avx512") == 0 || strcmp(request, "avx2") == 0) {
        gc_log_error("cpu backend: this build has no '%s' loops (they are x86-64's)", request);
        return GC_ERR_UNSUPPORTED;
    }
    gc_log_error("cpu backend: unknown instruction set '%s'; known: auto, avx512, avx2, "
                 "portable", request);
    return GC_ERR_INVALID;
}

/* ---- the peak ---- */

/* Reads "key : value" fields of the first processor of /proc/cpuinfo (the largest
 * "cpu MHz" of all of them). */
struct cpuinfo {
    char vendor[32];
    int family, model, cores, siblings;
    double mhz;
};

static void read_cpuinfo(struct cpuinfo *ci)
{
    char line[512];
    int first = 1;
    FILE *f = fopen("/proc/cpuinfo", "r");
    memset(ci, 0, sizeof *ci);
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        const char *v = strchr(line, ':');
        if (!v)
            continue;
        v++;
        if (strncmp(line, "processor", 9) == 0 && ci->vendor[0])
            first = 0;
        if (strncmp(line, "cpu MHz", 7) == 0 && atof(v) > ci->mhz)
            ci->mhz = atof(v);
        if (!first)
            continue;
        if (strncmp(line, "vendor_id", 9) == 0)
            sscanf(v, " %31s", ci->vendor);
        else if (strncmp(line, "cpu family", 10) == 0)
            ci->family = atoi(v);
        else if (strncmp(line, "model", 5) == 0 && (line[5] == '\t' || line[5] == ' '))
            ci->model = atoi(v);
        else if (strncmp(line, "cpu cores", 9) == 0)
            ci->cores = atoi(v);
        else if (strncmp(line, "siblings", 8) == 0)
            ci->siblings = atoi(v);
    }
    fclose(f);
}

/* The highest clock the cores reach (cpufreq, kHz), else /proc/cpuinfo's; *src names it. */
static double clock_ghz(const struct cpuinfo *ci, const char **src)
{
    long khz = 0;
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    if (f) {
        if (fscanf(f, "%ld", &khz) != 1)
            khz = 0;
        fclose(f);
    }
    if (khz > 0) {
        *src = "cpufreq cpuinfo_max_freq";
        return (double)khz * 1e-6;
    }
    *src = "/proc/cpuinfo cpu MHz";
    return ci->mhz * 1e-3;
}

/* Bits of float data one FMA pipe executes a cycle. Every x86 core with AVX2 since Haswell
 * and Zen 2 has two 256-bit FMA pipes; AMD's first Zen had 128-bit ones and Zen 4 runs
 * 512-bit instructions on its 256-bit pipes in two halves. Elsewhere: the widest set the
 * CPU runs, which is the peak's upper end (a lower figure would flatter the loops). */
static int pipe_bits(const struct cpuinfo *ci, const char **why)
{
    const int amd = strcmp(ci->vendor, "AuthenticAMD") == 0;
    if (amd && ci->family == 0x17 && ci->model < 0x30) {
        *why = "AMD Zen 1: 128-bit FMA pipes";
        return 128;
    }
    if (amd && (ci->family == 0x17 || ci->family == 0x19)) {
        *why = ci->family == 0x19 ? "AMD Zen 3/4: 256-bit FMA pipes (AVX-512 in two halves)"
                                  : "AMD Zen 2: 256-bit FMA pipes";
        return 256;
    }
#if defined(GC_CPU_X86)
    if (supported(&gc_cpu_kernels_avx512)) {
        *why = "AVX-512: 512-bit FMA pipes assumed";
        return 512;
    }
    if (supported(&gc_cpu_kernels_avx2)) {
        *why = "AVX2: 256-bit FMA pipes";
        return 256;
    }
#endif
    *why = "no AVX2: 128-bit pipes assumed";
    return 128;
}

#if defined(GC_CPU_X86) && defined(__x86_64__)
static double thread_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The clock a core runs at now, in GHz: a chain of dependent integer additions (one a
 * cycle on every x86 core) timed on the thread's own CPU time, so that time the thread
 * waits for its core does not count. A virtual machine's /proc/cpuinfo gives the nominal
 * clock, and cores run above it (boost) or below it (power limits). */
static double chain_ghz(void)
{
    long loops = 2000000;
    unsigned long x = 0;
    const double t0 = thread_seconds();
    __asm__ volatile("1:\n\t"
                     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                     "add $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\tadd $1, %0\n\t"
                     "dec %1\n\tjnz 1b"
                     : "+r"(x), "+r"(loops));
    return 8.0 * 2000000.0 / (thread_seconds() - t0) * 1e-9;
}

/* The clock with `threads` threads busy, as in a force pass: each thread's best of a few
 * chains (a chain that lost its core midway reads low), averaged over the threads. */
static double measured_ghz(int threads)
{
    double sum = 0.0;
#pragma omp parallel num_threads(threads) reduction(+ : sum)
    {
        double best = 0.0;
        for (int r = 0; r < 5; r++) {
            const double g = chain_ghz();
            best = g > best ? g : best;
        }
        sum += best;
    }
    return sum / threads;
}
#endif

void gc_cpu_peak_estimate(int threads, struct gc_cpu_peak *out)
{
    struct cpuinfo ci;
    const char *clock_src, *pipe_why;
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    int physical;
    double nominal;
    char src[96];
    memset(out, 0, sizeof *out);
    read_cpuinfo(&ci);
    /* Logical CPUs that are SMT siblings share one core's pipes. */
    physical = online > 0 ? (int)online : 1;
    if (ci.cores > 0 && ci.siblings > ci.cores)
        physical = (int)((long)physical * ci.cores / ci.siblings);
    out->cores = threads < physical ? threads : physical;
    out->ghz = nominal = clock_ghz(&ci, &clock_src);
#if defined(GC_CPU_X86) && defined(__x86_64__)
    {
        /* The higher of the two: the peak is never understated. */
        const double g = measured_ghz(out->cores);
        if (g > nominal) {
            snprintf(src, sizeof src, "measured on %d busy thread%s; %s says %.3g", out->cores,
                     out->cores == 1 ? "" : "s", clock_src, nominal);
            out->ghz = g;
            clock_src = src;
        }
    }
#endif
    out->pipes = 2;
    out->lanes = pipe_bits(&ci, &pipe_why) / 32;
    out->flops = (double)out->cores * out->ghz * 1e9 * out->pipes * out->lanes * 2.0;
    snprintf(out->how, sizeof out->how,
             "%d core%s x %.3g GHz (%s) x %d FMA pipes x %d float lanes x 2 flops (%s)",
             out->cores, out->cores == 1 ? "" : "s", out->ghz, clock_src, out->pipes,
             out->lanes, pipe_why);
    if (!(out->ghz > 0.0))
        out->flops = 0.0;
    (void)src;
}
