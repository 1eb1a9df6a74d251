/* Parses and range-checks the command line into struct gc_options, from one table of options that also writes --help. */
/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "bodies.h"
#include "log.h"

/* ---- the table ---- */

/* How an option's value is stored. */
enum kind {
    K_FLAG,   /* no value: int field = 1 */
    K_UINT,   /* unsigned field, whole number in [lo, hi] */
    K_INT,    /* int field, whole number in [lo, hi] */
    K_SIZE,   /* size_t field, whole number in [lo, hi] */
    K_U64,    /* uint64_t field, any whole number */
    K_FLOAT,  /* float field, number in [lo, hi] */
    K_DOUBLE, /* double field, number in [lo, hi] */
    K_STRING, /* const char * field, non-empty */
    K_CHOICE, /* const char * field, one of `choices` ("a|b|c") */
    K_MODE,   /* no value: selects `mode` (modes exclude each other) */
    K_CUSTOM  /* parsed by `custom` */
};

enum section { S_INPUT, S_PHYSICS, S_COMPUTE, S_MODES, S_WINDOW, S_OTHER, S_COUNT };

static const char *const section_title[S_COUNT] = {
    "Initial conditions", "Physics (N-body units, G = 1; 1 length unit = 3.2 kpc, 1 time unit = 18 Myr)",
    "Compute", "Modes (default: interactive window)", "Window", "Other"};

struct option {
    const char *name;    /* "--bodies" */
    const char *alias;   /* "-n", or NULL */
    const char *metavar; /* "N"; NULL for options without a value */
    unsigned programs;   /* GC_PROGRAM_* bits of the programs that accept it */
    enum section section;
    enum kind kind;
    size_t offset;       /* field of struct gc_options */
    double lo, hi;       /* accepted range of numbers */
    const char *choices; /* K_CHOICE: "a|b|c" */
    enum gc_mode mode;   /* K_MODE */
    enum gc_status (*custom)(struct gc_options *o, const char *opt, const char *val);
    const char *help;    /* lines separated by '\n'; NULL: accepted but not listed */
};

#define ALL (GC_PROGRAM_GALAXY | GC_PROGRAM_BENCH)
#define GALAXY GC_PROGRAM_GALAXY
#define OFF(field) offsetof(struct gc_options, field)

static enum gc_status set_substeps(struct gc_options *o, const char *opt, const char *val);
static enum gc_status set_size(struct gc_options *o, const char *opt, const char *val);
static enum gc_status set_exposure(struct gc_options *o, const char *opt, const char *val);
static enum gc_status set_snapshot_every(struct gc_options *o, const char *opt, const char *val);

