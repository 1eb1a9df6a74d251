/* The CUDA backend's hand-over of positions to a GL renderer: straight into GL buffers registered with CUDA (interop), or through host memory. */
/* SPDX-License-Identifier: MIT */
#include <cuda_runtime.h>
#ifdef GC_CUDA_GL_INTEROP
/* Needs only the GL headers: cudaGraphicsGLRegisterBuffer lives in cudart, so gc_core does
 * not link libGL; the renderer's context must be current when export_positions runs. */
#include <GL/gl.h>
#include <cuda_gl_interop.h>
#endif

#include "backend_cuda_ctx.h"
#include "render_buffer.h"

static enum gc_status export_host(struct cuda_ctx *c, struct gc_render_buffer *dst)
{
    const size_t bytes = c->n * 4 * sizeof(float);
    if (!dst->h_pos) {
        gc_log_error("cuda backend: positions must go through the host (--no-interop or "
                     "interop unavailable) but the render buffer has no host staging array");
        return GC_ERR_UNSUPPORTED;
    }
    GC_CUDA_TRY(cudaMemcpyAsync(dst->h_pos, c->d_pos, bytes, cudaMemcpyDeviceToHost, c->stream));
    if (dst->h_vel)
        GC_CUDA_TRY(cudaMemcpyAsync(dst->h_vel, c->d_vel, bytes, cudaMemcpyDeviceToHost,
                                    c->stream));
    GC_CUDA_TRY(cudaStreamSynchronize(c->stream));
    dst->written_to_vbo = 0;
    return GC_OK;
}

#ifdef GC_CUDA_GL_INTEROP
enum gc_status gc_cuda_interop_detach(struct cuda_ctx *c)
{
    enum gc_status st = GC_OK;
    for (int k = 0; k < 2; k++) {
        if (c->res[k]) {
            cudaError_t e = cudaGraphicsUnregisterResource(c->res[k]);
            if (e != cudaSuccess) {
                gc_log_error("cuda backend: cannot unregister GL buffer %u: %s", c->vbo[k],
                             cudaGetErrorString(e));
                st = GC_ERR_CUDA;
            }
        }
        c->res[k] = NULL;
        c->vbo[k] = 0;
    }
    return st;
}

/* Registers `vbo` as slot k once (again only if the renderer hands over another buffer).
 * Returns 0 when registration is impossible here; the caller then falls back. */
static int ensure_registered(struct cuda_ctx *c, int k, unsigned vbo)
{
    cudaError_t e;
    if (c->res[k] && c->vbo[k] == vbo)
        return 1;
    if (c->res[k]) {
        cudaGraphicsUnregisterResource(c->res[k]);
        c->res[k] = NULL;
        c->vbo[k] = 0;
    }
    e = cudaGraphicsGLRegisterBuffer(&c->res[k], (GLuint)vbo,
                                     cudaGraphicsRegisterFlagsWriteDiscard);
    if (e != cudaSuccess) {
        c->res[k] = NULL;
        (void)cudaGetLastError();
        gc_log_warn("cuda backend: CUDA-GL interop unavailable (cudaGraphicsGLRegisterBuffer: "
                    "%s); copying positions through the host from now on, as --no-interop "
                    "does", cudaGetErrorString(e));
        c->interop_failed = 1;
        return 0;
    }
    c->vbo[k] = vbo;
    if (k == 0)
        gc_log_info("cuda backend: CUDA-GL interop on: positions go straight into GL buffer "
                    "%u, no host copy", vbo);
    return 1;
}

/* One map, two device-to-device copies, one unmap per frame: no host round trip. */
static enum gc_status export_interop(struct cuda_ctx *c, struct gc_render_buffer *dst)
{
    const size_t bytes = c->n * 4 * sizeof(float);
    const float *src[2] = {c->d_pos, c->d_vel};
    cudaGraphicsResource_t res[2];
    int count = 0;
    unsigned names[2] = {dst->vbo_pos, dst->vbo_vel};

    for (int k = 0; k < 2; k++) {
        if (!names[k])
            continue;
        if (!ensure_registered(c, k, names[k])) {
            gc_cuda_interop_detach(c);
            return export_host(c, dst);
        }
        res[count++] = c->res[k];
    }
    GC_CUDA_TRY(cudaGraphicsMapResources(count, res, c->stream));
    for (int k = 0; k < 2; k++) {
        void *ptr = NULL;
        size_t size = 0;
        cudaError_t e;
        if (!names[k])
            continue;
        e = cudaGraphicsResourceGetMappedPointer(&ptr, &size, c->res[k]);
        if (e == cudaSuccess && size < bytes) {
            gc_log_error("cuda backend: GL buffer %u holds %zu bytes, %zu needed", names[k],
                         size, bytes);
            cudaGraphicsUnmapResources(count, res, c->stream);
            return GC_ERR_INVALID;
        }
        if (e == cudaSuccess)
            e = cudaMemcpyAsync(ptr, src[k], bytes, cudaMemcpyDeviceToDevice, c->stream);
        if (e != cudaSuccess) {
            gc_log_error("cuda backend: writing GL buffer %u: %s", names[k],
                         cudaGetErrorString(e));
            cudaGraphicsUnmapResources(count, res, c->stream);
            return GC_ERR_CUDA;
        }
    }
    GC_CUDA_TRY(cudaGraphicsUnmapResources(count, res, c->stream));
    dst->written_to_vbo = 1;
    return GC_OK;
}
#endif

#ifndef GC_CUDA_GL_INTEROP
enum gc_status gc_cuda_interop_detach(struct cuda_ctx *c)
{
    (void)c;
    return GC_OK;
}
#endif

enum gc_status gc_cuda_export_buffers(struct cuda_ctx *c, struct gc_render_buffer *dst)
{
#ifdef GC_CUDA_GL_INTEROP
    if (dst->vbo_pos && !c->no_interop && !c->interop_failed)
        return export_interop(c, dst);
#endif
    return export_host(c, dst);
}
