#!/usr/bin/env bash
# The GPU-machine verification run: build (or take the carried build), SASS count, CUDA tests, compare, benchmark sweep, plot.
# SPDX-License-Identifier: MIT
#
# Usage (repository root, on the device machine): OUT=/some/dir tests/gpu/run_on_device.sh
# With a prebuilt tree in .devbuild/ (bin/ with galaxy-bench and the test programs, data/
# with dubinski.tab.gz; see BENCHMARKS.md) it uses that; otherwise it configures and builds
# build-device/ here with -gencode=arch=compute_90,code=sm_90. Exits non-zero when any check fails.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/device.log") 2>&1
PRE=$ROOT/.devbuild
fail=0
# STEPS picks the parts to run: any of "tests sweep ncu headless variants", or "all";
# default "tests sweep ncu headless" (the variant study, ~100 s, only when asked).
STEPS=${STEPS:-tests sweep ncu headless}
want() { [[ " $STEPS " == *" all "* || " $STEPS " == *" $1 "* ]]; }
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
check() { # name rc
    if [ "$2" -eq 0 ]; then echo "PASS $1"; else echo "FAIL $1 (exit $2)"; fail=1; fi
}

step "environment"
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu,persistence_mode --format=csv
nvcc --version | tail -n 2

step "build"
if [ -x "$PRE/bin/galaxy-bench" ]; then
    BIN=$PRE/bin
    echo "using the carried build in .devbuild/bin (CMAKE_CUDA_ARCHITECTURES=90: sm_90 SASS)"
else
    cmake -S "$ROOT" -B "$ROOT/build-device" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1 &&
        cmake --build "$ROOT/build-device" -j 16 --target galaxy-bench test_backend_cuda \
            test_bench_cuda >>"$OUT/build.log" 2>&1
    check build $?
    BIN=$ROOT/build-device
    cp "$ROOT"/build-device/tests/test_*cuda "$BIN"/ 2>/dev/null
fi
DATA_DIR=$PRE/data
[ -f "$DATA_DIR/dubinski.tab.gz" ] || DATA_DIR=$ROOT/../shared/data
export GC_SHARED_DATA=$DATA_DIR
DUB=$DATA_DIR/dubinski.tab.gz

step "SASS of the force kernels' inner loops (instructions per interaction)"
cuobjdump --dump-sass "$BIN/galaxy-bench" >/tmp/sass_full.txt 2>&1
python3 "$ROOT/bench/sass_count.py" </tmp/sass_full.txt | tee "$OUT/sass_count.txt"

if want tests; then
step "CUDA tests (a GPU is present: skipped = failed here)"
for t in test_backend_cuda test_bench_cuda; do
    "$BIN/$t"
    check "$t" $?
done

step "compare: Dubinski table, 81,920 bodies, 20 steps, GPU vs CPU vs float64"
fi
if ! want tests; then :
elif [ -f "$DUB" ]; then
    "$BIN/galaxy-bench" --compare --data "$DUB" --halo --steps 20
    check compare-dubinski $?
else
    echo "dubinski.tab.gz not found: skipped"
fi

if want variants; then
step "variant study: force kernel alone per variant T,B,U,M (threads, bodies/thread, unroll, blocks/SM cap)"
for n in 81920 1048576; do
    for v in ${VARIANTS:-256,4,16,2 128,4,16,4 128,4,16,5 128,4,16,6 64,4,16,8 128,4,8,4 \
        128,4,32,4 256,4,32,2 256,4,8,2 128,8,8,4 128,8,8,3 128,2,32,8 128,2,16,8 128,1,32,8 \
        128,4,16,4,16 128,4,16,4,8 256,4,16,2,16 256,4,16,2,8}; do
        GC_CUDA_ACCEL=$v GC_BENCH_NO_REFERENCE=1 "$BIN/galaxy-bench" --backend cuda --benchmark \
            -n $n --repeats 3 --quiet | awk -v v="$v" '!/^#/ {printf "variant %-11s N=%8d  ms/kernel %9.4f  kernel int/s %.4e  %s %s %s %s %s %s %s\n", v, $1, $6, $7, $11, $12, $13, $14, $15, $16, $17}'
    done
