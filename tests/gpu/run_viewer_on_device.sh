#!/usr/bin/env bash
# The viewer on the GPU machine in one go: before/after pictures, render cost, frame/force ratio, 1M-body headless regression, movie, window under Xvfb.
# SPDX-License-Identifier: MIT
#
# Usage (repository root on the device machine), with carry [".devviewer", ".gl"] made by
# tests/gpu/make_viewer_devbuild.sh on the dev host:
#     bash tests/gpu/run_viewer_on_device.sh
# Needs the Dubinski table at shared/data/dubinski.tab.gz (else ../shared/data, else the copy
# in .devviewer). About 6-7
# minutes on the GPU machine. Writes to $OUT (at most 8 files come back from the device tool):
#   viewer-device.log   everything, with PASS/FAIL lines and a summary at the end
#   results.txt         the figures (frames/s, ratios, render cost, window rates)
#   docs-images.tar     before/after PNGs at N = 8192, 81920, 1048576, Dubinski at 450 Myr,
#                       window screenshots, the movie's middle and last frame (decoded from
#                       the movie) and the screenshots they were checked against
#   dubinski_tour.mp4   Dubinski table with halos, 81,920 bodies, 1280x720, 60 fps, 30 s,
#                       tour from approach to merger, --present title and time
# Knobs: PARTS (default "raster pictures cost ratio hang hermite movie window before-hang";
# "wintest" runs CI's window tests here; "round" this round's before/after figures, --start-at,
# "winba" the window at 1M before and after,
# keyframes in GPU memory and the encounter panel's restart at 1M; "tree" the tree at 1M, 4M and 16M bodies, headless
# and in the window, TREE_NS other sizes; "movie16m" a 1000-frame tour of 16M bodies into
# tree16m_tour.mp4), WIN_SECONDS, WINTEST_PARTS.
# REHEARSAL=1 runs the same steps on a machine without a GPU (CPU backend, Mesa, small N and
# short runs) to check the script itself; its figures mean nothing.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/viewer-device.log") 2>&1
PARTS=${PARTS:-raster pictures cost ratio hang hermite movie window before-hang}
WIN_SECONDS=${WIN_SECONDS:-8}
if [ "${REHEARSAL:-0}" = 1 ]; then
    BACKEND=cpu NS="1024 2048 4096" NBIG=4096 NRATIO=2048 FRAMES=40 STEPS_T25="--frames 11 --substeps 2"
    NDRAW="2048 4096" DRAW_FRAMES=20
    MOVIE_FRAMES=90 MOVIE_STEPS=1 VENDOR=mesa
else
    BACKEND=cuda NS="8192 81920 1048576" NBIG=1048576 NRATIO="" FRAMES=3000
    STEPS_T25="--frames 251 --substeps 10" MOVIE_FRAMES=1800 MOVIE_STEPS=4 VENDOR=nvidia
    NDRAW="81920 1048576" DRAW_FRAMES=400
fi
want() { [[ " $PARTS " == *" $1 "* ]]; }
step() { echo; echo "=== $* ($(date -u +%H:%M:%S))"; }
fail=0
check() { # name condition-rc
    if [ "$2" -eq 0 ]; then echo "PASS $1"; else echo "FAIL $1 (exit $2)"; fail=1; fi
}
result() { echo "$*" | tee -a "$OUT/results.txt"; }
fps_of() { sed -n 's/.* \([0-9.]*\) frames\/s.*/\1/p' "$1" | tail -n 1; }
calc() { awk "BEGIN { printf \"%.4g\", $1 }" 2>/dev/null; } # no bc on the device
# At most 16 MiB a file comes back: a bigger one is cut into 15 MiB parts (cat them together).
fit() { # file
    if [ -f "$1" ] && [ "$(stat -c %s "$1")" -gt $((15 * 1024 * 1024)) ]; then
        split -b 15M -d "$1" "$1.part" && rm "$1" && echo "$1 cut into $(ls "$1".part* | wc -l) parts"
    fi
}

T=/tmp/gcv
IMG=$T/docs-images
mkdir -p "$T" "$IMG"
: >"$OUT/results.txt"

step "environment and carried files"
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
if [ ! -f "$ROOT/.devviewer/viewer.tar.xz" ]; then
    echo "FAIL .devviewer/viewer.tar.xz missing: run tests/gpu/make_viewer_devbuild.sh on the" \
        "dev host and carry .devviewer and .gl"
    exit 1