/* Order = order in --help. */
static const struct option options[] = {
    {"--data", NULL, "PATH", ALL, S_INPUT, K_STRING, OFF(data), 0, 0, NULL, 0, NULL,
     "load a Dubinski-format table (mass x y z vx vy vz per row, plain or\n"
     ".gz), or restart from an HDF5 snapshot (every body, as written);\n"
     "without it the built-in model is used"},
    {"--bodies", "-n", "N", ALL, S_INPUT, K_SIZE, OFF(n), 1, (double)GC_MAX_BODIES, NULL, 0, NULL,
     "number of bodies (data: default every body on CUDA, 81920 for the\n"
     "Dubinski table, 8192 on CPU; model: default 8192 on CPU, 65536 on CUDA)"},
    {"--halo", NULL, NULL, ALL, S_INPUT, K_FLAG, OFF(halo_given), 0, 0, NULL, 0, NULL,
     "include the dark-halo bodies of the data file (the default)"},
    {"--no-halo", NULL, NULL, ALL, S_INPUT, K_FLAG, OFF(no_halo), 0, 0, NULL, 0, NULL,
     "leave the data file's halos out: disk + bulge only, 49152 bodies of\n"
     "the Dubinski table, as the original viewer (the disks then disperse)"},
    {"--model", NULL, "NAME", ALL, S_INPUT, K_CHOICE, OFF(model), 0, 0, GC_MODEL_NAMES, 0, NULL,
     "built-in model: mw-m31 (default, a colliding pair), single (one galaxy),\n"
     "plummer (a Plummer star cluster in Henon units, default N 1024 on CPU,\n"
     "16384 on CUDA) or pythagorean (Burrau's three bodies 3, 4, 5)"},
    {"--seed", NULL, "S", ALL, S_INPUT, K_U64, OFF(seed), 0, 0, NULL, 0, NULL,
     "random seed of the built-in model (default 1)"},
    {"--save", NULL, "FILE", ALL, S_INPUT, K_STRING, OFF(save), 0, 0, NULL, 0, NULL,
     "write the initial bodies as a 7-column table and continue"},

    {"--integrator", NULL, "NAME", ALL, S_PHYSICS, K_CHOICE, OFF(params.integrator), 0, 0,
     "leapfrog|hermite4|hermite6", 0, NULL,
     "leapfrog (default for galaxies: kick-drift-kick, one shared step),\n"
     "hermite4 (default for plummer and pythagorean) or hermite6: 4th/6th-order\n"
     "Hermite with individual block time steps, in double precision"},
    {"--dt", NULL, "DT", ALL, S_PHYSICS, K_FLOAT, OFF(params.dt), 1e-7, GC_DT_MAX, NULL, 0, NULL,
     "leapfrog time step (default 0.01 = 0.18 Myr)"},
    {"--eps", NULL, "EPS", ALL, S_PHYSICS, K_FLOAT, OFF(params.eps), 0, GC_EPS_MAX, NULL,
     0, NULL, "Plummer softening length (default 0.025, about 80 pc; plummer 1/256,\n"
     "pythagorean 0; 0 needs a Hermite integrator)"},
    {"--eta", NULL, "ETA", ALL, S_PHYSICS, K_DOUBLE, OFF(params.eta), 1e-6, 10, NULL, 0, NULL,
     "Hermite accuracy parameter of the time-step criterion (default 0.01 for\n"
     "hermite4, Aarseth's; 0.15 for hermite6, the generalised criterion)"},
    {"--dt-max", NULL, "DT", ALL, S_PHYSICS, K_DOUBLE, OFF(params.dt_max), 1e-9, 1e3, NULL, 0,
     NULL, "Hermite largest block step (default 1/8; made a power-of-two fraction\n"
     "of --report-every so reports fall on block times)"},

    {"--backend", NULL, "NAME", ALL, S_COMPUTE, K_CHOICE, OFF(backend), 0, 0, "auto|cpu|cuda", 0,
     NULL, "auto (default: CUDA if a usable GPU exists, else CPU), cuda or cpu"},
    {"--threads", NULL, "K", ALL, S_COMPUTE, K_INT, OFF(threads), 1, 4096, NULL, 0, NULL,
     "CPU threads (default: all cores)"},
    {"--device", NULL, "K", ALL, S_COMPUTE, K_INT, OFF(device), 0, 255, NULL, 0, NULL,
     "CUDA device index (default 0; under mpirun, the rank's index among\n"
     "the ranks on its host: one GPU per rank)"},
    {"--no-interop", NULL, NULL, GALAXY, S_COMPUTE, K_FLAG, OFF(no_interop), 0, 0, NULL, 0, NULL,
     "copy positions through host memory instead of CUDA-GL interop"},
    {"--substeps", NULL, "K|auto", GALAXY, S_COMPUTE, K_CUSTOM, 0, 0, 0, NULL, 0, set_substeps,
     "simulation steps per drawn frame (default auto: the window fills\n"
     "~12 ms of each frame with steps; --headless uses 1 unless given)"},

    {"--steps", NULL, "K", ALL, S_MODES, K_UINT, OFF(steps), 1, 100000000, NULL, 0, NULL,
     "run K leapfrog steps without a window and print energy and momentum\n"
     "(with --benchmark or --compare: steps per timed run)"},
    {"--t-end", NULL, "T", ALL, S_MODES, K_DOUBLE, OFF(t_end), 1e-12, 1e9, NULL, 0, NULL,
     "run to simulated time T (N-body units) without a window and print energy\n"
     "and momentum (any integrator)"},
    {"--report-every", NULL, "X", ALL, S_MODES, K_DOUBLE, OFF(report_every), 1e-12, 1e9, NULL,
     0, NULL, "print diagnostics every X steps (with --steps) or every X time\n"
     "units (with --t-end)"},
    {"--snapshot-every", NULL, "T", ALL, S_MODES, K_CUSTOM, 0, 0, 0, NULL, 0,
     set_snapshot_every,
     "write HDF5 snapshots at simulated times 0, T, 2T, ... (N-body units;\n"
     "leapfrog: T a whole number of steps) with --steps, --headless or\n"
     "the window"},
    {"--snapshot-dir", NULL, "DIR", ALL, S_MODES, K_STRING, OFF(snapshot_dir), 0, 0, NULL, 0,
     NULL, "folder for snapshot_000.hdf5, snapshot_001.hdf5, ... (default: .)"},
    {"--profile", NULL, NULL, ALL, S_MODES, K_FLAG, OFF(params.profile), 0, 0, NULL, 0, NULL,
     "with --steps or --t-end: time per step split into force, exchange\n"
     "between ranks and the rest (waits for the device between phases)"},
    {"--headless", NULL, NULL, GALAXY, S_MODES, K_MODE, 0, 0, 0, NULL, GC_MODE_HEADLESS, NULL,
     "render offscreen (EGL) without a window"},
    {"--frames", NULL, "K", GALAXY, S_MODES, K_UINT, OFF(frames), 1, 100000000, NULL, 0, NULL,
     "with --headless: frames to render (default 300)"},
    {"--screenshot", NULL, "FILE", GALAXY, S_MODES, K_STRING, OFF(screenshot), 0, 0, NULL, 0, NULL,
     "with --headless: save the last frame as PNG"},
    {"--benchmark", NULL, NULL, ALL, S_MODES, K_MODE, 0, 0, 0, NULL, GC_MODE_BENCHMARK, NULL,
     "time the simulation step (use -n, --steps, --repeats, --sweep, --json)"},
    {"--repeats", NULL, "K", ALL, S_MODES, K_INT, OFF(repeats), 1, 1000, NULL, 0, NULL,
     "benchmark repeats, median reported (default 5)"},
    {"--sweep", NULL, NULL, ALL, S_MODES, K_FLAG, OFF(sweep), 0, 0, NULL, 0, NULL,
     "benchmark over a range of N"},
    {"--json", NULL, NULL, ALL, S_MODES, K_FLAG, OFF(json), 0, 0, NULL, 0, NULL,
     "benchmark output as JSON on stdout"},
    {"--compare", NULL, NULL, ALL, S_MODES, K_MODE, 0, 0, 0, NULL, GC_MODE_COMPARE, NULL,
     "run the same state on CUDA and CPU, compare with a float64 reference"},

    {"--size", NULL, "WxH", GALAXY, S_WINDOW, K_CUSTOM, 0, 0, 0, NULL, 0, set_size,
     "window size (default 1280x800)"},
    {"--fullscreen", NULL, NULL, GALAXY, S_WINDOW, K_FLAG, OFF(fullscreen), 0, 0, NULL, 0, NULL,
     "start full screen"},
    {"--screenshot-after", NULL, "K", GALAXY, S_WINDOW, K_UINT, OFF(screenshot_after), 1,
     100000000, NULL, 0, NULL, "save a PNG after K frames (for scripted checks)"},
    {"--screenshot-dir", NULL, "DIR", GALAXY, S_WINDOW, K_STRING, OFF(screenshot_dir), 0, 0, NULL,
     0, NULL, "folder for screenshots and movies started with 'v' (default: .)"},
    {"--exposure", NULL, "auto|EV", GALAXY, S_WINDOW, K_CUSTOM, 0, 0, 0, NULL, 0, set_exposure,
     "brightness: auto (default: metered from each frame) or a fixed\n"
     "exposure EV, in stops (the HUD shows the metered EV)"},
    {"--no-bloom", NULL, NULL, GALAXY, S_WINDOW, K_FLAG, OFF(no_bloom), 0, 0, NULL, 0, NULL,
     "no glow around bright regions"},
    {"--raster", NULL, "auto|gl|cuda", GALAXY, S_WINDOW, K_CHOICE, OFF(raster), 0, 0,
     "auto|gl|cuda", 0, NULL,
     "who draws the bodies, glow and tone map: cuda (kernels on the GPU's\n"
     "compute units; GL only shows the picture), gl (OpenGL shaders) or auto\n"
     "(default: cuda with the CUDA backend and interop, else gl)"},
    {"--record", NULL, "FILE.mp4", GALAXY, S_WINDOW, K_STRING, OFF(record), 0, 0, NULL, 0, NULL,
     "record the drawn frames as an H.264 movie (window or --headless;\n"
     "headless: frame k of the movie is frame k of the run)"},
    {"--fps", NULL, "K", GALAXY, S_WINDOW, K_UINT, OFF(fps), 1, 240, NULL, 0, NULL,
     "movie frame rate (default 60); --headless also times camera moves by it"},
    {"--paused", NULL, NULL, GALAXY, S_WINDOW, K_FLAG, OFF(paused), 0, 0, NULL, 0, NULL,
     "start paused (space runs); --headless then draws without stepping:\n"
     "its frames/s measure the drawing alone"},
    {"--tour", NULL, NULL, GALAXY, S_WINDOW, K_FLAG, OFF(tour), 0, 0, NULL, 0, NULL,
     "scripted camera tour of the encounter, timed by simulated time"},
    {"--present", NULL, NULL, GALAXY, S_WINDOW, K_FLAG, OFF(present), 0, 0, NULL, 0, NULL,
     "for talks: full screen, no cursor, only a large title and the time"},
    {"--title", NULL, "TEXT", GALAXY, S_WINDOW, K_STRING, OFF(title), 0, 0, NULL, 0, NULL,
     "title line of --present"},

    {"--quiet", NULL, NULL, ALL, S_OTHER, K_FLAG, OFF(quiet), 0, 0, NULL, 0, NULL,
     "print errors only"},
    {"--help", "-h", NULL, ALL, S_OTHER, K_MODE, 0, 0, 0, NULL, GC_MODE_HELP, NULL, "this text"},
    {"--version", NULL, NULL, ALL, S_OTHER, K_MODE, 0, 0, 0, NULL, GC_MODE_VERSION, NULL,
     "version and the backends of this build"},
    {"--help-man", NULL, NULL, ALL, S_OTHER, K_MODE, 0, 0, 0, NULL, GC_MODE_MAN, NULL, NULL},
};
#define NOPTIONS (sizeof options / sizeof options[0])

