/* Command-line options: one struct, parsed and range-checked in one place. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CLI_H
#define GC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_mode {
    GC_MODE_VIEWER = 0,  /* interactive window (default) */
    GC_MODE_STEPS,       /* --steps K without a window: print diagnostics */
    GC_MODE_HEADLESS,    /* --headless: render offscreen through EGL */
    GC_MODE_BENCHMARK,   /* --benchmark: time the force/step kernels */
    GC_MODE_COMPARE,     /* --compare: run GPU and CPU, compare with a float64 reference */
    GC_MODE_HELP,        /* --help */
    GC_MODE_VERSION      /* --version */
};

#define GC_DEFAULT_MODEL "mw-m31"
#define GC_DEFAULT_WIDTH 1280
#define GC_DEFAULT_HEIGHT 800

struct gc_options {
    enum gc_mode mode;
    size_t n;                  /* bodies; 0 = default for the data source and backend */
    const char *data;          /* --data PATH; NULL = built-in model */
    int halo;                  /* --halo: include dark-halo bodies from the data file */
    const char *model;         /* --model mw-m31|single; default GC_DEFAULT_MODEL */
    uint64_t seed;             /* --seed; default 1 */
    const char *save;          /* --save FILE: write the initial bodies as a 7-column table */
    struct gc_sim_params params; /* --dt, --eps */
    unsigned steps;            /* --steps K; 0 = not given */
    unsigned report_every;     /* --report-every K: diagnostics interval in --steps mode; 0 = start and end */
    unsigned substeps;         /* --substeps K: steps per drawn frame; 0 = auto (default) */
    const char *backend;       /* --backend auto|cpu|cuda; default "auto" */
    int threads;               /* --threads K: CPU threads; 0 = all cores */
    int device;                /* --device K: CUDA device index; default 0 */
    int no_interop;            /* --no-interop: copy positions through the host */
    unsigned frames;           /* --frames K: headless frames to render; default 300 */
    const char *screenshot;    /* --screenshot FILE: headless, save the last frame (PNG) */
    unsigned screenshot_after; /* --screenshot-after K: viewer saves a PNG after K frames; 0 = off */
    const char *screenshot_dir;/* --screenshot-dir DIR: where 's' and --screenshot-after write; default "." */
    int fullscreen;            /* --fullscreen */
    int width, height;         /* --size WxH; default 1280x800 */
    int json;                  /* --json: machine-readable benchmark output */
    int sweep;                 /* --sweep: benchmark over a range of N */
    int repeats;               /* --repeats K: benchmark repeats; default 5 */
    int quiet;                 /* --quiet: errors only */
};

/* Fills defaults. */
void gc_cli_defaults(struct gc_options *o);
/* Parses argv into o (defaults first). Logs the first problem and returns GC_ERR_INVALID
 * for unknown options, missing or malformed values and out-of-range numbers. */
enum gc_status gc_cli_parse(int argc, char **argv, struct gc_options *o);
/* Writes the --help text. */
void gc_cli_usage(FILE *f, const char *prog);

#ifdef __cplusplus
}
#endif
#endif
