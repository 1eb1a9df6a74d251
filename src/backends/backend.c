/* Backend creation by name, the NULL-checking wrappers around the compute table, and the lookups of the other tables. */
/* SPDX-License-Identifier: MIT */
#include "backend.h"

#include <omp.h>
#include <string.h>

#include "backend_bench.h"
#include "backend_hermite.h"
#include "backend_picture.h"
#include "backend_tree.h"
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

enum gc_status gc_backend_kick_drift(struct gc_backend *b, float dt_kick, float dt_drift)
{
    enum gc_status st;
    if (b->iface->kick_drift)
        return b->iface->kick_drift(b, dt_kick, dt_drift);
    st = b->iface->kick(b, dt_kick);
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

const struct gc_backend_bench *gc_backend_bench(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_BENCH);
}

const struct gc_backend_tree *gc_backend_tree(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_TREE);
}

/* ---- the Hermite table ---- */

const struct gc_backend_hermite *gc_backend_hermite(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_HERMITE);
}

static enum gc_status no_hermite(const struct gc_backend *b)
{
    gc_log_error("backend %s has no Hermite block-step support", b->iface->name);
    return GC_ERR_UNSUPPORTED;
}

#define HERMITE_CALL(slot, ...)                                                    \
    do {                                                                           \
        const struct gc_backend_hermite *h_ = gc_backend_hermite(b);               \
        return h_ && h_->slot ? h_->slot(__VA_ARGS__) : no_hermite(b);             \
    } while (0)

enum gc_status gc_backend_hermite_init(struct gc_backend *b, const struct gc_hermite_config *cfg,
                                       const struct gc_bodies *bodies)
{
    if (!bodies || bodies->n != b->n) {
        gc_log_error("hermite: the bodies given (%zu) are not the %zu uploaded",
                     bodies ? bodies->n : 0, b->n);
        return GC_ERR_INVALID;
    }
    if (cfg->order != 4 && cfg->order != 6) {
        gc_log_error("hermite: order %d is not 4 or 6", cfg->order);
        return GC_ERR_INVALID;
    }
    HERMITE_CALL(init, b, cfg, bodies);
}

enum gc_status gc_backend_hermite_begin(struct gc_backend *b)
{
    HERMITE_CALL(begin, b);
}

enum gc_status gc_backend_hermite_select(struct gc_backend *b, int64_t t_limit, int *due)
{
    HERMITE_CALL(select, b, t_limit, due);
}

enum gc_status gc_backend_hermite_predict(struct gc_backend *b)
{
    HERMITE_CALL(predict, b);
}

enum gc_status gc_backend_hermite_force(struct gc_backend *b)
{
    HERMITE_CALL(force, b);
}

enum gc_status gc_backend_hermite_correct(struct gc_backend *b)
{
    HERMITE_CALL(correct, b);
}

enum gc_status gc_backend_hermite_view(struct gc_backend *b, int64_t t)
{
    HERMITE_CALL(view, b, t);
}

enum gc_status gc_backend_hermite_counters(struct gc_backend *b, struct gc_hermite_counters *out)
{
    HERMITE_CALL(counters, b, out);
}

enum gc_status gc_backend_hermite_schedule(struct gc_backend *b, int64_t *t, uint8_t *level)
{
    HERMITE_CALL(schedule, b, t, level);
}

enum gc_status gc_backend_hermite_derivs(struct gc_backend *b, double *acc, double *jerk,
                                         double *snap)
{
    HERMITE_CALL(derivs, b, acc, jerk, snap);
}

static enum gc_status no_exchange(const struct gc_backend *b)
{
    gc_log_error("backend %s cannot exchange Hermite state between ranks: the Hermite schemes "
                 "run on one rank with it", b->iface->name);
    return GC_ERR_UNSUPPORTED;
}

enum gc_status gc_backend_hermite_pack(struct gc_backend *b, struct gc_hermite_record *dst,
                                       size_t *count)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    *count = 0;
    return h && h->pack ? h->pack(b, dst, count) : no_exchange(b);
}

enum gc_status gc_backend_hermite_unpack(struct gc_backend *b,
                                         const struct gc_hermite_record *src, size_t count)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    if (count == 0)
        return GC_OK;
    return h && h->unpack ? h->unpack(b, src, count) : no_exchange(b);
}

enum gc_status gc_backend_hermite_state(struct gc_backend *b, struct gc_hermite_record *all)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    return h && h->state ? h->state(b, all) : GC_ERR_UNSUPPORTED;
}

enum gc_status gc_backend_hermite_perturb(struct gc_backend *b, const int64_t *idx,
                                          const double *acc, const double *jerk, size_t count)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    return h && h->perturb ? h->perturb(b, idx, acc, jerk, count) : GC_ERR_UNSUPPORTED;
}

int gc_backend_hermite_has_state(const struct gc_backend *b)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    return h && h->state && h->unpack;
}

int gc_backend_hermite_has_pack(const struct gc_backend *b)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    return h && h->pack;
}

int gc_backend_hermite_has_repeat(const struct gc_backend *b)
{
    const struct gc_backend_hermite *h = gc_backend_hermite(b);
    return h && h->repeat;
}

enum gc_status gc_backend_hermite_repeat(struct gc_backend *b, enum gc_status (*body)(void *ctx),
                                         void *ctx)
{
    if (!gc_backend_hermite_has_repeat(b)) {
        gc_log_error("backend %s cannot repeat on its own; loop on the host", b->iface->name);
        return GC_ERR_UNSUPPORTED;
    }
    return gc_backend_hermite(b)->repeat(b, body, ctx);
}

/* ---- the picture table ---- */

const struct gc_backend_picture *gc_backend_picture(const struct gc_backend *b)
{
    return gc_backend_lookup(b, GC_TABLE_PICTURE);
}

int gc_backend_picture_can_draw(const struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->draw;
}

enum gc_status gc_backend_picture_draw(struct gc_backend *b, struct gc_picture_job *job)
{
    return gc_backend_picture_can_draw(b) ? gc_backend_picture(b)->draw(b, job)
                                          : GC_ERR_UNSUPPORTED;
}

enum gc_status gc_backend_picture_release(struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->release ? p->release(b) : GC_OK;
}

enum gc_status gc_backend_picture_detach(struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->detach ? p->detach(b) : GC_OK;
}

int gc_backend_picture_has_fence(const struct gc_backend *b)
{
    const struct gc_backend_picture *p = gc_backend_picture(b);
    return p && p->fence && p->wait && p->fence_release;
}

void *gc_backend_picture_fence(struct gc_backend *b)
{
    return gc_backend_picture_has_fence(b) ? gc_backend_picture(b)->fence(b) : NULL;
}

int gc_backend_picture_wait(struct gc_backend *b, void *fence, double timeout_s)
{
    return gc_backend_picture_has_fence(b) ? gc_backend_picture(b)->wait(b, fence, timeout_s)
                                           : -1;
}

void gc_backend_picture_fence_release(struct gc_backend *b, void *fence)
{
    if (gc_backend_picture_has_fence(b))
        gc_backend_picture(b)->fence_release(b, fence);
}
