/* Backend creation by name, the NULL-checking wrappers around the compute table, and the lookup of the other tables. */
/* SPDX-License-Identifier: MIT */
#include "backend.h"

#include <omp.h>
#include <string.h>

#include "log.h"

const char *gc_backend_available(void)
{
#ifdef GC_ENABLE_CUDA
    return "cpu, cuda";
#else
    return "cpu";
#endif
}

static enum gc_status create(const char *name, const struct gc_backend_options *opt,
                             struct gc_backend **out)
{
    enum gc_status st;

    if (!name || strcmp(name, "auto") == 0) {
#ifdef GC_ENABLE_CUDA
        struct gc_backend_options quiet = *opt;
        quiet.quiet = 1;
        st = gc_backend_cuda_create(&quiet, out);
        if (st == GC_OK) {
            (*out)->chosen = "auto: a usable CUDA device was found";
            return GC_OK;
        }
        st = gc_backend_cpu_create(opt, out);
        if (st == GC_OK)
            (*out)->chosen = "auto: no usable CUDA device; --backend cuda says why";
        return st;
#else
        st = gc_backend_cpu_create(opt, out);
        if (st == GC_OK)
            (*out)->chosen = "auto: this build has no CUDA support";
        return st;
#endif
    }
    if (strcmp(name, "cpu") == 0)
        return gc_backend_cpu_create(opt, out);
    if (strcmp(name, "cuda") == 0) {
#ifdef GC_ENABLE_CUDA
        return gc_backend_cuda_create(opt, out);
#else
        gc_log_error("backend 'cuda' is not available: this build was made without CUDA "
                     "(configure with a CUDA compiler present); available: %s",
                     gc_backend_available());
        return GC_ERR_UNSUPPORTED;
#endif
    }
    gc_log_error("unknown backend '%s'; available: auto, %s", name, gc_backend_available());
    return GC_ERR_INVALID;
}

enum gc_status gc_backend_create(const char *name, const struct gc_backend_options *opt,
                                 struct gc_backend **out)
{
    static const struct gc_backend_options defaults = {0};
    enum gc_status st;
    *out = NULL;
    if (!opt)
        opt = &defaults;
    st = create(name, opt, out);
    if (st == GC_OK)
        (*out)->threads = opt->threads;
    if (st == GC_OK && !opt->quiet)
        gc_backend_say_choice(*out);
    return st;
}

void gc_backend_say_choice(const struct gc_backend *b)
{
    if (!b->chosen)
        return;
    if (gc_backend_is_device(b))
        gc_log_info("backend: %s on %s (%s)", gc_backend_name(b), gc_backend_device_name(b),
                    b->chosen);
    else
        gc_log_info("backend: %s (%s)", gc_backend_name(b), b->chosen);
}

void gc_backend_destroy(struct gc_backend *b)
{
    if (b && b->iface && b->iface->destroy)
        b->iface->destroy(b);
}

enum gc_status gc_backend_upload(struct gc_backend *b, const struct gc_bodies *src)
{
    enum gc_status st;
    if (!src || src->n == 0)
        return GC_ERR_INVALID;
    st = b->iface->upload(b, src);
    if (st == GC_OK) {
        b->n = src->n;
        b->i0 = 0;
        b->i1 = src->n;
    }
    return st;
}

enum gc_status gc_backend_download(struct gc_backend *b, struct gc_bodies *dst)
{
    if (!dst || dst->n != b->n)
        return GC_ERR_INVALID;
    return b->iface->download(b, dst);
}

enum gc_status gc_backend_set_range(struct gc_backend *b, size_t i0, size_t i1)
{
    enum gc_status st;
    if (i0 > i1 || i1 > b->n) {
        gc_log_error("backend %s: range [%zu, %zu) is outside the %zu bodies", b->iface->name,
                     i0, i1, b->n);
        return GC_ERR_INVALID;
    }
    if (!b->iface->set_range) {
        if (i0 == 0 && i1 == b->n)
            return GC_OK;
        gc_log_error("backend %s cannot split its bodies between ranks", b->iface->name);
        return GC_ERR_UNSUPPORTED;
    }
    st = b->iface->set_range(b, i0, i1);
    if (st == GC_OK) {
        b->i0 = i0;
        b->i1 = i1;
    }
    return st;
}

