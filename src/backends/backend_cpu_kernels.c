/* The CPU backend's force loops, written once over the vector type of cpu_vec.h and compiled once per instruction set (AVX-512, AVX2 + FMA, portable). */
/* SPDX-License-Identifier: MIT */
#include "backend_cpu_simd.h"
#include "cpu_vec.h"
#include "tree_formulas.h"

#if GC_CPU_ISA == 2
#define KERNELS gc_cpu_kernels_avx512
#elif GC_CPU_ISA == 1
#define KERNELS gc_cpu_kernels_avx2
#else
#define KERNELS gc_cpu_kernels_portable
#endif

/* Each lane sums at most this many pairs in float before the sum goes into a double: the
 * force error stays at float rounding (~1e-7 relative) at any N, while the loop itself
 * stays single precision; the double sums add ~2% to its operations. */
#define SUM_BLOCK 64
/* i vectors that share each j's loads (and give the core independent chains to overlap). */
#define IV 2
#define TILE_LANES (GC_CPU_TILE + IV * VW)

_Static_assert(GC_CPU_TILE % VW == 0 && GC_CPU_PAD % VW == 0, "tiles and lists hold whole vectors");

/* Executed flops of one pair in pair(): 3 differences, r^2 as three FMAs (6), m / r^3, the
 * three FMAs of the sums (6). */
#define PAIR_FLOPS (3 + 6 + V_M_RSQRT3_FLOPS + 6)

/* The softened pull of mass m at offset d on a lane: a += m d / (|d|^2 + eps^2)^(3/2), and
 * with pot (a constant where it is inlined) p += m / sqrt(|d|^2 + eps^2). */
static inline void pair(vf dx, vf dy, vf dz, vf m, vf eps2, vf *ax, vf *ay, vf *az, vf *p,
                        const int pot)
{
    const vf r2 = v_fma(dz, dz, v_fma(dy, dy, v_fma(dx, dx, eps2)));
    if (pot) {
        *p = v_fma(m, v_rsqrt(r2), *p);
        return;
    }
    {
        const vf s = v_m_rsqrt3(m, r2);
        *ax = v_fma(dx, s, *ax);
        *ay = v_fma(dy, s, *ay);
        *az = v_fma(dz, s, *az);
    }
}

/* a with lane k set to zero. */
static inline vf zero_lane(vf a, size_t k)
{
    float t[VW];
    v_store(t, a);
    t[k] = 0.0f;
    return v_load(t);
}

/* One tile of bodies i0, i0 + 1, ... (their lanes in xi, yi, zi, nv vectors) against every
 * j: the sums of each lane in acc (3 x TILE_LANES doubles; with pot only the first). The i
 * lanes are the vector, each j is broadcast: IV vectors of i share one j's loads. Forces
 * take the self-pair as it comes (it adds zero); the potential leaves it out, lane by lane:
 * its m / eps would otherwise sit in the float sums beside terms ~40 times smaller. */
static inline void tile(const struct cpu_soa *s, size_t i0, const float *xi, const float *yi,
                        const float *zi, size_t nv, float eps2, double *acc, const int pot)
{
    const vf e2 = v_set1(eps2), zero = v_set1(0.0f);
    for (size_t j0 = 0; j0 < s->n; j0 += SUM_BLOCK) {
        const size_t j1 = j0 + SUM_BLOCK < s->n ? j0 + SUM_BLOCK : s->n;
        for (size_t v = 0; v < nv; v += IV) {
            vf x[IV], y[IV], z[IV], ax[IV], ay[IV], az[IV], p[IV];
            for (int u = 0; u < IV; u++) {
                x[u] = v_load(xi + (v + u) * VW);
                y[u] = v_load(yi + (v + u) * VW);
                z[u] = v_load(zi + (v + u) * VW);
                ax[u] = ay[u] = az[u] = p[u] = zero;
            }
            for (size_t j = j0; j < j1; j++) {
                const vf xj = v_set1(s->x[j]), yj = v_set1(s->y[j]), zj = v_set1(s->z[j]),
                         mj = v_set1(s->m[j]);
                for (int u = 0; u < IV; u++) {
                    const size_t self = j - i0 - (v + u) * VW; /* i = j in this lane */
                    pair(v_sub(xj, x[u]), v_sub(yj, y[u]), v_sub(zj, z[u]),
                         pot && self < VW ? zero_lane(mj, self) : mj, e2, &ax[u], &ay[u],
                         &az[u], &p[u], pot);
                }
            }
            for (int u = 0; u < IV; u++) {
                double *d = acc + (v + u) * VW;
                if (pot) {
                    v_add_to(d, p[u]);
                } else {
                    v_add_to(d, ax[u]);
                    v_add_to(d + TILE_LANES, ay[u]);
                    v_add_to(d + 2 * TILE_LANES, az[u]);
                }
            }
        }
    }
}