/* What the window does with the mouse and keys, after the Window options in --help. */
static const char window_keys[] =
    "  Mouse: left-drag rotate, right-drag or wheel zoom, middle-drag pan.\n"
    "  Keys: space pause/run, n one step while paused, [ ] halve/double dt, r reset,\n"
    "        d draw mode, c colour mode, m dark matter (stars / + faint halo / halo),\n"
    "        + - point size, , . exposure -/+ half a stop, x exposure auto/locked,\n"
    "        b glow, 1 face-on, 2 edge-on, 3 overview, 0 home view, o auto-orbit,\n"
    "        t tour, v start/stop recording, p presentation HUD, i statistics,\n"
    "        h help overlay, f full screen, s save PNG screenshot, q or Esc quit.\n";

/* ---- --help ---- */

static const char *program_name(enum gc_program p)
{
    return p == GC_PROGRAM_BENCH ? "galaxy-bench" : "galaxy";
}

/* "  --name, -n N" padded to the help column, then the help lines indented under it. */
static void usage_option(FILE *f, const struct option *op)
{
    char head[64];
    const char *h = op->help;
    int w = snprintf(head, sizeof head, "  %s%s%s%s%s", op->name, op->alias ? ", " : "",
                     op->alias ? op->alias : "", op->metavar ? " " : "",
                     op->metavar ? op->metavar : "");
    fputs(head, f);
    for (int first = 1; *h; first = 0) {
        const char *e = strchr(h, '\n');
        int len = e ? (int)(e - h) : (int)strlen(h);
        if (first && w < 21)
            fprintf(f, "%*s%.*s\n", 21 - w, "", len, h);
        else
            fprintf(f, "%s%21s%.*s\n", first ? "\n" : "", "", len, h);
        h += len + (e ? 1 : 0);
    }
}

