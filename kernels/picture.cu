/* The picture on the compute units: bodies splatted as light (atomic adds), glow pyramid, exposure metering, tone map to RGBA8. */
/* SPDX-License-Identifier: MIT */
/* The GL path draws the same picture with shaders/particles.*, tonemap.frag and meter.frag;
 * on a GPU whose graphics units are few (the H100 has them in 2 of its 8 GPCs) drawing
 * 81,920 sprites and the glow there costs more than the force step, so here every stage
 * runs as CUDA kernels and GL only shows the finished RGBA8 image. */
#include <cuda_runtime.h>
#include <math.h>

#include "gc_kernels.h"
#include "picture_job.h"

#define RT 256
/* Sprites covering more pixels than this are drawn by a whole block, not by one thread. */
#define SMALL_AREA 64

struct lp {
    float v[16], p[16];
    int w, h, attenuate, sprite, color_mode;
    float size, ref_dist, speed_scale, light[3], flux, profile;
};

static __device__ float3 mix3(float3 a, float3 b, float f)
{
    return make_float3(a.x + (b.x - a.x) * f, a.y + (b.y - a.y) * f, a.z + (b.z - a.z) * f);
}

static __device__ float3 ramp(float t)
{
    /* particles.vert: dark blue -> cyan -> yellow -> red -> white */
    const float3 c0 = {0.15f, 0.25f, 1.0f}, c1 = {0.1f, 0.9f, 1.0f}, c2 = {1.0f, 0.95f, 0.2f},
                 c3 = {1.0f, 0.3f, 0.1f}, c4 = {1.0f, 1.0f, 1.0f};
    t = fminf(fmaxf(t, 0.0f), 1.0f);
    if (t < 0.25f)
        return mix3(c0, c1, t * 4.0f);
    if (t < 0.5f)
        return mix3(c1, c2, t * 4.0f - 1.0f);
    if (t < 0.75f)
        return mix3(c2, c3, t * 4.0f - 2.0f);
    return mix3(c3, c4, t * 4.0f - 3.0f);
}

/* particles.vert's colours, branch for branch. */
static __device__ float3 body_color(int mode, unsigned galaxy, unsigned comp, float4 v,
                                    float speed_scale)
{
    float3 c;
    if (mode == 0) {
        if (comp == 3u)
            c = make_float3(1.0f, 0.9f, 0.76f);
        else if (galaxy == 0u)
            c = comp == 1u ? make_float3(1.0f, 0.86f, 0.62f)
                : comp == 0u ? make_float3(0.58f, 0.72f, 1.0f) : make_float3(0.55f, 0.45f, 1.0f);
        else
            c = comp == 1u ? make_float3(1.0f, 0.66f, 0.34f)
                : comp == 0u ? make_float3(1.0f, 0.85f, 0.7f) : make_float3(0.8f, 0.45f, 1.0f);
    } else if (mode == 1) {
        c = galaxy == 0u ? make_float3(0.55f, 0.7f, 1.0f) : make_float3(1.0f, 0.6f, 0.3f);
        if (comp == 1u)
            c = make_float3(0.5f * (c.x + 1.0f), 0.5f * (c.y + 0.95f), 0.5f * (c.z + 0.8f));
    } else if (mode == 2) {
        c = comp == 0u ? make_float3(0.35f, 0.6f, 1.0f) : comp == 1u ? make_float3(1.0f, 0.85f, 0.35f)
            : comp == 2u ? make_float3(0.8f, 0.3f, 0.9f) : make_float3(0.9f, 0.9f, 0.9f);
    } else if (mode == 3) {
        float s = sqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
        c = s > 0.0f ? make_float3(0.5f + 0.5f * v.x / s, 0.5f + 0.5f * v.y / s, 0.5f + 0.5f * v.z / s)
                     : make_float3(0.5f, 0.5f, 0.5f);
    } else if (mode == 4) {
        c = ramp(sqrtf(v.x * v.x + v.y * v.y + v.z * v.z) / speed_scale);
    } else if (mode == 5) {
        c = ramp(v.w / 16.0f); /* time-step level */
    } else {
        c = make_float3(0.7f, 0.75f, 1.0f);
    }
    float m = fmaxf(fmaxf(c.x, c.y), fmaxf(c.z, 1e-3f));
    return make_float3(c.x / m, c.y / m, c.z / m);
}

