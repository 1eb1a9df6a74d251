/* A read-only libhdf5 file driver that refuses addresses outside the file, for the snapshot reader. */
/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "hdf5_read_driver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if H5_VERSION_GE(1, 13, 0)
#include <H5FDdevelop.h>
#endif

/* Why not libhdf5's own sec2 and core drivers: they let libhdf5 keep a "metadata
 * accumulator", and libhdf5 1.10 copies from its empty buffer (SIGSEGV, a NULL memcpy in
 * H5F__accum_read) when a corrupt file gives a metadata address near 2^64, such as an
 * undefined local heap (found by fuzzing; fixed upstream in HDF5 1.14). Without the
 * accumulator every read comes here, where an address past the end is an error. */

struct image_info {
    const unsigned char *image; /* NULL: read the named file */
    size_t size;
};

struct rfile {
    H5FD_t pub; /* first: libhdf5 sees this */
    int fd;     /* -1 for an image */
    struct image_info img;
    haddr_t eof, eoa;
};

static H5FD_t *r_open(const char *name, unsigned flags, hid_t fapl, haddr_t maxaddr)
{
    const struct image_info *info = H5Pget_driver_info(fapl);
    struct rfile *f;
    struct stat sb;
    (void)maxaddr;
    if (flags & (H5F_ACC_RDWR | H5F_ACC_CREAT | H5F_ACC_TRUNC | H5F_ACC_EXCL))
        return NULL;
    f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->fd = -1;
    if (info && info->image) {
        f->img = *info;
        f->eof = (haddr_t)info->size;
        return &f->pub;
    }
    f->fd = open(name, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0 || fstat(f->fd, &sb) != 0 || sb.st_size < 0) {
        if (f->fd >= 0)
            close(f->fd);
        free(f);
        return NULL;
    }
    f->eof = (haddr_t)sb.st_size;
    return &f->pub;
}

static herr_t r_close(H5FD_t *file)
{
    struct rfile *f = (struct rfile *)file;
    int bad = f->fd >= 0 && close(f->fd) != 0;
    free(f);
    return bad ? -1 : 0;
}

/* No metadata accumulation, aggregation or sieving: a plain reader. */
static herr_t r_query(const H5FD_t *file, unsigned long *flags)
{
    (void)file;
    *flags = 0;
    return 0;
}

static haddr_t r_get_eoa(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const struct rfile *)file)->eoa;
}

static herr_t r_set_eoa(H5FD_t *file, H5FD_mem_t type, haddr_t addr)
{
    (void)type;
    ((struct rfile *)file)->eoa = addr;
    return 0;
}

static haddr_t r_get_eof(const H5FD_t *file, H5FD_mem_t type)
{
    (void)type;
    return ((const struct rfile *)file)->eof;
}

/* Zeros stand in for at most this many bytes past the file's end in one read. libhdf5
 * reads a few hundred bytes past small objects at a file's end; a corrupt superblock of a
 * 74-byte file claimed an 800 MB driver block there (found by fuzzing), which would be
 * zeroed in full, all of it resident. */
#define PAST_END_MAX ((haddr_t)64 << 10)

/* Bytes of the file's allocated space (up to the end of allocation, eoa) that lie past its
 * end read as zeros, as with libhdf5's own drivers, up to PAST_END_MAX; a range that
 * leaves that space, reaches further past the end, or wraps around, is an error. */
static herr_t r_read(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                     void *buf)
{
    struct rfile *f = (struct rfile *)file;
    unsigned char *out = buf;
    haddr_t limit = f->eoa > f->eof ? f->eoa : f->eof;
    size_t have;
    (void)type;
    (void)dxpl;
    if (addr == HADDR_UNDEF || addr > limit || size > limit - addr)
        return -1;
    if (addr + size > f->eof && addr + size - f->eof > PAST_END_MAX)
        return -1;
    have = addr >= f->eof ? 0 : (f->eof - addr < size ? (size_t)(f->eof - addr) : size);
    if (f->fd < 0) {
        if (have)
            memcpy(out, f->img.image + addr, have);
    } else {
        size_t done = 0;
        while (done < have) {
            ssize_t got = pread(f->fd, out + done, have - done, (off_t)(addr + done));
            if (got < 0 && errno == EINTR)
                continue;
            if (got <= 0)
                return -1; /* an error, or the file shrank under us */
            done += (size_t)got;
        }
    }
    memset(out + have, 0, size - have);
    return 0;
}

static herr_t r_write(H5FD_t *file, H5FD_mem_t type, hid_t dxpl, haddr_t addr, size_t size,
                      const void *buf)
{
    (void)file;
    (void)type;
    (void)dxpl;
    (void)addr;
    (void)size;
    (void)buf;
    return -1;
}

static const H5FD_class_t read_driver = {
#if H5_VERSION_GE(1, 13, 0)
    .version = H5FD_CLASS_VERSION,
    .value = (H5FD_class_value_t)(H5_VFD_RESERVED + 0x4743), /* a user driver's number */
#endif
    .name = "galaxy-read",
    .maxaddr = (haddr_t)INT64_MAX,
    .fc_degree = H5F_CLOSE_STRONG,
    .fapl_size = sizeof(struct image_info),
    .open = r_open,
    .close = r_close,
    .query = r_query,
    .get_eoa = r_get_eoa,
    .set_eoa = r_set_eoa,
    .get_eof = r_get_eof,
    .read = r_read,
    .write = r_write,
    .fl_map = H5FD_FLMAP_DICHOTOMY,
};

hid_t gc_hdf5_read_access(const void *image, size_t size)
{
    /* Registered once per process, as libhdf5 registers its own drivers; again only when
     * libhdf5 was closed since (the ID is then no longer valid). */
    static hid_t driver = H5I_INVALID_HID;
    struct image_info info = {image, size};
    hid_t fapl;
    if (driver < 0 || H5Iis_valid(driver) <= 0)
        driver = H5FDregister(&read_driver);
    if (driver < 0)
        return H5I_INVALID_HID;
    fapl = H5Pcreate(H5P_FILE_ACCESS);
    if (fapl < 0)
        return H5I_INVALID_HID;
    /* Close every object with the file, so no error path can leak one. */
    if (H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) < 0 || H5Pset_driver(fapl, driver, &info) < 0) {
        H5Pclose(fapl);
        return H5I_INVALID_HID;
    }
    return fapl;
}
