#!/usr/bin/env bash
# Scaling of galaxy over MPI on one host's GPUs (the nvidia-h200-x2 machine): strong and weak scaling, leapfrog and Hermite 4, with the time per step split into force, exchange and the rest.
# SPDX-License-Identifier: MIT
#
# Prepare on the dev host (once; see bench/mpi_prepare.sh): bash bench/mpi_prepare.sh
# Run on the device, repository root, with carry [".devmpi"]:
#   OUT=... bash bench/mpi_scaling.sh
# Knobs (environment): GPUS (default 2), CASES (default "preflight lf weak h4"), LF_STEPS_1M,
# LF_STEPS_4M, WEAK_STEPS, H4_T_262K, H4_T_1M (simulated intervals of the Hermite runs),
# CASE_TIMEOUT (seconds per run, default 150); for a dry run of the script on a host without
# GPUs: BACKEND=cpu SCALE=1024 (every N divided by SCALE). Everything lands in $OUT: scaling.log (all
# output), scaling.csv (one row per run), and the summary table at the end of the log.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/scaling.log") 2>&1
GPUS=${GPUS:-2}
CASES=${CASES:-preflight lf weak h4}
LF_STEPS_1M=${LF_STEPS_1M:-10}
LF_STEPS_4M=${LF_STEPS_4M:-3}
WEAK_STEPS=${WEAK_STEPS:-4}
H4_T_262K=${H4_T_262K:-0.015625}
H4_T_1M=${H4_T_1M:-0.00390625}
CASE_TIMEOUT=${CASE_TIMEOUT:-150}
BACKEND=${BACKEND:-cuda}
SCALE=${SCALE:-1}
n() { echo $(($1 / SCALE)); }
CSV=$OUT/scaling.csv
want() { [[ " $CASES " == *" $1 "* ]]; }
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }

if [ ! -f "$ROOT/.devmpi/env.sh" ]; then
    echo "no .devmpi/: run bench/mpi_prepare.sh on the dev host and carry .devmpi"
    exit 1
fi
# shellcheck disable=SC1091
. "$ROOT/.devmpi/env.sh"
# Keep NVLink multicast off in anything that might use NCCL (galaxy does not); see KINDS.md.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
# One process per GPU, left free to run on any core (Open MPI binds to a core by default).
MPIRUN=(mpirun --bind-to none --oversubscribe)

step "environment"
date -u
nvidia-smi --query-gpu=index,name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
nvidia-smi topo -m
nvidia-smi nvlink -s 2>/dev/null | head -20
galaxy --version
mpirun --version | head -1
echo "cases: $CASES; GPUs: $GPUS"
echo "case,integrator,n,gpus,steps,ms_step,force_ms,exchange_ms,rest_ms,interactions_per_s,e0,exit,active" >"$CSV"

# run NAME K ARGS...: galaxy on K GPUs (K = 1: a plain process, as a one-GPU user runs it);
# parses the --steps summary and the --profile split into a CSV row.
run() {
    local name=$1 k=$2 log rc
    shift 2
    log=$OUT/$name.k$k.txt
    echo "--- $name on $k GPU(s): galaxy $*"
    if [ "$k" -eq 1 ]; then
        timeout "$CASE_TIMEOUT" galaxy --backend "$BACKEND" --profile "$@" >"$log" 2>&1
    else
        timeout "$CASE_TIMEOUT" "${MPIRUN[@]}" -np "$k" galaxy --backend "$BACKEND" --profile "$@" >"$log" 2>&1
    fi
    rc=$?
    grep -E '^galaxy: (mpi|backend|error)|^# [0-9]+ bodies|^# [0-9]+ (block )?steps in|^# profile' "$log"
    [ $rc -eq 124 ] && echo "TIMEOUT after ${CASE_TIMEOUT}s"
    [ $rc -ne 0 ] && tail -5 "$log"
    awk -v name="$name" -v k="$k" -v rc="$rc" '
        /^# [0-9]+ bodies/ { n = $2 + 0; integ = ($0 ~ /hermite4/) ? "hermite4" : ($0 ~ /hermite6/ ? "hermite6" : "leapfrog") }
        /^ +0 +0\.0/ && e0 == "" { e0 = $3 }
        /^# profile:/ { for (i = 1; i <= NF && $i != "(rank"; i++) { if ($i == "steps") s = $(i + 1) + 0
                        if ($i == "active") a = $(i + 1) + 0
                        if ($i == "force") f = $(i + 1); if ($i == "exchange") x = $(i + 1)
                        if ($i == "rest") r = $(i + 1); if ($i == "total") t = $(i + 1) } }
        /^# [0-9]+ (block )?steps in/ { for (i = 1; i <= NF; i++) if ($i == "interactions/s") ips = $(i - 1) }
        END { printf "%s,%s,%d,%d,%d,%s,%s,%s,%s,%s,%s,%d,%s\n", name, integ, n, k, s, t, f, x, r, ips, e0, rc, a }' \
        "$log" >>"$CSV"
    return $rc
}