static __device__ __forceinline__ void add_light(float4 *L, int idx, float3 c)
{
#if __CUDA_ARCH__ >= 900
    atomicAdd(&L[idx], make_float4(c.x, c.y, c.z, 0.0f)); /* one 16-byte reduction */
#else
    atomicAdd(&L[idx].x, c.x);
    atomicAdd(&L[idx].y, c.y);
    atomicAdd(&L[idx].z, c.z);
#endif
}

/* A sprite's pixels: centres inside the square of side s around (xw, yw), as GL rasterises
 * a point; Gaussian weight exp(-3.125 r^2) inside the unit circle (particles.frag). */
struct spr {
    float xw, yw, s;
    float3 c;
    int i0, i1, j0, j1;
};

/* The pixels whose centres lie in the sprite's square, clipped to the w x h picture. */
static __device__ __forceinline__ void clip_bounds(struct spr *q, int w, int h)
{
    q->i0 = max(0, (int)ceilf(q->xw - 0.5f * q->s - 0.5f));
    q->i1 = min(w - 1, (int)floorf(q->xw + 0.5f * q->s - 0.5f));
    q->j0 = max(0, (int)ceilf(q->yw - 0.5f * q->s - 0.5f));
    q->j1 = min(h - 1, (int)floorf(q->yw + 0.5f * q->s - 0.5f));
}

static __device__ __forceinline__ void sprite_pixel(float4 *L, int w, const struct spr &q,
                                                    int sprite, int i, int j)
{
    if (!sprite) {
        add_light(L, j * w + i, q.c);
        return;
    }
    float px = 2.0f * ((float)i + 0.5f - q.xw) / q.s, py = 2.0f * ((float)j + 0.5f - q.yw) / q.s;
    float r2 = px * px + py * py;
    if (r2 > 1.0f)
        return;
    float g = __expf(-3.125f * r2);
    add_light(L, j * w + i, make_float3(q.c.x * g, q.c.y * g, q.c.z * g));
}

/* Projection, size, colour and light of body i, as particles.vert; 0 when not drawn. */
static __device__ int project(const lp &P, float4 x, float4 v, unsigned tag, struct spr *q)
{
    unsigned galaxy = (tag >> 2) & 1u, comp = tag & 3u;
    float light = comp == 1u ? P.light[1] : comp == 2u ? P.light[2] : P.light[0];
    if (!(light > 0.0f))
        return 0;
    float ex = P.v[0] * x.x + P.v[4] * x.y + P.v[8] * x.z + P.v[12];
    float ey = P.v[1] * x.x + P.v[5] * x.y + P.v[9] * x.z + P.v[13];
    float ez = P.v[2] * x.x + P.v[6] * x.y + P.v[10] * x.z + P.v[14];
    float ew = P.v[3] * x.x + P.v[7] * x.y + P.v[11] * x.z + P.v[15];
    float cx = P.p[0] * ex + P.p[4] * ey + P.p[8] * ez + P.p[12] * ew;
    float cy = P.p[1] * ex + P.p[5] * ey + P.p[9] * ez + P.p[13] * ew;
    float cz = P.p[2] * ex + P.p[6] * ey + P.p[10] * ez + P.p[14] * ew;
    float cw = P.p[3] * ex + P.p[7] * ey + P.p[11] * ez + P.p[15] * ew;
    if (!(cw > 0.0f) || !(fabsf(cz) <= cw)) /* behind the eye, or beyond near/far */
        return 0;
    float d = fmaxf(-ez, 1e-3f);
    float s = P.attenuate ? fminf(fmaxf(P.size * P.ref_dist / d, 1.0f), 64.0f) : P.size;
    q->xw = (cx / cw * 0.5f + 0.5f) * (float)P.w;
    q->yw = (cy / cw * 0.5f + 0.5f) * (float)P.h;
    q->s = s;
    clip_bounds(q, P.w, P.h);
    if (q->i0 > q->i1 || q->j0 > q->j1) /* off screen (also NaN positions) */
        return 0;
    float closer = fminf(P.ref_dist / d, 16.0f);
    float f = x.w * light * P.flux * closer * closer / (s * s * P.profile);
    float3 c = body_color(P.color_mode, galaxy, comp, v, P.speed_scale);
    q->c = make_float3(c.x * f, c.y * f, c.z * f);
    return 1;
}