static enum gc_status check_exchange(struct gc_backend *b, size_t i0, size_t i1, int has)
{
    if (!has) {
        gc_log_error("backend %s cannot exchange positions between ranks", b->iface->name);
        return GC_ERR_UNSUPPORTED;
    }
    if (i0 > i1 || i1 > b->n) {
        gc_log_error("backend %s: bodies [%zu, %zu) are outside the %zu bodies", b->iface->name,
                     i0, i1, b->n);
        return GC_ERR_INVALID;
    }
    return GC_OK;
}

enum gc_status gc_backend_get_positions(struct gc_backend *b, size_t i0, size_t i1, float *dst)
{
    enum gc_status st = check_exchange(b, i0, i1, b->iface->get_positions != NULL);
    return st != GC_OK || i0 == i1 ? st : b->iface->get_positions(b, i0, i1, dst);
}

enum gc_status gc_backend_set_positions(struct gc_backend *b, size_t i0, size_t i1,
                                        const float *src)
{
    enum gc_status st = check_exchange(b, i0, i1, b->iface->set_positions != NULL);
    return st != GC_OK || i0 == i1 ? st : b->iface->set_positions(b, i0, i1, src);
}

enum gc_status gc_backend_accel(struct gc_backend *b, const struct gc_force_params *fp)
{
    if ((unsigned)fp->method >= GC_FORCE_METHODS) {
        gc_log_error("backend %s: force method %d is unknown", b->iface->name, (int)fp->method);
        return GC_ERR_INVALID;
    }
    return b->iface->accel(b, fp);
}

enum gc_status gc_backend_kick(struct gc_backend *b, float dt)
{
    return b->iface->kick(b, dt);
}

enum gc_status gc_backend_drift(struct gc_backend *b, float dt)
{
    return b->iface->drift(b, dt);
}

enum gc_status gc_backend_kick_drift(struct gc_backend *b, float dt_close, float dt_open,
                                     float dt_drift)
{
    enum gc_status st = GC_OK;
    if (b->iface->kick_drift)
        return b->iface->kick_drift(b, dt_close, dt_open, dt_drift);
    if (dt_close != 0.0f)
        st = b->iface->kick(b, dt_close);
    if (st == GC_OK)
        st = b->iface->kick(b, dt_open);
    return st != GC_OK ? st : b->iface->drift(b, dt_drift);
}

enum gc_status gc_backend_export_positions(struct gc_backend *b, struct gc_render_buffer *dst)
{
    return b->iface->export_positions(b, dst);
}

enum gc_status gc_backend_potential(struct gc_backend *b, const struct gc_force_params *fp,
                                    double *w)
{
    if (!b->iface->potential)
        return GC_ERR_UNSUPPORTED;
    return b->iface->potential(b, fp, w);
}

enum gc_status gc_backend_sync(struct gc_backend *b)
{
    return b->iface->sync ? b->iface->sync(b) : GC_OK;
}

enum gc_status gc_backend_accelerations(struct gc_backend *b, const struct gc_bodies *in,
                                        const struct gc_force_params *fp,
                                        struct gc_bodies *out)
{
    enum gc_status st;
    if (!in || !out || out->n != in->n)
        return GC_ERR_INVALID;
    memcpy(out->pos, in->pos, in->n * 4 * sizeof(float));
    memset(out->vel, 0, in->n * 4 * sizeof(float));
    st = gc_backend_upload(b, out);
    if (st == GC_OK)
        st = gc_backend_accel(b, fp);
    if (st == GC_OK)
        st = gc_backend_kick(b, 1.0f);
    if (st == GC_OK)
        st = gc_backend_download(b, out);
    return st;
}

const char *gc_backend_name(const struct gc_backend *b)
{
    return b->iface->name;
}

const char *gc_backend_device_name(const struct gc_backend *b)
{
    return b->iface->device_name ? b->iface->device_name(b) : b->iface->name;
}

int gc_backend_host_threads(const struct gc_backend *b)
{
    return b && b->threads > 0 ? b->threads : omp_get_max_threads();
}

size_t gc_backend_tree_above(const struct gc_backend *b)
{
    return b ? b->iface->tree_above : 0;
}

int gc_backend_is_device(const struct gc_backend *b)
{
    return b && (b->iface->caps & GC_BACKEND_DEVICE) != 0;
}

const void *gc_backend_lookup(const struct gc_backend *b, enum gc_backend_table table)
{
    return b && b->iface->lookup ? b->iface->lookup(b, (int)table) : NULL;
}
