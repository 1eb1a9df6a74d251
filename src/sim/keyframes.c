/* The keyframe store: states kept at growing intervals within a budget, and seeks that restore one and step on. */
/* SPDX-License-Identifier: MIT */
#include "keyframes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend_state.h"
#include "log.h"

struct keyframe {
    double time;        /* the simulation's time at it */
    float dt;           /* the step the run took from it */
    struct gc_state st;
};

struct gc_keyframes {
    struct gc_sim *sim;   /* not owned */
    struct keyframe *kf;  /* count of capacity, in time order */
    size_t count, capacity;
    struct gc_state *spare; /* released states whose memory the next keeps reuse */
    size_t nspare;
    size_t budget, bytes_each;
    double every;         /* simulated time between keyframes */
    double reached;       /* the latest time computed on the first pass */
    int exact;            /* 1 while the simulation's state is the first pass's */
};

static double mib(size_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0);
}

static float current_dt(const struct gc_keyframes *k)
{
    return gc_sim_params(k->sim)->dt;
}

/* Keeps the state now as the next keyframe, into a spare's memory when there is one. */
static enum gc_status keep(struct gc_keyframes *k)
{
    struct keyframe *f = &k->kf[k->count];
    enum gc_status st;
    memset(f, 0, sizeof *f);
    if (k->nspare > 0)
        f->st = k->spare[--k->nspare];
    st = gc_sim_keep(k->sim, &f->st);
    if (st != GC_OK) {
        gc_sim_release_state(k->sim, &f->st);
        return st;
    }
    f->time = gc_sim_time(k->sim);
    f->dt = current_dt(k);
    k->count++;
    return GC_OK;
}

/* Every other keyframe dropped, the interval doubled. The first and the latest stay, and so
 * does one where dt changed: the steps from a keyframe to the next share its dt. */
static void thin(struct gc_keyframes *k)
{
    size_t w = 1;
    for (size_t r = 1; r < k->count; r++) {
        if (r % 2 == 0 || r + 1 == k->count || k->kf[r].dt != k->kf[w - 1].dt)
            k->kf[w++] = k->kf[r];
        else
            k->spare[k->nspare++] = k->kf[r].st;
    }
    k->count = w;
    k->every *= 2.0;
}

/* A keyframe now, with room made first; none when dt changed so often that no room can be
 * made (the seeks then step further). */
static enum gc_status keep_now(struct gc_keyframes *k)
{
    enum gc_status st;
    if (k->count == k->capacity)
        thin(k);
    if (k->count == k->capacity)
        return GC_OK;
    st = keep(k);
    /* out of memory after all (others took it): fewer keyframes from here on */
    if (st == GC_ERR_NOMEM && k->count > 2) {
        thin(k);
        k->capacity = k->count;
        return GC_OK;
    }
    return st;
}

enum gc_status gc_keyframes_create(struct gc_sim *s, size_t budget, struct gc_keyframes **out)
{
    struct gc_keyframes *k = calloc(1, sizeof *k);
    struct gc_state first;
    size_t free_bytes = 0;
    enum gc_status st;
    *out = NULL;
    if (!k) {
        gc_log_error("keyframes: out of memory");
        return GC_ERR_NOMEM;
    }
    memset(&first, 0, sizeof first);
    k->sim = s;
    k->every = GC_KEYFRAMES_FIRST_EVERY;
    k->exact = 1;
    k->reached = gc_sim_time(s);
    st = gc_sim_keep(s, &first);
    if (st != GC_OK && st != GC_ERR_UNSUPPORTED) {
        gc_log_error("keyframes: no memory for one state of %zu bodies", gc_sim_bodies(s));
    }
    if (st == GC_OK) {
        const struct gc_backend_state *table = gc_backend_state(gc_sim_backend(s));
        k->bytes_each = first.bytes ? first.bytes : 1;
        if (first.memory == GC_STATE_HOST || !table ||
            table->free_memory(gc_sim_backend(s), &free_bytes) != GC_OK) {
            /* host memory: what the CPU backend reports is the host's too */
            const struct gc_backend_state *host = table;
            if (!host || host->free_memory(gc_sim_backend(s), &free_bytes) != GC_OK)
                free_bytes = 0;
        }
        if (budget == 0)
            budget = (size_t)(GC_KEYFRAMES_SHARE * (double)free_bytes);
        if (free_bytes > 0 && budget > free_bytes) {
            gc_log_error("--keyframe-memory %.4g MiB is more than the %.4g MiB free in the %s's "
                         "memory", mib(budget), mib(free_bytes),
                         first.memory == GC_STATE_BACKEND && gc_backend_is_device(gc_sim_backend(s))
                             ? "device"
                             : "host");
            st = GC_ERR_INVALID;
        } else if (budget / k->bytes_each < 2) {
            gc_log_error("--keyframe-memory %.4g MiB holds fewer than two states of %zu bodies "
                         "(%.4g MiB each)", mib(budget), gc_sim_bodies(s), mib(k->bytes_each));
            st = GC_ERR_INVALID;
        }
    }
    if (st == GC_OK) {
        k->budget = budget;
        k->capacity = budget / k->bytes_each;
        if (k->capacity > GC_KEYFRAMES_MAX)
            k->capacity = GC_KEYFRAMES_MAX;
        /* the array grows to capacity; the spares hold at most half of it, after a thinning */
        k->kf = calloc(k->capacity, sizeof *k->kf);
        k->spare = calloc(k->capacity, sizeof *k->spare);
        if (!k->kf || !k->spare) {
            gc_log_error("keyframes: out of memory for the list of %zu", k->capacity);
            st = GC_ERR_NOMEM;
        }
    }
    if (st != GC_OK) {
        gc_sim_release_state(s, &first);
        free(k->kf);
        free(k->spare);
        free(k);
        return st;
    }
    k->kf[0].st = first;
    k->kf[0].time = gc_sim_time(s);
    k->kf[0].dt = current_dt(k);
    k->count = 1;
    *out = k;
    return GC_OK;
}

