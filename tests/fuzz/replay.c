/* Runs a fuzz target's LLVMFuzzerTestOneInput on every file of its corpus, without libFuzzer (CI regression test). */
/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A reader's peak memory on any one corpus file stays under this, as libFuzzer's
 * -rss_limit_mb holds it in CI's fuzz run: the files are a few kB, and a reader that
 * touches hundreds of MB for one of them has taken a corrupt claim at its word. */
#define REPLAY_RSS_LIMIT_MB 512

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Reads the whole file and hands it to the target; 1 when the file could be read and the
 * target stayed within its memory. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long size;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        if (f)
            fclose(f);
        return 0;
    }
    buf = malloc(size ? (size_t)size : 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        fclose(f);
        free(buf);
        return 0;
    }
    fclose(f);
    fprintf(stderr, "replay: %s (%ld bytes)\n", path, size);
    LLVMFuzzerTestOneInput(buf, (size_t)size);
    free(buf);
    {
        struct rusage ru;
        if (getrusage(RUSAGE_SELF, &ru) == 0 && ru.ru_maxrss > REPLAY_RSS_LIMIT_MB * 1024L) {
            fprintf(stderr, "replay: %s: peak resident memory %ld MB, over %d MB\n", path,
                    ru.ru_maxrss / 1024, REPLAY_RSS_LIMIT_MB);
            return 0;
        }
    }
    return 1;
}

/* Each argument is a corpus folder (every file in it, in name order) or a single file. */
int main(int argc, char **argv)
{
    size_t runs = 0;
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR|FILE...\n", argv[0]);
        return 2;
    }
    /* The readers' messages for the broken inputs are expected; keep the log to them. */
    gc_log_set_level(GC_LOG_ERROR);
    for (int a = 1; a < argc; a++) {
        struct stat sb;
        DIR *d;
        struct dirent *e;
        char **names = NULL;
        size_t n = 0, cap = 0;
        if (stat(argv[a], &sb) != 0) {
            fprintf(stderr, "replay: %s: no such file or folder\n", argv[a]);
            return 1;
        }
        if (!S_ISDIR(sb.st_mode)) {
            if (!run_file(argv[a]))
                return 1;
            runs++;
            continue;
        }
        d = opendir(argv[a]);
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            if (n == cap) {
                char **more = realloc(names, (cap = cap ? 2 * cap : 64) * sizeof *names);
                if (!more)
                    return 1;
                names = more;
            }
            names[n] = malloc(strlen(argv[a]) + strlen(e->d_name) + 2);
            if (!names[n])
                return 1;
            sprintf(names[n++], "%s/%s", argv[a], e->d_name);
        }
        if (d)
            closedir(d);
        qsort(names, n, sizeof *names, by_name);
        for (size_t k = 0; k < n; k++) {
            if (!run_file(names[k]))
                return 1;
            free(names[k]);
            runs++;
        }
        free(names);
    }
    if (runs == 0) {
        fprintf(stderr, "replay: no inputs found\n");
        return 1;
    }
    printf("replay: %zu inputs, no crash\n", runs);
    return 0;
}
