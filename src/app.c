/* The interactive viewer (placeholder until the viewer lands). */
/* SPDX-License-Identifier: MIT */
#include "app.h"

#include "log.h"

enum gc_status gc_app_run(int *argc, char **argv, const struct gc_options *opt,
                          const struct gc_bodies *initial, struct gc_backend *backend)
{
    (void)argc; (void)argv; (void)opt; (void)initial; (void)backend;
    gc_log_error("the interactive viewer is not implemented yet; use --steps K");
    return GC_ERR_UNSUPPORTED;
}

enum gc_status gc_app_run_headless(const struct gc_options *opt, const struct gc_bodies *initial,
                                   struct gc_backend *backend)
{
    (void)opt; (void)initial; (void)backend;
    gc_log_error("--headless is not implemented yet");
    return GC_ERR_UNSUPPORTED;
}