/* One thread per body; sprites over SMALL_AREA pixels go to the list for splat_big. */
static __global__ void splat(lp P, const float4 *__restrict__ pos, const float4 *__restrict__ vel,
                             const unsigned char *__restrict__ tag, int n, float4 *L,
                             float4 *big, int *nbig)
{
    int i = blockIdx.x * RT + threadIdx.x;
    struct spr q;
    if (i >= n || !project(P, pos[i], vel[i], tag[i], &q))
        return;
    if ((q.i1 - q.i0 + 1) * (q.j1 - q.j0 + 1) > SMALL_AREA) {
        int k = atomicAdd(nbig, 1);
        big[2 * k] = make_float4(q.xw, q.yw, q.s, 0.0f);
        big[2 * k + 1] = make_float4(q.c.x, q.c.y, q.c.z, 0.0f);
        return;
    }
    for (int j = q.j0; j <= q.j1; j++)
        for (int ii = q.i0; ii <= q.i1; ii++)
            sprite_pixel(L, P.w, q, P.sprite, ii, j);
}

/* Large sprites (near the camera, or zoomed in): one block per sprite, a thread per pixel. */
static __global__ void splat_big(lp P, const float4 *__restrict__ big, const int *nbig, float4 *L)
{
    for (int k = blockIdx.x; k < *nbig; k += gridDim.x) {
        float4 a = big[2 * k], b = big[2 * k + 1];
        struct spr q;
        q.xw = a.x;
        q.yw = a.y;
        q.s = a.z;
        q.c = make_float3(b.x, b.y, b.z);
        clip_bounds(&q, P.w, P.h);
        int bw = q.i1 - q.i0 + 1, area = bw * (q.j1 - q.j0 + 1);
        for (int p = threadIdx.x; p < area; p += blockDim.x)
            sprite_pixel(L, P.w, q, P.sprite, q.i0 + p % bw, q.j0 + p / bw);
    }
}

/* One mip level from the one above it: 2x2 box average (glGenerateMipmap's filter). */
static __global__ void mip(const float4 *__restrict__ src, int sw, int sh, float4 *dst, int dw,
                           int dh)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= dw || y >= dh)
        return;
    int x0 = min(2 * x, sw - 1), x1 = min(2 * x + 1, sw - 1);
    int y0 = min(2 * y, sh - 1), y1 = min(2 * y + 1, sh - 1);
    float4 a = src[y0 * sw + x0], b = src[y0 * sw + x1], c = src[y1 * sw + x0],
           d = src[y1 * sw + x1];
    dst[y * dw + x] = make_float4(0.25f * (a.x + b.x + c.x + d.x), 0.25f * (a.y + b.y + c.y + d.y),
                                  0.25f * (a.z + b.z + c.z + d.z), 0.0f);
}

/* Largest channel of each b x b block of the light (meter.frag). */
static __global__ void meter(const float4 *__restrict__ L, int w, int h, int b, float *out,
                             int mw, int mh)
{
    int k = blockIdx.x * RT + threadIdx.x;
    if (k >= mw * mh)
        return;
    int bx = k % mw, by = k / mw;
    float m = 0.0f;
    for (int j = by * b; j < min(h, (by + 1) * b); j++)
        for (int i = bx * b; i < min(w, (bx + 1) * b); i++) {
            float4 c = L[j * w + i];
            m = fmaxf(m, fmaxf(c.x, fmaxf(c.y, c.z)));
        }
    out[k] = m;
}

