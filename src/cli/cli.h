/* Command-line options: one table of options, parsed and range-checked into one struct. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CLI_H
#define GC_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "encounter.h"
#include "models.h"
#include "sim.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gc_mode {
    GC_MODE_VIEWER = 0,  /* interactive window (default) */
    GC_MODE_STEPS,       /* --steps K or --t-end T without a window: print diagnostics */
    GC_MODE_HEADLESS,    /* --headless: render offscreen through EGL */
    GC_MODE_BENCHMARK,   /* --benchmark: time the force/step kernels */
    GC_MODE_COMPARE,     /* --compare: run GPU and CPU, compare with a float64 reference */
    GC_MODE_HELP,        /* --help */
    GC_MODE_VERSION,     /* --version */
    GC_MODE_MAN          /* --help-man (not in --help): the man page as roff; used by the build */
};

/* The programs sharing this parser; each option says which accept it. */
enum gc_program {
    GC_PROGRAM_GALAXY = 1, /* galaxy: every option */
    GC_PROGRAM_BENCH = 2   /* galaxy-bench: --benchmark/--compare without the viewer */
};

#define GC_DEFAULT_MODEL "mw-m31"
#define GC_DEFAULT_WIDTH 1280
#define GC_DEFAULT_HEIGHT 800

struct gc_options {
    enum gc_mode mode;
    enum gc_program program;   /* the program that parsed them */
    size_t n;                  /* bodies; 0 = default for the data source and backend */
    const char *n_text;        /* -n's value as typed, NULL = not given; checked once the model
                                * (and so its fewest bodies) is known */
    const char *n_option;      /* how -n was typed: "-n" or "--bodies" */
    const char *data;          /* --data PATH; NULL = built-in model */
    int halo;                  /* include the data file's dark-halo bodies; default 1, --no-halo sets 0 */
    int halo_given;            /* --halo was given (accepted for old scripts: halos are the default) */
    int no_halo;               /* --no-halo: disk + bulge bodies only (the original viewer's selection) */
    const char *model;         /* --model mw-m31|single|plummer|pythagorean; default GC_DEFAULT_MODEL */
    enum gc_units units;       /* units of the bodies: Henon for cluster models, else galaxy */
    uint64_t seed;             /* --seed; default 1 */
    const char *save;          /* --save FILE: write the initial bodies as a 7-column table */
    const char *scenario;      /* --scenario NAME; NULL = none (mw-m31's values) */
    struct gc_encounter encounter; /* the built-in pair's encounter: --scenario (else mw-m31),
                                * then the encounter options given; legacy (today's pair,
                                * bit for bit) when none changes it */
    struct gc_encounter enc_opt; /* the encounter options' values as parsed (those given
                                  * are applied over the scenario's) */
    const char *scene;         /* --scene FILE: the setup read from an INI file (values the
                                * command line gives win); NULL = none */
    const char *save_scene;    /* --save-scene FILE: write the setup as a scene and go on */
    struct gc_sim_params params; /* --integrator, --dt, --eps, --eta, --dt-max, --profile;
                                  * integrator and eps default by model (gc_models_find) */
    unsigned steps;            /* --steps K; 0 = not given */
    double t_end;              /* --t-end T: run without a window to time T; 0 = not given */
    double snapshot_every;     /* --snapshot-every T: HDF5 snapshots at times k*T, N-body units; 0 = off */
    const char *snapshot_dir;  /* --snapshot-dir DIR: where snapshot_NNN.hdf5 go; default "." */
    double report_every;       /* --report-every X: steps (with --steps) or time (with --t-end); 0 = start and end */
    unsigned substeps;         /* --substeps K: steps per drawn frame; 0 = auto (default) */
    const char *backend;       /* --backend auto|cpu|cuda; default "auto" */
    int threads;               /* --threads K: CPU threads; 0 = all cores */
    int device;                /* --device K: CUDA device index; -1 (default) = the rank's
                                * index on its host under MPI, else 0: gc_cli_device */
    int no_interop;            /* --no-interop: copy positions through the host */
    unsigned frames;           /* --frames K: headless frames to render; default 300 */
    const char *screenshot;    /* --screenshot FILE: headless, save the last frame (PNG) */
    unsigned screenshot_after; /* --screenshot-after K: viewer saves a PNG after K frames; 0 = off */
    const char *screenshot_dir;/* --screenshot-dir DIR: where 's' and --screenshot-after write; default "." */
    int fullscreen;            /* --fullscreen */
    int width, height;         /* --size WxH; default 1280x800 */
    int json;                  /* --json: machine-readable benchmark output */
    int sweep;                 /* --sweep: benchmark over a range of N */
    int theta_sweep;           /* --theta-sweep: tree benchmark over a range of opening angles */
    const char *distributions; /* --distributions LIST: tree benchmark on each of these bodies
                                * (bench_dists.h, or "all"); NULL = the input's bodies */
    int repeats;               /* --repeats K: benchmark repeats; default 5 */
    int quiet;                 /* --quiet: errors only */
    /* viewer: picture, movies, camera */
    double exposure;           /* --exposure EV: fixed exposure, log2 of the multiplier; NAN = auto (default) */
    int no_bloom;              /* --no-bloom: no glow around bright regions */
    const char *raster;        /* --raster auto|gl|cuda: who draws the picture; default "auto" */
    const char *record;        /* --record FILE.mp4: H.264 movie of the drawn frames; NULL = none */
    unsigned fps;              /* --fps K: movie frame rate, and headless frame duration 1/K; default 60 */
    int paused;                /* --paused: start paused; headless draws without stepping */
    int tour;                  /* --tour: start the scripted camera tour */
    int present;               /* --present: full screen, no cursor, large title and time only */
    const char *title;         /* --title TEXT: title line of --present; default GC_DEFAULT_TITLE */
    const char *font;          /* --font FILE: font of the text on screen; NULL (default) = DejaVu
                                * Sans where found, else the built-in pixel font */
    size_t keyframe_mib;       /* --keyframe-memory MIB: memory for keyframes (the device's with
                                * the CUDA backend, the host's otherwise); 0 (default) = half of
                                * what is free */
    const char *start_at;      /* --start-at TIME|EVENT: where the drawn run starts (a time in
                                * Myr, Henon units for clusters, or an event's name, checked by
                                * gc_event_parse); NULL (default) = at its start */
    int camera_given;          /* --camera was given: the home view is camera[] */
    double camera[6];          /* --camera AZ,EL,DIST,X,Y,Z: azimuth and elevation of the eye
                                * (degrees), distance and target (N-body units) */
    const char *draw;          /* --draw points|sprites|plain; NULL = sprites */
    const char *colour;        /* --colour stellar|galaxy|...; NULL = stellar */
    char scene_text[4096];     /* the values read from --scene, which fields above point into */
    size_t scene_used;         /* bytes of scene_text in use */
    uint64_t given[2];         /* bit k: option k of the table was on the command line */
    const void *restart;       /* a run continuing from a snapshot: its struct gc_restart
                                * (initial.h), set by gc_initial_run; NULL = from t = 0 */
    const char *draw_option;   /* the first option given that only means something where frames
                                * are drawn (the Window section, --frames, --substeps), as typed;
                                * NULL = none. A mode that draws nothing refuses it. */
};

