/* HDF5 snapshot calls in every build: the file-name check, whether libhdf5 is in, and refusals without it. */
/* SPDX-License-Identifier: MIT */
#include "snapshot_hdf5.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"

/* With libhdf5 (GC_HAVE_HDF5), snapshot_hdf5_write.c writes and snapshot_hdf5_read.c reads. */

int gc_snapshot_hdf5_name(const char *path)
{
    static const char *const suffix[] = {".hdf5", ".h5", ".hdf"};
    size_t len = path ? strlen(path) : 0;
    for (size_t k = 0; k < sizeof suffix / sizeof suffix[0]; k++) {
        size_t s = strlen(suffix[k]);
        if (len > s && strcasecmp(path + len - s, suffix[k]) == 0)
            return 1;
    }
    return 0;
}

void gc_snapshot_run_free(struct gc_snapshot_run *r)
{
    if (!r)
        return;
    gc_state_free_host(&r->state);
}

#ifdef GC_HAVE_HDF5

int gc_snapshot_hdf5_available(void)
{
    return 1;
}

#else /* !GC_HAVE_HDF5 */

static enum gc_status no_hdf5(const char *what)
{
    gc_log_error("%s: this build has no HDF5 support: install libhdf5-dev (the HDF5 C "
                 "library) and rebuild", what ? what : "HDF5");
    return GC_ERR_UNSUPPORTED;
}

int gc_snapshot_hdf5_available(void)
{
    return 0;
}

enum gc_status gc_snapshot_hdf5_write(const char *path, const struct gc_bodies *b, double time)
{
    (void)b;
    (void)time;
    return no_hdf5(path);
}

enum gc_status gc_snapshot_hdf5_read(const char *path, struct gc_bodies *out, double *time)
{
    memset(out, 0, sizeof *out);
    (void)time;
    return no_hdf5(path);
}

enum gc_status gc_snapshot_hdf5_write_run(const char *path, const struct gc_bodies *b,
                                          double time, const struct gc_snapshot_run *run)
{
    (void)run;
    return gc_snapshot_hdf5_write(path, b, time);
}

enum gc_status gc_snapshot_hdf5_read_run(const char *path, struct gc_bodies *out, double *time,
                                         struct gc_snapshot_run *run)
{
    if (run)
        memset(run, 0, sizeof *run);
    return gc_snapshot_hdf5_read(path, out, time);
}

enum gc_status gc_snapshot_hdf5_read_image(const void *image, size_t size, const char *name,
                                           size_t max_bodies, struct gc_bodies *out,
                                           double *time)
{
    (void)image;
    (void)size;
    (void)max_bodies;
    (void)time;
    memset(out, 0, sizeof *out);
    return no_hdf5(name);
}

#endif
