/* The table of command-line options (each option's name, value, range, programs, field and help text), finding an option in it and storing a value by it. */
/* SPDX-License-Identifier: MIT */
#include "cli_options.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bodies.h"
#include "cli_values.h"
#include "force.h"
#include "log.h"
#include "scenario.h"
#include "tree_formulas.h"

const char *const gc_cli_section_title[GC_SEC_COUNT] = {
    "Initial conditions", "Physics (N-body units, G = 1; 1 length unit = 3.2 kpc, 1 time unit = 18 Myr)",
    "Compute", "Modes (default: interactive window)", "Window", "Other"};

#define ALL (GC_PROGRAM_GALAXY | GC_PROGRAM_BENCH)
#define GALAXY GC_PROGRAM_GALAXY
#define OFF(field) offsetof(struct gc_options, field)

/* Order = order in --help. */
const struct gc_cli_option gc_cli_options[] = {
    {"--data", NULL, "PATH", ALL, GC_SEC_INPUT, GC_OPT_STRING, OFF(data), 0, 0, NULL, 0, NULL,
     "load a Dubinski-format table (mass x y z vx vy vz per row, plain or\n"
     ".gz), or continue the run of an HDF5 snapshot (its bodies, settings\n"
     "and integrator state, from its time); without it the built-in model\n"
     "is used. A table is in the Dubinski units (time in Myr) unless every\n"
     "body is a star (a cluster's --save table): then Henon units"},
    {"--bodies", "-n", "N", ALL, GC_SEC_INPUT, GC_OPT_CUSTOM, 0, 1, (double)GC_MAX_BODIES, NULL,
     0, gc_cli_set_bodies, "number of bodies (data: default every body on CUDA, 81920 for the\n"
     "Dubinski table, 8192 on CPU; model: default 8192 on CPU, 65536 on CUDA;\n"
     "at least 6 for mw-m31, 3 for single, 2 for plummer)"},
    {"--halo", NULL, NULL, ALL, GC_SEC_INPUT, GC_OPT_FLAG, OFF(halo_given), 0, 0, NULL, 0, NULL,
     "include the dark-halo bodies of the data file (the default)"},
    {"--no-halo", NULL, NULL, ALL, GC_SEC_INPUT, GC_OPT_FLAG, OFF(no_halo), 0, 0, NULL, 0, NULL,
     "leave the data file's halos out: disk + bulge only, 49152 bodies of\n"
     "the Dubinski table, as the original viewer (the disks then disperse)"},
    {"--model", NULL, "NAME", ALL, GC_SEC_INPUT, GC_OPT_CHOICE, OFF(model), 0, 0, GC_MODEL_NAMES,
     0, NULL, "built-in model: mw-m31 (default, a colliding pair), single (one galaxy),\n"
     "plummer (a Plummer star cluster in Henon units, default N 1024 on CPU,\n"
     "16384 on CUDA), pythagorean (Burrau's three bodies 3, 4, 5),\n"
     "pythagorean-binaries (the same, each body a circular binary),\n"
     "plummer-binaries (a Plummer cluster, 10% of its stars in hard binaries);\n"
     "spheres the tree is measured on (Henon units, leapfrog, eps 0.05):\n"
     "plummer-wide (Plummer to 100 scale radii), hernquist (a cusp) or\n"
     "cold-sphere (uniform, at rest: it collapses)"},
    {"--seed", NULL, "S", ALL, GC_SEC_INPUT, GC_OPT_U64, OFF(seed), 0, 0, NULL, 0, NULL,
     "random seed of the built-in model (default 1)"},
    {"--scenario", NULL, "NAME", ALL, GC_SEC_INPUT, GC_OPT_CHOICE, OFF(scenario), 0, 0,
     GC_SCENARIO_NAMES, 0, NULL,
     "a named encounter of the built-in pair, with its title and home view:\n"
     "mw-m31 (today's, the default), prograde and retrograde (Toomre &\n"
     "Toomre's equal-mass parabolic passages: tails, and none), polar,\n"
     "head-on (a ring galaxy), minor (a 1:10 companion, like M51), antennae,\n"
     "mice (sources: docs/model.md); the options below change its values"},
    {"--mass-ratio", NULL, "Q", ALL, GC_SEC_INPUT, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_mass_ratio,
     "companion:primary total mass, 1:20 to 1:1 (e.g. 1:10 or 0.1); sizes\n"
     "follow mass as R ~ M^0.55 (docs/model.md)"},
    {"--pericentre", NULL, "R", ALL, GC_SEC_INPUT, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_pericentre,
     "pericentre of the two masses' Keplerian orbit: 0.1 to 200 kpc, as\n"
     "12kpc, or in N-body units (3.75 = 12 kpc)"},
    {"--eccentricity", NULL, "E", ALL, GC_SEC_INPUT, GC_OPT_DOUBLE, OFF(enc_opt.eccentricity),
     GC_ENCOUNTER_E_MIN, GC_ENCOUNTER_E_MAX, NULL, 0, NULL,
     "eccentricity of that orbit, 0 to 5: 1 parabolic (the scenarios'),\n"
     "below 1 bound, above 1 hyperbolic"},
    {"--separation", NULL, "D", ALL, GC_SEC_INPUT, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_separation,
     "starting separation (kpc or N-body units); auto (default): the largest\n"
     "of 96 kpc, 1.5x the two half-mass radii and 2 pericentres, at most a\n"
     "bound orbit's apocentre"},
    {"--primary-disk", NULL, "SPEC", ALL, GC_SEC_INPUT, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_disk,
     "the primary's disk: prograde, retrograde, polar, or I,OMEGA in degrees\n"
     "(Toomre & Toomre's inclination of the orbit to the disk, 0 to 180,\n"
     "and argument of pericentre, -180 to 180)"},
    {"--companion-disk", NULL, "SPEC", ALL, GC_SEC_INPUT, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_disk, "the companion's disk, as --primary-disk"},
    {"--scene", NULL, "FILE", GALAXY, GC_SEC_INPUT, GC_OPT_STRING, OFF(scene), 0, 0, NULL, 0,
     NULL, "start from a scene (an INI file written by the w key or --save-scene:\n"
     "encounter, N, seed, camera, draw and colour modes, exposure, title);\n"
     "options on the command line win over it"},
    {"--save-scene", NULL, "FILE", GALAXY, GC_SEC_INPUT, GC_OPT_STRING, OFF(save_scene), 0, 0,
     NULL, 0, NULL, "write the setup as a scene and continue"},
    {"--save", NULL, "FILE", ALL, GC_SEC_INPUT, GC_OPT_STRING, OFF(save), 0, 0, NULL, 0, NULL,
     "write the initial bodies as a 7-column table and continue (17 digits\n"
     "for a double-precision set: --data reads it back exactly)"},

    {"--integrator", NULL, "NAME", ALL, GC_SEC_PHYSICS, GC_OPT_CHOICE, OFF(params.integrator), 0, 0,
     "leapfrog|hermite4|hermite6", 0, NULL,
     "leapfrog (default for galaxies: kick-drift-kick, one shared step),\n"
     "hermite4 (default for plummer and pythagorean) or hermite6: 4th/6th-order\n"
     "Hermite with individual block time steps, in double precision"},
    {"--dt", NULL, "DT", ALL, GC_SEC_PHYSICS, GC_OPT_CUSTOM, 0, 1e-7, GC_DT_MAX, NULL, 0,
     gc_cli_set_dt, "leapfrog time step (default 0.01 = 0.18 Myr; larger steps let the\n"
     "energy error grow, docs/physics.md; the window runs backwards with j)"},
    {"--eps", NULL, "EPS", ALL, GC_SEC_PHYSICS, GC_OPT_FLOAT, OFF(params.eps), 0, GC_EPS_MAX, NULL,
     0, NULL, "Plummer softening length (default 0.025, about 80 pc; plummer 1/256,\n"
     "pythagorean 0; 0 needs a Hermite integrator)"},
    {"--eta", NULL, "ETA", ALL, GC_SEC_PHYSICS, GC_OPT_DOUBLE, OFF(params.eta), 1e-6, 10, NULL, 0,
     NULL, "Hermite accuracy parameter of the time-step criterion (default 0.01 for\n"
     "hermite4, Aarseth's; 0.15 for hermite6, the generalised criterion)"},
    {"--dt-max", NULL, "DT", ALL, GC_SEC_PHYSICS, GC_OPT_DOUBLE, OFF(params.dt_max), 1e-9, 1e3,
     NULL, 0, NULL, "Hermite largest block step (default 1/8), a physics setting: output\n"
     "times do not change it (reports and snapshots predict the bodies to their time)"},
    {"--precision", NULL, "auto|mixed|double", ALL, GC_SEC_PHYSICS, GC_OPT_CHOICE,
     OFF(params.precision), 0, 0, GC_HERMITE_PRECISION_NAMES, 0, NULL,
     "Hermite force pass on the GPU: mixed (positions differenced as float\n"
     "pairs, the rest in float, faster) or double throughout; auto\n"
     "(default): mixed for hermite4, double for hermite6 (its criterion\n"
     "needs it); the CPU is double either way"},
    {"--regularize", NULL, "MODE", ALL, GC_SEC_PHYSICS, GC_OPT_CHOICE, OFF(params.regularize), 0,
     0, "auto|off", 0, NULL,
     "Hermite with --eps 0: auto (default) takes hard binaries and close\n"
     "few-body encounters out of the block steps and integrates each such group\n"
     "by algorithmic regularisation (its centre of mass stays a Hermite body);\n"
     "off leaves them to the block steps, which stop at a step below dt_max/2^40"},
    {"--ar-tol", NULL, "TOL", ALL, GC_SEC_PHYSICS, GC_OPT_DOUBLE, OFF(params.ar_tol), 1e-15, 1e-4,
     NULL, 0, NULL, "regularisation: relative tolerance of the extrapolation (default 1e-12)"},
    {"--ar-radius", NULL, "R", ALL, GC_SEC_PHYSICS, GC_OPT_DOUBLE, OFF(params.ar_radius), 1e-12,
     1e6, NULL, 0, NULL,
     "regularisation radius: bodies closer than R form a group (default\n"
     "2<m>/v^2 with v^2 = |W|/M from the initial bodies, hard binaries'\n"
     "own terms left out of W; the log's header shows it)"},
    {"--force", NULL, "METHOD", ALL, GC_SEC_PHYSICS, GC_OPT_CHOICE, OFF(params.force), 0, 0,
     GC_FORCE_METHOD_NAMES, 0, NULL,
     "gravity: allpairs (every pair, exact), tree (Barnes-Hut octree with\n"
     "quadrupoles, for millions of bodies) or auto (default: the tree above\n"
     "262144 bodies on a GPU and 8192 on the CPU with the leapfrog, all pairs\n"
     "otherwise; Hermite always uses all pairs)"},
    {"--theta", NULL, "T", ALL, GC_SEC_PHYSICS, GC_OPT_FLOAT, OFF(params.theta), GC_TREE_THETA_MIN,
     GC_TREE_THETA_MAX, NULL, 0, NULL,
     "tree opening angle (default 0.5): smaller is more accurate and slower;\n"
     "see the error against theta in docs/physics.md"},

    {"--backend", NULL, "NAME", ALL, GC_SEC_COMPUTE, GC_OPT_CHOICE, OFF(backend), 0, 0,
     "auto|cpu|cuda", 0, NULL,
     "auto (default: CUDA if a usable GPU exists, else CPU), cuda or cpu"},
    {"--threads", NULL, "K", ALL, GC_SEC_COMPUTE, GC_OPT_INT, OFF(threads), 1, 4096, NULL, 0, NULL,
     "CPU threads (default: all cores; more are allowed and take turns)"},
    {"--device", NULL, "K", ALL, GC_SEC_COMPUTE, GC_OPT_INT, OFF(device), 0, 255, NULL, 0, NULL,
     "CUDA device index (default 0; under mpirun, the rank's index among\n"
     "the ranks on its host: one GPU per rank)"},
    {"--no-interop", NULL, NULL, GALAXY, GC_SEC_COMPUTE, GC_OPT_FLAG, OFF(no_interop), 0, 0, NULL,
     0, NULL, "copy positions through host memory instead of CUDA-GL interop"},
    {"--substeps", NULL, "K|auto", GALAXY, GC_SEC_COMPUTE, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_substeps, "simulation steps per drawn frame (default auto: the window fills\n"
     "~12 ms of each frame with steps; --headless uses 1 unless given)"},

    {"--steps", NULL, "K", ALL, GC_SEC_MODES, GC_OPT_UINT, OFF(steps), 1, 100000000, NULL, 0, NULL,
     "run K leapfrog steps without a window and print energy and momentum\n"
     "(with --benchmark or --compare: steps per timed run)"},
    {"--t-end", NULL, "T", ALL, GC_SEC_MODES, GC_OPT_DOUBLE, OFF(t_end), 1e-12, 1e9, NULL, 0, NULL,
     "run to simulated time T (N-body units) without a window and print energy\n"
     "and momentum (any integrator); with --benchmark --force tree: the\n"
     "step time along a run to T"},
    {"--report-every", NULL, "X", ALL, GC_SEC_MODES, GC_OPT_DOUBLE, OFF(report_every), 1e-12, 1e9,
     NULL, 0, NULL, "print diagnostics every X steps (with --steps) or every X time\n"
     "units (with --t-end; with --benchmark, a step time every X, default T/30)"},
    {"--snapshot-every", NULL, "T", ALL, GC_SEC_MODES, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_snapshot_every,
     "write HDF5 snapshots at simulated times 0, T, 2T, ... (N-body units;\n"
     "leapfrog: T a whole number of steps) with --steps, --headless or\n"
     "the window"},
    {"--snapshot-dir", NULL, "DIR", ALL, GC_SEC_MODES, GC_OPT_STRING, OFF(snapshot_dir), 0, 0,
     NULL, 0, NULL, "folder for snapshot_000000.hdf5, snapshot_000001.hdf5, ... (default: .)"},
    {"--profile", NULL, NULL, ALL, GC_SEC_MODES, GC_OPT_FLAG, OFF(params.profile), 0, 0, NULL, 0,
     NULL, "with --steps or --t-end: time per step split into force, exchange\n"
     "between ranks and the rest (waits for the device between phases)"},
    {"--headless", NULL, NULL, GALAXY, GC_SEC_MODES, GC_OPT_MODE, 0, 0, 0, NULL, GC_MODE_HEADLESS,
     NULL, "render offscreen (EGL) without a window"},
    {"--frames", NULL, "K", GALAXY, GC_SEC_MODES, GC_OPT_UINT, OFF(frames), 1, 100000000, NULL, 0,
     NULL, "with --headless: frames to render (default 300)"},
    {"--screenshot", NULL, "FILE", GALAXY, GC_SEC_MODES, GC_OPT_STRING, OFF(screenshot), 0, 0,
     NULL, 0, NULL, "with --headless: save the last frame as PNG"},
    {"--benchmark", NULL, NULL, ALL, GC_SEC_MODES, GC_OPT_MODE, 0, 0, 0, NULL, GC_MODE_BENCHMARK,
     NULL, "time the all-pairs step (use -n, --steps, --repeats, --sweep, --json);\n"
     "with --force tree the tree's step, its phases, memory and force error"},
    {"--repeats", NULL, "K", ALL, GC_SEC_MODES, GC_OPT_INT, OFF(repeats), 1, 1000, NULL, 0, NULL,
     "benchmark repeats, median reported (default 5)"},
    {"--sweep", NULL, NULL, ALL, GC_SEC_MODES, GC_OPT_FLAG, OFF(sweep), 0, 0, NULL, 0, NULL,
     "benchmark over a range of N (-n N: up to N)"},
    {"--theta-sweep", NULL, NULL, ALL, GC_SEC_MODES, GC_OPT_FLAG, OFF(theta_sweep), 0, 0, NULL, 0,
     NULL, "with --benchmark --force tree: the error and time against theta"},
    {"--distributions", NULL, "LIST", ALL, GC_SEC_MODES, GC_OPT_STRING, OFF(distributions), 0, 0,
     NULL, 0, NULL, "with --benchmark --force tree: the tree on each of these bodies, comma-\n"
     "separated, or all: mw-m31 (the pair), plummer-wide, hernquist, merger\n"
     "(the pair at 1 Gyr) and collapse (a cold sphere at its densest); the\n"
     "last two are run on the backend first (--sweep: 2^20, 2^22, 2^24 bodies)"},
    {"--json", NULL, NULL, ALL, GC_SEC_MODES, GC_OPT_FLAG, OFF(json), 0, 0, NULL, 0, NULL,
     "benchmark output as JSON on stdout"},
    {"--compare", NULL, NULL, ALL, GC_SEC_MODES, GC_OPT_MODE, 0, 0, 0, NULL, GC_MODE_COMPARE, NULL,
     "run the same state on CUDA and CPU, compare with a float64 reference"},

    {"--size", NULL, "WxH", GALAXY, GC_SEC_WINDOW, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0, gc_cli_set_size,
     "window size (default 1280x800)"},
    {"--fullscreen", NULL, NULL, GALAXY, GC_SEC_WINDOW, GC_OPT_FLAG, OFF(fullscreen), 0, 0, NULL,
     0, NULL, "start full screen"},
    {"--screenshot-after", NULL, "K", GALAXY, GC_SEC_WINDOW, GC_OPT_UINT, OFF(screenshot_after), 1,
     100000000, NULL, 0, NULL, "save a PNG after K frames (for scripted checks)"},
    {"--screenshot-dir", NULL, "DIR", GALAXY, GC_SEC_WINDOW, GC_OPT_STRING, OFF(screenshot_dir), 0,
     0, NULL, 0, NULL, "folder for screenshots and movies started with 'v' (default: .)"},
    {"--exposure", NULL, "auto|EV", GALAXY, GC_SEC_WINDOW, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_exposure, "brightness: auto (default: metered from each frame) or a fixed\n"
     "exposure EV, in stops (the HUD shows the metered EV)"},
    {"--no-bloom", NULL, NULL, GALAXY, GC_SEC_WINDOW, GC_OPT_FLAG, OFF(no_bloom), 0, 0, NULL, 0,
     NULL, "no glow around bright regions"},
    {"--raster", NULL, "auto|gl|cuda", GALAXY, GC_SEC_WINDOW, GC_OPT_CHOICE, OFF(raster), 0, 0,
     "auto|gl|cuda", 0, NULL,
     "who draws the bodies, glow and tone map: cuda (kernels on the GPU's\n"
     "compute units; GL only shows the picture), gl (OpenGL shaders) or auto\n"
     "(default: cuda with the CUDA backend and interop, else gl)"},
    {"--record", NULL, "FILE.mp4", GALAXY, GC_SEC_WINDOW, GC_OPT_STRING, OFF(record), 0, 0, NULL,
     0, NULL, "record the drawn frames as an H.264 movie (window or --headless;\n"
     "headless: frame k of the movie is frame k of the run)"},
    {"--fps", NULL, "K", GALAXY, GC_SEC_WINDOW, GC_OPT_UINT, OFF(fps), 1, 240, NULL, 0, NULL,
     "movie frame rate (default 60); --headless also times camera moves by it"},
    {"--paused", NULL, NULL, GALAXY, GC_SEC_WINDOW, GC_OPT_FLAG, OFF(paused), 0, 0, NULL, 0, NULL,
     "start paused (space runs); --headless then draws without stepping:\n"
     "its frames/s measure the drawing alone"},
    {"--tour", NULL, NULL, GALAXY, GC_SEC_WINDOW, GC_OPT_FLAG, OFF(tour), 0, 0, NULL, 0, NULL,
     "scripted camera tour of the encounter, timed by simulated time"},
    {"--start-at", NULL, "TIME|EVENT", GALAXY, GC_SEC_WINDOW, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_start_at,
     "advance without drawing (a progress line shows how far) before the\n"
     "first frame, to TIME in Myr since the start (Henon units for a star\n"
     "cluster) or to an event of the encounter found on the way:\n"
     "first-passage, second-passage, ..., passage-N, merger"},
    {"--keyframe-memory", NULL, "MIB", GALAXY, GC_SEC_WINDOW, GC_OPT_SIZE, OFF(keyframe_mib), 1,
     1 << 30, NULL, 0, NULL,
     "memory for keyframes, MiB: states kept as the run goes, so that going\n"
     "back restores the nearest one (GPU memory with the CUDA backend); default\n"
     "half of what is free; more than is free is refused"},
    {"--follow", NULL, NULL, GALAXY, GC_SEC_WINDOW, GC_OPT_FLAG, OFF(follow), 0, 0, NULL, 0, NULL,
     "with --headless: frame each picture on the stars it shows (the starting\n"
     "view's angle, fitted again each frame), not on the stars as they started"},
    {"--present", NULL, NULL, GALAXY, GC_SEC_WINDOW, GC_OPT_FLAG, OFF(present), 0, 0, NULL, 0, NULL,
     "for talks: full screen, no cursor, only a large title and the time"},
    {"--title", NULL, "TEXT", GALAXY, GC_SEC_WINDOW, GC_OPT_STRING, OFF(title), 0, 0, NULL, 0, NULL,
     "title line of --present"},
    {"--camera", NULL, "AZ,EL,DIST[,X,Y,Z]", GALAXY, GC_SEC_WINDOW, GC_OPT_CUSTOM, 0, 0, 0, NULL, 0,
     gc_cli_set_camera,
     "home view: the eye's azimuth and elevation (degrees), its distance\n"
     "and the point it looks at (N-body units; default: framed)"},
    {"--draw", NULL, "MODE", GALAXY, GC_SEC_WINDOW, GC_OPT_CHOICE, OFF(draw), 0, 0, GC_DRAW_NAMES,
     0, NULL, "points, sprites (default) or plain sprites (the d key)"},
    {"--colour", NULL, "MODE", GALAXY, GC_SEC_WINDOW, GC_OPT_CHOICE, OFF(colour), 0, 0,
     GC_COLOUR_NAMES, 0, NULL,
     "stellar (default), galaxy, component, velocity, speed or level (the c\n"
     "key; level: Hermite time-step levels)"},
    {"--font", NULL, "FILE", GALAXY, GC_SEC_WINDOW, GC_OPT_STRING, OFF(font), 0, 0, NULL, 0, NULL,
     "font file (TrueType or OpenType) for the text on screen; default DejaVu\n"
     "Sans where found (a fonts/ folder beside the shaders, then the system's),\n"
     "else a built-in pixel font; needs a build with FreeType"},

    {"--quiet", NULL, NULL, ALL, GC_SEC_OTHER, GC_OPT_FLAG, OFF(quiet), 0, 0, NULL, 0, NULL,
     "print errors only (no progress line either; on a terminal, runs without\n"
     "a window show how far they are in one line refreshed in place)"},
    {"--help", "-h", NULL, ALL, GC_SEC_OTHER, GC_OPT_MODE, 0, 0, 0, NULL, GC_MODE_HELP, NULL,
     "this text"},
    {"--version", NULL, NULL, ALL, GC_SEC_OTHER, GC_OPT_MODE, 0, 0, 0, NULL, GC_MODE_VERSION, NULL,
     "version and the backends of this build"},
    {"--help-man", NULL, NULL, ALL, GC_SEC_OTHER, GC_OPT_MODE, 0, 0, 0, NULL, GC_MODE_MAN, NULL,
     NULL},
};
const size_t gc_cli_noptions = sizeof gc_cli_options / sizeof gc_cli_options[0];