fi
echo "built from $(cat "$ROOT/.devviewer/built-from" 2>/dev/null), before = $(cat "$ROOT/.devviewer/before-ref" 2>/dev/null)"
xz -dc "$ROOT/.devviewer/viewer.tar.xz" | tar -x -C "$T"
if [ "${REHEARSAL:-0}" != 1 ]; then # the rehearsal's host has its own GL libraries
    for f in "$ROOT"/.gl/*.deb; do [ -f "$f" ] && dpkg -x "$f" /; done
    ldconfig 2>/dev/null
fi
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64:/usr/local/nvidia/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
NV_EGL=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$NV_EGL" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=${__EGL_VENDOR_LIBRARY_FILENAMES:-$NV_EGL}
# `after` (this tree's viewer) and `before` (a build of BEFORE_REF), each with its own
# shaders: commands on the PATH, so that timeout can run them.
mkdir -p "$T/run"
printf '#!/bin/sh\nGC_SHADER_DIR=%s exec %s "$@"\n' "$T/viewer/shaders" "$T/viewer/bin/galaxy" >"$T/run/after"
printf '#!/bin/sh\nGC_SHADER_DIR=%s exec %s "$@"\n' "$T/viewer/shaders-before" \
    "$T/viewer/bin/galaxy-before" >"$T/run/before"
chmod +x "$T/run/after" "$T/run/before"
# tools/: the static ffmpeg program that decodes the movie for its pixel check.
export PATH=$T/run:$T/viewer/tools:$PATH
BENCH=$T/viewer/bin/galaxy-bench
DUB=$ROOT/shared/data/dubinski.tab.gz
[ -f "$DUB" ] || DUB=$ROOT/../shared/data/dubinski.tab.gz
[ -f "$DUB" ] || DUB=$ROOT/.devviewer/dubinski.tab.gz
[ -f "$DUB" ] || { echo "FAIL no dubinski.tab.gz in shared/data or .devviewer"; exit 1; }
echo "Dubinski table: $DUB"
after --version
ldd "$T/viewer/bin/galaxy" | grep "not found" && { echo "FAIL libraries missing"; exit 1; }

# One run: name, timeout, then the program (after/before) and its options. The log lands in
# $T/name.log, its wall seconds in $T/name.wall; the exit status is checked.
headless() {
    local name=$1 limit=$2
    shift 2
    local t0 t1 rc
    t0=$(date +%s.%N)
    timeout -s KILL "$limit" "$@" >"$T/$name.log" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "$(calc "$t1 - $t0")" >"$T/$name.wall"
    tail -n 4 "$T/$name.log"
    echo "($name: exit $rc, $(cat "$T/$name.wall") s wall)"
    check "$name" $rc
    return $rc
}

if want raster && [ "$BACKEND" = cuda ]; then
step "the same picture from CUDA kernels and from GL (--raster cuda against --raster gl)"
# Auto exposure: each path meters its own light, so a difference in the light shows twice.
for scene in "model_8192:-n 8192" "model_81920:-n 81920" "dubinski_81920:--data $DUB" \
    "model_1048576:-n 1048576" "model_81920_noglow:-n 81920 --no-bloom"; do
    name=${scene%%:*}
    for r in gl cuda; do
        # shellcheck disable=SC2086
        headless "raster_${name}_$r" 120 after --headless --backend $BACKEND ${scene#*:} \
            --frames 1 --raster $r --screenshot "$IMG/raster_${name}_$r.png"
        grep -h "exposure:\|renderer:" "$T/raster_${name}_$r.log"
    done
    python3 "$ROOT/tests/gpu/compare_png.py" "$IMG/raster_${name}_gl.png" \
        "$IMG/raster_${name}_cuda.png" | tee "$T/compare_$name.txt"
    check "raster-$name-same-picture" "${PIPESTATUS[0]}"
    result "raster $name: $(head -n 1 "$T/compare_$name.txt" | sed 's/.*png: //')"
done
fi

# A bundle made with BEFORE_REF= has no `before` viewer: its runs are left out, not failed.
have_before() { [ -x "$T/viewer/bin/galaxy-before" ] || { echo "skipped $1: no before build"; false; }; }

if want pictures; then
step "before/after: the built-in pair at N = 8192, 81920, 1048576 (t = 0), Dubinski at 450 Myr"
for n in $NS; do
    have_before before_model_$n && headless before_model_$n 120 before --headless \
        --backend $BACKEND -n $n --frames 1 --screenshot "$IMG/before_model_$n.png"
    headless after_model_$n 120 after --headless --backend $BACKEND -n $n --frames 1 \
        --screenshot "$IMG/after_model_$n.png"
    grep "exposure:" "$T/after_model_$n.log"
done
# 2,500 steps of dt 0.01 = t 25 (450 Myr): 251 frames of 10 steps after the first frame.
# shellcheck disable=SC2086
have_before before_dubinski_t25 && headless before_dubinski_t25 120 before --headless \
    --backend $BACKEND --data "$DUB" --halo ${NRATIO:+-n $NRATIO} $STEPS_T25 \
    --screenshot "$IMG/before_dubinski_450myr.png"
# shellcheck disable=SC2086
headless after_dubinski_t25 120 after --headless --backend $BACKEND --data "$DUB" \
    ${NRATIO:+-n $NRATIO} $STEPS_T25 --screenshot "$IMG/after_dubinski_450myr.png"
# shellcheck disable=SC2086
headless after_dubinski_t25_no_halo 120 after --headless --backend $BACKEND --data "$DUB" \
    ${NRATIO:+-n $NRATIO} $STEPS_T25 --screenshot "$IMG/after_dubinski_450myr_no_halo.png" --no-halo
fi

if want cost; then
step "render cost: drawing alone (--paused), 1280x800"
for n in $NDRAW; do
    headless draw_$n 120 after --headless --backend $BACKEND -n $n --paused --frames $DRAW_FRAMES
    f=$(fps_of "$T/draw_$n.log")
    headless draw_${n}_noglow 120 after --headless --backend $BACKEND -n $n --paused \
        --frames $DRAW_FRAMES --no-bloom
    g=$(fps_of "$T/draw_${n}_noglow.log")
    result "render N=$n: $f frames/s drawing alone ($(calc "1000/$f") ms/frame), without glow $g frames/s ($(calc "1000/$g") ms)"
    if [ "$BACKEND" = cuda ]; then
        headless draw_${n}_gl 120 after --headless --backend $BACKEND -n $n --paused \
            --frames $DRAW_FRAMES --raster gl
        f=$(fps_of "$T/draw_${n}_gl.log")
        headless draw_${n}_gl_noglow 120 after --headless --backend $BACKEND -n $n --paused \
            --frames $DRAW_FRAMES --raster gl --no-bloom
        g=$(fps_of "$T/draw_${n}_gl_noglow.log")
        result "render N=$n with --raster gl: $f frames/s ($(calc "1000/$f") ms/frame), without glow $g frames/s ($(calc "1000/$g") ms)"
    fi
done
fi

if want ratio; then
step "frame pipeline: Dubinski with halos, 81,920 bodies, one step per frame, against the force kernel"
# shellcheck disable=SC2086
"$BENCH" --backend $BACKEND --benchmark --data "$DUB" ${NRATIO:+-n $NRATIO} --repeats 5 --json >"$T/bench.json"
check bench-81920 $?
K=$(python3 -c "import json; r = json.load(open('$T/bench.json'))['results'][0]; print(r['ms_kernel'], r['ms_per_step'])")
KERNEL=${K% *}
STEP=${K#* }
result "force kernel alone at 81,920: $KERNEL ms; whole step $STEP ms"
ratio_run() { # name program options...
    local name=$1
    shift
    # shellcheck disable=SC2086
    headless "$name" 180 "$@" --headless --backend $BACKEND --data "$DUB" ${NRATIO:+-n $NRATIO} \
        --substeps 1 --frames $FRAMES
    local f
    f=$(fps_of "$T/$name.log")
    result "$name: $f frames/s = $(calc "1000/$f") ms/frame; frame/force = $(calc "1000/$f/$KERNEL")"
}
ratio_run ratio_after after
ratio_run ratio_after_noglow after --no-bloom --exposure 0
ratio_run ratio_after_no_interop after --no-interop
[ "$BACKEND" = cuda ] && ratio_run ratio_after_gl after --raster gl
have_before ratio_before && ratio_run ratio_before before --halo
grep "frames in flight" "$T/ratio_after.log"
f=$(fps_of "$T/ratio_after.log")
r=$(calc "1000/$f/$KERNEL")
result "FRAME/FORCE at 81,920, one step per frame: $r (target <= 1.10)"
fi

if want trace && [ "$BACKEND" = cuda ]; then
step "the frame's kernels one at a time (ncu), 81,920 bodies, one step per frame"
[ -n "${KERNEL:-}" ] || {
    "$BENCH" --backend $BACKEND --benchmark --data "$DUB" --repeats 5 --json >"$T/bench.json"
    KERNEL=$(python3 -c "import json; print(json.load(open('$T/bench.json'))['results'][0]['ms_kernel'])")
    result "force kernel alone at 81,920: $KERNEL ms"
}
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
if [ -n "$NCU" ] && [ "${NCU_FRAMES:-200}" != 0 ]; then
    # Each kernel alone (ncu runs them one at a time): the picture's own cost, no overlap.
    timeout -s KILL 240 "$NCU" --clock-control none --metrics gpu__time_duration.sum --csv \
        --launch-skip 1500 --launch-count 150 after --headless --backend $BACKEND --data "$DUB" \
        --substeps 1 --frames "${NCU_FRAMES:-200}" >"$T/ncu.csv" 2>"$T/ncu.err"
    echo "ncu exit $?"
    tail -n 3 "$T/ncu.err"
    python3 "$ROOT/tests/gpu/ncu_kernel_times.py" "$T/ncu.csv" ncu | tee -a "$OUT/results.txt"
    cp "$T/ncu.csv" "$OUT/ncu.csv" 2>/dev/null
fi
fi

if want hang; then
step "regression: 1,048,576 bodies headless, 60 frames (never finished before the fix)"
headless hang_substeps1 240 after --headless --backend $BACKEND -n $NBIG --frames 60 --substeps 1
grep -q "60 frames, 59 steps" "$T/hang_substeps1.log"
check hang-substeps1-59-steps $?
headless hang_default 240 after --headless --backend $BACKEND -n $NBIG --frames 60
grep -q "60 frames, 59 steps" "$T/hang_default.log"
check hang-default-59-steps $?
grep "frames in flight" "$T/hang_substeps1.log" "$T/hang_default.log"
result "1M headless 60 frames: $(grep -h 'headless: 60 frames' "$T"/hang_*.log | sed 's/galaxy: //' | tr '\n' ' ')"
fi

if want hermite; then
step "hermite4 on the backend: a paused Plummer sphere's first frames (the first picture is exported from the integrator)"
headless hermite_paused 120 after --headless --backend $BACKEND --model plummer -n 16384 --paused \
    --frames 3 --screenshot "$IMG/hermite_paused.png"
grep -h "integrator\|renderer:" "$T/hermite_paused.log"
fi

if want movie16m && [ "$BACKEND" = cuda ]; then
step "movie: 16,777,216 bodies with the tree, 1000 frames at 30 fps, 2 steps of 0.025 a frame (t = 0 to 900 Myr), tour"
# dt 0.025 (docs/model.md's comparison runs use it too) so that one call reaches the tails.
m16_opts=(--headless --backend cuda -n 16777216 --size 1280x720 --fps 30 --dt 0.025
    --substeps 2 --tour --present --title "16.8 million stars: two disk galaxies collide")
headless movie16m 520 after "${m16_opts[@]}" --frames 1000 --record "$OUT/tree16m_tour.mp4" \
    --screenshot "$IMG/movie16m_frame999_screenshot.png"
grep -E "recorded|recording|tree|frames/s" "$T/movie16m.log" | head -n 5
headless movie16m_shot_0 120 after "${m16_opts[@]}" --frames 1 \
    --screenshot "$IMG/movie16m_frame0_screenshot.png"
python3 "$ROOT/tests/viewer/moviecheck.py" "$OUT/tree16m_tour.mp4" \
    "0:$IMG/movie16m_frame0_screenshot.png" "999:$IMG/movie16m_frame999_screenshot.png" \
    --save "500:$IMG/movie16m_middle_frame.png" --save "999:$IMG/movie16m_last_frame.png" \
    | tee "$T/movie16m_pixels.txt"
check movie16m-pixels "${PIPESTATUS[0]}"
result "movie 16M: $(grep -h 'recorded' "$T/movie16m.log" | sed 's/galaxy: //'), $(stat -c %s "$OUT/tree16m_tour.mp4" 2>/dev/null) bytes; $(grep -h 'headless: [0-9]* frames' "$T/movie16m.log" | sed 's/galaxy: //')"
fi

if want movie; then
step "movie: Dubinski with halos, 81,920 bodies, 1800 frames at 60 fps, 4 steps a frame (t = 0 to 1300 Myr), tour"
# The movie's options; the screenshots its frames are checked against are taken with the same.
movie_opts=(--headless --backend "$BACKEND" --data "$DUB" ${NRATIO:+-n $NRATIO} --size 1280x720
    --fps 60 --substeps "$MOVIE_STEPS" --tour --present
    --title "Two disk galaxies collide (Dubinski, Mihos & Hernquist 1996)")
LAST=$((MOVIE_FRAMES - 1))
MID=$((MOVIE_FRAMES / 2))
headless movie 420 after "${movie_opts[@]}" --frames "$MOVIE_FRAMES" \
    --record "$OUT/dubinski_tour.mp4" --screenshot "$IMG/movie_frame${LAST}_screenshot.png"
grep -E "recorded|recording" "$T/movie.log"
# Headless runs are frame-exact: frame k of the movie is the last frame of a run of k + 1.
headless movie_shot_0 120 after "${movie_opts[@]}" --frames 1 \
    --screenshot "$IMG/movie_frame0_screenshot.png"
headless movie_shot_$MID 300 after "${movie_opts[@]}" --frames $((MID + 1)) \
    --screenshot "$IMG/movie_frame${MID}_screenshot.png"
command -v ffmpeg >/dev/null ||
    echo "no ffmpeg program to decode the movie: make .devviewer again (make_viewer_devbuild.sh)"
# The pixels: the first, middle and last frame decoded from the movie against those
# screenshots (mean colour, the lit parts' colour, layout: tests/viewer/moviecheck.py says
# how and its bounds); the middle and last frame are saved as the movie shows them.
python3 "$ROOT/tests/viewer/moviecheck.py" "$OUT/dubinski_tour.mp4" \
    "0:$IMG/movie_frame0_screenshot.png" "$MID:$IMG/movie_frame${MID}_screenshot.png" \
    "$LAST:$IMG/movie_frame${LAST}_screenshot.png" --save "$MID:$IMG/movie_middle_frame.png" \
    --save "$LAST:$IMG/movie_last_frame.png" | tee "$T/movie_pixels.txt"
check movie-pixels "${PIPESTATUS[0]}"
result "movie pixels: $(grep -c '^ok' "$T/movie_pixels.txt") of 3 frames match their screenshots"
# --present's title (top band) and time (bottom band), as the movie shows them.
python3 - "$IMG/movie_last_frame.png" "$ROOT/tests/viewer" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
import imgcheck
img = imgcheck.read_png(sys.argv[1])
top = imgcheck.lit_fraction(img, imgcheck.region(img, 0.0, 0.0, 0.9, 0.09))
bottom = imgcheck.lit_fraction(img, imgcheck.region(img, 0.0, 0.88, 0.5, 1.0))
print(f"movie's last frame: {top:.3f} of the title band lit, {bottom:.3f} of the time band")
sys.exit(0 if top > 0.01 and bottom > 0.01 else 1)
PY
check movie-present-text $?
result "movie: $(grep -h 'recorded' "$T/movie.log" | sed 's/galaxy: //'), $(stat -c %s "$OUT/dubinski_tour.mp4" 2>/dev/null) bytes; $(grep -h 'headless: [0-9]* frames' "$T/movie.log" | sed 's/galaxy: //')"
fi

# The carried X server, xdotool and Mesa: X, XLIB for their folders.
x_files() {
    [ -d "$T/x11" ] || xz -dc "$ROOT/.devviewer/x11.tar.xz" | tar -x -C "$T"
    X=$T/x11
    # Xvfb's own GLX loads Mesa's software driver from its compiled-in folder; xkbcomp too.
    mkdir -p /usr/lib/x86_64-linux-gnu/dri
    [ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || cp "$X/dri/swrast_dri.so" /usr/lib/x86_64-linux-gnu/dri/
    [ -e /usr/bin/xkbcomp ] || cp "$X/bin/xkbcomp" /usr/bin/xkbcomp
    XLIB=$X/lib:$LD_LIBRARY_PATH
}
# The carried Xvfb on display :$1 (log $2), DISPLAY set to it, its pid in XVFB.
start_xvfb() {
    LD_LIBRARY_PATH=$XLIB "$X/bin/Xvfb" ":$1" -screen 0 1920x1080x24 -nolisten tcp \
        -xkbdir "$X/xkb" >"$2" 2>&1 &
    XVFB=$!
    for _ in $(seq 50); do [ -S "/tmp/.X11-unix/X$1" ] && break; sleep 0.1; done
    export DISPLAY=:$1
}
xdo() { LD_LIBRARY_PATH=$XLIB "$X/bin/xdotool" "$@"; }
# Rates from the window title (refreshed once a second while the statistics are shown):
# "... | 59.9 fps | 1234.5 steps/s | ...".
rates() { xdo getwindowname "$1" | sed -n 's/.*| \([0-9.]*\) fps | \([0-9.]*\) [a-z ]*steps\/s.*/\1 fps, \2 steps\/s/p'; }

