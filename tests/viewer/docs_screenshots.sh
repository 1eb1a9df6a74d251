#!/bin/bash
# Screenshots of the real viewer's HUD, draw and colour modes and help under Xvfb, for docs
# (not a test; run by hand; pick what a page shows into docs/images/, named by what it shows):
#   xvfb-run -a -s "-screen 0 1280x800x24" tests/viewer/docs_screenshots.sh build/galaxy OUT_DIR
# SPDX-License-Identifier: MIT
set -eu
galaxy=$1
out=$2
# Extra viewer options (default: the built-in model, 4096 bodies, 4 steps a frame).
args=${GC_ARGS:--n 4096 --substeps 4}
run_s=${GC_RUN_S:-20}
tmp=$(mktemp -d)
mkdir -p "$out"
# shellcheck disable=SC2086
"$galaxy" $args --size 960x600 \
    --screenshot-dir "$tmp" > "$tmp/log" 2>&1 &
pid=$!
wid=$(xdotool search --sync --onlyvisible --name '^galaxy' | head -1)
key() { xdotool key --window "$wid" "$@"; sleep 0.4; }
snap() { # snap NAME: press s, move the newest PNG to $out/NAME.png
    local n; n=$(ls "$tmp"/*.png 2>/dev/null | wc -l)
    key s
    while [ "$(ls "$tmp"/*.png 2>/dev/null | wc -l)" -le "$n" ]; do sleep 0.1; done
    mv "$(ls -t "$tmp"/*.png | head -1)" "$out/$1.png"
}
sleep 2
snap start_hud
sleep "$run_s"
key space
snap collision_hud
key i
snap collision_sprites
key c; snap collision_component
key c; snap collision_velocity
key c; snap collision_speed
key c; key d; snap collision_plain
key d; snap collision_points
key d; key h; snap help_overlay
key q
wait "$pid"
cat "$tmp/log"
rm -rf "$tmp"
