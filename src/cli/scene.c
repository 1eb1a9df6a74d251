/* Scenes: a run's setup as an INI file of option values, read with libinih and written back. */
/* SPDX-License-Identifier: MIT */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef GC_HAVE_INIH
#include <ini.h>
#endif

#include "cli_table.h"
#include "log.h"
#include "scenario.h"
#include "units.h"

/* The keys a scene may hold: each is the option of the same name, in its section. */
static const struct {
    const char *section, *key;
} keys[] = {
    {"encounter", "scenario"},   {"encounter", "mass-ratio"},     {"encounter", "pericentre"},
    {"encounter", "eccentricity"}, {"encounter", "separation"},   {"encounter", "primary-disk"},
    {"encounter", "companion-disk"}, {"run", "bodies"},           {"run", "seed"},
    {"view", "camera"},          {"view", "draw"},                {"view", "colour"},
    {"view", "exposure"},        {"view", "title"},
};
#define NKEYS (sizeof keys / sizeof keys[0])

/* ---- reading ---- */

#ifdef GC_HAVE_INIH
struct reader {
    FILE *f;
    const char *path;
    struct gc_options *o;
    int line, next;        /* line of the text last handed to the parser; the one after */
    int failed;            /* a key was refused (and said so): apply nothing more */
    int failed_line;
};

/* fgets for the parser, counting lines so that a refused key can be named by its line. */
static char *read_line(char *str, int num, void *stream)
{
    struct reader *r = stream;
    char *s = fgets(str, num, r->f);
    if (s) {
        r->line = r->next;
        if (strchr(s, '\n'))
            r->next++;
    }
    return s;
}

static int is_section(const char *section)
{
    for (size_t k = 0; k < NKEYS; k++)
        if (strcmp(section, keys[k].section) == 0)
            return 1;
    return 0;
}

/* The keys of section, "a, b, c", for a message. */
static void section_keys(const char *section, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < NKEYS && at < size; k++)
        if (strcmp(section, keys[k].section) == 0)
            at += (size_t)snprintf(buf + at, size - at, "%s%s", at ? ", " : "", keys[k].key);
}

static int refuse(struct reader *r)
{
    r->failed = 1;
    r->failed_line = r->line;
    return 0;
}

static int on_value(void *user, const char *section, const char *name, const char *value)
{
    struct reader *r = user;
    struct gc_options *o = r->o;
    char opt[64], where[4200], list[256];
    const struct gc_cli_option *op;
    size_t k, len = strlen(value) + 1;
    if (r->failed)
        return 0;
    if (!is_section(section)) {
        gc_log_error("%s:%d: unknown section [%s] (a scene has [encounter], [run] and [view])",
                     r->path, r->line, section);
        return refuse(r);
    }
    for (k = 0; k < NKEYS; k++)
        if (strcmp(section, keys[k].section) == 0 && strcmp(name, keys[k].key) == 0)
            break;
    if (k == NKEYS) {
        section_keys(section, list, sizeof list);
        gc_log_error("%s:%d: unknown key '%s' in [%s] (its keys: %s)", r->path, r->line, name,
                     section, list);
        return refuse(r);
    }
    snprintf(opt, sizeof opt, "--%s", name);
    op = gc_cli_find(opt);
    if (!op)
        return refuse(r);
    /* The command line's value wins. */
    if (gc_cli_given(o, opt))
        return 1;
    if (o->scene_used + len > sizeof o->scene_text) {
        gc_log_error("%s:%d: the scene's values are longer than %zu bytes in all", r->path,
                     r->line, sizeof o->scene_text);
        return refuse(r);
    }
    char *copy = o->scene_text + o->scene_used;
    memcpy(copy, value, len);
    o->scene_used += len;
    snprintf(where, sizeof where, "%s:%d: %s", r->path, r->line, name);
    /* -n is range-checked once the model is known: its message needs where to last. */
    const char *typed = where;
    if (strcmp(name, "bodies") == 0 && o->scene_used + strlen(where) + 1 <= sizeof o->scene_text) {
        typed = o->scene_text + o->scene_used;
        memcpy(o->scene_text + o->scene_used, where, strlen(where) + 1);
        o->scene_used += strlen(where) + 1;
    }
    if (!*copy) {
        gc_log_error("%s needs a value", where);
        return refuse(r);
    }
    if (gc_cli_apply(o, op, typed, copy) != GC_OK)
        return refuse(r);
    return 1;
}
#endif

