#!/usr/bin/env bash
# End-to-end checks of the galaxy program without a window: exit codes and messages for
# bad input, and the --steps diagnostics table.
# Usage: test_galaxy_cli.sh GALAXY [dubinski]. With "dubinski", only the runs on the real
# Dubinski table: their own ctest test, which exits 77 (skipped) when the file is absent.
set -u
bin="$1"
part="${2:-main}"
tmp="${GC_TEST_TMP:-/tmp}/cli"
data="${GC_SHARED_DATA:-../shared/data}/dubinski.tab.gz"
mkdir -p "$tmp"
fail=0; pass=0

# expect CODE PATTERN -- ARGS...: exit status CODE and stderr+stdout matching PATTERN, within
# a minute (a run that never ends exits 124)
expect() {
    local code="$1" pattern="$2"; shift 3
    local out rc
    out=$(timeout 60 "$bin" "$@" 2>&1 </dev/null); rc=$?
    if [ "$rc" -ne "$code" ] || ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: galaxy $* -> exit $rc (want $code), output:"; echo "$out" | head -5
        echo "      (wanted pattern: $pattern)"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
}

if [ "$part" = dubinski ]; then
    if [ ! -f "$data" ]; then
        echo "SKIP: $data not found (the Dubinski table is not in the repository:" \
            "docs/usage.md, \"Data\", says where to get it)"
        exit 77
    fi
    out=$("$bin" --steps 10 -n 8192 --data "$data" --backend cpu 2>&1); rc=$?
    # the table's last row: step 10, finite energy, drift well under 1e-2 of |E0|
    last=$(grep -E '^ +10 ' <<<"$out")
    if [ "$rc" -ne 0 ] || [ -z "$last" ] || ! awk '{ d = $4 < 0 ? -$4 : $4; exit !(d < 1e-2 && $3 < 0) }' <<<"$last"; then
        echo "FAIL: --steps 10 -n 8192 on the Dubinski data (exit $rc):"; echo "$out"
        fail=$((fail + 1))
    else
        pass=$((pass + 1))
    fi
    expect 2 "drop --no-halo" -- --data "$data" --no-halo -n 60000 --steps 1
    expect 2 "N = 90000 is more than the 81920 bodies" -- --data "$data" -n 90000 --steps 1
    head -c 3000 "$data" > "$tmp/cut_real.tab.gz"
    expect 1 "file truncated" -- --data "$tmp/cut_real.tab.gz" --steps 1
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

