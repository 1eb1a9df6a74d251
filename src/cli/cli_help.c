/* Writes --help and the man page (--help-man) of galaxy and galaxy-bench from the option table. */
/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <string.h>

#include "cli.h"
#include "cli_table.h"

/* What the window does with the mouse and keys, after the Window options in --help. */
static const char window_keys[] =
    "  Mouse: left-drag rotate, right-drag or wheel zoom, middle-drag pan,\n"
    "         click on the time line go to that time.\n"
    "  Keys: space pause/run, n one step while paused, [ ] halve/double dt, r reset,\n"
    "        Up Down faster/slower (simulated time a second), a automatic speed,\n"
    "        j l run backwards/forwards, Page Up/Page Down previous/next event,\n"
    "        Left Right back/on along the timeline, Home End start/furthest computed,\n"
    "        d draw mode, c colour mode, m dark matter (stars / + faint halo / halo),\n"
    "        + - point size, , . exposure -/+ half a stop, x exposure auto/locked,\n"
    "        b glow, 1 face-on, 2 edge-on, 3 overview, 0 home view, o auto-orbit,\n"
    "        t tour, v start/stop recording, p presentation HUD, i statistics,\n"
    "        g time line, names and scale bar, h help overlay, f full screen,\n"
    "        s save PNG screenshot, q or Esc quit.\n";

/* ---- --help ---- */

/* "  --name, -n N" padded to the help column, then the help lines indented under it. */
static void usage_option(FILE *f, const struct gc_cli_option *op)
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
                 "GPU (CUDA) or CPU (OpenMP), drawn live with OpenGL. A bare number N is -n N.\n";
}

static const char *section_name(int s, enum gc_program p)
{
    return s == GC_SEC_MODES && p == GC_PROGRAM_BENCH ? "Modes (one is required)"
                                                      : gc_cli_section_title[s];
}

/* 1 when --help and the man page of program p list option op. */
static int listed(const struct gc_cli_option *op, enum gc_program p)
{
    return op->help && (op->programs & p);
}

void gc_cli_usage(FILE *f, enum gc_program program)
{
    fprintf(f, "Usage: %s [options] [N]\n%s", program_name(program), description(program));
    for (int s = 0; s < GC_SEC_COUNT; s++) {
        int printed = 0;
        for (size_t k = 0; k < gc_cli_noptions; k++) {
            const struct gc_cli_option *op = &gc_cli_options[k];
            if (op->section != (enum gc_cli_section)s || !listed(op, program))
                continue;
            if (!printed++)
                fprintf(f, "\n%s:\n", section_name(s, program));
            usage_option(f, op);
        }
        if (s == GC_SEC_WINDOW && printed)
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
    fputs("\n[\\fIoptions\\fR] [\\fIN\\fR]\n.SH DESCRIPTION\n", f);
    roff_str(f, description(program));
    fputs(".SH OPTIONS\n", f);
    for (int s = 0; s < GC_SEC_COUNT; s++) {
        int printed = 0;
        for (size_t k = 0; k < gc_cli_noptions; k++) {
            const struct gc_cli_option *op = &gc_cli_options[k];
            if (op->section != (enum gc_cli_section)s || !listed(op, program))
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
        if (s == GC_SEC_WINDOW && printed) {
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
              "\\fI../share/galaxy/shaders\\fR relative to it (installed).\n"
              ".TP\n.B DISPLAY\nthe X display of the window (without one, use "
              "\\fB\\-\\-headless\\fR or \\fB\\-\\-steps\\fR).\n"
              ".TP\n.B OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_SIZE, MPI_LOCALNRANKS, PMIX_RANK\n"
              "read only to tell that an MPI launcher started several copies of a build without "
              "MPI, which is then refused.\n",
              f);
    fprintf(f, ".SH SEE ALSO\n\\fB%s\\fR(1); README.md in share/doc/galaxy of the installation\n",
            other);
}
