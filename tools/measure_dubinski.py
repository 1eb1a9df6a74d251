#!/usr/bin/env python3
"""Measures the two galaxies of the Dubinski (1995) table, per component, for the built-in model.

Usage: tools/measure_dubinski.py [../shared/data/dubinski.tab.gz]
Prints mass, half-mass radius, scale radii (Hernquist fit: r_half = (1+sqrt2) a), truncation
radius, disk scale length/height fits and the circular-speed curve of each galaxy about its
own centre. The numbers go into src/models/model_galaxy.c (docs/model.md lists them).
"""
import gzip
import sys

import numpy as np

path = sys.argv[1] if len(sys.argv) > 1 else "../shared/data/dubinski.tab.gz"
with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
    d = np.loadtxt(f)  # also reads `galaxy --save` files of 81,920 bodies (same layout)
m, x, v = d[:, 0], d[:, 1:4], d[:, 4:7]
blocks = {  # shared/data/README.md, "Block layout"
    ("A", "disk"): slice(0, 16384), ("B", "disk"): slice(16384, 32768),
    ("A", "bulge"): slice(32768, 40960), ("B", "bulge"): slice(40960, 49152),
    ("A", "halo"): slice(49152, 65536), ("B", "halo"): slice(65536, 81920),
}


def galaxy_rows(g):
    return np.concatenate([np.arange(81920)[blocks[(g, c)]] for c in ("disk", "bulge", "halo")])


