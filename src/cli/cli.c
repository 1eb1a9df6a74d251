/* Parses and range-checks the command line into struct gc_options. */
/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bodies.h"
#include "log.h"

void gc_cli_defaults(struct gc_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = GC_MODE_VIEWER;
    o->model = GC_DEFAULT_MODEL;
    o->seed = 1;
    gc_sim_params_default(&o->params);
    o->substeps = 0; /* auto in the window, 1 in --headless */
    o->backend = "auto";
    o->frames = 300;
    o->screenshot_dir = ".";
    o->width = GC_DEFAULT_WIDTH;
    o->height = GC_DEFAULT_HEIGHT;
    o->repeats = 5;
}

void gc_cli_usage(FILE *f, const char *prog)
{
    fprintf(f,
"Usage: %s [options]\n"
"Galaxy-collision viewer: the Milky Way and Andromeda colliding, all-pairs gravity on the\n"
"GPU (CUDA) or CPU (OpenMP), drawn live with OpenGL.\n"
"\n"
"Initial conditions:\n"
"  --data PATH        load a Dubinski-format table (mass x y z vx vy vz per row, plain or\n"
"                     .gz); without it the built-in galaxy-pair model is used\n"
"  -n, --bodies N     number of bodies (data: default all disk+bulge bodies, 49152 for the\n"
"                     Dubinski table; model: default 8192 on CPU, 65536 on CUDA)\n"
"  --halo             include the dark-halo bodies of the data file (81920 in all)\n"
"  --model NAME       built-in model: mw-m31 (default, a colliding pair) or single\n"
"  --seed S           random seed of the built-in model (default 1)\n"
"  --save FILE        write the initial bodies as a 7-column table and continue\n"
"\n"
"Physics (N-body units, G = 1; 1 length unit = 3.2 kpc, 1 time unit = 18 Myr):\n"
"  --dt DT            time step (default %g = %.2g Myr)\n"
"  --eps EPS          Plummer softening length (default %g, about 80 pc)\n"
"\n"
"Compute:\n"
"  --backend NAME     auto (default: CUDA if a usable GPU exists, else CPU), cuda or cpu\n"
"  --threads K        CPU threads (default: all cores)\n"
"  --device K         CUDA device index (default 0)\n"
"  --no-interop       copy positions through host memory instead of CUDA-GL interop\n"
"  --substeps K|auto  simulation steps per drawn frame (default auto: the window fills\n"
"                     ~12 ms of each frame with steps; --headless uses 1 unless given)\n"
"\n"
"Modes (default: interactive window):\n"
"  --steps K          run K steps without a window and print energy and momentum\n"
"  --report-every K   with --steps: print diagnostics every K steps\n"
"  --headless         render offscreen (EGL) without a window\n"
"  --frames K         with --headless: frames to render (default 300)\n"
"  --screenshot FILE  with --headless: save the last frame as PNG\n"
"  --benchmark        time the simulation step (use -n, --steps, --repeats, --sweep, --json)\n"
"  --repeats K        benchmark repeats, median reported (default 5)\n"
"  --sweep            benchmark over a range of N\n"
"  --json             benchmark output as JSON on stdout\n"
"  --compare          run the same state on CUDA and CPU, compare with a float64 reference\n"
"\n"
"Window:\n"
"  --size WxH         window size (default %dx%d)\n"
"  --fullscreen       start full screen\n"
"  --screenshot-after K  save a PNG after K frames (for scripted checks)\n"
"  --screenshot-dir DIR  folder for screenshots (default: current folder)\n"
"  Mouse: left-drag rotate, right-drag or wheel zoom, middle-drag pan.\n"
"  Keys: space pause/run, n one step while paused, [ ] halve/double dt, r reset,\n"
"        d draw mode, c colour mode, + - point size, i statistics, h help overlay,\n"
"        f full screen, s save PNG screenshot, q or Esc quit.\n"
"\n"
"Other:\n"
"  --quiet            print errors only\n"
"  -h, --help         this text\n"
"  --version          version\n",
            prog, GC_DEFAULT_DT, GC_DEFAULT_DT * GC_MYR_PER_TIME_UNIT, GC_DEFAULT_EPS,
            GC_DEFAULT_WIDTH, GC_DEFAULT_HEIGHT);
}

