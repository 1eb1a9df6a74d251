#!/bin/bash
# Viewer screenshots of the Dubinski run and the built-in model at the same simulated times,
# put side by side in docs/images/model_vs_dubinski_viewer.png (tools/viewer_montage.py).
# Usage: tools/viewer_shots.sh BUILD_DIR [N] [DT]   (headless EGL rendering, CPU backend)
set -euo pipefail
build=${1:-build-model}
n=${2:-8192}
dt=${3:-0.025}
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../../shared/data/dubinski.tab.gz"
out=/tmp/gc_viewer_shots
mkdir -p "$out"
for t in 0 25 50 75; do
    # --headless steps (frames - 1) x substeps times; 10 substeps of dt per drawn frame
    steps=$(python3 -c "print(round($t / $dt))")
    frames=$((steps / 10 + 1))
    "$build/galaxy" --backend cpu --headless --size 640x400 --dt "$dt" --substeps 10 \
        --frames "$frames" -n "$n" --data "$data" --halo --screenshot "$out/dubinski_t$t.png"
    "$build/galaxy" --backend cpu --headless --size 640x400 --dt "$dt" --substeps 10 \
        --frames "$frames" -n "$n" --screenshot "$out/model_t$t.png"
done
python3 "$here/viewer_montage.py" "$out" "$here/../docs/images/model_vs_dubinski_viewer.png"
