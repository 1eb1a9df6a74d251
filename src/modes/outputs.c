/* Checks before a run that the files and folders the options name can be written. */
/* SPDX-License-Identifier: MIT */
#include "outputs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

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

/* A file to be written (through a temporary name in the same folder, then renamed). */
static int file_ok(const char *opt, const char *path)
{
    char dir[4096];
    struct stat sb;
    const size_t len = strlen(path);
    if ((len && path[len - 1] == '/') || (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))) {
        gc_log_error("%s %s: is a folder; give a file name", opt, path);
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

enum gc_status gc_outputs_check(const struct gc_options *o)
{
    const int draws = o->mode == GC_MODE_VIEWER || o->mode == GC_MODE_HEADLESS;
    int ok = 1;
    if (o->save)
        ok = file_ok("--save", o->save);
    if (ok && o->save_scene)
        ok = file_ok("--save-scene", o->save_scene);
    if (ok && o->record && draws)
        ok = file_ok("--record", o->record);
    if (ok && o->screenshot && o->mode == GC_MODE_HEADLESS)
        ok = file_ok("--screenshot", o->screenshot);
    /* snapshots.c creates the folder itself (one level), so a missing one is fine. */
    if (ok && o->snapshot_every > 0.0)
        ok = dir_ok("--snapshot-dir", o->snapshot_dir, 1);
    if (ok && draws && gc_cli_given(o, "--screenshot-dir"))
        ok = dir_ok("--screenshot-dir", o->screenshot_dir, 0);
    return ok ? GC_OK : GC_ERR_IO;
}
