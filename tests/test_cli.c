/* Command-line parsing: valid forms set the right fields; bad values are rejected. */
/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <string.h>

#include "check.h"
#include "cli.h"

static enum gc_status parse(struct gc_options *o, const char *a0, const char *a1, const char *a2,
                            const char *a3)
{
    char *argv[5] = {(char *)"galaxy", (char *)a0, (char *)a1, (char *)a2, (char *)a3};
    int argc = 1;
    while (argc < 5 && argv[argc])
        argc++;
    return gc_cli_parse(argc, argv, GC_PROGRAM_GALAXY, o);
}

/* Parses a NULL-terminated list of arguments (more than parse takes). */
static enum gc_status parse_list(struct gc_options *o, const char *const *args)
{
    char *argv[16] = {(char *)"galaxy"};
    int argc = 1;
    while (argc < 16 && args[argc - 1]) {
        argv[argc] = (char *)args[argc - 1];
        argc++;
    }
    return gc_cli_parse(argc, argv, GC_PROGRAM_GALAXY, o);
}

/* The tree benchmark's distributions and step-time curve: only with --benchmark --force
 * tree, and not with options that make other bodies or other rows. */
static void test_tree_bench_options(void)
{
    struct gc_options o;
    const char *dists[] = {"--benchmark", "--force", "tree", "--distributions", "merger,all",
                           NULL};
    const char *curve[] = {"--benchmark", "--force", "tree", "--t-end", "2", "--report-every",
                           "0.5", NULL};
    const char *curve_sweep[] = {"--benchmark", "--force", "tree", "--t-end", "2", "--sweep",
                                 NULL};
    const char *dists_model[] = {"--benchmark", "--force", "tree", "--distributions", "all",
                                 "--model", "plummer", NULL};
    CHECK(parse_list(&o, dists) == GC_OK && strcmp(o.distributions, "merger,all") == 0);
    CHECK(parse_list(&o, curve) == GC_OK && o.mode == GC_MODE_BENCHMARK && o.t_end == 2.0 &&
          o.report_every == 0.5);
    CHECK(parse_list(&o, curve_sweep) == GC_ERR_INVALID);
    CHECK(parse_list(&o, dists_model) == GC_ERR_INVALID);
    CHECK(parse(&o, "--benchmark", "--distributions", "all", NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--distributions", "all", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--benchmark", "--t-end", "1", NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--model", "plummer-wide", NULL, NULL) == GC_OK && o.params.eps == 0.05f &&
          strcmp(o.params.integrator, "leapfrog") == 0);
}

int main(void)
{
    struct gc_options o;

    CHECK(parse(&o, NULL, NULL, NULL, NULL) == GC_OK);
    CHECK(o.mode == GC_MODE_VIEWER && o.n == 0 && o.data == NULL);
    CHECK(o.params.dt == GC_DEFAULT_DT && o.params.eps == GC_DEFAULT_EPS);
    CHECK(strcmp(o.backend, "auto") == 0 && strcmp(o.model, "mw-m31") == 0);
    CHECK(o.substeps == 0); /* auto */
    CHECK(parse(&o, "--substeps", "7", NULL, NULL) == GC_OK && o.substeps == 7);
    CHECK(parse(&o, "--substeps", "auto", NULL, NULL) == GC_OK && o.substeps == 0);
    CHECK(parse(&o, "--substeps", "0", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--substeps", "fast", NULL, NULL) == GC_ERR_INVALID);

    CHECK(parse(&o, "-n", "8192", "--steps", "10") == GC_OK);
    CHECK(o.n == 8192 && o.steps == 10 && o.mode == GC_MODE_STEPS);
    CHECK(parse(&o, "--bodies=1000", "--dt=0.05", "--eps", "0.1") == GC_OK);
    CHECK(o.n == 1000 && o.params.dt == 0.05f && o.params.eps == 0.1f);
    CHECK(parse(&o, "--data", "x.tab", "--halo", NULL) == GC_OK);
    CHECK(o.halo && strcmp(o.data, "x.tab") == 0);
    CHECK(parse(&o, "--size", "800x600", "--fullscreen", NULL) == GC_OK);
    CHECK(o.width == 800 && o.height == 600 && o.fullscreen);
    CHECK(parse(&o, "--benchmark", "--json", "--backend", "cpu") == GC_OK);
    CHECK(o.mode == GC_MODE_BENCHMARK && o.json && strcmp(o.backend, "cpu") == 0);
    CHECK(parse(&o, "--headless", "--frames", "5", "--screenshot=a.png") == GC_OK);
    CHECK(o.mode == GC_MODE_HEADLESS && o.frames == 5 && strcmp(o.screenshot, "a.png") == 0);
    CHECK(parse(&o, "--help", "--bogus", NULL, NULL) == GC_OK && o.mode == GC_MODE_HELP);

    /* A data file's halos are in by default; --no-halo leaves them out. */
    CHECK(parse(&o, "--data", "x.tab", NULL, NULL) == GC_OK && o.halo == 1);
    CHECK(parse(&o, "--data", "x.tab", "--no-halo", NULL) == GC_OK && o.halo == 0);
    /* Picture, movies and camera for talks. */
    CHECK(parse(&o, NULL, NULL, NULL, NULL) == GC_OK);
    CHECK(isnan(o.exposure) && o.fps == GC_DEFAULT_FPS && !o.record && !o.tour && !o.present);
    CHECK(strcmp(o.title, GC_DEFAULT_TITLE) == 0 && !o.no_bloom && !o.paused);
    CHECK(parse(&o, "--exposure", "-1.5", "--no-bloom", NULL) == GC_OK);
    CHECK(o.exposure == -1.5 && o.no_bloom);
    CHECK(parse(&o, "--exposure", "auto", NULL, NULL) == GC_OK && isnan(o.exposure));
    CHECK(parse(&o, "--headless", "--record", "m.mp4", "--tour") == GC_OK);
    CHECK(strcmp(o.record, "m.mp4") == 0 && o.tour && o.mode == GC_MODE_HEADLESS);
    CHECK(parse(&o, "--record", "m.mp4", "--fps", "30") == GC_OK);
    CHECK(o.fps == 30 && o.mode == GC_MODE_VIEWER);
    CHECK(parse(&o, "--present", "--title", "M31 meets the Milky Way", NULL) == GC_OK);
    CHECK(o.present && strcmp(o.title, "M31 meets the Milky Way") == 0);
    /* Cluster models default to Hermite with their own softening; galaxies to leapfrog. */
    CHECK(parse(&o, "--model", "plummer", NULL, NULL) == GC_OK);
    CHECK(strcmp(o.params.integrator, "hermite4") == 0 && o.params.eps == 1.0f / 256.0f);
    CHECK(o.units == GC_UNITS_HENON);
    CHECK(parse(&o, "--model", "pythagorean", "--t-end", "70") == GC_OK);
    CHECK(o.params.eps == 0.0f && o.mode == GC_MODE_STEPS && o.t_end == 70.0);
    CHECK(parse(&o, "--integrator", "hermite6", "--eps", "0") == GC_OK);
    CHECK(strcmp(o.params.integrator, "hermite6") == 0 && o.params.eps == 0.0f);
    CHECK(parse(&o, "--model", "plummer", "--integrator", "leapfrog") == GC_OK);
    CHECK(strcmp(o.params.integrator, "leapfrog") == 0 && o.units == GC_UNITS_HENON);
    CHECK(parse(&o, NULL, NULL, NULL, NULL) == GC_OK && o.units == GC_UNITS_GALAXY);
    CHECK(strcmp(o.params.integrator, "leapfrog") == 0 && o.params.eps == GC_DEFAULT_EPS);
    CHECK(parse(&o, "--t-end", "1", "--report-every", "0.25") == GC_OK);
    CHECK(o.report_every == 0.25 && o.mode == GC_MODE_STEPS);

    /* rejected */
    CHECK(parse(&o, "--integrator", "verlet", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--eta", "0", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--steps", "5", "--t-end", "1") == GC_ERR_INVALID);
    CHECK(parse(&o, "--steps", "5", "--integrator", "hermite4") == GC_ERR_INVALID);
    CHECK(parse(&o, "--steps", "5", "--report-every", "0.5") == GC_ERR_INVALID);
    CHECK(parse(&o, "--bogus", NULL, NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "stray", NULL, NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "-n", NULL, NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "-n", "0", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "-n", "-5", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "-n", "12abc", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "-n", "99999999999999999999", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "-n", "100000000", NULL, NULL) == GC_ERR_INVALID); /* > GC_MAX_BODIES */
    CHECK(parse(&o, "--dt", "0", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--dt", "-0.1", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--dt", "nan", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--dt", "inf", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--dt", "1e3", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--eps", "0", NULL, NULL) == GC_ERR_INVALID); /* leapfrog needs eps > 0 */
    CHECK(parse(&o, "--eps", "-1", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--eps", "x", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--backend", "opencl", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--model", "andromeda", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--size", "10x10", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--size", "800", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--steps", "0", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--halo", NULL, NULL, NULL) == GC_ERR_INVALID); /* needs --data */
    CHECK(parse(&o, "--halo=1", "--data", "x", NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--no-halo", NULL, NULL, NULL) == GC_ERR_INVALID); /* needs --data */
    CHECK(parse(&o, "--data", "x", "--halo", "--no-halo") == GC_ERR_INVALID);
    CHECK(parse(&o, "--exposure", "bright", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--exposure", "nan", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--exposure", "99", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--fps", "0", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--fps", "1000", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--record", "m.mp4", "--steps", "5") == GC_ERR_INVALID);
    CHECK(parse(&o, "--record", "m.mp4", "--benchmark", NULL) == GC_ERR_INVALID);
    /* Options of drawn frames in a mode that draws none: refused, not ignored. */
    CHECK(parse(&o, "--raster", "cuda", "--steps", "1") == GC_ERR_INVALID);
    CHECK(parse(&o, "--steps", "1", "--no-bloom", NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--frames", "3", "--t-end", "1") == GC_ERR_INVALID);
    CHECK(parse(&o, "--substeps", "2", "--benchmark", NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--raster", "gl", "--headless", NULL) == GC_OK);
    CHECK(parse(&o, "--raster", "gl", "--substeps", "2") == GC_OK);
    CHECK(parse(&o, "--benchmark", "--compare", NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--json", NULL, NULL, NULL) == GC_ERR_INVALID);
    CHECK(parse(&o, "--screenshot", "a.png", NULL, NULL) == GC_ERR_INVALID);
    test_tree_bench_options();
    return CHECK_DONE();
}