static const char *description(enum gc_program p)
{
    return p == GC_PROGRAM_BENCH
               ? "Benchmarks and cross-checks of the galaxy-collision viewer's compute backends,\n"
                 "without the viewer's OpenGL libraries (for GPU servers with no display).\n"
               : "Galaxy-collision viewer: the Milky Way and Andromeda colliding, all-pairs gravity on the\n"
                 "GPU (CUDA) or CPU (OpenMP), drawn live with OpenGL.\n";
}

static const char *section_name(int s, enum gc_program p)
{
    return s == S_MODES && p == GC_PROGRAM_BENCH ? "Modes (one is required)" : section_title[s];
}

/* 1 when --help and the man page of program p list option op. */
static int listed(const struct option *op, enum gc_program p)
{
    return op->help && (op->programs & p);
}

void gc_cli_usage(FILE *f, enum gc_program program)
{
    fprintf(f, "Usage: %s [options]\n%s", program_name(program), description(program));
    for (int s = 0; s < S_COUNT; s++) {
        int printed = 0;
        for (size_t k = 0; k < NOPTIONS; k++) {
            if (options[k].section != (enum section)s || !listed(&options[k], program))
                continue;
            if (!printed++)
                fprintf(f, "\n%s:\n", section_name(s, program));
            usage_option(f, &options[k]);
        }
        if (s == S_WINDOW && printed)
            fputs(window_keys, f);
    }
}

