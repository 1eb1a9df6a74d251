/* A scheme's state described, not typed: an opaque blob of one record a body and the named fields in it, for snapshots, restarts and keyframes. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_STATE_H
#define GC_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The types a field's values have: in the blob, and (narrower where that loses nothing) in
 * files. GC_STATE_NONE as a field's file type: not written to files, because the bodies or
 * a force pass give it back exactly. */
enum gc_state_type { GC_STATE_NONE = 0, GC_STATE_F32, GC_STATE_F64, GC_STATE_I64, GC_STATE_U8 };

#define GC_STATE_MAX_FIELDS 12
#define GC_STATE_MAX_SCALARS 4
#define GC_STATE_NAME 32

/* One named field: `width` values of `type` a body, at `offset` bytes into each record. */
struct gc_state_field {
    char name[GC_STATE_NAME];  /* as in files (a dataset of /IntegratorState), e.g. "Jerk" */
    enum gc_state_type type;   /* in the blob */
    enum gc_state_type stored; /* in files; GC_STATE_NONE = not written */
    uint32_t width;            /* values a body: 3 for a vector, 1 for a scalar */
    size_t offset;             /* bytes from the start of a body's record */
};

/* Where a state's blob lives. */
enum gc_state_memory {
    GC_STATE_HOST = 0, /* host memory, readable through its fields (snapshots, restarts) */
    GC_STATE_BACKEND   /* the backend's own memory (a GPU's: keyframes), opaque to the host */
};

/* A scheme's whole state at one time: n records of `record` bytes (record i at
 * blob + i * record), described by `field`. The scheme that saved it reads it back; a
 * reader of files builds one from what a file holds (its own layout), which the scheme
 * then reads by field name. */
struct gc_state {
    char scheme[24];           /* the scheme that saved it ("leapfrog", "hermite4", ...) */
    double time;               /* the scheme's clock at the state (N-body units) */
    uint64_t steps;            /* the scheme's step counter then */
    size_t n;                  /* bodies */
    size_t record;             /* bytes a body */
    size_t nfields;
    struct gc_state_field field[GC_STATE_MAX_FIELDS];
    size_t nscalars;           /* named numbers beside the records (files: attributes) */
    struct {
        char name[GC_STATE_NAME];
        double value;
    } scalar[GC_STATE_MAX_SCALARS];
    enum gc_state_memory memory;
    void *blob;                /* n * record bytes; owned by whoever allocated it */
    size_t bytes;              /* allocated */
};

/* Bytes one value of a type takes (0 for GC_STATE_NONE). */
size_t gc_state_type_size(enum gc_state_type t);
/* The field called name, or NULL. */
const struct gc_state_field *gc_state_find(const struct gc_state *s, const char *name);
/* The field called name when it has `type` and `width`; otherwise NULL, with a message
 * naming what was expected (where: the state's source, for the message). */
const struct gc_state_field *gc_state_need(const struct gc_state *s, const char *name,
                                           enum gc_state_type type, uint32_t width,
                                           const char *where);
/* Body i's values of field f. */
static inline void *gc_state_at(const struct gc_state *s, const struct gc_state_field *f,
                                size_t i)
{
    return (char *)s->blob + i * s->record + f->offset;
}
/* Adds a field to the description (GC_ERR_INVALID when full). */
enum gc_status gc_state_add(struct gc_state *s, const char *name, enum gc_state_type type,
                            enum gc_state_type stored, uint32_t width, size_t offset);
/* Adds a named number (GC_ERR_INVALID when full). */
enum gc_status gc_state_add_scalar(struct gc_state *s, const char *name, double value);
/* A host blob for n records of s->record bytes (zeroed), replacing none: s->blob must be
 * NULL. GC_ERR_NOMEM (logged) when it cannot be had. */
enum gc_status gc_state_alloc_host(struct gc_state *s, size_t n);
/* Frees a host blob and empties s (a backend blob is freed by its backend). */
void gc_state_free_host(struct gc_state *s);

#ifdef __cplusplus
}
#endif
#endif
