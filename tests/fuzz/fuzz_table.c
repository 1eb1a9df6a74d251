/* libFuzzer target: the Dubinski/--save text table reader (plain and gzip) on arbitrary bytes. */
/* SPDX-License-Identifier: MIT */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bodies.h"
#include "fuzz_check.h"
#include "table.h"

/* The reader takes a path (zlib opens it): each input is written to one scratch file,
 * created once per process, so the fuzzer runs the exact code --data runs. */
static char path[256];

static int scratch(void)
{
    int fd;
    const char *dir = getenv("TMPDIR");
    snprintf(path, sizeof path, "%s/gc_fuzz_table_XXXXXX", dir && *dir ? dir : "/tmp");
    fd = mkstemp(path);
    if (fd < 0) {
        perror("fuzz_table: mkstemp");
        abort();
    }
    close(fd);
    return 1;
}

static void remove_scratch(void)
{
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    struct gc_bodies b;
    enum gc_status st;
    FILE *f;
    if (!ready) {
        ready = scratch();
        atexit(remove_scratch);
    }
    f = fopen(path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort();
    st = gc_table_read(path, &b);
    fuzz_check_bodies(st, &b);
    gc_bodies_free(&b);
    return 0;
}
