#!/bin/bash
# Pictures of the encounter presets from their home views, at the times docs/model.md gives,
# put together in docs/images/encounters_presets.png, and the Antennae at its matched time in
# docs/images/encounters_antennae.png (tools/png_montage.py).
# Usage: tools/encounter_shots.sh BUILD_DIR [N]   (headless EGL rendering, CPU backend; about
# an hour on two busy cores at N = 8192)
set -euo pipefail
build=${1:-build}
n=${2:-8192}
here=$(cd "$(dirname "$0")" && pwd)
out=/tmp/gc_encounter_shots
mkdir -p "$out"
dt=0.02
# name, time since the start (Myr), extra options
shots="prograde:395 retrograde:395 head-on:216 minor:471 mice:417 antennae:756:--exposure=1"
for s in $shots; do
    IFS=: read -r name myr extra <<<"$s"
    # --headless draws frame k after k frames of steps: frames = steps / substeps + 1
    steps=$(python3 -c "print(round($myr / 18.0 / $dt))")
    frames=$((steps / 10 + 1))
    "$build/galaxy" --scenario "$name" -n "$n" --dt "$dt" --backend cpu --headless \
        --size 640x400 --substeps 10 --frames "$frames" ${extra:+$extra} --quiet \
        --screenshot "$out/$name.png"
done
python3 "$here/png_montage.py" "$here/../docs/images/encounters_presets.png" 3 \
    "$out/prograde.png" "$out/retrograde.png" "$out/head-on.png" \
    "$out/minor.png" "$out/mice.png" "$out/antennae.png"
cp "$out/antennae.png" "$here/../docs/images/encounters_antennae.png"