/* The tile's positions as lanes, padded to whole groups of IV vectors with body i0 (its
 * lanes' sums are dropped); returns the vectors. */
static size_t gather(const struct cpu_soa *s, size_t i0, size_t i1, float *xi, float *yi,
                     float *zi)
{
    const size_t ni = i1 - i0, nv = (ni + IV * VW - 1) / (IV * VW) * IV;
    for (size_t k = 0; k < nv * VW; k++) {
        const size_t i = k < ni ? i0 + k : i0;
        xi[k] = s->x[i];
        yi[k] = s->y[i];
        zi[k] = s->z[i];
    }
    return nv;
}

static void allpairs_accel(const struct cpu_soa *s, size_t i0, size_t i1, float eps2,
                           float *ax, float *ay, float *az)
{
    float xi[TILE_LANES], yi[TILE_LANES], zi[TILE_LANES];
    double acc[3 * TILE_LANES] = {0};
    const size_t nv = gather(s, i0, i1, xi, yi, zi);
    tile(s, i0, xi, yi, zi, nv, eps2, acc, 0);
    for (size_t k = 0; k < i1 - i0; k++) {
        ax[k] = (float)acc[k];
        ay[k] = (float)acc[TILE_LANES + k];
        az[k] = (float)acc[2 * TILE_LANES + k];
    }
}

static double allpairs_potential(const struct cpu_soa *s, size_t i0, size_t i1, float eps2)
{
    float xi[TILE_LANES], yi[TILE_LANES], zi[TILE_LANES];
    double acc[3 * TILE_LANES] = {0}, w = 0.0;
    const size_t nv = gather(s, i0, i1, xi, yi, zi);
    tile(s, i0, xi, yi, zi, nv, eps2, acc, 1);
    for (size_t k = 0; k < i1 - i0; k++)
        w += (double)s->m[i0 + k] * acc[k];
    return w;
}

/* ---- the tree: interaction lists, each entry a lane ---- */

/* The pull of a cell (mass m, quadrupole q, softening term ns, at offset d) on a lane: the
 * vector form of gc_tree_cell_force. With pot only the potential, as p += m / R + D / 2R^5
 * (the caller negates). */
static inline void cell(vf dx, vf dy, vf dz, vf m, const vf q[6], vf ns, vf eps2, vf *ax,
                        vf *ay, vf *az, vf *p, const int pot)
{
    const vf r2 = v_fma(dz, dz, v_fma(dy, dy, v_fma(dx, dx, eps2)));
    const vf rinv = v_rsqrt(r2);
    const vf qx = v_fma(q[4], dz, v_fma(q[3], dy, v_mul(q[0], dx)));
    const vf qy = v_fma(q[5], dz, v_fma(q[1], dy, v_mul(q[3], dx)));
    const vf qz = v_fma(q[2], dz, v_fma(q[5], dy, v_mul(q[4], dx)));
    const vf dqd = v_fma(dz, qz, v_fma(dy, qy, v_fma(dx, qx, ns)));
    const vf rinv2 = v_mul(rinv, rinv), rinv3 = v_mul(rinv, rinv2), rinv5 = v_mul(rinv3, rinv2);
    if (pot) {
        *p = v_add(*p, v_fma(v_mul(v_set1(0.5f), dqd), rinv5, v_mul(m, rinv)));
        return;
    }
    {
        const vf radial = v_fma(v_mul(v_set1(2.5f), v_mul(rinv2, rinv5)), dqd, v_mul(m, rinv3));
        *ax = v_fnma(rinv5, qx, v_fma(radial, dx, *ax));
        *ay = v_fnma(rinv5, qy, v_fma(radial, dy, *ay));
        *az = v_fnma(rinv5, qz, v_fma(radial, dz, *az));
    }
}

