/* The Barnes-Hut tree's keys, cells, moments, opening criterion and interactions, written once for the CPU backend and the CUDA kernels. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_TREE_FORMULAS_H
#define GC_TREE_FORMULAS_H

#include <math.h>
#include <stdint.h>

#include "host_device.h"

/* Both backends build the same tree from the same float arithmetic, so they open the same
 * cells for the same groups: their forces differ by the rounding of the sums only.
 *
 * Keys: Morton (Z-order) keys of 21 bits per axis (63 bits) over a cube that holds every
 * body; level L of the octree is the key's L-th 3-bit digit (L = 1..21, 1 = the root's
 * children). A cell holds a contiguous range of the bodies sorted by key.
 * Cells: a cell with more than GC_TREE_LEAF bodies is split at the first level where its
 * first and last keys differ (levels where every body falls into the same child are skipped:
 * no chains of one-child cells); at the last level, or with identical keys, it stays a leaf
 * of any size (its bodies are then summed directly, exactly).
 * Groups: the bodies that share one walk of the tree and one interaction list (one warp on
 * the GPU), cut along the tree (gc_tree_group_step), never by count alone: consecutive
 * bodies of the sorted order can straddle a jump of the Morton curve, and a group holding
 * one far body has a box that opens most of the tree: one such walk can outlast all the
 * others together. */
#define GC_TREE_LEVELS 21
#define GC_TREE_LEAF 16
#define GC_TREE_GROUP 32
/* How groups are cut. The tree is split into packing cells: cells of at most GC_TREE_PACK
 * bodies whose parent has more (the root when it is that small). Inside one, its pieces (the
 * largest cells of at most GC_TREE_GROUP bodies, in key order) are packed into groups while
 * they fit; a leaf of more bodies (identical keys, or a full cell store) is cut every
 * GC_TREE_GROUP bodies. Consecutive packing cells under one parent go on packing into the
 * open group, so a group stays within a cell of at most 8 GC_TREE_PACK bodies; a larger
 * child closes it. Packing cousins as well as siblings fills a warp with ~25 bodies, not
 * ~22, for a few more interactions a body: ~7% less work in the walk.
 * Cousins are packed only while the group's box stays clear of the boxes of the parent's
 * larger children: sparse cells beside a dense one (a sphere's outskirts around its core)
 * lie in key order on either side of it, and a group of two of them had a box reaching into
 * it. Every cell of the dense child inside that box was then opened to its leaves and summed
 * body by body, for one walk as long as a whole warp's share of all the others. Pieces of
 * one packing cell never reach a sibling: the keys' cubes keep their boxes apart. */
#define GC_TREE_PACK 128
/* The group being packed: its bodies so far (0: none is open) and their box; the packing
 * cell its first piece came from, and whether it holds pieces of others too. */
struct gc_tree_pack {
    int fill;
    float lo[3], hi[3];
    int cell, mixed;
};
/* One step of the packing, taken for each piece (nb bodies, leaf or not, its bodies' box
 * [lo, hi], from packing cell `cell`) of the packing cells in key order, and for each child
 * of more than GC_TREE_PACK bodies. apart: the piece may not join the open group (its box
 * would reach into a large child's: gc_tree_pack_reaches). Returns whether a group begins at
 * the piece's first body, at every GC_TREE_GROUP-th of its bodies (a large leaf), or not at
 * all. */
enum { GC_TREE_GROUP_NONE, GC_TREE_GROUP_BEGINS, GC_TREE_GROUP_CUT };
GC_HD int gc_tree_group_step(struct gc_tree_pack *g, int nb, int leaf, const float lo[3],
                             const float hi[3], int cell, int apart)
{
    if (nb > GC_TREE_GROUP) {
        g->fill = 0;
        return leaf ? GC_TREE_GROUP_CUT : GC_TREE_GROUP_NONE;
    }
    if (g->fill > 0 && !apart && g->fill + nb <= GC_TREE_GROUP) {
        g->fill += nb;
        g->mixed |= cell != g->cell;
        for (int k = 0; k < 3; k++) {
            g->lo[k] = fminf(g->lo[k], lo[k]);
            g->hi[k] = fmaxf(g->hi[k], hi[k]);
        }
        return GC_TREE_GROUP_NONE;
    }
    g->fill = nb;
    g->cell = cell;
    g->mixed = 0;
    for (int k = 0; k < 3; k++) {
        g->lo[k] = lo[k];
        g->hi[k] = hi[k];
    }
    return GC_TREE_GROUP_BEGINS;
}