for g in ("A", "B"):
    rows = galaxy_rows(g)
    # Centre on the bulge (the densest component) so offsets of the halo don't bias radii.
    sb = blocks[(g, "bulge")]
    c = np.average(x[sb], axis=0, weights=m[sb])
    cv = np.average(v[rows], axis=0, weights=m[rows])
    print(f"== galaxy {g}: mass {m[rows].sum():.6f}  centre {c}  vel {cv}")
    sd = blocks[(g, "disk")]
    xd, vd = x[sd] - c, v[sd] - cv
    L = np.sum(m[sd, None] * np.cross(xd, vd), axis=0)
    nz = L / np.linalg.norm(L)
    print(f"   disk spin axis {nz}")
    # Disk frame: z along spin.
    e1 = np.cross(nz, [1.0, 0, 0]) if abs(nz[0]) < 0.9 else np.cross(nz, [0, 1.0, 0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(nz, e1)
    for comp in ("disk", "bulge", "halo"):
        s = blocks[(g, comp)]
        r = np.linalg.norm(x[s] - c, axis=1)
        rs = np.sort(r)
        n = len(rs)
        rh = rs[n // 2]
        print(f"   {comp:5s} n {n} mp {m[s][0]:.6e} mass {m[s].sum():.6f} r_half {rh:.4f} "
              f"r90 {rs[int(0.9*n)]:.3f} r99 {rs[int(0.99*n)]:.3f} rmax {rs[-1]:.3f} "
              f"hernquist a = r_half/(1+sqrt2) = {rh/(1+np.sqrt(2)):.4f}")
        if comp == "disk":
            p = x[s] - c
            R = np.hypot(p @ e1, p @ e2)
            z = p @ nz
            Rs = np.sort(R)
            # Exponential disk: M(<R)/M = 1 - (1+R/h) e^{-R/h}; median at R = 1.678 h.
            h = np.median(R) / 1.67835
            print(f"     R_half {np.median(R):.4f} -> scale length h = {h:.4f};  R_max {Rs[-1]:.3f} "
                  f"R99 {Rs[int(0.99*n)]:.3f} R_max/h {Rs[-1]/h:.2f}")
            # sech^2(z/z0): median |z| = z0 atanh(0.5) = 0.5493 z0; rms = z0 pi/sqrt(12)
            z0m = np.median(np.abs(z)) / 0.549306
            print(f"     z_rms {np.sqrt(np.mean(z**2)):.4f}  median|z| {np.median(np.abs(z)):.4f}"
                  f" -> sech2 z0 = {z0m:.4f} (z0/h = {z0m/h:.3f})")
            # Dispersions and rotation in radial bins.
            vp = v[s] - cv
            ur = np.stack([p @ e1, p @ e2], 1) / R[:, None]
            vR = (vp @ e1) * ur[:, 0] + (vp @ e2) * ur[:, 1]
            vphi = -(vp @ e1) * ur[:, 1] + (vp @ e2) * ur[:, 0]
            vz = vp @ nz
            # Circular speed of the whole galaxy (spherical approx): sqrt(M(<r)/r).
            rall = np.linalg.norm(x[rows] - c, axis=1)
            order = np.argsort(rall)
            mcum = np.cumsum(m[rows][order])
            print("      R/h    vphi   sigR   sigphi sigz   vc_sph  Q(approx)")
            for lo in np.arange(0, 5, 0.5):
                sel = (R >= lo * h) & (R < (lo + 0.5) * h)
                if sel.sum() < 20:
                    continue
                Rm = np.mean(R[sel])
                k = np.searchsorted(rall[order], Rm)
                vc = np.sqrt(mcum[max(k - 1, 0)] / Rm)
                # surface density of this ring
                area = np.pi * (((lo + 0.5) * h) ** 2 - (lo * h) ** 2)
                sig = m[s].sum() * sel.sum() / n / area
                kappa = np.sqrt(2) * vc / Rm  # flat-ish approximation
                Q = np.std(vR[sel]) * kappa / (3.36 * sig)
                print(f"     {Rm/h:5.2f} {np.mean(vphi[sel]):6.3f} {np.std(vR[sel]):6.3f} "
                      f"{np.std(vphi[sel]):6.3f} {np.std(vz[sel]):6.3f} {vc:6.3f} {Q:6.2f}")
        else:
            # Density-profile logarithmic slope between radii to tell Hernquist from NFW.
            edges = np.logspace(np.log10(rs[n // 100]), np.log10(rs[int(0.98 * n)]), 9)
            cnt, _ = np.histogram(r, edges)
            rho = cnt / (4 / 3 * np.pi * np.diff(edges ** 3))
            rc = np.sqrt(edges[1:] * edges[:-1])
            slope = np.diff(np.log(rho)) / np.diff(np.log(rc))
            print("     log slopes", " ".join(f"{a:.2f}@{b:.2f}" for a, b in
                                             zip(slope, np.sqrt(rc[1:] * rc[:-1]))))
            vr = np.linalg.norm(v[s] - cv, axis=1)
            print(f"     sigma_1d (all) {np.sqrt(np.mean(vr**2)/3):.4f}")
            # Hernquist a fit by least squares of M(<r) over 5-95% range.
            fr = np.arange(1, n + 1) / n
            sel = slice(n // 20, int(0.95 * n))
            best = None
            for a in np.linspace(0.02, 30, 3000):
                for rt in (None,):
                    mm = rs[sel] ** 2 / (rs[sel] + a) ** 2
                    mm /= (rs[-1] ** 2 / (rs[-1] + a) ** 2)
                    err = np.mean((mm - fr[sel]) ** 2)
                    if best is None or err < best[0]:
                        best = (err, a)
            print(f"     Hernquist fit (truncated at rmax) a = {best[1]:.4f} rms err {np.sqrt(best[0]):.4f}")
    # Rotation curve of the galaxy, spherical approximation.
    rall = np.linalg.norm(x[rows] - c, axis=1)
    order = np.argsort(rall)
    mcum = np.cumsum(m[rows][order])
    rr = rall[order]
    print("   vc(r):", " ".join(f"{R:.1f}:{np.sqrt(mcum[np.searchsorted(rr, R)-1]/R):.3f}"
                               for R in (0.5, 1, 2, 3, 5, 8, 12, 20, 30)))

# Orbit of B relative to A.
ra = galaxy_rows("A"); rb = galaxy_rows("B")
ca = np.average(x[ra], axis=0, weights=m[ra]); cb = np.average(x[rb], axis=0, weights=m[rb])
va = np.average(v[ra], axis=0, weights=m[ra]); vb = np.average(v[rb], axis=0, weights=m[rb])
dr, dv = cb - ca, vb - va
r = np.linalg.norm(dr)
Mt = m.sum()
E = 0.5 * dv @ dv - Mt / r
Lo = np.cross(dr, dv)
print(f"== orbit: sep {r:.4f} rel speed {np.linalg.norm(dv):.4f} radial {dr@dv/r:.4f} "
      f"specific E (point masses) {E:.4f} L {Lo} |L| {np.linalg.norm(Lo):.4f} "
      f"pericentre (Kepler point masses) {(np.linalg.norm(Lo)**2/Mt)/(1+np.sqrt(1+2*E*np.linalg.norm(Lo)**2/Mt**2)):.4f}")
print(f"   orbital plane normal {Lo/np.linalg.norm(Lo)}")
