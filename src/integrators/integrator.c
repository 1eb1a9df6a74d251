/* Scheme lookup by name and the interface's lifetime. */
/* SPDX-License-Identifier: MIT */
#include "integrator.h"

#include <stdlib.h>
#include <string.h>

#include "log.h"

static enum gc_status create_hermite4(struct gc_integrator *in)
{
    return gc_integrator_hermite_create(in, 4);
}

static enum gc_status create_hermite6(struct gc_integrator *in)
{
    return gc_integrator_hermite_create(in, 6);
}

struct entry {
    const struct gc_integrator_iface *scheme;
    enum gc_status (*create)(struct gc_integrator *in);
};

static const struct entry schemes[] = {
    {&gc_integrator_leapfrog, gc_integrator_leapfrog_create},
    {&gc_integrator_hermite4, create_hermite4},
    {&gc_integrator_hermite6, create_hermite6},
};
#define NSCHEMES (sizeof schemes / sizeof schemes[0])

const char *gc_integrator_available(void)
{
    return "leapfrog, hermite4, hermite6";
}

const struct gc_integrator_iface *gc_integrator_find(const char *name)
{
    for (size_t k = 0; name && k < NSCHEMES; k++)
        if (strcmp(name, schemes[k].scheme->name) == 0)
            return schemes[k].scheme;
    return NULL;
}

int gc_integrator_has(const struct gc_integrator_iface *scheme, unsigned caps)
{
    return scheme && (scheme->caps & caps) == caps;
}

enum gc_status gc_integrator_create(const char *name, const struct gc_integrator_params *p,
                                    struct gc_force *force, struct gc_integrator **out)
{
    struct gc_integrator *in;
    enum gc_status st;
    *out = NULL;
    for (size_t k = 0; k < NSCHEMES; k++) {
        if (strcmp(name, schemes[k].scheme->name) != 0)
            continue;
        in = calloc(1, sizeof *in);
        if (!in) {
            gc_log_error("integrator: out of memory");
            return GC_ERR_NOMEM;
        }
        in->force = force;
        in->p = *p;
        st = schemes[k].create(in);
        if (st != GC_OK) {
            free(in);
            return st;
        }
        *out = in;
        return GC_OK;
    }
    gc_log_error("unknown integrator '%s'; available: %s", name, gc_integrator_available());
    return GC_ERR_INVALID;
}

void gc_integrator_destroy(struct gc_integrator *in)
{
    if (!in)
        return;
    if (in->iface && in->iface->destroy)
        in->iface->destroy(in);
    free(in);
}