static int parse_u64(const char *opt, const char *s, unsigned long long lo,
                     unsigned long long hi, unsigned long long *out)
{
    char *end;
    unsigned long long v;
    while (*s == ' ')
        s++;
    if (*s == '-' || *s == '\0') {
        gc_log_error("%s expects a whole number from %llu to %llu, got '%s'", opt, lo, hi, s);
        return 0;
    }
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi) {
        gc_log_error("%s expects a whole number from %llu to %llu, got '%s'", opt, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}

static int parse_float(const char *opt, const char *s, double lo, double hi, float *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno || !isfinite(v) || v < lo || v > hi) {
        gc_log_error("%s expects a number from %g to %g, got '%s'", opt, lo, hi, s);
        return 0;
    }
    *out = (float)v;
    return 1;
}

enum gc_status gc_cli_parse(int argc, char **argv, struct gc_options *o)
{
    int modes = 0;
    int steps_given = 0;
    gc_cli_defaults(o);

    for (int i = 1; i < argc; i++) {
        char name[64];
        const char *arg = argv[i], *val = NULL, *eq;
        unsigned long long u;

        /* Accept both "--opt value" and "--opt=value". */
        eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        if (eq && (size_t)(eq - arg) < sizeof name) {
            memcpy(name, arg, (size_t)(eq - arg));
            name[eq - arg] = '\0';
            val = eq + 1;
            arg = name;
        }
#define FLAG(str) (strcmp(arg, str) == 0)
#define NEEDS_VALUE()                                                                      \
    do {                                                                                   \
        if (!val) {                                                                        \
            if (i + 1 >= argc) {                                                           \
                gc_log_error("option %s needs a value (see --help)", arg);                 \
                return GC_ERR_INVALID;                                                     \
            }                                                                              \
            val = argv[++i];                                                               \
        }                                                                                  \
    } while (0)
#define NO_VALUE()                                                                         \
    do {                                                                                   \
        if (val) {                                                                         \
            gc_log_error("option %s takes no value", arg);                                 \
            return GC_ERR_INVALID;                                                         \
        }                                                                                  \
    } while (0)

        if (FLAG("-h") || FLAG("--help")) {
            o->mode = GC_MODE_HELP;
            return GC_OK;
        } else if (FLAG("--version")) {
            o->mode = GC_MODE_VERSION;
            return GC_OK;
        } else if (FLAG("-n") || FLAG("--bodies") || FLAG("--n")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, GC_MAX_BODIES, &u))
                return GC_ERR_INVALID;
            o->n = (size_t)u;
        } else if (FLAG("--data")) {
            NEEDS_VALUE();
            if (!*val) {
                gc_log_error("--data needs a file name");
                return GC_ERR_INVALID;
            }
            o->data = val;
        } else if (FLAG("--halo")) {
            NO_VALUE();
            o->halo = 1;
        } else if (FLAG("--model")) {
            NEEDS_VALUE();
            if (strcmp(val, "mw-m31") != 0 && strcmp(val, "single") != 0) {
                gc_log_error("unknown model '%s'; available: mw-m31, single", val);
                return GC_ERR_INVALID;
            }
            o->model = val;
        } else if (FLAG("--seed")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 0, ULLONG_MAX, &u))
                return GC_ERR_INVALID;
            o->seed = u;
        } else if (FLAG("--save")) {
            NEEDS_VALUE();
            o->save = val;
        } else if (FLAG("--dt")) {
            NEEDS_VALUE();
            if (!parse_float(arg, val, 1e-7, GC_DT_MAX, &o->params.dt))
                return GC_ERR_INVALID;
        } else if (FLAG("--eps")) {
            NEEDS_VALUE();
            if (!parse_float(arg, val, GC_EPS_MIN, GC_EPS_MAX, &o->params.eps))
                return GC_ERR_INVALID;
        } else if (FLAG("--steps")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, 100000000, &u))
                return GC_ERR_INVALID;
            o->steps = (unsigned)u;
            steps_given = 1;
        } else if (FLAG("--report-every")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, 100000000, &u))
                return GC_ERR_INVALID;
            o->report_every = (unsigned)u;
        } else if (FLAG("--substeps")) {
            NEEDS_VALUE();
            if (strcmp(val, "auto") == 0)
                o->substeps = 0;
            else if (!parse_u64(arg, val, 1, 1000, &u))
                return GC_ERR_INVALID;
            else
                o->substeps = (unsigned)u;
        } else if (FLAG("--backend")) {
            NEEDS_VALUE();
            if (strcmp(val, "auto") != 0 && strcmp(val, "cpu") != 0 && strcmp(val, "cuda") != 0) {
                gc_log_error("unknown backend '%s'; available: auto, cpu, cuda", val);
                return GC_ERR_INVALID;
            }
            o->backend = val;
        } else if (FLAG("--threads")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, 4096, &u))
                return GC_ERR_INVALID;
            o->threads = (int)u;
        } else if (FLAG("--device")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 0, 255, &u))
                return GC_ERR_INVALID;
            o->device = (int)u;
        } else if (FLAG("--no-interop")) {
            NO_VALUE();
            o->no_interop = 1;
        } else if (FLAG("--headless")) {
            NO_VALUE();
            o->mode = GC_MODE_HEADLESS;
            modes++;
        } else if (FLAG("--frames")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, 100000000, &u))
                return GC_ERR_INVALID;
            o->frames = (unsigned)u;
        } else if (FLAG("--screenshot")) {
            NEEDS_VALUE();
            o->screenshot = val;
        } else if (FLAG("--screenshot-after")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, 100000000, &u))
                return GC_ERR_INVALID;
            o->screenshot_after = (unsigned)u;
        } else if (FLAG("--screenshot-dir")) {
            NEEDS_VALUE();
            o->screenshot_dir = val;
        } else if (FLAG("--fullscreen")) {
            NO_VALUE();
            o->fullscreen = 1;
        } else if (FLAG("--size")) {
            int w, h;
            char tail;
            NEEDS_VALUE();
            if (sscanf(val, "%dx%d%c", &w, &h, &tail) != 2 || w < 64 || h < 64 || w > 16384 ||
                h > 16384) {
                gc_log_error("--size expects WIDTHxHEIGHT, each 64 to 16384, got '%s'", val);
                return GC_ERR_INVALID;
            }
            o->width = w;
            o->height = h;
        } else if (FLAG("--benchmark")) {
            NO_VALUE();
            o->mode = GC_MODE_BENCHMARK;
            modes++;
        } else if (FLAG("--compare")) {
            NO_VALUE();
            o->mode = GC_MODE_COMPARE;
            modes++;
        } else if (FLAG("--json")) {
            NO_VALUE();
            o->json = 1;
        } else if (FLAG("--sweep")) {
            NO_VALUE();
            o->sweep = 1;
        } else if (FLAG("--repeats")) {
            NEEDS_VALUE();
            if (!parse_u64(arg, val, 1, 1000, &u))
                return GC_ERR_INVALID;
            o->repeats = (int)u;
        } else if (FLAG("--quiet")) {
            NO_VALUE();
            o->quiet = 1;
        } else {
            if (arg[0] == '-')
                gc_log_error("unknown option '%s' (see --help)", argv[i]);
            else
                gc_log_error("unexpected argument '%s' (see --help)", argv[i]);
            return GC_ERR_INVALID;
        }
#undef FLAG
#undef NEEDS_VALUE
#undef NO_VALUE
    }

    if (modes > 1) {
        gc_log_error("choose one of --headless, --benchmark and --compare");
        return GC_ERR_INVALID;
    }
    if (steps_given && o->mode == GC_MODE_VIEWER)
        o->mode = GC_MODE_STEPS;
    if (o->report_every && o->mode != GC_MODE_STEPS) {
        gc_log_error("--report-every only applies with --steps");
        return GC_ERR_INVALID;
    }
    if (o->screenshot && o->mode != GC_MODE_HEADLESS) {
        gc_log_error("--screenshot only applies with --headless (the window uses "
                     "--screenshot-after or the 's' key)");
        return GC_ERR_INVALID;
    }
    if ((o->json || o->sweep) && o->mode != GC_MODE_BENCHMARK) {
        gc_log_error("--json and --sweep only apply with --benchmark");
        return GC_ERR_INVALID;
    }
    if (o->halo && !o->data) {
        gc_log_error("--halo selects halo bodies of a data file; it needs --data (the "
                     "built-in model always has live halos)");
        return GC_ERR_INVALID;
    }
    return gc_sim_params_check(&o->params);
}
