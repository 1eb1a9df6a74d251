/* GL sync objects as the frame pacer's fences. */
/* SPDX-License-Identifier: MIT */
#include <GL/glew.h>

#include "pacer.h"

static void *gl_fence(void *ud)
{
    (void)ud;
    return glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
}

static int gl_wait(void *ud, void *fence, double timeout_s)
{
    /* FLUSH: the fence must reach the GPU or the wait could never end. */
    GLenum r = glClientWaitSync((GLsync)fence, GL_SYNC_FLUSH_COMMANDS_BIT,
                                (GLuint64)(timeout_s * 1e9));
    (void)ud;
    if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED)
        return 1;
    return r == GL_TIMEOUT_EXPIRED ? 0 : -1;
}

static void gl_release(void *ud, void *fence)
{
    (void)ud;
    glDeleteSync((GLsync)fence);
}

const struct gc_pacer_ops gc_pacer_gl_ops = {gl_fence, gl_wait, gl_release, NULL};
