#!/usr/bin/env bash
# Every output (--save's table, a snapshot, --screenshot's PNG, --record's movie) onto what
# is not a regular file: a FIFO is written into (a reader gets the whole output, the FIFO
# stays a FIFO), a device too (/dev/null takes it, /dev/full says "No space left on
# device"), never replaced by a regular file; a link keeps pointing where it did. Two
# outputs naming one file are refused before the run, naming both options.
# The character device made with mknod needs root (as in CI); other users run the same
# checks through a link to /dev/full and a FIFO, which need no privilege.
# Usage: test_output_targets.sh GALAXY
set -u
bin="$1"
tmp="${GC_TEST_TMP:-/tmp}/output_targets"
rm -rf "$tmp"
mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0; pass=0
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && tail -n 5 "$2"; fail=$((fail + 1)); }
ok() { pass=$((pass + 1)); }
unset DISPLAY WAYLAND_DISPLAY
# Mesa's driver leaves leaks LeakSanitizer cannot name (the viewer tests check for leaks).
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
run=(--backend cpu -n 256)
draw=(--headless --size 160x100 --frames 3)

# What each output is, its options, and how a file of it is checked.
#   table: --save T;  snap: a snapshot at T = DIR/snapshot_000001.hdf5;
#   png: --screenshot T;  movie: --record T (the container from T's name: .mp4).
kinds="table snap"
if "$bin" "${run[@]}" "${draw[@]}" --screenshot probe.png >probe.out 2>&1; then
    kinds="$kinds png"
    if "$bin" "${run[@]}" "${draw[@]}" --record probe.mp4 >probe.out 2>&1; then
        kinds="$kinds movie"
    else
        echo "note: movies not checked here: $(grep error: probe.out)"
    fi
else
    echo "note: screenshots and movies not checked here (no EGL?): $(grep error: probe.out)"
fi

# out KIND TARGET: runs galaxy writing output KIND to TARGET; output in KIND.log.
out() {
    local kind=$1 target=$2
    case $kind in
    table) "$bin" "${run[@]}" --steps 1 --save "$target" ;;
    snap)
        local dir; dir=$(dirname "$target")
        "$bin" "${run[@]}" --steps 1 --snapshot-every 0.01 --snapshot-dir "$dir" ;;
    png) "$bin" "${run[@]}" "${draw[@]}" --screenshot "$target" ;;
    movie) "$bin" "${run[@]}" "${draw[@]}" --record "$target" ;;
    esac >"$kind.log" 2>&1 </dev/null
}

# name_in DIR KIND: where output KIND goes in DIR (a snapshot's name is the program's).
name_in() {
    case $2 in
    snap) echo "$1/snapshot_000001.hdf5" ;;
    movie) echo "$1/out.mp4" ;;
    *) echo "$1/out" ;;
    esac
}

# A regular file of each output, to compare with what comes through a FIFO.
for kind in $kinds; do
    mkdir -p "ref.$kind"
    out "$kind" "$(name_in "ref.$kind" "$kind")" || bad "$kind: the run to a regular file failed" "$kind.log"
done

# check_got KIND FILE: FILE holds a whole output of KIND (as the regular file is, or for
# snapshots and movies, which carry times and muxer state, as read back).
check_got() {
    local kind=$1 got=$2
    case $kind in
    table | png)
        cmp -s "$got" "$(name_in "ref.$kind" "$kind")" && return 0
        echo "  $got differs from the same output written to a file" ;;
    snap)
        "$bin" --backend cpu --data "$got" --steps 1 >readback.log 2>&1 &&
            grep -q "snapshot of 256 bodies at t = 0.01" readback.log && return 0
        echo "  $got does not read back:"; tail -n 3 readback.log ;;
    movie)
        command -v ffprobe >/dev/null || { echo "note: no ffprobe: the movie's frames not decoded"; return 0; }
        local n
        n=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries \
            stream=nb_read_frames -of csv=p=0 "$got" 2>&1)
        [ "$n" = 3 ] && return 0
        echo "  $got: ffprobe decodes '$n' frames, want 3" ;;
    esac
    return 1
}