/* ---- finding options and storing their values ---- */

const struct gc_cli_option *gc_cli_find(const char *name)
{
    for (size_t k = 0; k < gc_cli_noptions; k++)
        if (strcmp(name, gc_cli_options[k].name) == 0 ||
            (gc_cli_options[k].alias && strcmp(name, gc_cli_options[k].alias) == 0))
            return &gc_cli_options[k];
    return NULL;
}

enum gc_status gc_cli_check_number(const char *name, double v, const char *from)
{
    const struct gc_cli_option *op = gc_cli_find(name);
    if (!op || (isfinite(v) && v >= op->lo && v <= op->hi))
        return GC_OK;
    gc_log_error("%s: %s %g is out of range (%s takes %g to %g)", from, name + 2, v, name, op->lo,
                 op->hi);
    return GC_ERR_INVALID;
}

int gc_cli_given(const struct gc_options *o, const char *name)
{
    const struct gc_cli_option *op = gc_cli_find(name);
    const size_t k = op ? (size_t)(op - gc_cli_options) : 128;
    return k < 128 && (o->given[k / 64] >> (k % 64) & 1);
}

/* Stores val (NULL for options without one) into the option's field; messages name the
 * option as the user typed it (`typed`). */
static enum gc_status store(struct gc_options *o, const struct gc_cli_option *op, const char *typed,
                            const char *val)
{
    char *field = (char *)o + op->offset;
    unsigned long long u;
    double d;
    switch (op->kind) {
    case GC_OPT_FLAG: *(int *)field = 1; return GC_OK;
    case GC_OPT_MODE: o->mode = op->mode; return GC_OK;
    case GC_OPT_CUSTOM: return op->custom(o, typed, val);
    case GC_OPT_STRING:
        if (!*val) {
            gc_log_error("%s needs a non-empty value", typed);
            return GC_ERR_INVALID;
        }
        *(const char **)field = val;
        return GC_OK;
    case GC_OPT_CHOICE:
        if (!gc_cli_is_choice(op->choices, val)) {
            if (typed[0] == '-')
                gc_log_error("unknown %s '%s'; available: %s", op->name + 2, val, op->choices);
            else
                gc_log_error("%s: unknown value '%s'; available: %s", typed, val, op->choices);
            return GC_ERR_INVALID;
        }
        *(const char **)field = val;
        return GC_OK;
    case GC_OPT_U64:
        if (!gc_cli_parse_whole(typed, val, 0, ULLONG_MAX, &u))
            return GC_ERR_INVALID;
        *(uint64_t *)field = u;
        return GC_OK;
    case GC_OPT_UINT: case GC_OPT_INT: case GC_OPT_SIZE:
        if (!gc_cli_parse_whole(typed, val, (unsigned long long)op->lo,
                                (unsigned long long)op->hi, &u))
            return GC_ERR_INVALID;
        if (op->kind == GC_OPT_UINT)
            *(unsigned *)field = (unsigned)u;
        else if (op->kind == GC_OPT_INT)
            *(int *)field = (int)u;
        else
            *(size_t *)field = (size_t)u;
        return GC_OK;
    case GC_OPT_FLOAT: case GC_OPT_DOUBLE:
        if (!gc_cli_parse_number(typed, val,
                                 op->kind == GC_OPT_FLOAT ? gc_cli_float_bound(op->lo, 0) : op->lo,
                                 op->kind == GC_OPT_FLOAT ? gc_cli_float_bound(op->hi, 1) : op->hi,
                                 &d))
            return GC_ERR_INVALID;
        if (op->kind == GC_OPT_FLOAT)
            *(float *)field = (float)d;
        else
            *(double *)field = d;
        return GC_OK;
    }
    return GC_ERR_INVALID;
}

enum gc_status gc_cli_apply(struct gc_options *o, const struct gc_cli_option *op,
                            const char *typed, const char *val)
{
    const size_t k = (size_t)(op - gc_cli_options);
    if (k < 128)
        o->given[k / 64] |= (uint64_t)1 << (k % 64);
    return store(o, op, typed, val);
}