void gc_keyframes_destroy(struct gc_keyframes *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->count; i++)
        gc_sim_release_state(k->sim, &k->kf[i].st);
    for (size_t i = 0; i < k->nspare; i++)
        gc_sim_release_state(k->sim, &k->spare[i]);
    free(k->kf);
    free(k->spare);
    free(k);
}

enum gc_status gc_keyframes_note(struct gc_keyframes *k)
{
    const double t = gc_sim_time(k->sim);
    const struct keyframe *last = &k->kf[k->count - 1];
    enum gc_status st;
    if (current_dt(k) < 0.0f) {
        /* backwards: the states reached are not the first pass's */
        k->exact = 0;
        return GC_OK;
    }
    if (!k->exact) {
        /* forward again after running backwards: back onto the first pass first */
        st = gc_keyframes_seek(k, t);
        if (st != GC_OK)
            return st;
    }
    if (t <= k->reached)
        return GC_OK;
    k->reached = t;
    if (t < last->time + k->every && current_dt(k) == last->dt)
        return GC_OK;
    return keep_now(k);
}

enum gc_status gc_keyframes_set_dt(struct gc_keyframes *k, float dt)
{
    enum gc_status st = GC_OK;
    const double t = gc_sim_time(k->sim);
    /* the steps so far with the old dt end at a keyframe (not needed when one is there) */
    if (k->exact && dt != current_dt(k) && t >= k->reached && current_dt(k) > 0.0f &&
        t > k->kf[k->count - 1].time) {
        st = keep_now(k);
        k->reached = t;
    }
    return st != GC_OK ? st : gc_sim_set_dt(k->sim, dt);
}

enum gc_status gc_keyframes_seek(struct gc_keyframes *k, double t)
{
    const double now = gc_sim_time(k->sim);
    const float dt_now = current_dt(k);
    size_t i = 0;
    enum gc_status st = GC_OK;
    if (!isfinite(t)) {
        gc_log_error("cannot go to t = %g", t);
        return GC_ERR_INVALID;
    }
    while (i + 1 < k->count && k->kf[i + 1].time <= t)
        i++;
    /* on the way from where the simulation is (the first pass, moving forward, at or after
     * the keyframe, with its dt): step on from there */
    if (!(k->exact && dt_now > 0.0f && dt_now == k->kf[i].dt && now <= t &&
          now >= k->kf[i].time)) {
        st = gc_sim_restore(k->sim, &k->kf[i].st);
        k->exact = st == GC_OK;
    }
    /* what was computed, again, with the dt it was computed with */
    if (st == GC_OK && k->kf[i].dt != current_dt(k))
        st = gc_sim_set_dt(k->sim, k->kf[i].dt);
    if (st == GC_OK && t > gc_sim_time(k->sim) && gc_sim_time(k->sim) < k->reached)
        st = gc_sim_advance(k->sim, fmin(t, k->reached));
    /* past it with the dt of now (a keyframe where it changes), in steps of `every`, keeping
     * keyframes on the way (a run is the same bits however it is split) */
    if (st == GC_OK && current_dt(k) != dt_now)
        st = k->exact && t > gc_sim_time(k->sim) ? gc_keyframes_set_dt(k, dt_now)
                                                  : gc_sim_set_dt(k->sim, dt_now);
    while (st == GC_OK && t > gc_sim_time(k->sim) && k->exact) {
        const double before = gc_sim_time(k->sim);
        st = gc_sim_advance(k->sim, fmin(t, before + k->every));
        if (st == GC_OK)
            st = gc_keyframes_note(k);
        if (st == GC_OK && !(gc_sim_time(k->sim) > before))
            break; /* t is within the last step: the leapfrog lands on whole steps */
    }
    if (st == GC_OK && current_dt(k) != dt_now)
        st = gc_sim_set_dt(k->sim, dt_now);
    return st;
}

void gc_keyframes_info(const struct gc_keyframes *k, struct gc_keyframes_info *out)
{
    memset(out, 0, sizeof *out);
    out->count = k->count;
    out->capacity = k->capacity;
    out->bytes_each = k->bytes_each;
    out->budget = k->budget;
    out->on_device = k->kf[0].st.memory == GC_STATE_BACKEND &&
                     gc_backend_is_device(gc_sim_backend(k->sim));
    out->every = k->every;
    out->first = k->kf[0].time;
    out->last = k->kf[k->count - 1].time;
    out->reached = k->reached;
}