/* One body at (x, y, z) against both lists: a (or, with pot, the potential) into out. */
static inline void lists_one(const struct cpu_list *b, const struct cpu_list *c, float x,
                             float y, float z, float eps2, float out[4], const int pot)
{
    const vf xi = v_set1(x), yi = v_set1(y), zi = v_set1(z), e2 = v_set1(eps2);
    const vf zero = v_set1(0.0f);
    vf ax = zero, ay = zero, az = zero, p = zero;
    for (size_t j = 0; j < b->n; j += VW)
        pair(v_sub(v_load(b->x + j), xi), v_sub(v_load(b->y + j), yi),
             v_sub(v_load(b->z + j), zi), v_load(b->m + j), e2, &ax, &ay, &az, &p, pot);
    for (size_t j = 0; j < c->n; j += VW) {
        const vf q[6] = {v_load(c->q[0] + j), v_load(c->q[1] + j), v_load(c->q[2] + j),
                         v_load(c->q[3] + j), v_load(c->q[4] + j), v_load(c->q[5] + j)};
        cell(v_sub(v_load(c->x + j), xi), v_sub(v_load(c->y + j), yi),
             v_sub(v_load(c->z + j), zi), v_load(c->m + j), q, v_load(c->nsoft + j), e2, &ax,
             &ay, &az, &p, pot);
    }
    out[0] = v_sum(ax);
    out[1] = v_sum(ay);
    out[2] = v_sum(az);
    out[3] = -v_sum(p);
}

/* Two bodies against both lists: each entry's loads serve both, and the two chains of
 * sums overlap. */
static inline void lists_two(const struct cpu_list *b, const struct cpu_list *c,
                             const float *x, const float *y, const float *z, float eps2,
                             float (*out)[4], const int pot)
{
    const vf e2 = v_set1(eps2), zero = v_set1(0.0f);
    const vf x0 = v_set1(x[0]), y0 = v_set1(y[0]), z0 = v_set1(z[0]);
    const vf x1 = v_set1(x[1]), y1 = v_set1(y[1]), z1 = v_set1(z[1]);
    vf ax0 = zero, ay0 = zero, az0 = zero, p0 = zero, ax1 = zero, ay1 = zero, az1 = zero,
       p1 = zero;
    for (size_t j = 0; j < b->n; j += VW) {
        const vf bx = v_load(b->x + j), by = v_load(b->y + j), bz = v_load(b->z + j),
                 bm = v_load(b->m + j);
        pair(v_sub(bx, x0), v_sub(by, y0), v_sub(bz, z0), bm, e2, &ax0, &ay0, &az0, &p0, pot);
        pair(v_sub(bx, x1), v_sub(by, y1), v_sub(bz, z1), bm, e2, &ax1, &ay1, &az1, &p1, pot);
    }
    for (size_t j = 0; j < c->n; j += VW) {
        const vf q[6] = {v_load(c->q[0] + j), v_load(c->q[1] + j), v_load(c->q[2] + j),
                         v_load(c->q[3] + j), v_load(c->q[4] + j), v_load(c->q[5] + j)};
        const vf cx = v_load(c->x + j), cy = v_load(c->y + j), cz = v_load(c->z + j),
                 cm = v_load(c->m + j), ns = v_load(c->nsoft + j);
        cell(v_sub(cx, x0), v_sub(cy, y0), v_sub(cz, z0), cm, q, ns, e2, &ax0, &ay0, &az0, &p0,
             pot);
        cell(v_sub(cx, x1), v_sub(cy, y1), v_sub(cz, z1), cm, q, ns, e2, &ax1, &ay1, &az1, &p1,
             pot);
    }
    out[0][0] = v_sum(ax0);
    out[0][1] = v_sum(ay0);
    out[0][2] = v_sum(az0);
    out[0][3] = -v_sum(p0);
    out[1][0] = v_sum(ax1);
    out[1][1] = v_sum(ay1);
    out[1][2] = v_sum(az1);
    out[1][3] = -v_sum(p1);
}

