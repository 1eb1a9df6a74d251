/* The neutral description of a scheme's state: field lookup and host blobs. */
/* SPDX-License-Identifier: MIT */
#include "state.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

size_t gc_state_type_size(enum gc_state_type t)
{
    switch (t) {
    case GC_STATE_F32: return 4;
    case GC_STATE_F64: return 8;
    case GC_STATE_I64: return 8;
    case GC_STATE_U8: return 1;
    default: return 0;
    }
}

const struct gc_state_field *gc_state_find(const struct gc_state *s, const char *name)
{
    for (size_t k = 0; k < s->nfields; k++)
        if (strcmp(s->field[k].name, name) == 0)
            return &s->field[k];
    return NULL;
}

const struct gc_state_field *gc_state_need(const struct gc_state *s, const char *name,
                                           enum gc_state_type type, uint32_t width,
                                           const char *where)
{
    static const char *const words[] = {"nothing", "float32", "float64", "integers",
                                        "integers"};
    const struct gc_state_field *f = gc_state_find(s, name);
    if (f && f->type == type && f->width == width)
        return f;
    gc_log_error("%s: the %s state needs %s: %s%s, %u a body", where, s->scheme, name,
                 f ? "" : "missing; expected ", words[type], (unsigned)width);
    return NULL;
}

enum gc_status gc_state_add(struct gc_state *s, const char *name, enum gc_state_type type,
                            enum gc_state_type stored, uint32_t width, size_t offset)
{
    struct gc_state_field *f;
    if (s->nfields >= GC_STATE_MAX_FIELDS || strlen(name) >= GC_STATE_NAME) {
        gc_log_error("state: no room for the field %s", name);
        return GC_ERR_INVALID;
    }
    f = &s->field[s->nfields++];
    memset(f, 0, sizeof *f);
    snprintf(f->name, sizeof f->name, "%s", name);
    f->type = type;
    f->stored = stored;
    f->width = width;
    f->offset = offset;
    return GC_OK;
}

enum gc_status gc_state_add_scalar(struct gc_state *s, const char *name, double value)
{
    if (s->nscalars >= GC_STATE_MAX_SCALARS || strlen(name) >= GC_STATE_NAME) {
        gc_log_error("state: no room for the number %s", name);
        return GC_ERR_INVALID;
    }
    snprintf(s->scalar[s->nscalars].name, GC_STATE_NAME, "%s", name);
    s->scalar[s->nscalars++].value = value;
    return GC_OK;
}

enum gc_status gc_state_alloc_host(struct gc_state *s, size_t n)
{
    const size_t bytes = n * s->record;
    if (s->record && n > SIZE_MAX / s->record) {
        gc_log_error("state: %zu records of %zu bytes do not fit in memory", n, s->record);
        return GC_ERR_NOMEM;
    }
    s->blob = calloc(bytes ? bytes : 1, 1);
    if (!s->blob) {
        gc_log_error("out of memory for the integrator state of %zu bodies (%zu bytes)", n,
                     bytes);
        return GC_ERR_NOMEM;
    }
    s->n = n;
    s->bytes = bytes;
    s->memory = GC_STATE_HOST;
    return GC_OK;
}

void gc_state_free_host(struct gc_state *s)
{
    if (s->memory == GC_STATE_HOST)
        free(s->blob);
    memset(s, 0, sizeof *s);
}
