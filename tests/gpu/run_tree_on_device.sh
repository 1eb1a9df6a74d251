#!/usr/bin/env bash
# The tree and the design step on the GPU machine in one go: CUDA tests, the tree's sweep over N and theta, accuracy, all pairs unchanged, energy and density maps against all pairs.
# SPDX-License-Identifier: MIT
#
# Usage (repository root on the device machine), with carry [".devviewer"] made by
#     TESTS=1 FFMPEG=off BEFORE_REF= tests/gpu/make_viewer_devbuild.sh
# on the dev host:  PARTS="tests bench energy" bash tests/gpu/run_tree_on_device.sh
# Parts: hprofile (ncu over the Hermite force pass, mixed and double, pipe utilisation),
# tests (test_tree, test_backend_cuda, test_bench_cuda, test_hermite on the GPU),
# memcheck (compute-sanitizer over small tree runs), profile (ncu over one walk at 2^20),
# bench (galaxy-bench --force tree --sweep and --theta-sweep, --compare with the tree, all
# pairs at 81,920 and 2^20 against BENCHMARKS.md), hermite (bench/hermite_device.sh's
# HSTAGES with this bundle's binaries, into $OUT/hermite/), energy (tools/tree_vs_allpairs at
# 262,144 to 1 Gyr; the tree alone at 2^20 to 1 Gyr), groups (hermite4 with regularised
# groups, Plummer with primordial binaries against the plain sphere, N in GN), dists (the tree
# on every benchmark distribution at 2^20, 2^22 and 2^24 bodies, and the error and time
# against theta on the pair and the wide Plummer sphere at 2^20: BENCHMARKS.md's tables of
# the tree on other distributions), dtheta (the same against theta for the Hernquist sphere
# and the collapse), curve (the pair at 2^20 to 1.5 Gyr: the step time in
# windows of 50 Myr against the first). Writes $OUT/tree-device.log,
# $OUT/results.txt, $OUT/tree_sweep.json, $OUT/maps.tar.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/tree-device.log") 2>&1
PARTS=${PARTS:-tests bench energy}
want() { [[ " $PARTS " == *" $1 "* ]]; }
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
fail=0
check() { # name rc
    if [ "$2" -eq 0 ]; then echo "PASS $1"; else echo "FAIL $1 (exit $2)"; fail=1; fi
}
result() { echo "$*" | tee -a "$OUT/results.txt"; }
T=/tmp/gct
mkdir -p "$T/maps"
: >"$OUT/results.txt"

step "environment and carried files"
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
xz -dc "$ROOT/.devviewer/viewer.tar.xz" | tar -x -C "$T" || { echo "FAIL no .devviewer"; exit 1; }
echo "built from $(cat "$ROOT/.devviewer/built-from" 2>/dev/null)"
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=$T/viewer/bin
DUB=$ROOT/.devviewer/dubinski.tab.gz
[ -f "$DUB" ] || DUB=$ROOT/../shared/data/dubinski.tab.gz
export GC_SHARED_DATA=$(dirname "$DUB")
"$B/galaxy-bench" --version

if want hermite; then
step "Hermite: the mixed and double force passes, block steps, Table 2 (bench/hermite_device.sh)"
BIN=$B LIB=$T/viewer/lib OUT=$OUT/hermite DEADLINE=${HDEADLINE:-560} \
    bash "$ROOT/bench/hermite_device.sh" ${HSTAGES:-tests blocks blocksbig blocks1m h4}
fi

if want tests; then
step "CUDA tests (a GPU is present: skipped = failed here)"
for t in "test_tree cuda" "test_backend_cuda" "test_backend_cuda dubinski" "test_bench_cuda" \
    "test_hermite cuda double" "test_hermite cuda mixed" "test_keyframes cuda"; do
    name=$(echo "$t" | tr ' ' _)
    # shellcheck disable=SC2086
    timeout -s KILL 240 "$B"/$t >"$T/$name.log" 2>&1
    rc=$?
    check "$name" $rc
    grep -E "GPU vs CPU|N  *[0-9]+ theta|forces|potential|largest|CHECK|failed|block steps|continued" \
        "$T/$name.log" | head -n 30
done
fi