static void tree_lists(const struct cpu_list *bodies, const struct cpu_list *cells,
                       const float *x, const float *y, const float *z, int n, float eps2,
                       float (*out)[4], int pot)
{
    int i = 0;
    for (; i + 1 < n; i += 2) {
        if (pot)
            lists_two(bodies, cells, x + i, y + i, z + i, eps2, out + i, 1);
        else
            lists_two(bodies, cells, x + i, y + i, z + i, eps2, out + i, 0);
    }
    if (i < n) {
        if (pot)
            lists_one(bodies, cells, x[i], y[i], z[i], eps2, out[i], 1);
        else
            lists_one(bodies, cells, x[i], y[i], z[i], eps2, out[i], 0);
    }
}

/* The tests of the walk with each cell a lane. Sums and products are rounded one by one,
 * in the order the scalar formulas take them (the host compiler does not fuse them). */
static void tree_fates(const struct cpu_cell_tests *s, size_t first, int k, const float bc[3],
                       const float bh[3], float rl2, unsigned fate[GC_CPU_FATES])
{
    const vf cx = v_set1(bc[0]), cy = v_set1(bc[1]), cz = v_set1(bc[2]), hx = v_set1(bh[0]),
             hy = v_set1(bh[1]), hz = v_set1(bh[2]), rl = v_set1(rl2), far = v_set1(GC_TREE_FAR2);
    for (int f = 0; f < GC_CPU_FATES; f++)
        fate[f] = 0;
    for (int v = 0; v < k; v += VW) {
        const unsigned lanes = ((1u << (k - v < VW ? k - v : VW)) - 1u) << v;
        const vf x = v_sub(v_load(s->x + first + v), cx), y = v_sub(v_load(s->y + first + v), cy),
                 z = v_sub(v_load(s->z + first + v), cz), r2 = v_load(s->ropen2 + first + v);
        const vf dx = v_max0(v_sub(v_abs(x), hx)), dy = v_max0(v_sub(v_abs(y), hy)),
                 dz = v_max0(v_sub(v_abs(z), hz));
        const vf d2 = v_add(v_add(v_mul(dx, dx), v_mul(dy, dy)), v_mul(dz, dz));
        const vf c2 = v_add(v_add(v_mul(x, x), v_mul(y, y)), v_mul(z, z));
        const unsigned accept = (v_gt(d2, r2) << v) & lanes;
        const unsigned local = (v_gt(c2, rl) << v) & accept;
        const unsigned mass = (v_gt(d2, v_mul(far, r2)) << v) & accept & ~local;
        fate[GC_CPU_LOCAL] |= local;
        fate[GC_CPU_MASS] |= mass;
        fate[GC_CPU_QUAD] |= accept & ~local & ~mass;
        fate[GC_CPU_OPEN] |= lanes & ~accept;
    }
}

/* The cells of a list added to the local expansion L about g: gc_tree_local_add with each
 * cell a lane, the 20 sums added across the lanes at the end. */
