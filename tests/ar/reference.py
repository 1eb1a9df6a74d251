# Reference integrations of few-body problems for the regularisation tests, written apart from the program.
# SPDX-License-Identifier: MIT
"""An extrapolation integrator for point masses (G = 1, no softening), in numpy's long
double (the x87 80-bit format on x86-64: 64-bit mantissa, 3 more digits than the program's
double, which Cartesian coordinates need through the Pythagorean close approaches):
Gragg's modified midpoint rule in physical time, extrapolated to zero step (Bulirsch and
Stoer), with an adaptive step. No regularisation and no code shared with the program: it
is slow but needs nothing but the equations of motion, so it is an independent check."""

import math

import numpy as np

LD = np.longdouble
sqrt = np.sqrt

SEQ = (2, 4, 6, 8, 10, 12, 14, 16, 18, 20)


def accelerations(m, x):
    n = len(m)
    a = [0.0] * (3 * n)
    for i in range(n):
        xi, yi, zi = x[3 * i], x[3 * i + 1], x[3 * i + 2]
        for j in range(i + 1, n):
            dx = x[3 * j] - xi
            dy = x[3 * j + 1] - yi
            dz = x[3 * j + 2] - zi
            r2 = dx * dx + dy * dy + dz * dz
            r3 = r2 * sqrt(r2)
            fi = m[j] / r3
            fj = m[i] / r3
            a[3 * i] += fi * dx
            a[3 * i + 1] += fi * dy
            a[3 * i + 2] += fi * dz
            a[3 * j] -= fj * dx
            a[3 * j + 1] -= fj * dy
            a[3 * j + 2] -= fj * dz
    return a


def deriv(m, y):
    k = len(y) // 2
    return y[k:] + accelerations(m, y[:k])


def midpoint(m, y, big_h, nsub):
    h = big_h / nsub
    z0 = y
    f = deriv(m, z0)
    z1 = [a + h * b for a, b in zip(z0, f)]
    for _ in range(nsub - 1):
        f = deriv(m, z1)
        z0, z1 = z1, [a + 2.0 * h * b for a, b in zip(z0, f)]
    f = deriv(m, z1)
    return [0.5 * (a + b + h * c) for a, b, c in zip(z1, z0, f)]


def pair_error(m, y, z):
    """Largest difference of two estimates in what the motion depends on: each pair's
    separation against its length, its relative velocity against the larger of itself and
    the circular speed at that separation (close pairs keep their relative precision)."""
    n = len(m)
    err = 0.0
    for i in range(n):
        for j in range(i + 1, n):
            r = [float(y[3 * j + c] - y[3 * i + c]) for c in range(3)]
            dr = [float(y[3 * j + c] - y[3 * i + c] - (z[3 * j + c] - z[3 * i + c]))
                  for c in range(3)]
            o = 3 * n
            w = [float(y[o + 3 * j + c] - y[o + 3 * i + c]) for c in range(3)]
            dw = [float(y[o + 3 * j + c] - y[o + 3 * i + c] - (z[o + 3 * j + c] - z[o + 3 * i + c]))
                  for c in range(3)]
            rl = math.sqrt(sum(c * c for c in r))
            wl = max(math.sqrt(sum(c * c for c in w)), math.sqrt(float(m[i] + m[j]) / rl))
            err = max(err, math.sqrt(sum(c * c for c in dr)) / rl,
                      math.sqrt(sum(c * c for c in dw)) / wl)
    return err


def bs_step(m, y, big_h, tol):
    """One extrapolated step; returns (new state, row) or (None, -1) without convergence."""
    prev = None
    for k, nk in enumerate(SEQ):
        row = [midpoint(m, y, big_h, nk)]
        for j in range(1, k + 1):
            r = (nk / SEQ[k - j]) ** 2 - 1.0
            row.append([a + (a - b) / r for a, b in zip(row[j - 1], prev[j - 1])])
        if k >= 2 and pair_error(m, row[k], row[k - 1]) <= tol:
            return row[k], k
        prev = row
    return None, -1


def energy(m, y):
    n = len(m)
    x, v = y[:3 * n], y[3 * n:]
    e = 0.0
    for i in range(n):
        e += 0.5 * m[i] * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2)
        for j in range(i + 1, n):
            d = sqrt(sum((x[3 * j + c] - x[3 * i + c]) ** 2 for c in range(3)))
            e -= m[i] * m[j] / d
    return e


def integrate(m, y, t_end, tol, sample_dt, on_sample):
    """Advances y (positions then velocities) from t = 0 to t_end, landing on every multiple
    of sample_dt and calling on_sample(t, y) there."""
    y = [LD(c) for c in y]
    m = [LD(c) for c in m]
    t, h = LD(0), LD(1e-3)
    k_next = 1
    while k_next * sample_dt <= t_end + 1e-12:
        t_out = LD(k_next) * LD(sample_dt)
        while t < t_out:
            step = min(h, t_out - t)
            new, row = bs_step(m, y, step, tol)
            if new is None:
                h = 0.5 * step
                continue
            y, t = new, (t_out if step == t_out - t else t + step)
            if step == h or row > 5:
                h = step * (1.5 if row < 5 else 0.7 if row > 6 else 1.0)
        on_sample(t_out, y)
        k_next += 1
    return y
