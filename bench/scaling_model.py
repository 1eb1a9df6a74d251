#!/usr/bin/env python3
# The step-time model of docs/scaling.md: efficiency of K GPUs from measured pair and exchange constants, and where it falls below 90%.
# SPDX-License-Identifier: MIT
#
# Usage: bench/scaling_model.py [scaling.csv]
#   With the CSV of bench/mpi_scaling.sh, the constants come from its runs (1 and 2 GPUs);
#   without it, from the assumed values below (marked so in the output).
# Prints the model's constants and, for K = 8 ... 256 over NVLink and over 200 Gb/s
# InfiniBand, the efficiency at N = 1M, 4M, 8M and the smallest N with efficiency >= 90%.
import csv
import sys

# Assumed until measured (docs/scaling.md says where each comes from).
ASSUMED = {
    "tau_lf": 1 / 2.09e12,   # s per softened float pair, one GPU (H100 at 2^20, BENCHMARKS.md)
    "tau_h4": 1 / 0.3e12,    # s per Hermite 4 pair in double (a guess: FP64 ~1/15 of FP32 work)
    "B_host": 25e9,          # B/s host staging, each way (pageable PCIe 5 copies)
    "alpha_nvlink": 3e-6,    # s per message step, shared memory / NVLink (MPI latency)
    "B_nvlink": 150e9,       # B/s per GPU through the MPI library inside one host
    "alpha_ib": 2e-6,        # s per message step, InfiniBand
    "B_ib": 25e9,            # B/s per GPU, 200 Gb/s InfiniBand (one HCA per GPU)
    "nact_frac": 0.01,       # mean active fraction <n>/N of a Hermite block step
}
POS_BYTES = 16               # float4 per body, leapfrog
REC_BYTES = 168              # struct gc_hermite_record per active body, Hermite


def measured(path):
    """Constants from bench/mpi_scaling.sh's CSV: tau from the 1-GPU force times, the
    exchange per byte and per message from the 2-GPU runs."""
    rows = [r for r in csv.DictReader(open(path)) if r.get("exit") == "0"]
    got = {}
    for r in rows:
        n, k = float(r["n"]), int(r["gpus"])
        f, x = float(r["force_ms"]) * 1e-3, float(r["exchange_ms"]) * 1e-3
        if r["integrator"] == "leapfrog" and k == 1 and n >= 1e6:
            got.setdefault("tau_lf", []).append(f / (n * n))
        if r["integrator"] == "leapfrog" and k == 2 and n >= 1e6:
            # Per step each rank stages 16 N bytes through the host and sends half of them.
            got.setdefault("beta_lf", []).append(x / (POS_BYTES * n))
        if r["integrator"] == "hermite4" and k == 1 and r.get("active"):
            # Force time per block over (active x N) pairs; the mean active fraction.
            got.setdefault("tau_h4", []).append(f / (float(r["active"]) * n))
            got.setdefault("nact_frac", []).append(float(r["active"]) / n)
    return {key: min(v) for key, v in got.items()}


def efficiency(tau, n_pairs_per_gpu_one, t_comm, k):
    """E = t(1 GPU) / (K t(K GPUs)) with t(K) = t_force / K + t_comm."""
    t1 = tau * n_pairs_per_gpu_one
    return t1 / (k * (t1 / k + t_comm))


def lf_comm(n, k, alpha, b_net, b_host):
    # Ring allgatherv: K-1 messages of N/K bodies; staging: own part out, the rest in.
    return (k - 1) * alpha + POS_BYTES * n * (k - 1) / k / b_net + POS_BYTES * n / b_host


def h4_comm(nact, k, alpha, b_net, b_host):
    # Per block: the due-agreement (allreduce) and the heads (small allgather), log2 K
    # message steps each, and the records of the active bodies (ring: K-1 steps), staged
    # through the host.
    steps = 2 * max(1, (k - 1).bit_length()) + (k - 1)
    return steps * alpha + REC_BYTES * nact * ((k - 1) / k / b_net + 1 / b_host)


def n90(tau, comm, k, scheme):
    """Smallest N (power of 2) with efficiency >= 0.9 on K GPUs."""
    n = 1 << 14
    while n < 1 << 34:
        if scheme == "lf":
            e = efficiency(tau, n * n, comm(n, k), k)
        else:
            nact = max(1.0, C["nact_frac"] * n)
            e = efficiency(tau, nact * n, comm(nact, k), k)
        if e >= 0.9:
            return n
        n <<= 1
    return None


C = dict(ASSUMED)
src = "assumed"
if len(sys.argv) > 1:
    m = measured(sys.argv[1])
    if "tau_lf" in m:
        C["tau_lf"] = m["tau_lf"]
        src = "measured (" + sys.argv[1] + ")"
    if "beta_lf" in m:
        # Inside one host the measured exchange is staging plus the MPI copy: charge it all
        # to the host link, which the K-GPU model pays once per step.
        C["B_host"] = 1 / m["beta_lf"]
    for key in ("tau_h4", "nact_frac"):
        if key in m:
            C[key] = m[key]
print("constants (%s): %s" % (src, ", ".join("%s=%.3g" % kv for kv in C.items())))
print()
print("| link | K | E(lf, 1M) | E(lf, 4M) | E(lf, 8M) | N for E>=90% (lf) | E(h4, 8M) | N for E>=90% (h4) |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
# Host staging as now, and without it (a CUDA-aware MPI reading device memory: B_host -> inf).
links = (("NVLink, staged", C["alpha_nvlink"], C["B_nvlink"], C["B_host"]),
         ("IB 200 Gb/s, staged", C["alpha_ib"], C["B_ib"], C["B_host"]),
         ("NVLink, device-direct", C["alpha_nvlink"], C["B_nvlink"], float("inf")),
         ("IB 200 Gb/s, device-direct", C["alpha_ib"], C["B_ib"], float("inf")))
for link, a, b, bh in links:
    for k in (8, 16, 32, 64, 128, 256):
        lf = lambda n, kk: lf_comm(n, kk, a, b, bh)  # noqa: E731
        h4 = lambda na, kk: h4_comm(na, kk, a, b, bh)  # noqa: E731
        e = [efficiency(C["tau_lf"], n * n, lf(n, k), k) for n in (1 << 20, 1 << 22, 1 << 23)]
        na = C["nact_frac"] * (1 << 23)
        eh = efficiency(C["tau_h4"], na * (1 << 23), h4(na, k), k)
        nl, nh = n90(C["tau_lf"], lf, k, "lf"), n90(C["tau_h4"], h4, k, "h4")
        print("| %s | %d | %.3f | %.3f | %.3f | %s | %.3f | %s |" % (
            link, k, e[0], e[1], e[2], "{:,}".format(nl) if nl else "-", eh,
            "{:,}".format(nh) if nh else "-"))