if want bench; then
step "the tree against N (one step = sort + build + moments + walk + leapfrog), all pairs beside it up to 2^20"
timeout -s KILL 420 "$B/galaxy-bench" --backend cuda --benchmark --force tree --sweep --repeats 5 \
    --json >"$OUT/tree_sweep.json" 2>"$T/tree_sweep.err"
check tree-sweep $?
tail -n 3 "$T/tree_sweep.err"
python3 - "$OUT/tree_sweep.json" <<'PY' | tee -a "$OUT/results.txt"
import json, sys
d = json.load(open(sys.argv[1]))
print("device:", d["device"])
print("%9s %6s %8s %7s %7s %8s %7s %6s %5s %6s %6s %6s %6s %6s %8s %6s %9s %9s %9s %9s %7s" % ("N", "theta",
      "ms/step", "sort", "build", "moments", "walk", "cells", "grp", "int c", "int b", "int m", "loc", "int/us",
      "GFLOP/s", "B/body", "median", "99th", "max", "allpairs", "speedup"))
for r in d["results"]:
    ints = r["n"] * (r["cell_interactions"] + r["body_interactions"] + r.get("mono_interactions", 0)) / (r["ms_walk"] * 1e3)
    print("%9d %6.2f %8.3f %7.3f %7.3f %8.3f %7.3f %6.3f %5.1f %6.0f %6.0f %6.0f %6.0f %6.0f %8.0f %6.0f %9.2e %9.2e %9.2e %9.3f %7.1f%s" % (
        r["n"], r["theta"], r["ms_per_step"], r["ms_sort"], r["ms_build"], r["ms_moments"],
        r["ms_walk"], r["cells_per_body"], r["bodies_per_group"], r["cell_interactions"],
        r["body_interactions"], r.get("mono_interactions", 0), r.get("local_cells", 0), ints / 1e3, r["walk_gflops"], r["bytes_per_body"], r["error_median"],
        r["error_p99"], r["error_max"], r["ms_allpairs"],
        r["ms_allpairs"] / r["ms_per_step"] if r["ms_allpairs"] else 0,
        "" if r["complete"] else "  incomplete"))
PY
step "error and time against theta: built-in pair at 2^20, the Dubinski table (81,920 with halos)"
timeout -s KILL 240 "$B/galaxy-bench" --backend cuda --benchmark --force tree --theta-sweep \
    -n 1048576 --repeats 5 2>"$T/theta_model.err" | tee -a "$OUT/results.txt"
check theta-sweep-model "${PIPESTATUS[0]}"
timeout -s KILL 120 "$B/galaxy-bench" --backend cuda --benchmark --force tree --theta-sweep \
    --data "$DUB" --repeats 5 2>"$T/theta_dub.err" | tee -a "$OUT/results.txt"
check theta-sweep-dubinski "${PIPESTATUS[0]}"
step "--compare with the tree (Dubinski table): each backend against float64, GPU tree against CPU tree"
timeout -s KILL 240 "$B/galaxy-bench" --compare --force tree --data "$DUB" --steps 5 \
    --threads 16 | tee -a "$OUT/results.txt"
check compare-tree "${PIPESTATUS[0]}"
step "all pairs after the design step (against BENCHMARKS.md's all-pairs table)"
for a in "--data $DUB" "-n 1048576"; do
    # shellcheck disable=SC2086
    timeout -s KILL 240 "$B/galaxy-bench" --backend cuda --benchmark $a --repeats 5 \
        2>/dev/null | tee -a "$OUT/results.txt"
    check "allpairs-bench" "${PIPESTATUS[0]}"
done
fi

if want energy; then
step "energy and density maps: tree against all pairs, 262,144 bodies, 0 to 1 Gyr (maps at 300 and 600 Myr)"
timeout -s KILL 420 "$B/tree_vs_allpairs" 262144 55.6 "$T/maps" 16.67,33.33 cuda \
    | tee -a "$OUT/results.txt"
check tree-vs-allpairs "${PIPESTATUS[0]}"
step "the tree alone at 2^20 bodies, 0 to 1 Gyr (5,560 steps; the tree's potential)"
timeout -s KILL 240 "$B/galaxy-bench" --backend cuda --force tree -n 1048576 --steps 5560 \
    --report-every 556 | tee -a "$OUT/results.txt"
check tree-1m-1gyr "${PIPESTATUS[0]}"
tar -C "$T" -cf "$OUT/maps.tar" maps
fi

