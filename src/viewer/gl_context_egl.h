/* Offscreen OpenGL 3.3 core context through EGL (no window system) with an FBO to draw into. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_GL_CONTEXT_EGL_H
#define GC_GL_CONTEXT_EGL_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gc_egl {
    void *display;             /* EGLDisplay */
    void *context;             /* EGLContext */
    void *surface;             /* EGLSurface: 1x1 pbuffer only when surfaceless is missing */
    unsigned fbo, color_rb;    /* the offscreen framebuffer every frame is drawn into */
    int width, height;         /* FBO size in pixels */
    const char *platform;      /* "device", "surfaceless" or "default": how the display was found */
};

/* Opens a display without X: the EGL device platform first (an NVIDIA GPU, or Mesa's
 * software device), then Mesa's surfaceless platform, then EGL_DEFAULT_DISPLAY. Creates a
 * 3.3 core context, makes it current, loads GL entry points through GLEW and binds a
 * width x height RGBA8 framebuffer object. GC_ERR_GL with the failing step on error. */
enum gc_status gc_egl_create(struct gc_egl *e, int width, int height);
/* Deletes the FBO, the context and the display connection. Safe on a partly created one. */
void gc_egl_destroy(struct gc_egl *e);

/* GLEW setup shared by the window and EGL paths: glewExperimental so core-profile entry
 * points load, and GLEW_ERROR_NO_GLX_DISPLAY accepted when the GL functions we call were
 * loaded (Debian's GLX-built GLEW 2.2 reports it on EGL contexts). */
enum gc_status gc_gl_load(void);

#ifdef __cplusplus
}
#endif
#endif
