/* GC_CUDA_TRACE=FILE: a timeline of the force pass and the picture on the GPU, written as CSV when the backend closes. */
/* SPDX-License-Identifier: MIT */
/* A benchmark aid with no profiler on the GPU machine: timing events on the two streams, each
 * read back RING marks later (by then long finished) as milliseconds since the first mark.
 * tests/gpu/frame_trace.py turns the file into the frame pipeline's figures. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_cuda_ctx.h"

#define RING 16

struct cuda_trace {
    char *path;
    cudaEvent_t origin;
    cudaEvent_t ev[GC_TRACE_MARKS][RING];
    unsigned long count[GC_TRACE_MARKS]; /* marks recorded of each kind */
    double *t[GC_TRACE_MARKS];           /* resolved times, ms after origin */
    size_t cap[GC_TRACE_MARKS];
    int broken;
};

static const char *const mark_names[GC_TRACE_MARKS] = {"force_start", "force_end", "picture_start",
                                                       "mapped", "picture_end", "unmapped"};

static void resolve(struct cuda_trace *T, int m, unsigned long k)
{
    float ms = 0.0f;
    cudaEvent_t e = T->ev[m][k % RING];
    if (k >= T->cap[m]) {
        size_t cap = T->cap[m] ? 2 * T->cap[m] : 4096;
        double *p = realloc(T->t[m], cap * sizeof *p);
        if (!p) {
            T->broken = 1;
            return;
        }
        T->t[m] = p;
        T->cap[m] = cap;
    }
    if (cudaEventSynchronize(e) != cudaSuccess || cudaEventElapsedTime(&ms, T->origin, e) != cudaSuccess) {
        (void)cudaGetLastError();
        T->broken = 1;
        return;
    }
    T->t[m][k] = ms;
}

void gc_cuda_trace_mark(struct cuda_ctx *c, int mark, cudaStream_t stream)
{
    struct cuda_trace *T = c->trace;
    unsigned long k;
    if (!T || T->broken || mark < 0 || mark >= GC_TRACE_MARKS)
        return;
    k = T->count[mark];
    if (k >= RING)
        resolve(T, mark, k - RING);
    if (cudaEventRecord(T->ev[mark][k % RING], stream) != cudaSuccess) {
        (void)cudaGetLastError();
        T->broken = 1;
        return;
    }
    T->count[mark] = k + 1;
}

void gc_cuda_trace_open(struct cuda_ctx *c)
{
    const char *path = getenv("GC_CUDA_TRACE");
    struct cuda_trace *T;
    if (!path || !*path || c->trace)
        return;
    T = calloc(1, sizeof *T);
    if (!T)
        return;
    T->path = malloc(strlen(path) + 1);
    if (!T->path || cudaEventCreate(&T->origin) != cudaSuccess) {
        free(T->path);
        free(T);
        return;
    }
    strcpy(T->path, path);
    for (int m = 0; m < GC_TRACE_MARKS; m++)
        for (int k = 0; k < RING; k++)
            if (cudaEventCreate(&T->ev[m][k]) != cudaSuccess)
                T->broken = 1;
    cudaEventRecord(T->origin, c->stream);
    c->trace = T;
    gc_log_warn("GC_CUDA_TRACE=%s: timing events on the force pass and the picture", path);
}

void gc_cuda_trace_close(struct cuda_ctx *c)
{
    struct cuda_trace *T = c->trace;
    FILE *f;
    if (!T)
        return;
    for (int m = 0; m < GC_TRACE_MARKS && !T->broken; m++)
        for (unsigned long k = T->count[m] > RING ? T->count[m] - RING : 0; k < T->count[m]; k++)
            resolve(T, m, k);
    f = T->broken ? NULL : fopen(T->path, "w");
    if (f) {
        fprintf(f, "mark,index,ms\n");
        for (int m = 0; m < GC_TRACE_MARKS; m++)
            for (unsigned long k = 0; k < T->count[m]; k++)
                fprintf(f, "%s,%lu,%.4f\n", mark_names[m], k, T->t[m][k]);
        if (fclose(f) == 0)
            gc_log_info("GC_CUDA_TRACE: timeline written to %s", T->path);
    } else {
        gc_log_warn("GC_CUDA_TRACE: no timeline written to %s", T->path);
    }
    for (int m = 0; m < GC_TRACE_MARKS; m++) {
        for (int k = 0; k < RING; k++)
            if (T->ev[m][k])
                cudaEventDestroy(T->ev[m][k]);
        free(T->t[m]);
    }
    cudaEventDestroy(T->origin);
    free(T->path);
    free(T);
    c->trace = NULL;
}