/* Whether a piece of nb bodies from packing cell `cell` joining the open group would make
 * it span packing cells: only then can its box reach a larger child's, and need the test. */
GC_HD int gc_tree_pack_crosses(const struct gc_tree_pack *g, int nb, int cell)
{
    return g->fill > 0 && nb <= GC_TREE_GROUP && g->fill + nb <= GC_TREE_GROUP &&
           (g->mixed || cell != g->cell);
}

/* Whether the open group's box, grown to take in the piece's box [lo, hi], would overlap the
 * box [olo, ohi] (of a larger child of the packing parent: not in any packed group). */
GC_HD int gc_tree_pack_reaches(const struct gc_tree_pack *g, const float lo[3],
                               const float hi[3], const float olo[3], const float ohi[3])
{
    int overlap = g->fill > 0;
    for (int k = 0; k < 3; k++)
        overlap &= fminf(g->lo[k], lo[k]) < ohi[k] && fmaxf(g->hi[k], hi[k]) > olo[k];
    return overlap;
}

/* Opening angle: a cell is used as a whole (mass, centre of mass, quadrupole) for a group
 * when every point of the group's box is farther from the cell's centre of mass than
 * size / theta + delta (size: the largest side of the box of its bodies; delta: the distance
 * from that box's centre to the centre of mass). The delta term keeps the criterion safe
 * when the centre of mass sits near a cell's edge (Salmon & Warren 1994; Bonsai). 0.5:
 * docs/physics.md ("The tree") and BENCHMARKS.md give the error against theta. */
#define GC_TREE_DEFAULT_THETA 0.5f
/* Up to 1: then every cell that holds a body of the group is opened (its bodies lie within
 * delta + size * sqrt(3) / 2 of its centre of mass, nearer than size / theta + delta), so
 * no body ever feels itself through a cell's moments. */
#define GC_TREE_THETA_MIN 0.05f
#define GC_TREE_THETA_MAX 1.0f
/* Far cells: a cell accepted at more than 1.8 times its opening radius from every point of
 * the group's box acts through its mass alone (the body formula at its centre of mass).
 * There its quadrupole's share of its force is below (theta / 1.8)^2, and dropping it costs
 * less accuracy than the same time saved by a larger theta: a monopole is a third of the
 * instructions of the softened quadrupole, and about half of the accepted cells are that
 * far. With theta 0.5 this gives the error of theta 0.55 without far cells for ~11% fewer
 * instructions in the walk (docs/physics.md, "The tree"). */
#define GC_TREE_FAR2 3.24f
GC_HD int gc_tree_far(float box_d2, float ropen2)
{
    return box_d2 > GC_TREE_FAR2 * ropen2;
}

/* Products and sums the keys depend on, rounded as written on the GPU too (nvcc would fuse
 * them into one FMA, the host compiler does not): both sides must make the same keys. */
#ifdef __CUDA_ARCH__
#define GC_TREE_MUL(a, b) __fmul_rn((a), (b))
#define GC_TREE_SUB(a, b) __fsub_rn((a), (b))
#else
#define GC_TREE_MUL(a, b) ((a) * (b))
#define GC_TREE_SUB(a, b) ((a) - (b))
#endif

/* The cube the keys span, from the box [lo, hi] of the bodies: its lowest corner and
 * 2^21 / side. A box of zero size (one body, or all at one point) gets side 1; an infinite
 * or NaN one a scale of 0 (every key 0: one leaf, summed directly, so nothing is lost). The
 * side is widened a little so that the highest body still maps inside. */
GC_HD void gc_tree_frame(const float lo[3], const float hi[3], float origin[3], float *scale)
{
    float side = 0.0f;
    for (int k = 0; k < 3; k++)
        side = fmaxf(side, hi[k] - lo[k]);
    if (!(side > 0.0f))
        side = 1.0f;
    side *= 1.0f + 1.0f / 1024.0f;
    for (int k = 0; k < 3; k++)
        origin[k] = GC_TREE_SUB(GC_TREE_MUL(0.5f, lo[k] + hi[k]), GC_TREE_MUL(0.5f, side));
    *scale = isfinite(side) ? 2097152.0f / side : 0.0f;
}