struct levels {
    const float4 *l[GC_PICTURE_LEVELS + 1];
    int w[GC_PICTURE_LEVELS + 1], h[GC_PICTURE_LEVELS + 1];
};

/* Bilinear sample of a level at picture coordinates (pixels of level 0), clamped at the
 * edges: what textureLod(u_hdr, uv, l) returns with GL_LINEAR. */
static __device__ float3 sample(const levels &M, int l, float x, float y, int w, int h)
{
    float tx = x / (float)w * (float)M.w[l] - 0.5f, ty = y / (float)h * (float)M.h[l] - 0.5f;
    float fx0 = floorf(tx), fy0 = floorf(ty);
    float fx = tx - fx0, fy = ty - fy0;
    int x0 = (int)fx0, y0 = (int)fy0;
    int xa = min(max(x0, 0), M.w[l] - 1), xb = min(max(x0 + 1, 0), M.w[l] - 1);
    int ya = min(max(y0, 0), M.h[l] - 1), yb = min(max(y0 + 1, 0), M.h[l] - 1);
    const float4 *t = M.l[l];
    int lw = M.w[l];
    float4 a = t[ya * lw + xa], b = t[ya * lw + xb], c = t[yb * lw + xa], d = t[yb * lw + xb];
    float w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy;
    return make_float3(w00 * a.x + w10 * b.x + w01 * c.x + w11 * d.x,
                       w00 * a.y + w10 * b.y + w01 * c.y + w11 * d.y,
                       w00 * a.z + w10 * b.z + w01 * c.z + w11 * d.z);
}

/* Into the pixel buffer, or the GL texture's or renderbuffer's array (x in bytes there). */
static __device__ __forceinline__ void put_pixel(cudaSurfaceObject_t surf, int x, int y,
                                                 uchar4 v)
{
    surf2Dwrite(v, surf, x * (int)sizeof(uchar4), y);
}

/* tonemap.frag: light plus glow from levels 2..5, log curve on the largest channel, colour
 * kept, the brightest tenth fading towards white; RGBA8 out. */
static __global__ void tone(levels M, int w, int h, float exposure, float glow, float k,
                            cudaSurfaceObject_t surf)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float4 l0 = M.l[0][y * w + x];
    float3 c = make_float3(l0.x, l0.y, l0.z);
    if (glow > 0.0f) {
        float3 s = make_float3(0.0f, 0.0f, 0.0f);
        float wt = 0.5f, px = (float)x + 0.5f, py = (float)y + 0.5f;
        for (int l = 2; l <= GC_PICTURE_LEVELS; l++) {
            float o = (float)(1 << l) * 0.5f;
            float3 a = sample(M, l, px + o, py + o, w, h), b = sample(M, l, px - o, py + o, w, h),
                   cc = sample(M, l, px + o, py - o, w, h), d = sample(M, l, px - o, py - o, w, h);
            s.x += wt * 0.25f * (a.x + b.x + cc.x + d.x);
            s.y += wt * 0.25f * (a.y + b.y + cc.y + d.y);
            s.z += wt * 0.25f * (a.z + b.z + cc.z + d.z);
            wt *= 0.6f;
        }
        c.x += glow * s.x;
        c.y += glow * s.y;
        c.z += glow * s.z;
    }
    float m = fmaxf(c.x, fmaxf(c.y, c.z));
    if (!(m > 0.0f)) {
        put_pixel(surf, x, y, make_uchar4(0, 0, 0, 255));
        return;
    }
    float yv = gc_picture_tone(exposure * m, k);
    float3 d = make_float3(c.x / m * yv, c.y / m * yv, c.z / m * yv);
    float t = fminf(fmaxf((yv - 0.85f) / 0.15f, 0.0f), 1.0f);
    t = 0.35f * t * t * (3.0f - 2.0f * t); /* smoothstep */
    d = make_float3(d.x + (yv - d.x) * t, d.y + (yv - d.y) * t, d.z + (yv - d.z) * t);
    put_pixel(surf, x, y,
              make_uchar4((unsigned char)(fminf(fmaxf(d.x, 0.0f), 1.0f) * 255.0f + 0.5f),
                          (unsigned char)(fminf(fmaxf(d.y, 0.0f), 1.0f) * 255.0f + 0.5f),
                          (unsigned char)(fminf(fmaxf(d.z, 0.0f), 1.0f) * 255.0f + 0.5f), 255));
}

