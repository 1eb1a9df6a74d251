/* The Hermite table's lookup and its NULL-checking wrappers: GC_ERR_UNSUPPORTED where a backend lacks the table or a slot. */
/* SPDX-License-Identifier: MIT */
#include "backend_hermite.h"

#include "log.h"

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