/* ---- man page ---- */

/* Text for roff: '-' as \- (a typed minus, not a hyphen), '\' as \e, and a '.' or '\''
 * that would start a line guarded with \& so it is not read as a request. */
static void roff(FILE *f, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if ((s[i] == '.' || s[i] == '\'') && (i == 0 || s[i - 1] == '\n'))
            fputs("\\&", f);
        if (s[i] == '-')
            fputs("\\-", f);
        else if (s[i] == '\\')
            fputs("\\e", f);
        else
            fputc(s[i], f);
    }
}

static void roff_str(FILE *f, const char *s)
{
    roff(f, s, strlen(s));
}

void gc_cli_man(FILE *f, enum gc_program program)
{
    const char *name = program_name(program);
    const char *other = program == GC_PROGRAM_BENCH ? "galaxy" : "galaxy-bench";
    fputs(".TH ", f);
    for (const char *c = name; *c; c++)
        fputc(toupper((unsigned char)*c), f);
    fprintf(f, " 1 \"\" \"galaxy %s\" \"User Commands\"\n.SH NAME\n", GC_VERSION);
    roff_str(f, name);
    fputs(program == GC_PROGRAM_BENCH
              ? " \\- benchmarks of the galaxy-collision viewer's compute backends\n"
              : " \\- the Milky Way and Andromeda colliding: an interactive N\\-body viewer\n",
          f);
    fputs(".SH SYNOPSIS\n.B ", f);
    roff_str(f, name);
    fputs("\n[\\fIoptions\\fR]\n.SH DESCRIPTION\n", f);
    roff_str(f, description(program));
    fputs(".SH OPTIONS\n", f);
    for (int s = 0; s < S_COUNT; s++) {
        int printed = 0;
        for (size_t k = 0; k < NOPTIONS; k++) {
            const struct option *op = &options[k];
            if (op->section != (enum section)s || !listed(op, program))
                continue;
            if (!printed++) {
                fputs(".SS \"", f);
                roff_str(f, section_name(s, program));
                fputs("\"\n", f);
            }
            fputs(".TP\n\\fB", f);
            roff_str(f, op->name);
            fputs("\\fR", f);
            if (op->alias) {
                fputs(", \\fB", f);
                roff_str(f, op->alias);
                fputs("\\fR", f);
            }
            if (op->metavar) {
                fputs(" \\fI", f);
                roff_str(f, op->metavar);
                fputs("\\fR", f);
            }
            fputc('\n', f);
            roff_str(f, op->help);
            fputc('\n', f);
        }
        if (s == S_WINDOW && printed) {
            fputs(".SS \"Mouse and keys\"\n.nf\n", f);
            roff_str(f, window_keys);
            fputs(".fi\n", f);
        }
    }
    fputs(".SH EXIT STATUS\n0 on success, 1 on a failure while running (a file or device problem, "
          "or \\fB\\-\\-compare\\fR beyond tolerance), 2 on a bad command line or input.\n",
          f);
    if (program == GC_PROGRAM_GALAXY)
        fputs(".SH ENVIRONMENT\n.TP\n.B GC_SHADER_DIR\nfolder of the GLSL shaders, instead of "
              "\\fIshaders\\fR next to the binary (build tree) or "
              "\\fI../share/galaxy/shaders\\fR relative to it (installed).\n",
              f);
    fprintf(f, ".SH SEE ALSO\n\\fB%s\\fR(1); README.md in share/doc/galaxy of the installation\n",
            other);
}