/* The 21 low bits of v spread to every third bit of a 64-bit word. */
GC_HD uint64_t gc_tree_spread(uint32_t v)
{
    uint64_t x = v & 0x1fffffu;
    x = (x | x << 32) & 0x001f00000000ffffull;
    x = (x | x << 16) & 0x001f0000ff0000ffull;
    x = (x | x << 8) & 0x100f00f00f00f00full;
    x = (x | x << 4) & 0x10c30c30c30c30c3ull;
    x = (x | x << 2) & 0x1249249249249249ull;
    return x;
}

/* One coordinate in key units, clamped into [0, 2^21 - 1] (NaN maps to 0). */
GC_HD uint32_t gc_tree_cell_coord(float x, float origin, float scale)
{
    const float u = fminf(fmaxf(GC_TREE_MUL(x - origin, scale), 0.0f), 2097151.0f);
    return (uint32_t)u;
}

GC_HD uint64_t gc_tree_key(float x, float y, float z, const float origin[3], float scale)
{
    return gc_tree_spread(gc_tree_cell_coord(x, origin[0], scale)) << 2 |
           gc_tree_spread(gc_tree_cell_coord(y, origin[1], scale)) << 1 |
           gc_tree_spread(gc_tree_cell_coord(z, origin[2], scale));
}

/* The key's digit at level (1..GC_TREE_LEVELS): which of the 8 children the body is in. */
GC_HD int gc_tree_digit(uint64_t key, int level)
{
    return (int)((key >> (3 * (GC_TREE_LEVELS - level))) & 7u);
}

/* The first level at which keys a and b differ; GC_TREE_LEVELS + 1 when they are equal. */
GC_HD int gc_tree_split_level(uint64_t a, uint64_t b)
{
    const uint64_t x = a ^ b;
    int high;
    if (!x)
        return GC_TREE_LEVELS + 1;
#ifdef __CUDA_ARCH__
    high = 63 - __clzll((long long)x);
#else
    high = 63 - __builtin_clzll(x);
#endif
    return GC_TREE_LEVELS - high / 3;
}

/* A cell's moments: mass, centre of mass, traceless quadrupole about it,
 * Q = sum m (3 s s^T - |s|^2 I), s = x - com, stored as xx, yy, xy, xz, yz (zz = -xx - yy),
 * the trace it leaves out, s2 = sum m |s|^2 (the softened expansion needs it), and the box
 * of its bodies. */
struct gc_tree_moments {
    float m, com[3];
    float q[5], s2;
    float lo[3], hi[3];
};

/* Moments of bodies p[0..n) (x, y, z, m each, consecutive float4s). Sums are taken about the
 * first body, so the centre of mass keeps the digits that positions far from the origin
 * would lose (a cell a millionth of the box wide, 30 units out). */
GC_HD void gc_tree_leaf_moments(const float *p, int n, struct gc_tree_moments *c)
{
    float s[3] = {0.0f, 0.0f, 0.0f}, m = 0.0f, q[5] = {0, 0, 0, 0, 0}, s2 = 0.0f;
    const float r0[3] = {p[0], p[1], p[2]};
    for (int k = 0; k < 3; k++)
        c->lo[k] = c->hi[k] = p[k];
    for (int i = 0; i < n; i++) {
        const float *b = p + 4 * i;
        m += b[3];
        for (int k = 0; k < 3; k++) {
            s[k] += b[3] * (b[k] - r0[k]);
            c->lo[k] = fminf(c->lo[k], b[k]);
            c->hi[k] = fmaxf(c->hi[k], b[k]);
        }
    }
    c->m = m;
    for (int k = 0; k < 3; k++)
        c->com[k] = m > 0.0f ? r0[k] + s[k] / m : r0[k];
    for (int i = 0; i < n; i++) {
        const float *b = p + 4 * i;
        const float dx = b[0] - c->com[0], dy = b[1] - c->com[1], dz = b[2] - c->com[2];
        const float r2 = dx * dx + dy * dy + dz * dz;
        q[0] += b[3] * (3.0f * dx * dx - r2);
        q[1] += b[3] * (3.0f * dy * dy - r2);
        q[2] += b[3] * (3.0f * dx * dy);
        q[3] += b[3] * (3.0f * dx * dz);
        q[4] += b[3] * (3.0f * dy * dz);
        s2 += b[3] * r2;
    }
    for (int k = 0; k < 5; k++)
        c->q[k] = q[k];
    c->s2 = s2;
}

