/* The vector type of one compile of backend_cpu_kernels.c (AVX-512, AVX2 + FMA, or portable C), with the few operations its loops use. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_CPU_VEC_H
#define GC_CPU_VEC_H

#include <math.h>
#include <string.h>

/* GC_CPU_ISA is set per compile by src/backends/CMakeLists.txt: 2 = AVX-512F, 1 = AVX2 +
 * FMA, 0 = portable (GCC/Clang vector extensions: SSE2 on x86-64, NEON on arm64). Every
 * loop is written once over vf; only these helpers differ. */
#if GC_CPU_ISA == 2
#include <immintrin.h>
typedef __m512 vf;
#define VW 16
static inline vf v_set1(float x) { return _mm512_set1_ps(x); }
static inline vf v_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void v_store(float *p, vf a) { _mm512_storeu_ps(p, a); }
static inline vf v_add(vf a, vf b) { return _mm512_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
static inline vf v_fma(vf a, vf b, vf c) { return _mm512_fmadd_ps(a, b, c); }
static inline vf v_fnma(vf a, vf b, vf c) { return _mm512_fnmadd_ps(a, b, c); }
static inline float v_sum(vf a) { return _mm512_reduce_add_ps(a); }
/* 1 / sqrt(x) for x > 0 to float accuracy: the 14-bit estimate and one Newton-Raphson step
 * y (3 - x y^2) / 2, whose error (1.5 e^2 < 6e-9) is below float rounding. */
static inline vf v_rsqrt(vf x)
{
    const vf y = _mm512_rsqrt14_ps(x);
    const vf r = v_fnma(v_mul(x, y), y, v_set1(3.0f));
    return v_mul(v_mul(y, v_set1(0.5f)), r);
}
/* d[0..VW) += a, in double. */
static inline void v_add_to(double *d, vf a)
{
    const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(a));
    const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(a), 1)));
    _mm512_storeu_pd(d, _mm512_add_pd(_mm512_loadu_pd(d), lo));
    _mm512_storeu_pd(d + 8, _mm512_add_pd(_mm512_loadu_pd(d + 8), hi));
}
static inline vf v_rsqrt_estimate(vf x) { return _mm512_rsqrt14_ps(x); }
/* max(a, 0): 0 for NaN, as fmaxf(a, 0) */
static inline vf v_max0(vf a) { return _mm512_max_ps(a, _mm512_setzero_ps()); }
static inline vf v_abs(vf a) { return _mm512_abs_ps(a); }
/* bit k set where a[k] > b[k] (false for NaN) */
static inline unsigned v_gt(vf a, vf b) { return (unsigned)_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
#define V_ISA "avx512"
/* Executed flops of v_rsqrt, an FMA counted two: estimate 1, step 2 + 1 + 1 + 1. */
#define V_RSQRT_FLOPS 6

#elif GC_CPU_ISA == 1
#include <immintrin.h>
typedef __m256 vf;
#define VW 8
static inline vf v_set1(float x) { return _mm256_set1_ps(x); }
static inline vf v_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void v_store(float *p, vf a) { _mm256_storeu_ps(p, a); }
static inline vf v_add(vf a, vf b) { return _mm256_add_ps(a, b); }
static inline vf v_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
static inline vf v_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
static inline vf v_fma(vf a, vf b, vf c) { return _mm256_fmadd_ps(a, b, c); }
static inline vf v_fnma(vf a, vf b, vf c) { return _mm256_fnmadd_ps(a, b, c); }
static inline float v_sum(vf a)
{
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(a), _mm256_extractf128_ps(a, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}
/* 1 / sqrt(x) for x > 0 to float accuracy. The estimate has 12 bits; one Newton-Raphson
 * step would leave an error of 1.5 e^2 (up to 2e-7, always of one sign, a bias of the
 * forces beyond float rounding), so the step is taken to second order:
 * y (1 + d/2 + 3 d^2/8) with d = 1 - x y^2, whose error 2.5 e^3 is below 1e-10. */
static inline vf v_rsqrt(vf x)
{
    const vf y = _mm256_rsqrt_ps(x);
    const vf d = v_fnma(v_mul(x, y), y, v_set1(1.0f));
    const vf p = v_fma(d, v_set1(0.375f), v_set1(0.5f));
    return v_fma(v_mul(y, d), p, y);
}
static inline void v_add_to(double *d, vf a)
{
    const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(a));
    const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(a, 1));
    _mm256_storeu_pd(d, _mm256_add_pd(_mm256_loadu_pd(d), lo));
    _mm256_storeu_pd(d + 4, _mm256_add_pd(_mm256_loadu_pd(d + 4), hi));
}
static inline vf v_rsqrt_estimate(vf x) { return _mm256_rsqrt_ps(x); }
static inline vf v_max0(vf a) { return _mm256_max_ps(a, _mm256_setzero_ps()); }
static inline vf v_abs(vf a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a); }
static inline unsigned v_gt(vf a, vf b)
{
    return (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(a, b, _CMP_GT_OQ));
}
#define V_ISA "avx2"
/* estimate 1, second-order step 1 + 2 + 2 + 1 + 2 */
#define V_RSQRT_FLOPS 9

