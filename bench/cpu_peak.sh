#!/usr/bin/env bash
# The CPU backend's two rows of BENCHMARKS.md ("The CPU backend"): all pairs from 4,096 to 65,536 bodies against the cores' FP32 FMA peak, and the tree at 65,536 and 262,144 bodies (theta 0.5) with its error against theta; each loop set of this CPU beside the default.
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

echo
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# raw outputs: $OUT"