expect 0 "Usage: galaxy" -- --help
expect 0 "^galaxy [0-9]" -- --version
expect 2 "unknown option '--warp' \(see --help\)$" -- --warp
# A misspelt option is answered with the nearest one of the table.
expect 2 "^galaxy: error: unknown option '--frame'; did you mean --frames\? \(see --help\)$" -- --frame 3
expect 2 "unknown option '--screnshot=x.png'; did you mean --screenshot\?" -- --screnshot=x.png
expect 2 "-n expects a whole number" -- -n 0
expect 2 "^galaxy: error: --follow applies with --headless, without --tour" -- --follow -n 64
expect 2 "^galaxy: error: --follow applies with --headless, without --tour" -- --headless --follow --tour -n 64
# -n states the real lower bound of the model chosen (before or after it), in one message.
expect 2 "^galaxy: error: -n expects a whole number from 6 to 67108864 for model mw-m31, got '3'$" -- -n 3 --steps 1
expect 2 "^galaxy: error: -n expects a whole number from 6 to 67108864 for model mw-m31, got '0'$" -- -n 0 --steps 1
expect 2 "^galaxy: error: --bodies expects a whole number from 3 to 67108864 for model single, got 'x'$" -- --bodies=x --model single --steps 1
expect 2 "^galaxy: error: -n expects a whole number from 2 to 67108864 for model plummer, got '1'$" -- --model plummer -n 1 --t-end 1
expect 0 "dE/\|E0\|" -- -n 6 --steps 1 --backend cpu
# A bare number is the body count; any other bare word is refused with what it could be.
expect 0 "^# 64 bodies, backend cpu" -- 64 --steps 1 --backend cpu
expect 2 "^galaxy: error: unexpected argument 'abc': a bare argument is the number of bodies" -- abc
expect 2 "the number of bodies is given twice \('64' and -n 32\)" -- -n 32 64 --steps 1
# --start-at: a time >= 0 or an event's name; not in runs that draw nothing; the events of a
# star cluster, a time before a snapshot's start, and a time past the longest pre-run are
# refused before a window or EGL is asked for.
expect 2 "--start-at expects a time >= 0 \(Myr since the start\) or an event" -- --start-at -5
expect 2 "--start-at expects a time >= 0 .* got 'soon'" -- --start-at soon --headless
expect 2 "--start-at expects a time >= 0 .* got 'passage-0'" -- --start-at passage-0
expect 2 "--start-at applies to drawn frames \(the window or --headless\), not to --steps" -- --start-at 100 --steps 1
expect 2 "--start-at 1e9 is beyond the furthest a run goes before it is drawn \(18000 Myr\)" -- --start-at 1e9 --headless
expect 2 "--start-at merger: events are found in an encounter of two galaxies" -- --model plummer -n 64 --start-at merger --headless --backend cpu
expect 2 "is the size of a step \(> 0\), got '-0.01': the window runs time backwards with 'j'" -- --dt -0.01
expect 2 "expects a number" -- --dt nan
expect 2 "unknown backend 'fpga'" -- --backend fpga
expect 2 "--raster applies to drawn frames \(the window or --headless\), not to --steps" -- --raster cuda --backend cpu --steps 1
expect 2 "--seed expects a whole number from 0 to 18446744073709551615, got '-1'" -- --seed -1 --steps 1
expect 2 "needs a value" -- --data
printf '1 0 0 0 0 0 0\n1 2 3 4 5 6\n' > "$tmp/short.tab"
expect 2 "short.tab:2: expected 7 numbers" -- --data "$tmp/short.tab" --steps 1
printf '1 0 0 0 nan 0 0\n' > "$tmp/nan.tab"
expect 2 "nan.tab:1: vx is not a finite" -- --data "$tmp/nan.tab" --steps 1
: > "$tmp/empty.tab"
expect 2 "no data rows" -- --data "$tmp/empty.tab" --steps 1
expect 1 "cannot open" -- --data "$tmp/missing.tab" --steps 1
# Inputs that never end or hide rows behind a NUL byte: refused at once, with the reason.
expect 2 "/dev/zero: is a device, not a file of bodies" -- --data /dev/zero --steps 1
expect 2 "is a folder, not a file of bodies" -- --data "$tmp" --steps 1
rm -f "$tmp/fifo.tab"
if mkfifo "$tmp/fifo.tab" 2>/dev/null; then
    expect 2 "fifo.tab: is a pipe \(FIFO\), not a file of bodies" -- --data "$tmp/fifo.tab" --steps 1
fi
printf '1 0 0 0 0 0 0\n\0 1 0 0 0 0 0 0\n' > "$tmp/nul.tab"
expect 2 "nul.tab:2: NUL byte at column 1" -- --data "$tmp/nul.tab" --steps 1
# A gzip stream cut short, made here so that it never depends on the shared data: 2000
# rows compress to several kB, and the first 3000 bytes end mid-stream.
awk 'BEGIN { for (i = 1; i <= 2000; i++) printf "%.6f %.6f %.6f %.6f %.6f %.6f %.6f\n",
             0.001, sin(i), cos(i), sin(3 * i), cos(5 * i), sin(7 * i), cos(11 * i) }' \
    | gzip -c > "$tmp/whole.tab.gz"
head -c 3000 "$tmp/whole.tab.gz" > "$tmp/cut.tab.gz"
expect 1 "file truncated" -- --data "$tmp/cut.tab.gz" --steps 1
printf '1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n' > "$tmp/two.tab"
expect 2 "N = 3 is more than the 2 bodies" -- --data "$tmp/two.tab" -n 3 --steps 1
expect 0 "dE/\|E0\|" -- --data "$tmp/two.tab" --steps 3 --backend cpu

# Collisional mode: cluster models, Hermite integrators, unsoftened runs.
expect 2 "^galaxy: error: -n: model pythagorean has exactly 3 bodies, got '4' \(leave out -n\)$" -- --model pythagorean -n 4 --t-end 1
expect 2 "use --t-end" -- --model plummer --steps 10
expect 2 "0 only with --integrator" -- --eps 0 --steps 1
printf '1 0 0 0 0 0 0\n1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n' > "$tmp/coincident.tab"
expect 2 "same place.*softening 0" -- --data "$tmp/coincident.tab" --integrator hermite4 --eps 0 --t-end 1
expect 0 "integrator hermite4.*eta 0.01" -- --model plummer -n 64 --t-end 0.25 --backend cpu
expect 0 "integrator hermite6" -- --model pythagorean --integrator hermite6 --t-end 1 --backend cpu