/* Moments of a cell from its children's ch[0..n): masses add, centres of mass combine
 * about the first child's, and each child's quadrupole moves to the new centre (parallel
 * axes: + m (3 d d^T - |d|^2 I), d = its centre minus the cell's). */
GC_HD void gc_tree_combine(const struct gc_tree_moments *ch, int n, struct gc_tree_moments *c)
{
    float s[3] = {0.0f, 0.0f, 0.0f}, m = 0.0f, q[5] = {0, 0, 0, 0, 0}, s2 = 0.0f;
    const float r0[3] = {ch[0].com[0], ch[0].com[1], ch[0].com[2]};
    for (int k = 0; k < 3; k++) {
        c->lo[k] = ch[0].lo[k];
        c->hi[k] = ch[0].hi[k];
    }
    for (int i = 0; i < n; i++) {
        m += ch[i].m;
        for (int k = 0; k < 3; k++) {
            s[k] += ch[i].m * (ch[i].com[k] - r0[k]);
            c->lo[k] = fminf(c->lo[k], ch[i].lo[k]);
            c->hi[k] = fmaxf(c->hi[k], ch[i].hi[k]);
        }
    }
    c->m = m;
    for (int k = 0; k < 3; k++)
        c->com[k] = m > 0.0f ? r0[k] + s[k] / m : r0[k];
    for (int i = 0; i < n; i++) {
        const float dx = ch[i].com[0] - c->com[0], dy = ch[i].com[1] - c->com[1],
                    dz = ch[i].com[2] - c->com[2], mi = ch[i].m;
        const float r2 = dx * dx + dy * dy + dz * dz;
        q[0] += ch[i].q[0] + mi * (3.0f * dx * dx - r2);
        q[1] += ch[i].q[1] + mi * (3.0f * dy * dy - r2);
        q[2] += ch[i].q[2] + mi * (3.0f * dx * dy);
        q[3] += ch[i].q[3] + mi * (3.0f * dx * dz);
        q[4] += ch[i].q[4] + mi * (3.0f * dy * dz);
        s2 += ch[i].s2 + mi * r2;
    }
    for (int k = 0; k < 5; k++)
        c->q[k] = q[k];
    c->s2 = s2;
}

/* The square of the opening radius size / theta + delta of a cell with moments c. */
GC_HD float gc_tree_open_radius2(const struct gc_tree_moments *c, float theta)
{
    float size = 0.0f, d2 = 0.0f, r;
    for (int k = 0; k < 3; k++) {
        const float mid = 0.5f * (c->lo[k] + c->hi[k]), d = c->com[k] - mid;
        size = fmaxf(size, c->hi[k] - c->lo[k]);
        d2 += d * d;
    }
    r = size / theta + sqrtf(d2);
    return r * r;
}

/* Squared distance from point x to the box of centre bc and half-sides bh (0 inside). */
GC_HD float gc_tree_box_dist2(const float x[3], const float bc[3], const float bh[3])
{
    float d2 = 0.0f;
    for (int k = 0; k < 3; k++) {
        const float d = fmaxf(fabsf(x[k] - bc[k]) - bh[k], 0.0f);
        d2 += d * d;
    }
    return d2;
}

/* A cell's terms as its interactions read them, made once per cell: the quadrupole's six
 * components (xx yy zz xy xz yz) and the softening's term -eps^2 s2. */
GC_HD void gc_tree_cell_terms(const struct gc_tree_moments *c, float eps2, float q6[6],
                              float *nsoft)
{
    q6[0] = c->q[0];
    q6[1] = c->q[1];
    q6[2] = -c->q[0] - c->q[1];
    q6[3] = c->q[2];
    q6[4] = c->q[3];
    q6[5] = c->q[4];
    *nsoft = -eps2 * c->s2;
}

/* Acceleration (and potential) on a body at distance d = com - x from a cell of mass m and
 * quadrupole q (gc_tree_cell_terms): the expansion to second order of the Plummer-softened
 * sum itself, with R^2 = |d|^2 + eps^2 and D = d.Q.d - eps^2 s2:
 *   a   = m d / R^3 - Q d / R^5 + 5/2 D d / R^7
 *   phi = -m / R - 1/2 D / R^5
 * The eps^2 s2 term (nsoft = -eps^2 s2) is what the softening adds to the traceless form: it
 * matters for cells a few eps away, which most accepted cells are at millions of bodies.
 * rinv is 1 / R, taken by the caller (rsqrt on the GPU). The sums are written so that each
 * term is one fused multiply-add where the compiler fuses. */