#else
typedef float vf __attribute__((vector_size(16)));
#define VW 4
static inline vf v_set1(float x) { return (vf){x, x, x, x}; }
static inline vf v_load(const float *p)
{
    vf a;
    memcpy(&a, p, sizeof a);
    return a;
}
static inline void v_store(float *p, vf a) { memcpy(p, &a, sizeof a); }
static inline vf v_add(vf a, vf b) { return a + b; }
static inline vf v_sub(vf a, vf b) { return a - b; }
static inline vf v_mul(vf a, vf b) { return a * b; }
/* No fused multiply-add is assumed: a product and a sum, each rounded. */
static inline vf v_fma(vf a, vf b, vf c) { return a * b + c; }
static inline vf v_fnma(vf a, vf b, vf c) { return c - a * b; }
static inline float v_sum(vf a) { return (a[0] + a[1]) + (a[2] + a[3]); }
/* The correctly rounded square root and division, lane by lane. */
static inline vf v_rsqrt(vf x)
{
    vf r;
    for (int k = 0; k < VW; k++)
        r[k] = 1.0f / sqrtf(x[k]);
    return r;
}
static inline void v_add_to(double *d, vf a)
{
    for (int k = 0; k < VW; k++)
        d[k] += (double)a[k];
}
static inline vf v_max0(vf a)
{
    for (int k = 0; k < VW; k++)
        a[k] = a[k] > 0.0f ? a[k] : 0.0f;
    return a;
}
static inline vf v_abs(vf a)
{
    for (int k = 0; k < VW; k++)
        a[k] = fabsf(a[k]);
    return a;
}
static inline unsigned v_gt(vf a, vf b)
{
    unsigned m = 0;
    for (int k = 0; k < VW; k++)
        m |= (unsigned)(a[k] > b[k]) << k;
    return m;
}
#define V_ISA "portable"
/* square root and division */
#define V_RSQRT_FLOPS 2
#endif

#if GC_CPU_ISA >= 1
/* m / x^(3/2) for x > 0, the factor of every softened pull, to float accuracy. From the
 * estimate y (relative error e), d = 1 - x y^2 ~ -2e and x^(-3/2) = y^3 (1 - d)^(-3/2) =
 * y^3 (1 + 3/2 d + 15/8 d^2 + ...): to second order the error is ~17 e^3 (below 1e-9 from
 * the AVX2's 12-bit estimate), and it costs 7 operations beside the estimate where a
 * corrected root cubed costs 8. */
static inline vf v_m_rsqrt3(vf m, vf x)
{
    const vf y = v_rsqrt_estimate(x), y2 = v_mul(y, y);
    const vf d = v_fnma(x, y2, v_set1(1.0f));
    const vf c = v_fma(d, v_fma(d, v_set1(1.875f), v_set1(1.5f)), v_set1(1.0f));
    return v_mul(v_mul(m, v_mul(y2, y)), c);
}
/* Executed flops: estimate 1, products 4, FMAs 3 (6). */
#define V_M_RSQRT3_FLOPS 11
#else
static inline vf v_m_rsqrt3(vf m, vf x)
{
    const vf inv = v_rsqrt(x);
    return v_mul(v_mul(m, inv), v_mul(inv, inv));
}
#define V_M_RSQRT3_FLOPS (V_RSQRT_FLOPS + 3)
#endif

#endif