extern "C" size_t gc_cuda_picture_floats(int w, int h)
{
    size_t f = 0;
    for (int l = 0; l <= GC_PICTURE_LEVELS; l++) {
        size_t lw = (size_t)(w >> l > 0 ? w >> l : 1), lh = (size_t)(h >> l > 0 ? h >> l : 1);
        f += 4 * lw * lh;
    }
    return f;
}

extern "C" int gc_cuda_picture_launch(const struct gc_cuda_picture *d, const struct gc_picture_job *job,
                                    int sm_count, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int w = job->w, h = job->h;
    levels M;
    lp P;
    float4 *L = (float4 *)d->light;
    size_t off = 0;
    for (int l = 0; l <= GC_PICTURE_LEVELS; l++) {
        M.w[l] = w >> l > 0 ? w >> l : 1;
        M.h[l] = h >> l > 0 ? h >> l : 1;
        M.l[l] = L + off;
        off += (size_t)M.w[l] * (size_t)M.h[l];
    }
    for (int k = 0; k < 16; k++) {
        P.v[k] = job->view[k];
        P.p[k] = job->proj[k];
    }
    P.w = w;
    P.h = h;
    P.attenuate = job->attenuate;
    P.sprite = job->sprite;
    P.color_mode = job->color_mode;
    P.size = job->size;
    P.ref_dist = job->ref_dist;
    P.speed_scale = job->speed_scale;
    for (int k = 0; k < 3; k++)
        P.light[k] = job->light[k];
    P.flux = job->flux;
    P.profile = job->profile;

    cudaError_t e = cudaMemsetAsync(L, 0, (size_t)w * (size_t)h * sizeof(float4), s);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(d->nbig, 0, sizeof(int), s);
    if (e != cudaSuccess)
        return (int)e;
    if (d->n > 0) {
        splat<<<(unsigned)((d->n + RT - 1) / RT), RT, 0, s>>>(
            P, (const float4 *)d->pos, (const float4 *)d->vel, d->tag, d->n, L, (float4 *)d->big,
            d->nbig);
        splat_big<<<(unsigned)(4 * sm_count), RT, 0, s>>>(P, (const float4 *)d->big, d->nbig, L);
    }
    if (job->meter_block > 0 && d->meter) {
        int b = job->meter_block, mw = (w + b - 1) / b, mh = (h + b - 1) / b;
        meter<<<(unsigned)((mw * mh + RT - 1) / RT), RT, 0, s>>>(L, w, h, b, d->meter, mw, mh);
    }
    if (!job->meter_sync && d->surface) {
        dim3 blk(32, 8);
        if (job->glow > 0.0f)
            for (int l = 1; l <= GC_PICTURE_LEVELS; l++) {
                dim3 g((unsigned)((M.w[l] + 31) / 32), (unsigned)((M.h[l] + 7) / 8));
                mip<<<g, blk, 0, s>>>(M.l[l - 1], M.w[l - 1], M.h[l - 1], (float4 *)M.l[l],
                                      M.w[l], M.h[l]);
            }
        dim3 g((unsigned)((w + 31) / 32), (unsigned)((h + 7) / 8));
        tone<<<g, blk, 0, s>>>(M, w, h, job->exposure, job->glow, job->tone_k,
                               (cudaSurfaceObject_t)d->surface);
    }
    return (int)cudaGetLastError();
}