# Output paths that cannot be written: told before the run, naming the option, the path as
# given and the system's reason (runs of 100,000,000 frames or steps would otherwise time out
# here before their end, where the old build found the problem).
missing=/nonexistent-galaxy-test
: > "$tmp/plain"
expect 1 "^galaxy: error: --screenshot $missing/x.png: cannot write there: $missing: No such file or directory$" -- \
    --headless --frames 100000000 -n 64 --backend cpu --screenshot "$missing/x.png"
expect 1 "^galaxy: error: --screenshot $tmp: is a folder; give a file name$" -- \
    --headless --frames 100000000 -n 64 --backend cpu --screenshot "$tmp"
expect 1 "^galaxy: error: --record $tmp/plain/x.mp4: cannot write there: $tmp/plain is not a folder$" -- \
    --headless --frames 100000000 -n 64 --backend cpu --record "$tmp/plain/x.mp4"
expect 1 "^galaxy: error: --save $missing/x.tab: cannot write there: $missing: No such file" -- \
    --steps 100000000 -n 64 --backend cpu --save "$missing/x.tab"
expect 1 "^galaxy: error: --snapshot-dir $missing/a: cannot write there: $missing: No such file" -- \
    --steps 100000000 -n 64 --backend cpu --snapshot-every 0.01 --snapshot-dir "$missing/a"
expect 1 "^galaxy: error: --screenshot-dir $missing: cannot write there: $missing: No such file" -- \
    --headless --frames 100000000 -n 64 --backend cpu --screenshot-dir "$missing"
[ -e "$missing" ] && { echo "FAIL: $missing was created"; fail=$((fail + 1)); }

# A CUDA build on a machine without an NVIDIA GPU: asking for cuda is a clear error, auto
# falls back to the CPU and says so.
if "$bin" --version | grep -q cuda && ! command -v nvidia-smi >/dev/null 2>&1; then
    expect 1 "no usable CUDA device.*--backend cpu" -- --backend cuda --steps 1 -n 64
    expect 0 "backend: cpu \(auto: no usable CUDA device" -- --steps 1 -n 64
fi

# A range's own bounds are in it: 0.05 is --theta's lower bound, stored as a float.
expect 0 "theta 0.05" -- --theta 0.05 --force tree --steps 1 -n 256 --backend cpu
expect 2 "--theta expects a number from 0.05 to 1, got '0.0499'" -- --theta 0.0499 --steps 1 -n 64
# Options that would be accepted and do nothing are refused, naming why.
expect 2 "--steps runs steps without drawing .*--headless draws --frames K: choose one" -- --headless --steps 1 -n 64
expect 2 "--t-end runs steps without drawing" -- --headless --t-end 1 -n 64
expect 2 "--repeats only applies with --benchmark" -- --repeats 3 --steps 1 -n 64
expect 2 "--precision applies to the block-step schemes .*leapfrog has one shared step" -- --precision mixed --steps 1 -n 64
expect 2 "--eta applies to the block-step schemes" -- --eta 0.02 --steps 1 -n 64
expect 2 "--screenshot-after 5 is beyond the run's 2 frames" -- --headless --frames 2 --screenshot-after 5 -n 64
# A snapshot's run decides the scheme: --eta for a leapfrog run's snapshot is refused then.
"$bin" --backend cpu -n 64 --steps 1 --snapshot-every 0.01 --snapshot-dir "$tmp/lf" >/dev/null 2>&1
if [ -f "$tmp/lf/snapshot_000001.hdf5" ]; then
    expect 2 "--eta applies to the block-step schemes; .*snapshot_000001.hdf5's run uses leapfrog" -- --data "$tmp/lf/snapshot_000001.hdf5" --eta 0.02 --steps 1
else
    echo "note: no snapshot written (a build without HDF5): --eta with a snapshot not checked"
fi
printf '1 0 0 0 0 0 0\n1 1 0 0 0 0 0\n' >"$tmp/two.tab"
expect 2 "--model builds a model; --data reads the bodies from a file" -- --data "$tmp/two.tab" --model plummer --steps 1
expect 2 "--seed builds a model; --data reads" -- --data "$tmp/two.tab" --seed 7 --steps 1
expect 2 "--sweep times the built-in model at each size" -- --benchmark --sweep --data "$tmp/two.tab"
# -n with --sweep is the sweep's largest size (the CPU's list: 1024, 4096, 16384, 65536).
out=$(timeout 120 "$bin" --benchmark --sweep -n 5000 --steps 1 --repeats 1 --backend cpu 2>/dev/null)
if [ "$(awk '!/^#/ { print $1 }' <<<"$out" | tr '\n' ' ')" = "1024 4096 5000 " ]; then
    pass=$((pass + 1))
else
    echo "FAIL: --benchmark --sweep -n 5000 does not time 1024, 4096 and 5000 bodies:"; echo "$out"
    fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