#define GC_DEFAULT_FPS 60
#define GC_DEFAULT_TITLE "Milky Way and Andromeda collide"

/* Fills defaults (program GC_PROGRAM_GALAXY). */
void gc_cli_defaults(struct gc_options *o);
/* Parses argv into o (defaults first) for `program`. Logs the first problem and returns
 * GC_ERR_INVALID for unknown options, options the program does not take, missing or
 * malformed values, out-of-range numbers and combinations that do not go together. */
enum gc_status gc_cli_parse(int argc, char **argv, enum gc_program program,
                            struct gc_options *o);
/* The names --draw and --colour accept, in the order of the viewer's d and c keys. */
#define GC_DRAW_NAMES "points|sprites|plain"
#define GC_COLOUR_NAMES "stellar|galaxy|component|velocity|speed|level"

/* 1 when option `name` ("--eps") was on the command line (not a default). */
int gc_cli_given(const struct gc_options *o, const char *name);
/* A value of option `name` that came from elsewhere (`from`: a file's name, for the message)
 * held to the range the command line allows: GC_ERR_INVALID (logged, naming both) when it
 * is outside it or not finite. */
enum gc_status gc_cli_check_number(const char *name, double v, const char *from);
/* The CUDA device to use: --device when given, else local_rank (0 for one process). */
int gc_cli_device(const struct gc_options *o, int local_rank);
/* Reads `path` (INI, libinih) into o: each key is an option without its "--", in its
 * section ([encounter], [run], [view]); options the command line gave are kept. An unknown
 * section or key, a bad value (the option's own message) or a line the parser refuses is
 * logged as "path:line: ..." and gives GC_ERR_INVALID; a file that cannot be read
 * GC_ERR_IO. GC_ERR_UNSUPPORTED (logged) in a build without libinih. */
enum gc_status gc_scene_load(const char *path, struct gc_options *o);

/* What a scene records: the options of the setup, as values (see gc_scene_write). */
struct gc_scene {
    const char *scenario;          /* preset the encounter starts from; NULL = mw-m31 */
    struct gc_encounter encounter; /* the encounter run (only what differs from the
                                    * scenario's values is written) */
    size_t n;                      /* bodies */
    uint64_t seed;
    int camera_given;              /* write the camera: */
    double camera[6];              /*   as --camera takes it */
    const char *draw, *colour;     /* NULL = leave out */
    double exposure;               /* EV; NAN = auto */
    const char *title;             /* NULL = leave out */
};

/* Writes s to path as an INI scene that --scene reads back to the same setup (written as
 * path.part, then renamed; removed on failure). GC_ERR_IO (logged) when it cannot be written. */
enum gc_status gc_scene_write(const char *path, const struct gc_scene *s);

/* The scene of options o as parsed (the encounter, N, seed, window settings). */
void gc_scene_from_options(const struct gc_options *o, size_t n, struct gc_scene *s);

/* Writes the --help text of `program`: every option it accepts, from the same table. */
void gc_cli_usage(FILE *f, enum gc_program program);
/* Writes the man page of `program` (roff, section 1) from the same table as --help. */
void gc_cli_man(FILE *f, enum gc_program program);

#ifdef __cplusplus
}
#endif
#endif
