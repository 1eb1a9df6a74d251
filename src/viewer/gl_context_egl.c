/* EGL offscreen context: display selection without X, 3.3 core context, GLEW, and the FBO. */
/* SPDX-License-Identifier: MIT */
#include "gl_context_egl.h"

#include <GL/glew.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <string.h>

#include "log.h"

enum gc_status gc_gl_load(void)
{
    GLenum err;
    glewExperimental = GL_TRUE;
    err = glewInit();
    /* glewInit leaves GL_INVALID_ENUM behind on core profiles (it queries GL_EXTENSIONS the
     * old way); clear it so our own glGetError checks start clean. */
    while (glGetError() != GL_NO_ERROR) {
    }
    if (err != GLEW_OK) {
#ifdef GLEW_ERROR_NO_GLX_DISPLAY
        if (err == GLEW_ERROR_NO_GLX_DISPLAY && glCreateShader && glGenVertexArrays &&
            glBufferSubData && glGenFramebuffers && glVertexAttribIPointer)
            return GC_OK;
#endif
        gc_log_error("GLEW could not load OpenGL functions: %s",
                     (const char *)glewGetErrorString(err));
        return GC_ERR_GL;
    }
    return GC_OK;
}

static int has_ext(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;
    while (list && (p = strstr(p, name)) != NULL) {
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
            return 1;
        p += n;
    }
    return 0;
}

static int try_init(EGLDisplay d)
{
    EGLint major, minor;
    if (d == EGL_NO_DISPLAY)
        return 0;
    if (!eglInitialize(d, &major, &minor))
        return 0;
    return 1;
}

/* Device platform: every device in turn, first one that initialises wins. */
static EGLDisplay open_device(const char *client_ext)
{
    PFNEGLQUERYDEVICESEXTPROC query;
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!has_ext(client_ext, "EGL_EXT_platform_device"))
        return EGL_NO_DISPLAY;
    query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!query || !get_display || !query(16, devices, &count))
        return EGL_NO_DISPLAY;
    for (EGLint i = 0; i < count; i++) {
        EGLDisplay d = get_display(EGL_PLATFORM_DEVICE_EXT, devices[i], NULL);
        if (try_init(d))
            return d;
    }
    return EGL_NO_DISPLAY;
}

static EGLDisplay open_surfaceless(const char *client_ext)
{
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
    EGLDisplay d;
    if (!has_ext(client_ext, "EGL_MESA_platform_surfaceless"))
        return EGL_NO_DISPLAY;
    get_display = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!get_display)
        return EGL_NO_DISPLAY;
    d = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    return try_init(d) ? d : EGL_NO_DISPLAY;
}

enum gc_status gc_egl_create(struct gc_egl *e, int width, int height)
{
    const char *client_ext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const EGLint config_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8,
                                  EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
                                  EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    const EGLint pbuf_attr[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
    EGLDisplay d;
    EGLConfig config;
    EGLint nconfig = 0;
    GLenum fb;
    enum gc_status st;

    memset(e, 0, sizeof *e);
    e->width = width;
    e->height = height;
    if (!client_ext)
        client_ext = "";
    d = open_device(client_ext);
    e->platform = "device";
    if (d == EGL_NO_DISPLAY) {
        d = open_surfaceless(client_ext);
        e->platform = "surfaceless";
    }
    if (d == EGL_NO_DISPLAY) {
        d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
        e->platform = "default";
        if (!try_init(d))
            d = EGL_NO_DISPLAY;
    }
    if (d == EGL_NO_DISPLAY) {
        gc_log_error("headless: no EGL display could be opened (tried the device and "
                     "surfaceless platforms and the default display; EGL error 0x%x)",
                     (unsigned)eglGetError());
        return GC_ERR_GL;
    }
    e->display = d;
    if (!eglBindAPI(EGL_OPENGL_API)) {
        gc_log_error("headless: EGL display (%s platform) has no desktop OpenGL API",
                     e->platform);
        gc_egl_destroy(e);
        return GC_ERR_GL;
    }
    if (!eglChooseConfig(d, config_attr, &config, 1, &nconfig) || nconfig < 1) {
        /* Surfaceless displays may offer configs without pbuffer support: any GL one will do. */
        const EGLint any_attr[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
        if (!eglChooseConfig(d, any_attr, &config, 1, &nconfig) || nconfig < 1) {
            gc_log_error("headless: no EGL config with desktop OpenGL (%s platform)",
                         e->platform);
            gc_egl_destroy(e);
            return GC_ERR_GL;
        }
    }
    e->context = eglCreateContext(d, config, EGL_NO_CONTEXT, ctx_attr);
    if (e->context == EGL_NO_CONTEXT) {
        gc_log_error("headless: cannot create an OpenGL 3.3 core context (EGL error 0x%x)",
                     (unsigned)eglGetError());
        gc_egl_destroy(e);
        return GC_ERR_GL;
    }
    /* Draw into our own FBO: no surface is needed where EGL_KHR_surfaceless_context exists
     * (NVIDIA and Mesa); elsewhere a 1x1 pbuffer just makes the context current. */
    if (!has_ext(eglQueryString(d, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context")) {
        e->surface = eglCreatePbufferSurface(d, config, pbuf_attr);
        if (e->surface == EGL_NO_SURFACE) {
            gc_log_error("headless: no surfaceless contexts and no pbuffer (EGL error 0x%x)",
                         (unsigned)eglGetError());
            gc_egl_destroy(e);
            return GC_ERR_GL;
        }
    }
    if (!eglMakeCurrent(d, e->surface ? e->surface : EGL_NO_SURFACE,
                        e->surface ? e->surface : EGL_NO_SURFACE, e->context)) {
        gc_log_error("headless: eglMakeCurrent failed (EGL error 0x%x)",
                     (unsigned)eglGetError());
        gc_egl_destroy(e);
        return GC_ERR_GL;
    }
    st = gc_gl_load();
    if (st != GC_OK) {
        gc_egl_destroy(e);
        return st;
    }
    glGenFramebuffers(1, &e->fbo);
    glGenRenderbuffers(1, &e->color_rb);
    glBindRenderbuffer(GL_RENDERBUFFER, e->color_rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindFramebuffer(GL_FRAMEBUFFER, e->fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                              e->color_rb);
    fb = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    if (fb != GL_FRAMEBUFFER_COMPLETE) {
        gc_log_error("headless: %dx%d framebuffer incomplete (status 0x%x)", width, height,
                     (unsigned)fb);
        gc_egl_destroy(e);
        return GC_ERR_GL;
    }
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    gc_log_info("headless: EGL %s platform, OpenGL %s on %s", e->platform,
                (const char *)glGetString(GL_VERSION), (const char *)glGetString(GL_RENDERER));
    return GC_OK;
}

void gc_egl_destroy(struct gc_egl *e)
{
    if (e->context && eglGetCurrentContext() == (EGLContext)e->context) {
        if (e->fbo) {
            glBindFramebuffer(GL_FRAMEBUFFER, 0);
            glDeleteFramebuffers(1, &e->fbo);
        }
        if (e->color_rb)
            glDeleteRenderbuffers(1, &e->color_rb);
    }
    if (e->display) {
        eglMakeCurrent(e->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        if (e->context)
            eglDestroyContext(e->display, e->context);
        if (e->surface)
            eglDestroySurface(e->display, e->surface);
        eglTerminate(e->display);
        /* Frees this thread's EGL state too (otherwise left for process exit). */
        eglReleaseThread();
    }
    memset(e, 0, sizeof *e);
}
