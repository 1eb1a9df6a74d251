/* Checks before a run that the files and folders the options name can be written. */
/* SPDX-License-Identifier: MIT */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "outfile.h"

/* The folder that path goes in: "." for a bare name, "/" for "/x". */
static void parent_of(const char *path, char *dir, size_t cap)
{
    const char *slash = strrchr(path, '/');
    while (slash && slash > path && slash[-1] == '/')
        slash--;
    if (!slash)
        snprintf(dir, cap, ".");
    else if (slash == path)
        snprintf(dir, cap, "/");
    else
        snprintf(dir, cap, "%.*s", (int)(slash - path), path);
}

/* 1 when dir is a folder this process may create files in; else logs why, naming the
 * option and what was given for it. access() asks the kernel, so a read-only file system
 * (EROFS) and missing permissions (EACCES) are both caught, for root too. */
static int takes_files(const char *opt, const char *given, const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        gc_log_error("%s %s: cannot write there: %s: %s", opt, given, dir, strerror(errno));
        return 0;
    }
    if (!S_ISDIR(sb.st_mode)) {
        gc_log_error("%s %s: cannot write there: %s is not a folder", opt, given, dir);
        return 0;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        gc_log_error("%s %s: cannot write there: %s: %s", opt, given, dir, strerror(errno));
        return 0;
    }
    return 1;
}

/* A file to be written (through a temporary name in the same folder, then renamed), or a
 * device or pipe written as it is (outfile.h): then it is the target itself that must take
 * writes, not its folder (/dev takes no new files from a user, /dev/null takes writes). */
static int file_ok(const char *opt, const char *path)
{
    char dir[4096];
    const size_t len = strlen(path);
    const char *why = gc_outfile_refusal(path);
    if (why) {
        gc_log_error("%s %s: %s", opt, path, why);
        return 0;
    }
    if (gc_outfile_is_direct(path)) {
        if (access(path, W_OK) == 0)
            return 1;
        gc_log_error("%s %s: cannot write there: %s", opt, path, strerror(errno));
        return 0;
    }
    if (len >= sizeof dir) {
        gc_log_error("%s: path too long (%zu characters)", opt, len);
        return 0;
    }
    parent_of(path, dir, sizeof dir);
    return takes_files(opt, path, dir);
}

/* A folder to write in; `creatable`: missing is fine when its parent takes new folders. */
static int dir_ok(const char *opt, const char *dir, int creatable)
{
    char parent[4096];
    struct stat sb;
    if (stat(dir, &sb) == 0 || errno != ENOENT || !creatable)
        return takes_files(opt, dir, dir);
    if (strlen(dir) >= sizeof parent) {
        gc_log_error("%s: path too long (%zu characters)", opt, strlen(dir));
        return 0;
    }
    parent_of(dir, parent, sizeof parent);
    return takes_files(opt, dir, parent);
}

/* 1 when a and b name the same file: the same inode where both exist, else the same
 * folder (by its inode) and the same last name; compared as the system resolves them, so
 * "./x", "x" and "d/../x" are one file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char da[4096], db[4096];
    const char *na, *nb;
    if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (strlen(a) >= sizeof da || strlen(b) >= sizeof db)
        return strcmp(a, b) == 0;
    parent_of(a, da, sizeof da);
    parent_of(b, db, sizeof db);
    na = strrchr(a, '/') ? strrchr(a, '/') + 1 : a;
    nb = strrchr(b, '/') ? strrchr(b, '/') + 1 : b;
    return strcmp(na, nb) == 0 && stat(da, &sa) == 0 && stat(db, &sb) == 0 &&
           sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

enum gc_status gc_outputs_check(const struct gc_options *o)
{
    const int draws = o->mode == GC_MODE_VIEWER || o->mode == GC_MODE_HEADLESS;
    /* Every file output of this run, named by its option. */
    const struct {
        const char *opt, *path;
    } out[] = {{"--save", o->save},
               {"--save-scene", o->save_scene},
               {"--record", draws ? o->record : NULL},
               {"--screenshot", o->mode == GC_MODE_HEADLESS ? o->screenshot : NULL}};
    const int nout = (int)(sizeof out / sizeof out[0]);
    int ok = 1;
    for (int i = 0; ok && i < nout; i++)
        if (out[i].path)
            ok = file_ok(out[i].opt, out[i].path);
    /* Two outputs into one file: the second would replace the first (a movie lost under a
     * picture), or both would mix in one pipe. */
    for (int i = 0; ok && i < nout; i++)
        for (int j = i + 1; ok && j < nout; j++)
            if (out[i].path && out[j].path && same_file(out[i].path, out[j].path)) {
                gc_log_error("%s %s and %s %s are the same file: give each output its own "
                             "name", out[i].opt, out[i].path, out[j].opt, out[j].path);
                return GC_ERR_INVALID;
            }
    /* snapshots.c creates the folder itself (one level), so a missing one is fine. */
    if (ok && o->snapshot_every > 0.0)
        ok = dir_ok("--snapshot-dir", o->snapshot_dir, 1);
    if (ok && draws && gc_cli_given(o, "--screenshot-dir"))
        ok = dir_ok("--screenshot-dir", o->screenshot_dir, 0);
    return ok ? GC_OK : GC_ERR_IO;
}