static inline void local_sums(const struct cpu_list *c, const float g[3], float eps2,
                              float *L, const int pot)
{
    const vf zero = v_set1(0.0f), e2 = v_set1(eps2), gx = v_set1(g[0]), gy = v_set1(g[1]),
             gz = v_set1(g[2]);
    vf S[GC_TREE_LOCAL_TERMS];
    for (int k = 0; k < GC_TREE_LOCAL_TERMS; k++)
        S[k] = zero;
    for (size_t j = 0; j < c->n; j += VW) {
        const vf dx = v_sub(v_load(c->x + j), gx), dy = v_sub(v_load(c->y + j), gy),
                 dz = v_sub(v_load(c->z + j), gz), m = v_load(c->m + j);
        const vf q0 = v_load(c->q[0] + j), q1 = v_load(c->q[1] + j), q2 = v_load(c->q[2] + j),
                 q3 = v_load(c->q[3] + j), q4 = v_load(c->q[4] + j), q5 = v_load(c->q[5] + j);
        const vf rinv = v_rsqrt(v_fma(dz, dz, v_fma(dy, dy, v_fma(dx, dx, e2))));
        const vf qx = v_fma(q4, dz, v_fma(q3, dy, v_mul(q0, dx)));
        const vf qy = v_fma(q5, dz, v_fma(q1, dy, v_mul(q3, dx)));
        const vf qz = v_fma(q2, dz, v_fma(q5, dy, v_mul(q4, dx)));
        const vf D = v_fma(dz, qz, v_fma(dy, qy, v_fma(dx, qx, v_load(c->nsoft + j))));
        const vf r2 = v_mul(rinv, rinv), r3 = v_mul(rinv, r2), r5 = v_mul(r3, r2),
                 r7 = v_mul(r5, r2), r9 = v_mul(r7, r2);
        const vf m3 = v_mul(m, r3), m5 = v_mul(v_set1(3.0f), v_mul(m, r5)),
                 m7 = v_mul(v_set1(15.0f), v_mul(m, r7));
        const vf diag = v_fma(v_mul(v_set1(2.5f), D), r7, m3);
        const vf gg = v_fma(v_mul(v_set1(17.5f), D), r9, m5);
        const vf q7 = v_mul(v_set1(5.0f), r7), q72 = v_add(q7, q7);
        const vf xx = v_mul(dx, dx), yy = v_mul(dy, dy), zz = v_mul(dz, dz);
        const vf m3x = v_fnma(v_set1(3.0f), m5, v_mul(m7, xx)), m1x = v_sub(v_mul(m7, xx), m5);
        const vf m3y = v_fnma(v_set1(3.0f), m5, v_mul(m7, yy)), m1y = v_sub(v_mul(m7, yy), m5);
        const vf m3z = v_fnma(v_set1(3.0f), m5, v_mul(m7, zz)), m1z = v_sub(v_mul(m7, zz), m5);
        S[0] = v_add(S[0], v_fnma(r5, qx, v_mul(diag, dx)));
        S[1] = v_add(S[1], v_fnma(r5, qy, v_mul(diag, dy)));
        S[2] = v_add(S[2], v_fnma(r5, qz, v_mul(diag, dz)));
        S[3] = v_add(S[3], v_fma(v_mul(q72, qx), dx, v_fnma(r5, q0, v_fnma(gg, xx, diag))));
        S[4] = v_add(S[4], v_fma(v_mul(q72, qy), dy, v_fnma(r5, q1, v_fnma(gg, yy, diag))));
        S[5] = v_add(S[5], v_fma(v_mul(q72, qz), dz, v_fnma(r5, q2, v_fnma(gg, zz, diag))));
        S[6] = v_add(S[6], v_fma(q7, v_fma(qx, dy, v_mul(qy, dx)),
                                 v_fnma(gg, v_mul(dx, dy), v_fnma(r5, q3, zero))));
        S[7] = v_add(S[7], v_fma(q7, v_fma(qx, dz, v_mul(qz, dx)),
                                 v_fnma(gg, v_mul(dx, dz), v_fnma(r5, q4, zero))));
        S[8] = v_add(S[8], v_fma(q7, v_fma(qy, dz, v_mul(qz, dy)),
                                 v_fnma(gg, v_mul(dy, dz), v_fnma(r5, q5, zero))));
        S[9] = v_fma(m3x, dx, S[9]);
        S[10] = v_fma(m3y, dy, S[10]);
        S[11] = v_fma(m3z, dz, S[11]);
        S[12] = v_fma(m1x, dy, S[12]);
        S[13] = v_fma(m1x, dz, S[13]);
        S[14] = v_fma(m1y, dx, S[14]);
        S[15] = v_fma(m1y, dz, S[15]);
        S[16] = v_fma(m1z, dx, S[16]);
        S[17] = v_fma(m1z, dy, S[17]);
        S[18] = v_fma(v_mul(m7, v_mul(dx, dy)), dz, S[18]);
        if (pot)
            S[19] = v_sub(S[19], v_fma(v_mul(v_set1(0.5f), D), r5, v_mul(m, rinv)));
    }
    for (int k = 0; k < GC_TREE_LOCAL_TERMS; k++)
        L[k] += v_sum(S[k]);
}

static void tree_local(const struct cpu_list *cells, const float g[3], float eps2, float *L,
                       int pot)
{
    if (pot)
        local_sums(cells, g, eps2, L, 1);
    else
        local_sums(cells, g, eps2, L, 0);
}

const struct cpu_kernels KERNELS = {
    .isa = V_ISA,
    .width = VW,
    .flops_per_pair = PAIR_FLOPS,
    .allpairs_accel = allpairs_accel,
    .allpairs_potential = allpairs_potential,
    .tree_lists = tree_lists,
    .tree_fates = tree_fates,
    .tree_local = tree_local,
};
