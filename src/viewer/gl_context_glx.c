/* X display and GLX 3.3-core probe run before glutInit, which would exit instead of failing. */
/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE /* program_invocation_name */
#include "gl_context_glx.h"

#include <GL/glx.h>
#include <X11/Xlib.h>
#include <errno.h>
#include <stdlib.h>

#include "log.h"

#ifndef GLX_CONTEXT_MAJOR_VERSION_ARB
#define GLX_CONTEXT_MAJOR_VERSION_ARB 0x2091
#define GLX_CONTEXT_MINOR_VERSION_ARB 0x2092
#define GLX_CONTEXT_PROFILE_MASK_ARB 0x9126
#define GLX_CONTEXT_CORE_PROFILE_BIT_ARB 0x00000001
#endif

typedef GLXContext (*create_attribs_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);

/* A refused context request arrives as an X error (BadMatch/GLXBadFBConfig), whose default
 * handler ends the process; during the probe it only means "no". */
static int ignore_x_error(Display *d, XErrorEvent *e)
{
    (void)d;
    (void)e;
    return 0;
}

static int can_create_core33(Display *dpy)
{
    static const int fb_attr[] = {GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DRAWABLE_TYPE,
                                  GLX_WINDOW_BIT, GLX_DOUBLEBUFFER, True, None};
    static const int ctx_attr[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3,
                                   GLX_CONTEXT_MINOR_VERSION_ARB, 3,
                                   GLX_CONTEXT_PROFILE_MASK_ARB,
                                   GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None};
    int n = 0, ok = 0;
    GLXFBConfig *cfg = glXChooseFBConfig(dpy, DefaultScreen(dpy), fb_attr, &n);
    create_attribs_fn create =
        (create_attribs_fn)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    if (cfg && n > 0 && create) {
        int (*old)(Display *, XErrorEvent *) = XSetErrorHandler(ignore_x_error);
        GLXContext ctx = create(dpy, cfg[0], NULL, True, ctx_attr);
        XSync(dpy, False);
        XSetErrorHandler(old);
        if (ctx) {
            ok = 1;
            glXDestroyContext(dpy, ctx);
        }
    }
    if (cfg)
        XFree(cfg);
    return ok;
}

/* What runs where there is no display: the README's headless example and a table, named
 * as this program was started (./build/galaxy in the build tree, galaxy once installed). */
#define NO_DISPLAY_HINT                                                                  \
    "Without a display, run '%s --headless --follow -n 12288 --dt 0.025 --frames 24 "        \
    "--substeps 48 --screenshot out.png' for a picture (EGL, no window system) or '%s "      \
    "--steps 1000' for a table"

enum gc_status gc_glx_probe(int *core33)
{
    const char *name = getenv("DISPLAY");
    Display *dpy;
    *core33 = 0;
    if (!name || !*name) {
        gc_log_error("cannot open display: DISPLAY is not set, and the window needs one. "
                     NO_DISPLAY_HINT, program_invocation_name, program_invocation_name);
        return GC_ERR_GL;
    }
    dpy = XOpenDisplay(name);
    if (!dpy) {
        gc_log_error("cannot open display '%s' for the window. " NO_DISPLAY_HINT, name,
                     program_invocation_name, program_invocation_name);
        return GC_ERR_GL;
    }
    *core33 = can_create_core33(dpy);
    XCloseDisplay(dpy);
    return GC_OK;
}