if want dists; then
step "the tree on each distribution at 2^20, 2^22 and 2^24 (the merger and the collapse run at 2^20 first)"
timeout -s KILL 300 "$B/galaxy-bench" --backend cuda --benchmark --force tree --distributions all \
    --sweep --repeats 5 2>"$T/dists.err" | tee -a "$OUT/results.txt"
check tree-distributions "${PIPESTATUS[0]}"
grep -E "run to|error" "$T/dists.err" | tee -a "$OUT/results.txt"
step "error and time against theta: the pair and the wide Plummer sphere at 2^20"
timeout -s KILL 120 "$B/galaxy-bench" --backend cuda --benchmark --force tree \
    --distributions mw-m31,plummer-wide --theta-sweep -n 1048576 --repeats 5 \
    2>"$T/dists_theta.err" | tee -a "$OUT/results.txt"
check tree-distributions-theta "${PIPESTATUS[0]}"
fi

if want dtheta; then
step "error and time against theta: the Hernquist sphere and the collapse at 2^20 (where their 99th percentile meets the bounds)"
timeout -s KILL 200 "$B/galaxy-bench" --backend cuda --benchmark --force tree \
    --distributions hernquist,collapse --theta-sweep -n 1048576 --repeats 5 \
    2>"$T/dists_dtheta.err" | tee -a "$OUT/results.txt"
check tree-distributions-dtheta "${PIPESTATUS[0]}"
fi

if want curve; then
step "the pair at 2^20 to 1.5 Gyr: ms a step in windows of 50 Myr against the first (tree rebuilt every step)"
timeout -s KILL 150 "$B/galaxy-bench" --backend cuda --benchmark --force tree -n 1048576 \
    --t-end 83.4 --report-every 2.78 2>"$T/curve.err" | tee -a "$OUT/results.txt"
check tree-curve "${PIPESTATUS[0]}"
fi

if want memcheck; then
step "compute-sanitizer memcheck: the tree's kernels on small runs"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)
for a in "-n 20000" "-n 3000 --model plummer --integrator leapfrog --eps 0.01" "--data $DUB -n 30000"; do
    # shellcheck disable=SC2086
    timeout -s KILL 200 "$CS" --tool memcheck --leak-check no --error-exitcode 9 \
        "$B/galaxy-bench" --backend cuda --force tree $a --steps 3 --quiet >"$T/memcheck.log" 2>&1
    rc=$?
    check "memcheck-tree ($a)" $rc
    grep -E "ERROR SUMMARY|Invalid|out of bounds" "$T/memcheck.log" | head -n 5
done
fi

if want hprofile; then
step "Nsight Compute: the Hermite force pass, mixed and double (262,144 bodies; the longest of 300 passes)"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
M=gpu__time_duration.sum,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active
M=$M,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active
M=$M,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active
M=$M,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed
M=$M,smsp__average_warp_latency_issue_stalled_math_pipe_throttle,smsp__average_warp_latency_issue_stalled_short_scoreboard
M=$M,smsp__average_warp_latency_issue_stalled_wait,smsp__average_warp_latency_issue_stalled_mio_throttle
for p in mixed double; do
    # hermite_blocks' host-driven loop: kernels launched one by one (a graph with a
    # conditional node cannot be profiled kernel by kernel).
    timeout -s KILL 240 "$NCU" --clock-control none --kernel-name-base demangled \
        -k "regex:h_force<.int.4" --launch-count 300 --metrics "$M" --csv \
        "$B/hermite_blocks" 262144 4 0.03125 cuda "$p" >"$T/ncu-h-$p.csv" 2>"$T/ncu-h-$p.err"
    check "ncu-hforce-$p" $?
    cp "$T/ncu-h-$p.csv" "$OUT/hforce-$p.csv"
    python3 - "$T/ncu-h-$p.csv" "$p" <<'PY' | tee -a "$OUT/results.txt"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if not rows:
    sys.exit("ncu: no rows")
h = rows[0]
ii, ni, vi, ui = h.index("ID"), h.index("Metric Name"), h.index("Metric Value"), h.index("Metric Unit")
by = {}
for r in rows[1:]:
    by.setdefault(r[ii], {})[r[ni]] = (r[vi].replace(",", ""), r[ui])