GC_HD void gc_tree_cell_force(float dx, float dy, float dz, float m, const float q[6],
                              float nsoft, float rinv, float a[3], float *phi)
{
    const float qx = q[0] * dx + q[3] * dy + q[4] * dz;
    const float qy = q[3] * dx + q[1] * dy + q[5] * dz;
    const float qz = q[4] * dx + q[5] * dy + q[2] * dz;
    const float dqd = nsoft + dx * qx + dy * qy + dz * qz;
    const float rinv2 = rinv * rinv, rinv3 = rinv * rinv2, rinv5 = rinv3 * rinv2;
    const float radial = m * rinv3 + 2.5f * rinv2 * rinv5 * dqd;
    a[0] += radial * dx;
    a[1] += radial * dy;
    a[2] += radial * dz;
    a[0] -= rinv5 * qx;
    a[1] -= rinv5 * qy;
    a[2] -= rinv5 * qz;
    if (phi)
        *phi -= m * rinv + 0.5f * dqd * rinv5;
}

/* The same from one body of mass m (the all-pairs formula; at d = 0 it adds zero). */
GC_HD void gc_tree_body_force(float dx, float dy, float dz, float m, float rinv, float a[3],
                              float *phi)
{
    const float s = m * rinv * rinv * rinv;
    a[0] += s * dx;
    a[1] += s * dy;
    a[2] += s * dz;
    if (phi)
        *phi -= m * rinv;
}

/* Local expansions. A cell accepted for a group whose centre of mass lies farther than
 * GC_TREE_LOCAL_K / theta group radii (the half-diagonal h of the group's box) from the
 * box's centre g is not evaluated body by body: its field is added, once for the whole
 * group, to a Taylor expansion about g, which each body then evaluates at its offset u:
 *   a(u) = A - G u + 1/2 H[u, u],  phi(u) = phi0 - A.u + 1/2 u.G.u - 1/6 H[u, u, u]
 * with A, G, H the cell's acceleration and its first and second derivatives with respect
 * to d = com - g (softened as the direct sum is). The cell gives its monopole to second
 * order and its quadrupole to first (beyond the far-cell radius too: here it costs
 * nothing). What this leaves out is ~(h / |d|)^3 of the cell's force, below
 * (theta / GC_TREE_LOCAL_K)^3, while the cell's own expansion leaves out ~theta^3: the
 * local error follows --theta and stays small beside the tree's (docs/physics.md, "Local
 * expansions"). On the GPU each lane adds its own cells, so such a cell costs the warp a
 * few instructions, not one interaction for each body of the group. */
#define GC_TREE_LOCAL_K 4.0f
/* Coefficients: A (x y z), G (xx yy zz xy xz yz), H (xxx yyy zzz xxy xxz xyy yyz xzz yzz
 * xyz), phi0. */
#define GC_TREE_LOCAL_TERMS 20

/* The square of the radius beyond which a cell accepted for a group (its box's
 * half-diagonal squared h2) joins the group's expansion: a cell whose centre of mass is
 * farther than that from the box's centre does (gc_tree_local). */
GC_HD float gc_tree_local_radius2(float h2, float theta)
{
    return GC_TREE_LOCAL_K * GC_TREE_LOCAL_K * h2 / (theta * theta);
}

GC_HD int gc_tree_local(float d2, float local_radius2)
{
    return d2 > local_radius2;
}

/* Adds the cell at d = com - g (mass m, terms q and nsoft of gc_tree_cell_terms, rinv =
 * 1 / sqrt(|d|^2 + eps^2)) to the expansion L; with pot, its potential too. */
