#!/usr/bin/env bash
# The CPU backend's rows of BENCHMARKS.md ("The CPU backend"): all pairs from 4,096 to 65,536 bodies against the cores' FP32 FMA peak, the tree at 65,536 and 262,144 bodies (theta 0.5) with its error against theta, each loop set of this CPU beside the default; and the window without a GPU (Xvfb + Mesa): the default launch and 65,536 bodies drawn at 1280x800.
# SPDX-License-Identifier: MIT
#
# Usage: bash bench/cpu_peak.sh [BUILD]   (BUILD: the build folder, default build)
# Knobs (environment): OUT (where the raw outputs go, default a new folder under /tmp),
# REPEATS (default 5), SETS (loop sets to time beside the default, default "portable avx2
# avx512"; a set this CPU lacks is said and skipped). Run it on a quiet machine: the script
# prints the load average before and after, and a machine busy with other work gives lower
# figures (all pairs and the tree both share the cores).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-$ROOT/build}
BENCH=$BUILD/galaxy-bench
GALAXY=$BUILD/galaxy
OUT=${OUT:-$(mktemp -d /tmp/cpu_peak.XXXXXX)}
REPEATS=${REPEATS:-5}
SETS=${SETS:-portable avx2 avx512}
if [ ! -x "$BENCH" ]; then
    echo "no $BENCH: build first (cmake --build $BUILD)"
    exit 1
fi
mkdir -p "$OUT"
exec > >(tee -a "$OUT/cpu_peak.log") 2>&1

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'),"\
     "$(nproc) CPUs online, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)"
echo "# load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

run() {
    local name=$1
    shift
    echo
    echo "=== $name: galaxy-bench $*"
    "$BENCH" "$@" 2>"$OUT/$name.err" | tee "$OUT/$name.txt"
    grep -E "error|warning" "$OUT/$name.err"
}

# The loops on one core in cycles (CPU time and the measured clock: sound on a busy machine).
if [ -x "$BUILD/bench/cpu_loops" ]; then
    echo
    echo "=== one core, cycles: cpu_loops 16384 65536; cpu_loops 65536 262144"
    "$BUILD/bench/cpu_loops" 16384 65536 | tee "$OUT/cpu_loops.txt"
    "$BUILD/bench/cpu_loops" 65536 262144 | grep tree | tee -a "$OUT/cpu_loops.txt"
    "$BUILD/bench/cpu_loops" crossover | tee -a "$OUT/cpu_loops.txt"
fi

# Row 1: all pairs, the default loops, then each set by name.
for n in 4096 16384 65536; do
    run "allpairs_$n" --backend cpu --benchmark -n "$n" --repeats "$REPEATS"
done
for set in $SETS; do
    GC_CPU_ISA=$set "$BENCH" --backend cpu --benchmark -n 16384 --repeats 1 --steps 1 \
        >/dev/null 2>&1 || { echo; echo "=== $set: not on this CPU"; continue; }
    GC_CPU_ISA=$set run "allpairs_16384_$set" --backend cpu --benchmark -n 16384 \
        --repeats "$REPEATS"
done

# Row 2: the tree, ms a step with its phases and error, all pairs beside it.
for n in 65536 262144; do
    run "tree_$n" --backend cpu --benchmark --force tree -n "$n" --repeats "$REPEATS"
done
run "tree_theta_65536" --backend cpu --benchmark --force tree -n 65536 --theta-sweep \
    --repeats 3

# Row 3: the window without a GPU, as a talk starts it (sized at start), for WINDOW_S
# seconds, stopped by SIGTERM: its last line gives the frames and the simulated time; then
# the drawing alone of 65,536 bodies at 1280x800 (paused headless, the same GL renderer).
WINDOW_S=${WINDOW_S:-40}
if [ -x "$GALAXY" ] && command -v Xvfb >/dev/null; then
    echo
    echo "=== the window, default launch, ${WINDOW_S} s under Xvfb"
    python3 "$ROOT/tests/viewer/xvfb.py" 1280x800x24 timeout -s TERM "$WINDOW_S" "$GALAXY" \
        --backend cpu >"$OUT/window.txt" 2>&1
    grep -E "sized for|window:|renderer:|stopped by" "$OUT/window.txt"
    echo "(frames/s: the frames of the last line over ${WINDOW_S} s less the start; the first"
    echo " passage is 270 Myr in)"
    echo
    echo "=== drawing alone: 65,536 bodies at 1280x800, paused, headless"
    "$GALAXY" --headless --backend cpu -n 65536 --paused --frames 150 --size 1280x800 \
        2>&1 | tee "$OUT/draw_65536.txt" | grep -E "renderer|frames/s"
else
    echo
    echo "=== the window: skipped (no $GALAXY or no Xvfb)"
fi

echo
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# raw outputs: $OUT"