done | tee "$OUT/variants.txt"
if [ -n "${VARIANT_COMPARE:-}" ] && [ -f "$DUB" ]; then
    for v in $VARIANT_COMPARE; do
        echo "accuracy of variant $v on the Dubinski table (1 step):"
        GC_CUDA_ACCEL=$v "$BIN/galaxy-bench" --compare --data "$DUB" --halo --steps 1 | grep -E "accel|PASS"
    done | tee -a "$OUT/variants.txt"
fi
fi

if want sweep; then
step "benchmark sweep (median of 5 repeats after warm-up; sm clock sampled every 200 ms)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv -lms 200 >"$OUT/clocks.csv" 2>&1 &
SMI=$!
"$BIN/galaxy-bench" --backend cuda --benchmark --sweep --repeats 5 --json >"$OUT/sweep.json"
check sweep $?
kill "$SMI" 2>/dev/null
python3 - "$OUT/sweep.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("device:", d["device"])
print("%9s %6s %10s %12s %9s %10s %12s %10s %12s %7s  %s" % ("N", "steps", "ms/step", "int/s", "GFLOP/s",
      "ms/kernel", "kernel int/s", "ms/classic", "classic i/s", "ratio", "plan"))
for r in d["results"]:
    print("%9d %6d %10.4f %12.4e %9.0f %10.4f %12.4e %10.4f %12.4e %7.3f  %s" % (
        r["n"], r["steps"], r["ms_per_step"], r["interactions_per_s"], r["gflops"], r["ms_kernel"],
        r["kernel_interactions_per_s"], r["ms_reference"], r["reference_interactions_per_s"],
        r["ratio_to_reference"], r["plan"]))
PY
python3 - "$OUT/clocks.csv" <<'PY'
import sys
rows = [l.split(",") for l in open(sys.argv[1]).read().splitlines()[1:] if l.count(",") >= 4]
sm = [int(r[1].split()[0]) for r in rows if r[1].strip().split()[0].isdigit()]
if sm:
    busy = [s for s in sm if s > 1000]
    print("sm clock during the sweep: %d samples, max %d MHz, median of samples > 1 GHz %s MHz" % (
        len(sm), max(sm), sorted(busy)[len(busy) // 2] if busy else "n/a"))
PY
python3 "$ROOT/bench/plot_sweep.py" "$OUT/sweep.json" "$OUT/sweep.png" && echo "plot: sweep.png"
fi

step "Nsight Compute: the force kernel at N = 81,920 (one launch, clocks not locked)"
if want ncu && command -v ncu >/dev/null; then
    ncu --clock-control none -k regex:accel_tiled --launch-skip 5 --launch-count 1 \
        --section WarpStateStats --section SchedulerStats \
        --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active,regex:sm__pipe_.*_cycles_active\.avg\.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_barrier,gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size \
        "$BIN/galaxy-bench" --backend cuda --benchmark --data "$DUB" --halo --steps 2 --repeats 1 >"$OUT/ncu.txt" 2>&1
    echo "stall reasons (warps stalled per issued instruction, > 0.02):"
    grep -E "issue_stalled_.*per_issue_active" "$OUT/ncu.txt" | awk '$NF + 0 > 0.02 {print $NF, $1}' | sort -g -r | head -n 14
    echo "pipe utilisation (% of peak, > 1%):"
    grep -E "(inst_executed_pipe|pipe_.*_cycles_active)" "$OUT/ncu.txt" | awk '$NF + 0 > 1 {print $NF, $1}' | sort -g -r | head -n 14
    grep -E "Stall|Issue|Eligible|Active Warps|issue_active|cycles_elapsed|inst_executed|warps_active|time_duration|registers|grid_size|No Eligible|One or More" "$OUT/ncu.txt" | head -n 60
fi

step "headless frame run (PLACEHOLDER: wired up once galaxy --headless lands)"
GALAXY=${GALAXY:-$ROOT/.devbuild/bin/galaxy}
if want headless && [ -x "$GALAXY" ] && "$GALAXY" --help 2>/dev/null | grep -q -- "--headless"; then
    "$GALAXY" --headless --data "$DUB" --halo --frames 300 --screenshot "$OUT/screenshot.png"
    check headless $?
else
    echo "galaxy with --headless not available here: skipped"
fi

step "summary"
grep -E "^(PASS|FAIL)" "$OUT/device.log"
[ "$fail" -eq 0 ] && echo "ALL CHECKS PASSED" || echo "SOME CHECKS FAILED"
exit "$fail"
