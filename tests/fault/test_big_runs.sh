#!/usr/bin/env bash
# Runs that cannot finish soon are told before they start, show progress, and are refused
# only when they cannot fit in memory.
# Usage: test_big_runs.sh GALAXY
set -u
bin="$1"
tmp="${GC_TEST_TMP:-/tmp}/big_runs"
rm -rf "$tmp"
mkdir -p "$tmp"
fail=0; pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && tail -n 5 "$2"; fail=$((fail + 1)); }

# wait_for FILE PATTERN SECONDS: 0 when FILE shows PATTERN within SECONDS.
wait_for() {
    for ((k = 0; k < $3 * 10; k++)); do
        grep -q -- "$2" "$1" 2>/dev/null && return 0
        sleep 0.1
    done
    return 1
}

# 1. Two million bodies over all pairs on the CPU: hours a step. Said as soon as the model
# is built (seconds; more under a sanitizer), with what would be faster; the run is not
# waited for.
"$bin" --backend cpu -n 2000000 --force allpairs --steps 1 >"$tmp/slow.out" 2>"$tmp/slow.err" &
pid=$!
if wait_for "$tmp/slow.err" "a step will take about" 150; then
    grep -q "2000000 bodies: a step will take about [0-9.]* \(min\|h\|days\) on the cpu backend (all pairs" "$tmp/slow.err" &&
        grep -q "fewer bodies (-n [0-9]* takes about 1 s a step)" "$tmp/slow.err" &&
        grep -q "the tree force (--force tree)" "$tmp/slow.err" && ok ||
        bad "the slow run's warning lacks the estimate or the ways out" "$tmp/slow.err"
else
    bad "no warning within 150 s that a step of 2,000,000 bodies takes hours" "$tmp/slow.err"
fi
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null

# 2. Steps of a second or more with one row at the end: progress lines on stderr meanwhile.
"$bin" --backend cpu --threads 1 -n 32768 --force allpairs --steps 1000 >"$tmp/progress.out" \
    2>"$tmp/progress.err" &
pid=$!
if wait_for "$tmp/progress.err" "progress: [0-9]* steps done" 150; then ok
else bad "no progress line within 150 s of a run with one table row at its end" "$tmp/progress.err"
fi
# (A shell's background job ignores SIGINT, and so does galaxy then: SIGTERM.)
kill -TERM "$pid" 2>/dev/null
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] && ok || bad "the progress run: exit $rc after SIGTERM, want 143" "$tmp/progress.err"

# 3. A run that cannot fit in memory is refused before it allocates, saying how much it
# needs. The address space is limited with ulimit -v, which AddressSanitizer cannot run
# under (its shadow memory): not checked in a sanitizer build.
if ldd "$bin" 2>/dev/null | grep -q libasan; then
    echo "note: memory refusal not checked (sanitizer build)"
else
    out=$(ulimit -v 3000000; timeout 120 "$bin" --backend cpu -n 20000000 --steps 1 2>&1 >/dev/null)
    rc=$?
    if [ "$rc" -eq 1 ] && grep -q "error: 20000000 bodies need about [0-9.]* GB more memory on the cpu backend .* GB is available: use fewer bodies" <<<"$out" &&
       [ "$(grep -c error: <<<"$out")" -eq 1 ]; then ok
    else bad "20,000,000 bodies in 3 GB of address space: exit $rc, output: $out"
    fi
fi

# 4. A benchmark of 64 Mi bodies says what it does from the start (it printed nothing while
# its model was built), and a SIGTERM then ends it within 2 s (it was ignored for 40 s).
"$bin" --benchmark --backend cpu -n 67108864 >"$tmp/bench.out" 2>"$tmp/bench.err" &
pid=$!
if wait_for "$tmp/bench.err" "building the mw-m31 model of 67108864 bodies" 10; then ok
else bad "a 64 Mi-body benchmark said nothing in its first 10 s" "$tmp/bench.err"
fi
sleep 1
kill -TERM "$pid" 2>/dev/null
for ((k = 0; k < 20; k++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then
    bad "the benchmark did not end within 2 s of SIGTERM" "$tmp/bench.err"
    kill -KILL "$pid" 2>/dev/null
fi
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] && grep -q "stopped by SIGTERM" "$tmp/bench.err" && ok ||
    bad "the benchmark: exit $rc after SIGTERM (want 143 and where it stopped)" "$tmp/bench.err"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