/* ---- values ---- */

static int parse_whole(const char *opt, const char *s, double lo, double hi,
                       unsigned long long *out)
{
    char *end;
    unsigned long long v;
    while (*s == ' ')
        s++;
    if (*s != '-' && *s != '\0') {
        errno = 0;
        v = strtoull(s, &end, 10);
        if (!errno && *end == '\0' && (double)v >= lo && (double)v <= hi) {
            *out = v;
            return 1;
        }
    }
    gc_log_error("%s expects a whole number from %.0f to %.0f, got '%s'", opt, lo, hi, s);
    return 0;
}

static int parse_number(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    double v;
    errno = 0;
    v = strtod(s, &end);
    if (end == s || *end != '\0' || errno || !isfinite(v) || v < lo || v > hi) {
        gc_log_error("%s expects a number from %g to %g, got '%s'", opt, lo, hi, s);
        return 0;
    }
    *out = v;
    return 1;
}

/* 1 when val is one of the '|'-separated words of choices. */
static int is_choice(const char *choices, const char *val)
{
    size_t len = strlen(val);
    for (const char *c = choices; *c;) {
        const char *e = strchr(c, '|');
        size_t n = e ? (size_t)(e - c) : strlen(c);
        if (n == len && strncmp(c, val, n) == 0)
            return 1;
        c += n + (e ? 1 : 0);
    }
    return 0;
}

static enum gc_status set_substeps(struct gc_options *o, const char *opt, const char *val)
{
    unsigned long long u;
    if (strcmp(val, "auto") == 0) {
        o->substeps = 0;
        return GC_OK;
    }
    if (!parse_whole(opt, val, 1, 1000, &u))
        return GC_ERR_INVALID;
    o->substeps = (unsigned)u;
    return GC_OK;
}

static enum gc_status set_exposure(struct gc_options *o, const char *opt, const char *val)
{
    double ev;
    if (strcmp(val, "auto") == 0) {
        o->exposure = NAN;
        return GC_OK;
    }
    if (!parse_number(opt, val, -40.0, 40.0, &ev))
        return GC_ERR_INVALID;
    o->exposure = ev;
    return GC_OK;
}