GC_HD void gc_tree_local_add(float dx, float dy, float dz, float m, const float q[6],
                             float nsoft, float rinv, float L[GC_TREE_LOCAL_TERMS], int pot)
{
    const float qx = q[0] * dx + q[3] * dy + q[4] * dz;
    const float qy = q[3] * dx + q[1] * dy + q[5] * dz;
    const float qz = q[4] * dx + q[5] * dy + q[2] * dz;
    const float D = nsoft + dx * qx + dy * qy + dz * qz;
    const float r2 = rinv * rinv, r3 = rinv * r2, r5 = r3 * r2, r7 = r5 * r2, r9 = r7 * r2;
    const float m3 = m * r3, m5 = 3.0f * m * r5, m7 = 15.0f * m * r7;
    const float d7 = 2.5f * D * r7, d9 = 17.5f * D * r9, q7 = 5.0f * r7;
    /* acceleration: m d / R^3 - Q d / R^5 + 5/2 D d / R^7 */
    const float diag = m3 + d7; /* the radial factor, and G's delta_ij terms */
    const float xx = dx * dx, yy = dy * dy, zz = dz * dz, xy = dx * dy, xz = dx * dz,
                yz = dy * dz;
    const float g = m5 + d9; /* G's d_i d_j terms */
    L[0] += diag * dx - r5 * qx;
    L[1] += diag * dy - r5 * qy;
    L[2] += diag * dz - r5 * qz;
    /* G_ij = m (delta_ij R^-3 - 3 d_i d_j R^-5) - Q_ij R^-5 + 5 (q_i d_j + q_j d_i) R^-7
     *        + 5/2 D delta_ij R^-7 - 35/2 D d_i d_j R^-9 */
    L[3] += diag - g * xx - r5 * q[0] + 2.0f * q7 * qx * dx;
    L[4] += diag - g * yy - r5 * q[1] + 2.0f * q7 * qy * dy;
    L[5] += diag - g * zz - r5 * q[2] + 2.0f * q7 * qz * dz;
    L[6] += -g * xy - r5 * q[3] + q7 * (qx * dy + qy * dx);
    L[7] += -g * xz - r5 * q[4] + q7 * (qx * dz + qz * dx);
    L[8] += -g * yz - r5 * q[5] + q7 * (qy * dz + qz * dy);
    /* H_ijk = 15 m d_i d_j d_k R^-7 - 3 m (delta_ij d_k + delta_ik d_j + delta_jk d_i) R^-5 */
    L[9] += (m7 * xx - 3.0f * m5) * dx;
    L[10] += (m7 * yy - 3.0f * m5) * dy;
    L[11] += (m7 * zz - 3.0f * m5) * dz;
    L[12] += (m7 * xx - m5) * dy;
    L[13] += (m7 * xx - m5) * dz;
    L[14] += (m7 * yy - m5) * dx;
    L[15] += (m7 * yy - m5) * dz;
    L[16] += (m7 * zz - m5) * dx;
    L[17] += (m7 * zz - m5) * dy;
    L[18] += m7 * xy * dz;
    if (pot)
        L[19] -= m * rinv + 0.5f * D * r5;
}

/* The expansion L at offset u = x - g: adds to a (and to *phi when phi is not NULL). */
GC_HD void gc_tree_local_eval(const float L[GC_TREE_LOCAL_TERMS], float ux, float uy, float uz,
                              float a[3], float *phi)
{
    const float gx = L[3] * ux + L[6] * uy + L[7] * uz;
    const float gy = L[6] * ux + L[4] * uy + L[8] * uz;
    const float gz = L[7] * ux + L[8] * uy + L[5] * uz;
    const float xx = ux * ux, yy = uy * uy, zz = uz * uz;
    const float hx = L[9] * xx + L[14] * yy + L[16] * zz +
                     2.0f * (L[12] * ux * uy + L[13] * ux * uz + L[18] * uy * uz);
    const float hy = L[12] * xx + L[10] * yy + L[17] * zz +
                     2.0f * (L[14] * ux * uy + L[18] * ux * uz + L[15] * uy * uz);
    const float hz = L[13] * xx + L[15] * yy + L[11] * zz +
                     2.0f * (L[18] * ux * uy + L[16] * ux * uz + L[17] * uy * uz);
    a[0] += L[0] - gx + 0.5f * hx;
    a[1] += L[1] - gy + 0.5f * hy;
    a[2] += L[2] - gz + 0.5f * hz;
    if (phi)
        *phi += L[19] - (L[0] * ux + L[1] * uy + L[2] * uz) +
                0.5f * (ux * gx + uy * gy + uz * gz) -
                (ux * hx + uy * hy + uz * hz) / 6.0f;
}

#endif
