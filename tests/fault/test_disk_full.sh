#!/usr/bin/env bash
# A disk that fills up under galaxy's writers: snapshots (and --save, --record). Each run must
# end with one message naming the file and the system's reason, exit 1, leave no partial
# file under any name, and never crash. The small disk is the LD_PRELOAD shim
# (tests/fault/write_fault.c) at budgets that end the writes at many different points;
# where this test may mount a 200 KiB tmpfs (root, outside most containers), a real one too.
# Usage: test_disk_full.sh GALAXY SHIM
set -u
bin="$1"
shim="$2"
tmp="${GC_TEST_TMP:-/tmp}/disk_full"
rm -rf "$tmp"
mkdir -p "$tmp"
fail=0; pass=0
# Under AddressSanitizer the shim is preloaded before its runtime; tell it that is fine.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# check NAME RC OUT DIR [FILE]: what a run that met the full disk must have done (FILE: the
# output that must not exist after a failure).
check() {
    local name="$1" rc="$2" out="$3" dir="$4" final="${5:-}" why=""
    if [ "$rc" -ge 128 ]; then why="killed by signal $((rc - 128))"
    elif [ "$rc" -ne 0 ] && [ -n "$final" ] && [ -e "$final" ]; then why="a partial $final was left"
    elif [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then why="exit $rc, want 0 or 1"
    elif [ "$rc" -eq 1 ] && [ "$(grep -c 'error:' <<<"$out")" -ne 1 ]; then why="not exactly one error line"
    elif [ "$rc" -eq 1 ] && ! grep -q 'No space left on device' <<<"$out"; then why="the reason is not named"
    elif grep -q 'HDF5\|Sanitizer\|runtime error' <<<"$out"; then why="libhdf5 or a sanitizer spoke"
    elif [ -n "$(find "$dir" -name '*.part' 2>/dev/null)" ]; then why="a .part file was left"
    fi
    if [ -n "$why" ]; then
        echo "FAIL: $name: $why; output:"; tail -n 6 <<<"$out"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

# Snapshots of 1,024 bodies (~46 KB each) on a disk of B bytes: the budgets end the writes
# in the first snapshot, between and inside later ones, and in the metadata at the end.
snap=(--backend cpu -n 1024 --steps 20 --snapshot-every 0.01)
for b in 0 1 600 4096 30000 46000 46843 46844 60000 93000 93688 100000 140000 187000; do
    d="$tmp/snap_$b"
    mkdir -p "$d"
    out=$(GC_FAULT_PATH="$d" GC_FAULT_BYTES=$b LD_PRELOAD="$shim" \
          "$bin" "${snap[@]}" --snapshot-dir "$d" 2>&1 >/dev/null </dev/null); rc=$?
    check "snapshots on a disk of $b bytes" "$rc" "$out" "$d"
done

# A run whose snapshots cannot fit is told so before it starts.
d="$tmp/plan"
mkdir -p "$d"
out=$(GC_FAULT_PATH="$d" GC_FAULT_BYTES=150000 LD_PRELOAD="$shim" \
      "$bin" "${snap[@]}" --snapshot-dir "$d" 2>&1 >/dev/null </dev/null); rc=$?
check "snapshots on a disk of 150000 bytes" "$rc" "$out" "$d"
if ! head -n 2 <<<"$out" | grep -q "warning: --snapshot-dir $d: the run writes 20 more snapshots of 0.04[0-9]* MB"; then
    echo "FAIL: no warning before the run that the snapshots do not fit: $out"; fail=$((fail + 1))
fi

# --save: the table appears whole or not at all.
for b in 0 5000 200000; do
    d="$tmp/save_$b"
    mkdir -p "$d"
    out=$(GC_FAULT_PATH="$d" GC_FAULT_BYTES=$b LD_PRELOAD="$shim" \
          "$bin" --backend cpu -n 4096 --steps 1 --save "$d/bodies.tab" 2>&1 >/dev/null </dev/null); rc=$?
    check "--save on a disk of $b bytes" "$rc" "$out" "$d" "$d/bodies.tab"
    if [ "$rc" -eq 0 ] || ! grep -q "bodies.tab: write failed: No space left on device" <<<"$out"; then
        echo "FAIL: --save on a disk of $b bytes: exit $rc, output: $out"; fail=$((fail + 1))
    fi
done

# --record (headless, where EGL and FFmpeg are there): the movie appears playable or not at
# all. A full disk is found before the first frame is drawn; a disk that fills up during the
# run, when the movie is written (FFmpeg's muxer holds this small movie until its end).
for b in 0 20000; do
    d="$tmp/record_$b"
    mkdir -p "$d"
    # Leaks are not checked here: Mesa's unloaded driver leaves some that LeakSanitizer cannot
    # name (tests/viewer/sanitizer.py); the viewer tests check headless runs for leaks.
    out=$(env -u DISPLAY GC_FAULT_PATH="$d" GC_FAULT_BYTES=$b LD_PRELOAD="$shim" \
          ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
          "$bin" --headless --backend cpu -n 1024 --size 320x200 --frames 100 \
          --record "$d/movie.mp4" 2>&1 >/dev/null </dev/null); rc=$?
    if grep -q "no movie recording\|EGL" <<<"$out" && ! grep -q "No space" <<<"$out"; then
        echo "note: --record not checked here (no FFmpeg or no EGL): $(grep error: <<<"$out")"
        continue
    fi
    check "--record on a disk of $b bytes" "$rc" "$out" "$d" "$d/movie.mp4"
    if [ "$b" -eq 0 ] && ! grep -q "cannot write the header: No space left on device" <<<"$out"; then
        echo "FAIL: --record on a full disk did not stop before drawing: $out"; fail=$((fail + 1))
    fi
done

# Another failure of the disk: the message names it (it used to guess "folder missing or not
# writable, or disk full?" for every cause).
d="$tmp/eio"
mkdir -p "$d"
out=$(GC_FAULT_PATH="$d" GC_FAULT_BYTES=100 GC_FAULT_ERRNO=5 LD_PRELOAD="$shim" \
      "$bin" "${snap[@]}" --snapshot-dir "$d" 2>&1 >/dev/null </dev/null); rc=$?
check "snapshots on a failing disk (EIO)" "$rc" "${out/Input\/output error/No space left on device}" "$d"
grep -q "snapshot_000000.hdf5.part: Input/output error" <<<"$out" ||
    { echo "FAIL: EIO not named: $out"; fail=$((fail + 1)); }
# A folder this user may not write in: the run is refused before it starts, naming the folder
# and the reason. Root may write anywhere, so as root (CI) the run is made by an
# unprivileged user (nobody, through setpriv) in a folder of root's; as any other user, in
# a folder of its own made read-only.
if [ "$(id -u)" -ne 0 ]; then
    d="$tmp/readonly"
    mkdir -p "$d"
    chmod 555 "$d"
    as_user=("$bin")
    how="a folder made read-only (chmod 555)"
elif command -v setpriv >/dev/null; then
    d=$(mktemp -d /tmp/gc_readonly.XXXXXX)
    chmod 755 "$d"
    # nobody may not reach a build under /root: then a copy of the program, in that folder.
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
    if "${as_user[@]}" "$bin" --version >/dev/null 2>&1; then as_user+=("$bin")
    else cp "$bin" "$d/galaxy"; as_user+=("$d/galaxy"); fi
    how="root's folder, the run made by nobody (setpriv)"
else
    d= how=
    echo "FAIL: a folder this user may not write in: running as root without setpriv (util-linux)"
    fail=$((fail + 1))
fi
if [ -n "$d" ]; then
    out=$(cd / && "${as_user[@]}" "${snap[@]}" --snapshot-dir "$d" 2>&1 >/dev/null </dev/null); rc=$?
    if [ "$rc" -ne 1 ] || [ "$(grep -c 'error:' <<<"$out")" -ne 1 ] ||
        ! grep -q "^galaxy: error: --snapshot-dir $d: cannot write there: $d: Permission denied$" <<<"$out"; then
        echo "FAIL: $how: exit $rc, want 1 and the folder named; output: $out"; fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
    if [ "$(id -u)" -ne 0 ]; then chmod 755 "$d"; else rm -rf "$d"; fi
fi

# The same on a real small file system, where this test may mount one.
mnt="$tmp/mnt"
mkdir -p "$mnt"
if [ "$(id -u)" -eq 0 ] && mount -t tmpfs -o size=200k tmpfs "$mnt" 2>/dev/null; then
    out=$("$bin" "${snap[@]}" --steps 50 --snapshot-dir "$mnt/s" 2>&1 >/dev/null </dev/null); rc=$?
    check "snapshots on a 200 KiB tmpfs" "$rc" "$out" "$mnt"
    if [ "$rc" -ne 1 ]; then echo "FAIL: the 200 KiB tmpfs did not fill up (exit $rc)"; fail=$((fail + 1)); fi
    umount "$mnt"
    # A read-only file system, named as such.
    if mount -t tmpfs -o size=64k,ro tmpfs "$mnt" 2>/dev/null; then
        out=$("$bin" "${snap[@]}" --snapshot-dir "$mnt" 2>&1 >/dev/null </dev/null); rc=$?
        if [ "$rc" -ne 1 ] || ! grep -q "^galaxy: error: --snapshot-dir $mnt: cannot write there: $mnt: Read-only file system$" <<<"$out"; then
            echo "FAIL: a read-only file system: exit $rc, output: $out"; fail=$((fail + 1))
        else
            pass=$((pass + 1))
        fi
        umount "$mnt"
    fi
else
    echo "note: cannot mount a tmpfs here; the shim's small disk only"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