enum gc_status gc_scene_load(const char *path, struct gc_options *o)
{
#ifdef GC_HAVE_INIH
    struct reader r;
    struct stat sb;
    int line;
    memset(&r, 0, sizeof r);
    r.f = fopen(path, "r");
    if (!r.f) {
        gc_log_error("--scene %s: cannot read it: %s", path, strerror(errno));
        return GC_ERR_IO;
    }
    if (fstat(fileno(r.f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        gc_log_error("--scene %s: not a regular file", path);
        fclose(r.f);
        return GC_ERR_IO;
    }
    r.path = path;
    r.o = o;
    r.next = 1;
    line = ini_parse_stream(read_line, &r, on_value, &r);
    fclose(r.f);
    if (line == -2) {
        gc_log_error("--scene %s: out of memory while reading it", path);
        return GC_ERR_NOMEM;
    }
    /* A line the parser itself refused (no '=', an unclosed '[') before any key was. */
    if (line > 0 && (!r.failed || line < r.failed_line))
        gc_log_error("%s:%d: not a 'key = value' line, a [section] or a comment", path, line);
    if (line != 0 || r.failed)
        return GC_ERR_INVALID;
    gc_log_info("scene %s read", path);
    return GC_OK;
#else
    (void)o;
    gc_log_error("--scene %s: this build reads no scenes (libinih was not found when it was "
                 "built: install libinih-dev, scripts/install-deps optional, and rebuild)", path);
    return GC_ERR_UNSUPPORTED;
#endif
}

/* ---- writing ---- */

void gc_scene_from_options(const struct gc_options *o, size_t n, struct gc_scene *s)
{
    memset(s, 0, sizeof *s);
    s->scenario = o->scenario;
    s->encounter = o->encounter;
    s->n = n;
    s->seed = o->seed;
    s->camera_given = o->camera_given;
    memcpy(s->camera, o->camera, sizeof s->camera);
    s->draw = o->draw;
    s->colour = o->colour;
    s->exposure = o->exposure;
    s->title = gc_cli_given(o, "--title") ? o->title : NULL;
}

/* A string value as INI keeps it: on one line, without " ;" (an inline comment to the
 * parser), spaces at the ends dropped by the reader anyway. */
static void put_text(FILE *f, const char *key, const char *v)
{
    fprintf(f, "%s = ", key);
    for (const char *c = v; *c; c++)
        fputc(*c == '\n' || *c == '\r' ? ' ' : *c == ';' ? ',' : *c, f);
    fputc('\n', f);
}

static void put_encounter(FILE *f, const struct gc_scene *s)
{
    const struct gc_scenario *sc = gc_scenario_find(s->scenario);
    const struct gc_encounter *e = &s->encounter;
    struct gc_encounter base;
    if (sc)
        gc_scenario_encounter(sc, &base);
    else
        gc_encounter_mw_m31(&base);
    fputs("\n[encounter]\n", f);
    fprintf(f, "scenario = %s\n", sc ? sc->name : "mw-m31");
    if (e->legacy)
        return;
    /* Only what differs from the scenario, exactly (%.17g; lengths in N-body units). The
     * mass ratio always when the base is today's pair: without any value the reader would
     * build that pair bit for bit, not this encounter of the same values. */
    if (e->mass_ratio != base.mass_ratio || base.legacy)
        fprintf(f, "mass-ratio = %.17g\n", e->mass_ratio);
    if (e->pericentre != base.pericentre)
        fprintf(f, "pericentre = %.17g ; %.4g kpc\n", e->pericentre,
                e->pericentre * GC_KPC_PER_LENGTH_UNIT);
    if (e->eccentricity != base.eccentricity)
        fprintf(f, "eccentricity = %.17g\n", e->eccentricity);
    if (e->separation != base.separation)
        fprintf(f, "separation = %.17g ; %.4g kpc (0 = auto)\n", e->separation,
                e->separation * GC_KPC_PER_LENGTH_UNIT);
    if (e->primary.incl != base.primary.incl || e->primary.omega != base.primary.omega)
        fprintf(f, "primary-disk = %.17g,%.17g\n", e->primary.incl, e->primary.omega);
    if (e->companion.incl != base.companion.incl || e->companion.omega != base.companion.omega)
        fprintf(f, "companion-disk = %.17g,%.17g\n", e->companion.incl, e->companion.omega);
}

static enum gc_status write_all(FILE *f, const struct gc_scene *s)
{
    fputs("# galaxy scene: the setup of a run, read by galaxy --scene FILE. Each key is the\n"
          "# option of that name (galaxy --help); options on the command line win.\n", f);
    put_encounter(f, s);
    fprintf(f, "\n[run]\nbodies = %zu\nseed = %llu\n", s->n, (unsigned long long)s->seed);
    fputs("\n[view]\n", f);
    if (s->camera_given)
        fprintf(f, "camera = %.9g,%.9g,%.9g,%.9g,%.9g,%.9g\n", s->camera[0], s->camera[1],
                s->camera[2], s->camera[3], s->camera[4], s->camera[5]);
    if (s->draw)
        fprintf(f, "draw = %s\n", s->draw);
    if (s->colour)
        fprintf(f, "colour = %s\n", s->colour);
    if (isnan(s->exposure))
        fputs("exposure = auto\n", f);
    else
        fprintf(f, "exposure = %.9g\n", s->exposure);
    if (s->title)
        put_text(f, "title", s->title);
    return ferror(f) ? GC_ERR_IO : GC_OK;
}

enum gc_status gc_scene_write(const char *path, const struct gc_scene *s)
{
    char part[4200];
    FILE *f;
    enum gc_status st;
    if ((size_t)snprintf(part, sizeof part, "%s.part", path) >= sizeof part) {
        gc_log_error("scene %s: the path is too long", path);
        return GC_ERR_IO;
    }
    f = fopen(part, "w");
    if (!f) {
        gc_log_error("scene %s: cannot write %s: %s", path, part, strerror(errno));
        return GC_ERR_IO;
    }
    st = write_all(f, s);
    if (fclose(f) != 0)
        st = GC_ERR_IO;
    if (st == GC_OK && rename(part, path) != 0)
        st = GC_ERR_IO;
    if (st != GC_OK) {
        gc_log_error("scene %s: writing it failed: %s", path, strerror(errno));
        unlink(part);
        return st;
    }
    gc_log_info("wrote scene %s", path);
    return GC_OK;
}