def dur(m):
    v, u = m["gpu__time_duration.sum"]
    return float(v) * {"ns": 1e-3, "nsecond": 1e-3, "ms": 1e3, "msecond": 1e3}.get(u, 1.0)
big = max(by.values(), key=dur)
print("hermite4 %s force pass, the longest of %d: %.1f us" % (sys.argv[2], len(by), dur(big)))
for k, (v, u) in sorted(big.items()):
    print("  %-70s %s %s" % (k, v, u))
PY
done
# The block step's kernels one at a time, at small m: where a small block step's time goes.
timeout -s KILL 200 "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
    --launch-skip 400 --launch-count 800 \
    "$B/hermite_blocks" 65536 4 0.03125 cuda mixed >"$T/ncu-blocks.csv" 2>"$T/ncu-blocks.err"
check ncu-hermite-blocks $?
cp "$T/ncu-blocks.csv" "$OUT/hermite-block-kernels.csv"
python3 "$ROOT/tests/gpu/ncu_kernel_times.py" "$T/ncu-blocks.csv" "block-step kernel" | tee -a "$OUT/results.txt"
fi

if want groups; then
step "regularised groups with the CUDA Hermite backend: Plummer with 10% primordial binaries against the plain sphere"
for n in ${GN:-16384 65536}; do
    for t in ${GT:-0.001}; do
        for m in plummer plummer-binaries; do
            timeout -s KILL 200 "$B/galaxy-bench" --model $m -n "$n" --backend cuda --t-end "$t" \
                --report-every "$t" >"$T/groups-$m-$n-$t.log" 2>&1
            check "groups-$m-$n-t$t" $?
            grep -E "block steps in|groups|^ +[0-9]+ +[0-9.]+ " "$T/groups-$m-$n-$t.log" |
                tail -n 3 | sed "s/^/$m $n: /" | tee -a "$OUT/results.txt"
        done
    done
done
fi

if want profile; then
step "Nsight Compute: the walk at 2^20 bodies (how busy the multiprocessors are, issue rate, occupancy)"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
# the acceleration walk (t_walk<false>), not the potential's, of the third pass
timeout -s KILL 200 "$NCU" --clock-control none --kernel-name-base mangled \
    -k regex:_Z6t_walkILb0E --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section SchedulerStats \
    --section WarpStateStats --section InstructionStats -o "$OUT/walk" \
    "$B/galaxy-bench" --backend cuda --force tree -n 1048576 --steps 4 --quiet >"$T/ncu.log" 2>&1
check ncu-walk $?
"$NCU" -i "$OUT/walk.ncu-rep" --page details >"$OUT/walk-details.txt" 2>&1
grep -E "Duration|Elapsed Cycles|SM Active Cycles|Issued Warp Per Scheduler|Achieved Occupancy|Registers Per|Theoretical Occ|Executed Instructions  " \
    "$OUT/walk-details.txt" | tee -a "$OUT/results.txt"
step "Nsight Compute: every kernel of one tree step at 2^20 bodies (time each; the build's phases)"
timeout -s KILL 200 "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
    --launch-skip 400 --launch-count 90 "$B/galaxy-bench" --backend cuda --force tree \
    -n 1048576 --steps 12 --quiet >"$T/kernels.csv" 2>"$T/kernels.err"
check ncu-kernels $?
python3 - "$T/kernels.csv" <<'PY' | tee -a "$OUT/results.txt"
import csv, sys, collections
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
head, rows = rows[0], rows[1:]
ki, vi = head.index("Kernel Name"), head.index("Metric Value")
tot = collections.OrderedDict()
for r in rows:
    name = r[ki].split("(")[0].split("<")[0].split(" ")[-1]
    cnt, t = tot.get(name, (0, 0.0))
    tot[name] = (cnt + 1, t + float(r[vi].replace(",", "")))
unit = rows[0][head.index("Metric Unit")] if rows else ""
for name, (cnt, t) in tot.items():
    print("kernel %-40s launches %3d  total %10.1f %s" % (name[:40], cnt, t, unit))
PY
fi

step "summary"
cat "$OUT/results.txt" | tail -n 80
grep -E "^(PASS|FAIL)" "$OUT/tree-device.log"
[ "$fail" -eq 0 ] && echo "ALL CHECKS PASSED" || echo "SOME CHECKS FAILED"
exit "$fail"