if want preflight; then
    step "preflight: 2 ranks, small N (exchange path, one GPU per rank)"
    if ! run preflight "$GPUS" --model plummer --integrator leapfrog --eps 0.01 -n "$(n 65536)" --steps 5; then
        # Shared-memory transport without cross-memory attach (some VMs refuse process_vm_readv).
        export OMPI_MCA_btl_vader_single_copy_mechanism=none
        echo "retrying with OMPI_MCA_btl_vader_single_copy_mechanism=none"
        run preflight2 "$GPUS" --model plummer --integrator leapfrog --eps 0.01 -n "$(n 65536)" --steps 5 ||
            echo "PREFLIGHT FAILED: the runs below will fail the same way"
    fi
fi

if want lf; then
    step "strong scaling, leapfrog (galaxy pair, eps 0.025, dt 0.01)"
    for k in 1 "$GPUS"; do run lf1m "$k" -n "$(n 1048576)" --steps "$LF_STEPS_1M"; done
    for k in 1 "$GPUS"; do run lf4m "$k" -n "$(n 4194304)" --steps "$LF_STEPS_4M"; done
fi
if want weak; then
    step "weak scaling, leapfrog, 2,097,152 bodies per GPU"
    run weak 1 -n "$(n 2097152)" --steps "$WEAK_STEPS"
    if [ "$GPUS" -gt 1 ]; then
        if grep -q "^lf4m,.*,$GPUS,.*,0$" "$CSV" && [ "$GPUS" -eq 2 ]; then
            echo "(4,194,304 on 2 GPUs: the strong-scaling run above)"
        else
            run weak "$GPUS" -n "$(n $((2097152 * GPUS)))" --steps "$WEAK_STEPS"
        fi
    fi
fi
if want h4; then
    step "strong scaling, Hermite 4 with block steps (Plummer, eps 1/256, eta 0.02)"
    for k in 1 "$GPUS"; do run h4_262k "$k" --model plummer -n "$(n 262144)" --t-end "$H4_T_262K"; done
    for k in 1 "$GPUS"; do run h4_1m "$k" --model plummer -n "$(n 1048576)" --t-end "$H4_T_1M"; done
fi

step "summary (ms per step or block step on rank 0; efficiency = t(1 GPU) / (K t(K GPUs)))"
cat "$CSV"
awk -F, 'NR > 1 { t[$1 "," $4] = $6; row[NR] = $0 }
         END {
           printf "%-10s %-9s %9s %4s %6s %11s %10s %10s %10s %7s %s\n", "case", "scheme", "N", "GPUs",
                  "steps", "ms/step", "force", "exchange", "rest", "effic.", "energy(t=0)"
           for (i = 2; i <= NR; i++) { if (!(i in row)) continue; split(row[i], c, ",")
             eff = ""
             if (c[4] > 1 && c[1] != "weak" && t[c[1] ",1"] > 0 && c[6] > 0) eff = sprintf("%.3f", t[c[1] ",1"] / (c[4] * c[6]))
             printf "%-10s %-9s %9d %4d %6d %11s %10s %10s %10s %7s %s%s\n", c[1], c[2], c[3], c[4], c[5],
                    c[6], c[7], c[8], c[9], eff, c[11], c[12] != 0 ? "  (exit " c[12] ")" : "" } }' "$CSV"
# Weak scaling: the same bodies per GPU, so the ideal step time doubles with N (all pairs):
# efficiency = (N_K^2 / (K t_K)) / (N_1^2 / t_1), interactions per second per GPU.
awk -F, '($1 == "weak" || ($1 == "lf4m" && $4 == 2)) && $6 > 0 && $12 == 0 { r[$4] = ($3 * $3) / ($4 * $6) }
         END { for (k in r) if (k > 1 && r[1] > 0) printf "weak scaling efficiency on %d GPUs: %.3f\n", k, r[k] / r[1] }' "$CSV"
# Energies at t = 0 must agree between 1 and K GPUs (each rank sums its own bodies'
# potential; a backend that ignored its range would double it).
awk -F, 'NR > 1 && $11 != "" { if ($4 == 1) e[$1] = $11; else o[$1] = $11 }
         END { for (c in o) if (c in e) { d = (o[c] - e[c]) / (e[c] < 0 ? -e[c] : e[c]); if (d < 0) d = -d
               printf "%s: energy at t = 0 on 1 vs K GPUs: %s vs %s (relative %.1e) %s\n", c, e[c], o[c], d, d < 1e-5 ? "ok" : "MISMATCH" } }' "$CSV"
