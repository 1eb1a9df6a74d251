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
OUT=${OUT:-/tmp/out}
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
if [ -f "$DUB" ]; then
    "$BIN/test_backend_cuda" dubinski
    check test_backend_cuda-dubinski $?
else
    echo "dubinski.tab.gz not found: test_backend_cuda dubinski skipped"
fi

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
step "variant study: force kernel alone per variant T,B,U,M[,P] (threads, bodies/thread, unroll, blocks/SM cap, soft rsqrt period)"
# The unrated variants exist only in a study build (-DGC_STUDY=ON), in bench/accel_variants.
STUDY=$ROOT/build-study
cmake -S "$ROOT" -B "$STUDY" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DGC_STUDY=ON >"$OUT/build-study.log" 2>&1 &&
    cmake --build "$STUDY" -j 16 --target accel_variants >>"$OUT/build-study.log" 2>&1
check build-study $?
for n in 81920 1048576; do
    "$STUDY/bench/accel_variants" $n ${VARIANTS:-256,4,16,2 128,4,16,4 128,4,16,5 128,4,16,6 \
        64,4,16,8 128,4,8,4 128,4,32,4 256,4,32,2 256,4,8,2 128,8,8,4 128,8,8,3 128,2,32,8 \
        128,2,16,8 128,1,32,8 128,4,16,4,16 128,4,16,4,8 256,4,16,2,16 256,4,16,2,8}
done | tee "$OUT/variants.txt"
fi

if want sweep; then
step "benchmark sweep (median of 5 repeats after warm-up; sm clock sampled every 200 ms)"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv -lms 200 >/tmp/clocks.csv 2>&1 &
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
python3 - /tmp/clocks.csv <<'PY'
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
        "$BIN/galaxy-bench" --backend cuda --benchmark --data "$DUB" --halo --steps 2 --repeats 1 >/tmp/ncu.txt 2>&1
    echo "stall reasons (warps stalled per issued instruction, > 0.02):"
    grep -E "issue_stalled_.*per_issue_active" /tmp/ncu.txt | awk '$NF + 0 > 0.02 {print $NF, $1}' | sort -g -r | head -n 14
    echo "pipe utilisation (% of peak, > 1%):"
    grep -E "(inst_executed_pipe|pipe_.*_cycles_active)" /tmp/ncu.txt | awk '$NF + 0 > 1 {print $NF, $1}' | sort -g -r | head -n 14
    grep -E "Stall|Issue|Eligible|Active Warps|issue_active|cycles_elapsed|inst_executed|warps_active|time_duration|registers|grid_size|No Eligible|One or More" /tmp/ncu.txt | head -n 60
fi

step "headless EGL on the GPU: Dubinski table, 81,920 bodies, CUDA-GL interop, 300 frames"
# The viewer binary needs freeglut, GLEW, libpng and X11 client libraries that this machine
# lacks: they travel in .devbuild/lib; glvnd's libEGL/libOpenGL come from the carried .gl debs.
GALAXY=${GALAXY:-$PRE/bin/galaxy}
if want headless && [ -x "$GALAXY" ]; then
    for f in "$ROOT"/.gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
    ldconfig 2>/dev/null
    export LD_LIBRARY_PATH=$PRE/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json}
    export GC_SHADER_DIR=$ROOT/shaders
    # First frame shows t = 0; 299 steps at the default dt follow.
    "$GALAXY" --headless --backend cuda --data "$DUB" --halo --frames 300 \
        --screenshot "$OUT/headless_dubinski_300.png" 2>&1 | tee /tmp/h1.log
    check headless-dubinski-interop ${PIPESTATUS[0]}
    grep -q "CUDA-GL interop on" /tmp/h1.log
    check headless-used-interop $?

    step "frame time (step + interop + render) against the force kernel alone, N = 81,920"
    "$GALAXY" --headless --backend cuda --data "$DUB" --halo --frames 1500 2>&1 | tee /tmp/h2.log
    check headless-frames-interop ${PIPESTATUS[0]}
    "$GALAXY" --headless --backend cuda --data "$DUB" --halo --frames 1500 --no-interop 2>&1 | tee /tmp/h3.log
    check headless-frames-no-interop ${PIPESTATUS[0]}
    # Where the rest of the frame goes: the same run at 1/16 of the pixels (fragment work),
    # and with 4 steps per drawn frame (render + interop paid once per 4 steps).
    "$GALAXY" --headless --backend cuda --data "$DUB" --halo --frames 1500 --size 320x200 2>&1 | tee /tmp/h4.log
    check headless-frames-small ${PIPESTATUS[0]}
    "$GALAXY" --headless --backend cuda --data "$DUB" --halo --frames 400 --substeps 4 2>&1 | tee /tmp/h5.log
    check headless-frames-substeps4 ${PIPESTATUS[0]}
    "$BIN/galaxy-bench" --backend cuda --benchmark --data "$DUB" --halo --repeats 5 --json \
        >/tmp/bench81920.json
    check bench-81920 $?
    python3 - /tmp/h2.log /tmp/h3.log /tmp/bench81920.json /tmp/h4.log /tmp/h5.log <<'PY'
import json, re, sys
def fps(path):
    m = re.search(r"([0-9.]+) frames/s", open(path).read())
    return float(m.group(1)) if m else float("nan")
b = json.load(open(sys.argv[3]))["results"][0]
k, s = b["ms_kernel"], b["ms_per_step"]
for name, path, steps in (("interop, 1280x800", sys.argv[1], 1), ("no-interop, 1280x800", sys.argv[2], 1),
                          ("interop, 320x200", sys.argv[4], 1), ("interop, 4 steps/frame", sys.argv[5], 4)):
    f = 1000.0 / fps(path)
    print("frame (%s): %.3f ms/frame, %d step(s); step alone %.3f ms; force kernel alone %.3f ms; "
          "frame/(steps x kernel) = %.3f" % (name, f, steps, s, k, f / (steps * k)))
f = 1000.0 / fps(sys.argv[1])
print("FRAME-TARGET %s: interop frame within 10%% of the kernel alone (%.3f <= 1.10)" %
      ("met" if f / k <= 1.10 else "NOT met", f / k))
PY

    step "headless: built-in model (65,536 bodies), and both data sets at t = 25 (450 Myr)"
    "$GALAXY" --headless --backend cuda -n 65536 --frames 2 --screenshot "$OUT/headless_model_t0.png"
    check headless-model $?
    # 2,500 steps of dt 0.01 = t 25: 251 frames of 10 substeps after the first frame.
    "$GALAXY" --headless --backend cuda --data "$DUB" --halo --frames 251 --substeps 10 \
        --screenshot "$OUT/headless_dubinski_t25.png"
    check headless-dubinski-t25 $?
    "$GALAXY" --headless --backend cuda -n 81920 --frames 251 --substeps 10 \
        --screenshot "$OUT/headless_model_t25.png"
    check headless-model-t25 $?
else
    echo "galaxy (viewer build) not carried in .devbuild/bin: headless steps skipped"
fi

step "summary"
grep -E "^(PASS|FAIL)" "$OUT/device.log"
[ "$fail" -eq 0 ] && echo "ALL CHECKS PASSED" || echo "SOME CHECKS FAILED"
exit "$fail"