static enum gc_status set_size(struct gc_options *o, const char *opt, const char *val)
{
    int w, h;
    char tail;
    if (sscanf(val, "%dx%d%c", &w, &h, &tail) != 2 || w < 64 || h < 64 || w > 16384 ||
        h > 16384) {
        gc_log_error("%s expects WIDTHxHEIGHT, each 64 to 16384, got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    o->width = w;
    o->height = h;
    return GC_OK;
}

/* 0 means "not given", so the parser takes any finite time > 0 (no smallest step). */
static enum gc_status set_snapshot_every(struct gc_options *o, const char *opt, const char *val)
{
    double t;
    if (!parse_number(opt, val, 0.0, 1e12, &t))
        return GC_ERR_INVALID;
    if (!(t > 0.0)) {
        gc_log_error("%s expects a time > 0, got '%s'", opt, val);
        return GC_ERR_INVALID;
    }
    o->snapshot_every = t;
    return GC_OK;
}

/* Stores val (NULL for options without one) into the option's field; messages name the
 * option as the user typed it (`typed`). */
static enum gc_status apply(struct gc_options *o, const struct option *op, const char *typed,
                            const char *val)
{
    char *field = (char *)o + op->offset;
    unsigned long long u;
    double d;
    switch (op->kind) {
    case K_FLAG: *(int *)field = 1; return GC_OK;
    case K_MODE: o->mode = op->mode; return GC_OK;
    case K_CUSTOM: return op->custom(o, typed, val);
    case K_STRING:
        if (!*val) {
            gc_log_error("%s needs a non-empty value", typed);
            return GC_ERR_INVALID;
        }
        *(const char **)field = val;
        return GC_OK;
    case K_CHOICE:
        if (!is_choice(op->choices, val)) {
            gc_log_error("unknown %s '%s'; available: %s", op->name + 2, val, op->choices);
            return GC_ERR_INVALID;
        }
        *(const char **)field = val;
        return GC_OK;
    case K_U64:
        if (!parse_whole(typed, val, 0, (double)ULLONG_MAX, &u))
            return GC_ERR_INVALID;
        *(uint64_t *)field = u;
        return GC_OK;
    case K_UINT: case K_INT: case K_SIZE:
        if (!parse_whole(typed, val, op->lo, op->hi, &u))
            return GC_ERR_INVALID;
        if (op->kind == K_UINT)
            *(unsigned *)field = (unsigned)u;
        else if (op->kind == K_INT)
            *(int *)field = (int)u;
        else
            *(size_t *)field = (size_t)u;
        return GC_OK;
    case K_FLOAT: case K_DOUBLE:
        if (!parse_number(typed, val, op->lo, op->hi, &d))
            return GC_ERR_INVALID;
        if (op->kind == K_FLOAT)
            *(float *)field = (float)d;
        else
            *(double *)field = d;
        return GC_OK;
    }
    return GC_ERR_INVALID;
}

/* ---- parsing ---- */

int gc_cli_device(const struct gc_options *o, int local_rank)
{
    return o->device >= 0 ? o->device : local_rank;
}

void gc_cli_defaults(struct gc_options *o)
{
    memset(o, 0, sizeof *o);
    o->mode = GC_MODE_VIEWER;
    o->program = GC_PROGRAM_GALAXY;
    o->model = GC_DEFAULT_MODEL;
    o->seed = 1;
    gc_sim_params_default(&o->params);
    /* Unset until the model is known (resolve_model_defaults). */
    o->params.integrator = NULL;
    o->params.eps = NAN;
    o->substeps = 0; /* auto in the window, 1 in --headless */
    o->backend = "auto";
    o->raster = "auto";
    o->device = -1; /* the local rank under mpirun, else 0 (gc_cli_device) */
    o->frames = 300;
    o->screenshot_dir = ".";
    o->snapshot_dir = ".";
    o->width = GC_DEFAULT_WIDTH;
    o->height = GC_DEFAULT_HEIGHT;
    o->repeats = 5;
    o->halo = 1;
    o->exposure = NAN;
    o->fps = GC_DEFAULT_FPS;
    o->title = GC_DEFAULT_TITLE;
}

static const struct option *find(const char *name)
{
    for (size_t k = 0; k < NOPTIONS; k++)
        if (strcmp(name, options[k].name) == 0 ||
            (options[k].alias && strcmp(name, options[k].alias) == 0))
            return &options[k];
    return NULL;
}

/* One argument (and its value, from "--opt=value" or the next argument): *i advances past
 * what was used. *modes counts the mode options seen. */
static enum gc_status parse_one(int argc, char **argv, int *i, enum gc_program program,
                                struct gc_options *o, int *modes)
{
    char name[64];
    const char *arg = argv[*i], *val = NULL, *eq = NULL;
    const struct option *op;

    if (strncmp(arg, "--", 2) == 0)
        eq = strchr(arg, '=');
    if (eq && (size_t)(eq - arg) < sizeof name) {
        memcpy(name, arg, (size_t)(eq - arg));
        name[eq - arg] = '\0';
        val = eq + 1;
        arg = name;
    }
    op = find(arg);
    if (!op || !(op->programs & program)) {
        if (arg[0] != '-')
            gc_log_error("unexpected argument '%s' (see --help)", argv[*i]);
        else if (op)
            gc_log_error("%s does not take option '%s' (see --help)", program_name(program),
                         arg);
        else
            gc_log_error("unknown option '%s' (see --help)", argv[*i]);
        return GC_ERR_INVALID;
    }
    if (!op->metavar && val) {
        gc_log_error("option %s takes no value", arg);
        return GC_ERR_INVALID;
    }
    if (op->metavar && !val) {
        if (*i + 1 >= argc) {
            gc_log_error("option %s needs a value (see --help)", arg);
            return GC_ERR_INVALID;
        }
        val = argv[++*i];
    }
    if (op->kind == K_MODE && op->mode != GC_MODE_HELP && op->mode != GC_MODE_VERSION &&
        op->mode != GC_MODE_MAN)
        ++*modes;
    return apply(o, op, arg, val);
}

/* Integrator, softening and units the model implies where the options did not say. A data
 * file is galaxy-like unless stated otherwise. */
static void resolve_model_defaults(struct gc_options *o)
{
    const struct gc_model_info *m = o->data ? NULL : gc_models_find(o->model);
    o->units = m ? m->units : GC_UNITS_GALAXY;
    if (!o->params.integrator)
        o->params.integrator = m ? m->integrator : GC_DEFAULT_INTEGRATOR;
    if (isnan(o->params.eps))
        o->params.eps = m ? m->eps : GC_DEFAULT_EPS;
}

/* Options that only mean something together, and the mode --steps or --t-end implies. */
static enum gc_status check_combinations(struct gc_options *o, int modes)
{
    if (modes > 1) {
        gc_log_error("choose one of --headless, --benchmark and --compare");
        return GC_ERR_INVALID;
    }
    resolve_model_defaults(o);
    if (o->steps && o->t_end > 0.0) {
        gc_log_error("choose one of --steps (leapfrog steps) and --t-end (a time)");
        return GC_ERR_INVALID;
    }
    if ((o->steps || o->t_end > 0.0) && o->mode == GC_MODE_VIEWER)
        o->mode = GC_MODE_STEPS;
    if (o->program == GC_PROGRAM_BENCH && o->mode != GC_MODE_BENCHMARK &&
        o->mode != GC_MODE_COMPARE && o->mode != GC_MODE_STEPS) {
        gc_log_error("galaxy-bench runs --benchmark, --compare, --steps or --t-end (see --help)");
        return GC_ERR_INVALID;
    }
    if (o->params.profile && o->mode != GC_MODE_STEPS) {
        gc_log_error("--profile only applies with --steps or --t-end");
        return GC_ERR_INVALID;
    }
    if (o->report_every > 0.0 && o->mode != GC_MODE_STEPS) {
        gc_log_error("--report-every only applies with --steps or --t-end");
        return GC_ERR_INVALID;
    }
    if (o->mode == GC_MODE_STEPS && o->steps && o->report_every > 0.0 &&
        o->report_every != floor(o->report_every)) {
        gc_log_error("--report-every counts steps with --steps: a whole number, got %g",
                     o->report_every);
        return GC_ERR_INVALID;
    }
    if (o->mode == GC_MODE_STEPS && o->steps &&
        gc_integrator_has(gc_integrator_find(o->params.integrator), GC_INTEGRATOR_BLOCK_STEPS)) {
        gc_log_error("--steps counts leapfrog steps; %s has individual steps: use --t-end T",
                     o->params.integrator);
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
    if (o->snapshot_every > 0.0 && (o->mode == GC_MODE_BENCHMARK || o->mode == GC_MODE_COMPARE)) {
        gc_log_error("--snapshot-every applies to --steps, --headless and the window, not to "
                     "--benchmark or --compare");
        return GC_ERR_INVALID;
    }
    if (strcmp(o->snapshot_dir, ".") != 0 && !(o->snapshot_every > 0.0)) {
        gc_log_error("--snapshot-dir only applies with --snapshot-every");
        return GC_ERR_INVALID;
    }
    if ((o->halo_given || o->no_halo) && !o->data) {
        gc_log_error("%s selects bodies of a data file; it needs --data (the built-in "
                     "model always has live halos)", o->no_halo ? "--no-halo" : "--halo");
        return GC_ERR_INVALID;
    }
    if (o->halo_given && o->no_halo) {
        gc_log_error("--halo and --no-halo contradict each other");
        return GC_ERR_INVALID;
    }
    if (o->no_halo)
        o->halo = 0;
    if (o->record && o->mode != GC_MODE_VIEWER && o->mode != GC_MODE_HEADLESS) {
        gc_log_error("--record records the window or --headless frames");
        return GC_ERR_INVALID;
    }
    return gc_sim_params_check(&o->params);
}

enum gc_status gc_cli_parse(int argc, char **argv, enum gc_program program,
                            struct gc_options *o)
{
    int modes = 0;
    gc_cli_defaults(o);
    o->program = program;
    for (int i = 1; i < argc; i++) {
        enum gc_status st = parse_one(argc, argv, &i, program, o, &modes);
        if (st != GC_OK)
            return st;
        /* --help, --version and --help-man win over anything after them, even a bad option. */
        if (o->mode == GC_MODE_HELP || o->mode == GC_MODE_VERSION || o->mode == GC_MODE_MAN)
            return GC_OK;
    }
    return check_combinations(o, modes);
}