for kind in $kinds; do
    d="$kind.d"
    mkdir -p "$d"
    name=$(name_in "$d" "$kind")

    # A FIFO with a reader: the whole output goes through it; it stays a FIFO.
    mkfifo "$name"
    timeout 120 cat "$name" >"$d/got" &
    reader=$!
    if out "$kind" "$name"; then
        wait "$reader"
        if [ ! -p "$name" ]; then bad "$kind: the FIFO was replaced ($(stat -c %F "$name"))"
        elif check_got "$kind" "$d/got"; then ok
        else bad "$kind: what came through the FIFO is not the output"
        fi
    else
        bad "$kind: writing into a FIFO failed" "$kind.log"
        kill "$reader" 2>/dev/null
    fi
    rm -f "$name" "$d/got"

    # A link to /dev/full: the link stays, /dev/full stays a device, the run says why it
    # failed (exit 1).
    ln -s /dev/full "$name"
    out "$kind" "$name"; rc=$?
    if [ "$(readlink "$name")" != /dev/full ] || [ ! -c /dev/full ]; then
        bad "$kind: the link to /dev/full was replaced"
    elif [ "$rc" -ne 1 ] || ! grep -q "No space left on device" "$kind.log"; then
        bad "$kind: onto /dev/full: exit $rc, want 1 and 'No space left on device'" "$kind.log"
    elif grep -q "paused; r resets" "$kind.log"; then
        bad "$kind: a headless run speaks of the window's pause" "$kind.log"
    else
        ok
    fi
    rm -f "$name"

    # The device itself: a character device made here (root only); and /dev/null, always
    # through a link of our own, so that a writer that replaced its target would replace
    # the link, never the machine's /dev/null.
    if [ "$(id -u)" -eq 0 ] && mknod "$name" c 1 7 2>/dev/null; then
        out "$kind" "$name"; rc=$?
        if [ ! -c "$name" ]; then bad "$kind: the device node was replaced ($(stat -c %F "$name"))"
        elif [ "$rc" -ne 1 ] || ! grep -q "No space left on device" "$kind.log"; then
            bad "$kind: onto a full device: exit $rc, want 1" "$kind.log"
        else ok
        fi
        rm -f "$name"
    else
        echo "note: $kind: a device node of our own needs root (mknod); the link and FIFO forms ran"
    fi
    ln -s /dev/null "$name"
    out "$kind" "$name"; rc=$?
    if [ "$(readlink "$name")" != /dev/null ] || [ ! -c /dev/null ]; then
        bad "$kind: the link to /dev/null was replaced"
    elif [ "$rc" -ne 0 ]; then bad "$kind: onto /dev/null: exit $rc" "$kind.log"
    else ok
    fi
    rm -f "$name"
done

# A headless run whose snapshot cannot be written ends saying why, in its own words (it
# said "(paused; r resets)", the window's).
case " $kinds " in
*" png "*)
    mkdir -p headless_snap
    ln -s /dev/full headless_snap/snapshot_000001.hdf5
    "$bin" "${run[@]}" "${draw[@]}" --snapshot-every 0.01 --snapshot-dir headless_snap \
        >headless_snap.log 2>&1 </dev/null
    rc=$?
    if [ "$rc" -ne 1 ] || ! grep -q "snapshot_000001.hdf5: No space left on device" headless_snap.log ||
       grep -q "paused; r resets" headless_snap.log; then
        bad "a headless snapshot onto /dev/full: exit $rc, want 1, the reason, no window words" headless_snap.log
    else
        ok
    fi ;;
esac

# A FIFO nobody reads: the run says it waits, and a stop is heard while it does.
mkfifo lonely
"$bin" "${run[@]}" --steps 1 --save lonely >lonely.log 2>&1 </dev/null &
pid=$!
for _ in $(seq 100); do grep -q "waiting for a reader" lonely.log && break; sleep 0.1; done
kill -TERM "$pid"
for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
if kill -0 "$pid" 2>/dev/null; then
    bad "a run waiting for a FIFO's reader did not stop within 2 s of SIGTERM"; kill -KILL "$pid"
fi
wait "$pid"; rc=$?
if [ "$rc" -ne 143 ] || ! grep -q "lonely: waiting for a reader of this pipe" lonely.log ||
   ! grep -q "stopped by SIGTERM" lonely.log || [ ! -p lonely ]; then
    bad "a FIFO without a reader: exit $rc (want 143), output:" lonely.log
else
    ok
fi

# ---- two outputs, one file: refused before the run, naming both ----
# expect_same ARGS... -- PATTERN: exit 2, the message, nothing written.
expect_same() {
    local pattern="${*: -1}" out rc
    out=$("$bin" "${run[@]}" "${@:1:$#-1}" 2>&1 </dev/null); rc=$?
    if [ "$rc" -ne 2 ] || ! grep -qE -- "$pattern" <<<"$out" || grep -q "^galaxy: wrote\|saved\|recorded" <<<"$out"; then
        bad "$* -> exit $rc (want 2), output: $out"
    else
        ok
    fi
}
mkdir -p same/sub
expect_same --headless --frames 2 --record same/y.mp4 --screenshot ./same/y.mp4 \
    "--record same/y.mp4 and --screenshot ./same/y.mp4 are the same file"
expect_same --headless --frames 2 --save same/a.tab --screenshot same/sub/../a.tab \
    "--save same/a.tab and --screenshot same/sub/../a.tab are the same file"
: > same/b.tab
ln same/b.tab same/hard.tab
expect_same --headless --frames 2 --save same/b.tab --screenshot same/hard.tab \
    "--save same/b.tab and --screenshot same/hard.tab are the same file"
ln -s b.tab same/soft.tab
expect_same --headless --frames 2 --save same/soft.tab --record same/b.tab \
    "--save same/soft.tab and --record same/b.tab are the same file"
[ -s same/b.tab ] && bad "a refused run wrote same/b.tab"
[ -e same/y.mp4 ] && bad "a refused run wrote same/y.mp4"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