if want window; then
step "the window under Xvfb with NVIDIA's GLX: keys and mouse through xdotool"
x_files
start_xvfb "${XDISPLAY:-7}" "$T/xvfb.log"
grep -iE "GLX|error|fatal" "$T/xvfb.log" | head -n 5
window_run() { # name vendor options...
    local name=$1 vendor=$2
    shift 2
    local shots=$T/shots_$name wid
    mkdir -p "$shots"
    __GLX_VENDOR_LIBRARY_NAME=$vendor LD_LIBRARY_PATH=$XLIB GC_SHADER_DIR=$T/viewer/shaders \
        "$T/viewer/bin/galaxy" --backend $BACKEND --size 1280x800 --screenshot-dir "$shots" "$@" \
        >"$T/$name.log" 2>&1 &
    local pid=$!
    wid=$(timeout 60 env LD_LIBRARY_PATH="$XLIB" "$X/bin/xdotool" search --sync --onlyvisible \
        --name '^galaxy' 2>/dev/null | head -n 1)
    if [ -z "$wid" ]; then
        echo "no window appeared"; kill "$pid" 2>/dev/null; cat "$T/$name.log"
        check "$name-window" 1
        return 1
    fi
    grep -E "window: OpenGL|interop|backend" "$T/$name.log"
    # The statistics (off at the start; with them the title carries the rates) and the
    # fastest speed (eight doublings of the automatic one: as fast as the machine goes).
    xdo key --window "$wid" i Up Up Up Up Up Up Up Up
    sleep "$WIN_SECONDS"
    result "window $name: $(rates "$wid") (HUD on, fastest speed; $(grep -o 'OpenGL.*' "$T/$name.log" | head -n 1))"
    xdo key --window "$wid" s
    xdo key --window "$wid" 1
    sleep 2.5
    xdo key --window "$wid" s
    xdo mousemove --window "$wid" 640 400 mousedown 1
    for i in 1 2 3 4 5; do xdo mousemove --window "$wid" $((640 + 30 * i)) $((400 + 8 * i)); sleep 0.05; done
    xdo mouseup 1 click 4 click 4
    sleep 1
    xdo key --window "$wid" s
    xdo key --window "$wid" t
    sleep 2
    result "window $name with the tour: $(rates "$wid")"
    xdo key --window "$wid" v
    sleep "$WIN_SECONDS"
    result "window $name while recording: $(rates "$wid")"
    xdo key --window "$wid" v
    sleep 1
    xdo key --window "$wid" s
    xdo key --window "$wid" q
    timeout 30 tail --pid="$pid" -f /dev/null
    wait "$pid"
    check "$name-exit" $?
    grep -E "recorded|dropped|error" "$T/$name.log"
    for p in "$shots"/*.png; do [ -f "$p" ] && cp "$p" "$IMG/${name}_$(basename "$p")"; done
}
# shellcheck disable=SC2086
window_run window_81920 $VENDOR --data "$DUB" ${NRATIO:+-n $NRATIO}
if [ "$VENDOR" = nvidia ]; then
    grep -q "on NVIDIA" "$T/window_81920.log"
    check window-81920-nvidia-gl $?
fi
window_run window_1048576 $VENDOR -n $NBIG
# The collisional mode live: a Plummer cluster under hermite4 block steps.
window_run window_plummer_h4 $VENDOR --model plummer -n 16384 --integrator hermite4
if [ "$VENDOR" = nvidia ] && ! grep -q "on NVIDIA" "$T/window_81920.log"; then
    echo "NVIDIA's GLX did not give the window a context; Mesa's, for comparison:"
    window_run window_81920_mesa mesa --data "$DUB"
fi
kill "$XVFB" 2>/dev/null
fi

if want tree && [ "$BACKEND" = cuda ]; then
step "millions of bodies with the tree (auto above 262,144): headless, then the window"
# One step a frame, the picture drawn by CUDA, 1280x800: the frame rates of the issue's table.
for n in ${TREE_NS:-1048576 4194304 16777216}; do
    headless "tree_headless_$n" 240 after --headless --backend cuda -n "$n" --frames 240 \
        --substeps 1 --screenshot "$IMG/tree_model_$n.png"
    result "tree headless $n: $(fps_of "$T/tree_headless_$n.log") frames/s (one step a frame, drawing included)"
    grep -h "force\|tree\|out of" "$T/tree_headless_$n.log" | head -n 3
done
x_files
start_xvfb "${XDISPLAY:-8}" "$T/xvfb_tree.log"
for n in ${TREE_NS:-1048576 4194304 16777216}; do
    __GLX_VENDOR_LIBRARY_NAME=$VENDOR LD_LIBRARY_PATH=$XLIB GC_SHADER_DIR=$T/viewer/shaders \
        "$T/viewer/bin/galaxy" --backend cuda -n "$n" --substeps 1 --size 1280x800 \
        --screenshot-dir "$IMG" >"$T/tree_window_$n.log" 2>&1 &
    pid=$!
    wid=$(timeout 90 env LD_LIBRARY_PATH="$XLIB" "$X/bin/xdotool" search --sync --onlyvisible \
        --name '^galaxy' 2>/dev/null | head -n 1)
    if [ -z "$wid" ]; then
        echo "no window appeared"; kill "$pid" 2>/dev/null; tail "$T/tree_window_$n.log"
        check "tree-window-$n" 1
        continue
    fi
    # The statistics are off at the start; with them the title carries the rates.
    xdo key --window "$wid" i
    sleep "${WIN_SECONDS:-8}"
    result "tree window $n: $(rates "$wid") (one step a frame, HUD on)"
    xdo key --window "$wid" t
    sleep 4
    result "tree window $n with the tour: $(rates "$wid")"
    xdo key --window "$wid" s
    sleep 1
    xdo key --window "$wid" q
    timeout 30 tail --pid="$pid" -f /dev/null
    wait "$pid"
    check "tree-window-$n-exit" $?
    grep -E "window: OpenGL|error" "$T/tree_window_$n.log" | head -n 3
done
kill "$XVFB" 2>/dev/null
fi

if want wintest; then
step "CI's window tests on these 16 CPUs: tests/viewer/test_window.py, CPU backend, Xvfb + Mesa"
# A window test that fails only on CI's host, never on the 2-core dev host, is run here on
# a fast many-core host: the CPU backend and Mesa's llvmpipe, as CI runs them. xvfb.py and
# the test find Xvfb and xdotool on the PATH; galaxy through a wrapper.
x_files
mkdir -p "$T/xbin"
printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s -xkbdir %s "$@"\n' "$XLIB" "$X/bin/Xvfb" "$X/xkb" >"$T/xbin/Xvfb"
printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$XLIB" "$X/bin/xdotool" >"$T/xbin/xdotool"
printf '#!/bin/sh\n__GLX_VENDOR_LIBRARY_NAME=mesa LD_LIBRARY_PATH=%s GC_SHADER_DIR=%s exec %s --backend cpu "$@"\n' \
    "$XLIB" "$T/viewer/shaders" "$T/viewer/bin/galaxy" >"$T/xbin/galaxy-cpu"
chmod +x "$T"/xbin/*
k=0
for part in ${WINTEST_PARTS:-levels keys levels levels}; do
    k=$((k + 1))
    GC_TEST_TMP=$T/wintest_$k PATH=$T/xbin:$PATH timeout -s KILL 200 python3 \
        "$ROOT/tests/viewer/xvfb.py" 1280x800x24 python3 "$ROOT/tests/viewer/test_window.py" \
        "$T/xbin/galaxy-cpu" "$part" >"$T/wintest_${k}_$part.log" 2>&1
    rc=$?
    check "wintest-$k-$part" $rc
    grep -E "^(FAIL|note)|check\(s\) failed|Traceback|Error" "$T/wintest_${k}_$part.log"
    [ "$rc" -eq 0 ] || cat "$T/wintest_${k}_$part.log"
    cp "$T/wintest_${k}_$part.log" "$OUT/" 2>/dev/null
done
fi

if want before-hang && have_before before-hang; then
step "the same 1M headless run with the viewer before the fix (expected not to finish in 75 s)"
# In the background with a deadline: a process stuck in the driver may not die at once, and
# the rest of the run must not wait for it.
before --headless --backend $BACKEND -n $NBIG --frames 60 --substeps 1 >"$T/before_hang.log" 2>&1 &
bp=$!
for _ in $(seq 75); do kill -0 "$bp" 2>/dev/null || break; sleep 1; done
if kill -0 "$bp" 2>/dev/null; then
    kill -9 "$bp"
    result "before the fix, 1M headless 60 frames: not finished after 75 s (killed)"
else
    wait "$bp"
    result "before the fix, 1M headless 60 frames: finished, exit $? ($(grep -h 'headless: 60' "$T/before_hang.log" | sed 's/galaxy: //'))"
fi
tail -n 3 "$T/before_hang.log"
fi

if want round && [ "$BACKEND" = cuda ]; then
step "this round's figures: before and after (all pairs, tree, Hermite, headless frames), --start-at, keyframes, the encounter panel's restart"
# Before and after alternate, three times each, so that a drift of the clock falls on both.
# The ms/step column of a --benchmark table's row for 1048576 bodies (the tables' columns moved).
msstep() {
    awk '/^#/ { for (i = 2; i <= NF; i++) if ($i == "ms/step") c = i - 1 }
         !/^#/ && c && / 1048576 / { print $c; exit }' "$1"
}
if have_before round; then
    for rep in 1 2 3; do
        for v in before after; do
            headless "ap_${v}_$rep" 120 $v --benchmark --backend cuda -n 1048576 --repeats 5
            headless "tree_${v}_$rep" 120 $v --benchmark --backend cuda --force tree -n 1048576 --repeats 5
            headless "herm_${v}_$rep" 200 $v --backend cuda --model plummer -n 65536 --t-end 0.0625 --quiet
            headless "head_${v}_$rep" 120 $v --headless --backend cuda -n 1048576 --frames 300 --size 1280x720
        done
    done
    for v in before after; do
        for k in ap tree; do
            result "$k $v: $(for f in "$T"/${k}_${v}_?.log; do msstep "$f"; done | tr '\n' ' ')ms/step (3 runs)"
        done
        result "hermite plummer 65536 to t = 0.0625 $v: $(cat "$T"/herm_${v}_?.wall | tr '\n' ' ')s wall (3 runs)"
        result "headless 1M 300 frames $v: $(grep -h 'headless: 300 frames' "$T"/head_${v}_?.log | sed 's/.* s: \([0-9.]*\) frames\/s.*/\1/' | tr '\n' ' ')frames/s (3 runs)"
    done
    grep -h "^ *N \|^ *1048576 " "$T/ap_after_1.log" "$T/tree_after_1.log" | head -n 6
fi
for n in 1048576 16777216; do
    headless "startat_$n" 240 after --headless --backend cuda -n $n --start-at first-passage --frames 1 \
        --size 1280x720 --screenshot "$IMG/start_first_passage_$n.png"
    result "--start-at first-passage at $n: $(cat "$T/startat_$n.wall") s wall; $(grep -h 'keyframes:\|first passage\|start-at\|reached' "$T/startat_$n.log" | sed 's/galaxy: //' | tr '\n' ';')"
done
timeout -s KILL 300 "$T/viewer/bin/test_keyframes" cuda >"$T/keyframes_cuda.log" 2>&1
check keyframes-cuda $?
cat "$T/keyframes_cuda.log"
x_files
start_xvfb "${XDISPLAY:-8}" "$T/xvfb_round.log"
PATH=$X/bin:$PATH __GLX_VENDOR_LIBRARY_NAME=nvidia LD_LIBRARY_PATH=$XLIB timeout -s KILL 300 \
    python3 "$ROOT/tests/gpu/restart_time.py" after 1048576 >"$T/restart.log" 2>&1
check restart-1m $?
kill "$XVFB" 2>/dev/null
cat "$T/restart.log"
result "encounter restart at 1M: $(grep -h 'median' "$T/restart.log" | tr '\n' ';')"
fi

if want winba && [ "$BACKEND" = cuda ] && have_before winba; then
step "the window at 1M bodies, before and after, alternating (tree, one step a frame, statistics shown)"
x_files
start_xvfb "${XDISPLAY:-9}" "$T/xvfb_winba.log"
for rep in 1 2 3; do
    for v in before after; do
        shaders=$T/viewer/shaders
        [ "$v" = before ] && shaders=$T/viewer/shaders-before
        bin=$T/viewer/bin/galaxy
        [ "$v" = before ] && bin=$T/viewer/bin/galaxy-before
        __GLX_VENDOR_LIBRARY_NAME=$VENDOR LD_LIBRARY_PATH=$XLIB GC_SHADER_DIR=$shaders \
            "$bin" --backend cuda -n 1048576 --substeps 1 --size 1280x800 \
            >"$T/winba_${v}_$rep.log" 2>&1 &
        pid=$!
        wid=$(timeout 90 env LD_LIBRARY_PATH="$XLIB" "$X/bin/xdotool" search --sync --onlyvisible \
            --name '^galaxy' 2>/dev/null | head -n 1)
        # the statistics: on at the start before, off now
        [ "$v" = after ] && xdo key --window "$wid" i
        sleep 10
        result "window 1M $v $rep: $(rates "$wid")"
        xdo key --window "$wid" q
        timeout 30 tail --pid="$pid" -f /dev/null
        wait "$pid"
        check "winba-$v-$rep" $?
    done
done
kill "$XVFB" 2>/dev/null
fi

step "pack"
tar -C "$T" -cf "$OUT/docs-images.tar" docs-images
fit "$OUT/docs-images.tar"
fit "$OUT/dubinski_tour.mp4"
fit "$OUT/tree16m_tour.mp4"
ls -la "$OUT"
for f in "$T"/*.log; do echo "---- $(basename "$f")"; tail -n 25 "$f"; done >"$T/all-logs.txt"
cat "$T/all-logs.txt"

step "summary"
cat "$OUT/results.txt"
grep -E "^(PASS|FAIL)" "$OUT/viewer-device.log"
[ "$fail" -eq 0 ] && echo "ALL CHECKS PASSED" || echo "SOME CHECKS FAILED"
exit "$fail"
