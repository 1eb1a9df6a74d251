#!/usr/bin/env bash
# galaxy under mpiexec on the CPU backend: results that do not depend on the rank count, failures that stop every rank with one message, fewer bodies than ranks.
# SPDX-License-Identifier: MIT
#
# Usage: test_mpi_runs.sh PART GALAXY COMPARE_BODIES HAVE_HDF5 FAIL_EXCHANGE MPIEXEC [MPIEXEC_ARGS...]
#   PART: agree (leapfrog and Hermite runs on 1, 2 and 3 ranks), fail (failing ranks),
#         small (N < K), view (headless frames on 1 and 2 ranks)
#   FAIL_EXCHANGE: tests/mpi/fail_exchange.c's library (preloaded, it fails one MPI_Allgatherv)
#   MPIEXEC_ARGS end with the flag that sets the process count (e.g. -n).
set -u
part=$1 galaxy=$2 compare=$3 have_hdf5=$4 fail_exchange=$5
shift 5
mpi=("$@")
tmp="${GC_TEST_TMP:-/tmp}/mpi_$part"
rm -rf "$tmp"
mkdir -p "$tmp"
fail=0 pass=0
common=(--backend cpu --threads 1)
pre=() # command words before galaxy in one-rank runs

ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

# run NP NAME ARGS...: galaxy on NP ranks (1 = without mpiexec, as a user runs it), stdout
# to NAME.out, stderr to NAME.err, exit status to NAME.rc; a run that hangs is killed.
run() {
    local np=$1 name=$2
    shift 2
    if [ "$np" -eq 1 ]; then
        timeout 120 "${pre[@]}" "$galaxy" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    else
        timeout 120 "${mpi[@]}" "$np" "$galaxy" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    fi
    echo $? >"$tmp/$name.rc"
}
rc() { cat "$tmp/$1.rc"; }

# Launches with a command line per rank ("mpiexec A : B : C") take the launcher apart, as
# Open MPI applies -x only to the command line it precedes: its other words, its -x settings
# (repeated before each command line) and the ranks' preloads (sanitizer builds: the ASan
# runtime, which must stay first, and a dlclose: tests/mpi.cmake).
launcher=() per_rank=() preload=
for ((k = 0; k + 1 < ${#mpi[@]}; k++)); do
    if [ "${mpi[k]}" = -x ] && [ $((k + 2)) -lt ${#mpi[@]} ]; then
        k=$((k + 1))
        case ${mpi[k]} in
        LD_PRELOAD=*) preload=${mpi[k]#LD_PRELOAD=} ;;
        *) per_rank+=(-x "${mpi[k]}") ;;
        esac
    else
        launcher+=("${mpi[k]}")
    fi
done
np_flag=${mpi[${#mpi[@]} - 1]}

# ranks NAME [--preload LIB] COMMAND... [: [--preload LIB] COMMAND...]...: one rank per
# command line, output saved as run() does; LIB is preloaded into that rank only, after the
# launcher's preloads.
ranks() {
    local name=$1 lib= words=() cmd=("${launcher[@]}")
    shift
    # Each ":" closes a command line, and so does the end of the list.
    set -- "$@" :
    while [ $# -gt 0 ]; do
        if [ "$1" = --preload ] && [ ${#words[@]} -eq 0 ]; then
            lib=$2
            shift 2
            continue
        fi
        if [ "$1" != : ]; then
            words+=("$1")
            shift
            continue
        fi
        shift
        [ "${#cmd[@]}" -gt "${#launcher[@]}" ] && cmd+=(:)
        cmd+=("${per_rank[@]}")
        local p=$preload${lib:+${preload:+:}$lib}
        [ -n "$p" ] && cmd+=(-x "LD_PRELOAD=$p")
        cmd+=("$np_flag" 1 "${words[@]}")
        words=() lib=
    done
    timeout 120 "${cmd[@]}" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}

# The diagnostics table's rows (step, time, energy, ...), which must agree to the printed
# precision up to the last digit of the energy (sums over ranks add in another order).
same_rows() {
    awk 'FNR == NR && !/^#/ { a[FNR] = $0; n++; next }
         !/^#/ { m++; split(a[FNR], x); split($0, y)
                 if (x[1] != y[1] || x[2] != y[2]) bad = 1
                 if (x[3] - y[3] > 1e-7 * (x[3] < 0 ? -x[3] : x[3]) ||
                     y[3] - x[3] > 1e-7 * (x[3] < 0 ? -x[3] : x[3])) bad = 1 }
         END { exit (bad || n != m || n == 0) }' "$tmp/$1.out" "$tmp/$2.out"
}

# Each line rank 0 prints once: a follower printing would repeat it.
no_repeats() {
    local dup
    dup=$(sort "$tmp/$1.err" | uniq -d | grep -v '^\[' | head -3)
    if [ -z "$dup" ]; then ok "$1: no line printed twice (only rank 0 talks)"
    else bad "$1: lines printed more than once: $dup"; fi
}

errors() { grep -c '^galaxy: error' "$tmp/$1.err"; }

case "$part" in
agree)
    # Leapfrog: 100 steps of the galaxy pair, state at step 100 written as a snapshot.
    lf=(--model mw-m31 -n 1536 --steps 100 --dt 0.01 --report-every 50 "${common[@]}")
    for np in 1 2 3; do
        if [ "$have_hdf5" = ON ]; then
            run $np lf$np "${lf[@]}" --snapshot-every 1 --snapshot-dir "$tmp/lf$np"
        else
            run $np lf$np "${lf[@]}"
        fi
        [ "$(rc lf$np)" -eq 0 ] && ok "leapfrog on $np rank(s) ran" ||
            { bad "leapfrog on $np rank(s): exit $(rc lf$np)"; cat "$tmp/lf$np.err"; }
    done
    for np in 2 3; do
        same_rows lf1 lf$np && ok "leapfrog: energy table on $np ranks = 1 rank" ||
            { bad "leapfrog: energy tables differ (1 vs $np ranks)"; diff "$tmp/lf1.out" "$tmp/lf$np.out"; }
        if [ "$have_hdf5" = ON ]; then
            # Float rounding relative to the system's size (the CPU runs agree exactly).
            "$compare" "$tmp/lf1/snapshot_000001.hdf5" "$tmp/lf$np/snapshot_000001.hdf5" 1e-6 &&
                ok "leapfrog: positions after 100 steps on $np ranks = 1 rank" ||
                bad "leapfrog: positions after 100 steps differ (1 vs $np ranks)"
        fi
    done
    [ "$have_hdf5" = ON ] || echo "note: no HDF5 in this build: positions compared through the energy table only"
    no_repeats lf3
    grep -q "on each of 3 ranks" "$tmp/lf3.out" && grep -q "^galaxy: mpi: 3 ranks" "$tmp/lf3.err" &&
        ok "the run says it uses 3 ranks" || bad "no report of the ranks"

    # Hermite 4 block steps on a Plummer sphere: same schedule (block-step count) and energies.
    h4=(--model plummer -n 384 --t-end 0.25 --report-every 0.125 "${common[@]}")
    for np in 1 2 3; do run $np h$np "${h4[@]}"; done
    for np in 2 3; do
        blocks1=$(grep -o '^# [0-9]* block steps' "$tmp/h1.out")
        blocks=$(grep -o '^# [0-9]* block steps' "$tmp/h$np.out")
        [ "$(rc h$np)" -eq 0 ] && [ -n "$blocks" ] && [ "$blocks" = "$blocks1" ] &&
            ok "hermite4: $blocks on $np ranks, as on 1" ||
            bad "hermite4 on $np ranks: '$blocks' (exit $(rc h$np)), 1 rank: '$blocks1'"
        same_rows h1 h$np && ok "hermite4: energy table on $np ranks = 1 rank" ||
            { bad "hermite4: energy tables differ"; diff "$tmp/h1.out" "$tmp/h$np.out"; }
    done
    # --profile reports the split per step on every rank count.
    run 2 prof --model plummer -n 256 --integrator leapfrog --eps 0.01 --steps 5 --profile "${common[@]}"
    grep -qE '^# profile: ranks 2, steps 5, active 256, per step ms: force [0-9.e+-]+ exchange [0-9.e+-]+ rest' \
        "$tmp/prof.out" && ok "--profile prints the force/exchange/rest split" ||
        { bad "--profile line missing"; cat "$tmp/prof.out" "$tmp/prof.err"; }
    ;;
fail)
    # A rank that fails at start-up, as one without a GPU does: rank 1 alone asks for CUDA
    # device 255, which no machine has; a build or machine without CUDA fails it for that.
    # Every rank stops, rank 0 prints the one message with rank 1's reason, the exit status
    # is not 0, and nothing hangs (timeout 120).
    args=(--model plummer -n 64 --integrator leapfrog --steps 5 --threads 1)
    ranks init "$galaxy" "${args[@]}" --backend cpu : "$galaxy" "${args[@]}" --backend cuda --device 255 \
        : "$galaxy" "${args[@]}" --backend cpu
    [ "$(rc init)" -ne 0 ] && [ "$(rc init)" -ne 124 ] && ok "rank 1 failing at start-up: exit $(rc init)" ||
        bad "rank 1 failing at start-up: exit $(rc init) (124 = hung)"
    [ "$(errors init)" -eq 1 ] &&
        grep -qE "^galaxy: error: rank 1: (backend 'cuda' is not available|cuda backend: (no usable CUDA device|--device 255 is out of range))" "$tmp/init.err" &&
        ok "one message, from rank 0, naming rank 1 and why" || { bad "messages:"; cat "$tmp/init.err"; }
    [ ! -s "$tmp/init.out" ] && ok "no table printed" || bad "a table was printed"
    # A rank that fails in the middle of an exchange, the others waiting in it: rank 2's
    # first MPI_Allgatherv (the first exchange of positions) returns an error. The job ends
    # (MPI_Abort), with the failing rank's message, and does not hang.
    args+=(--backend cpu)
    ranks exch "$galaxy" "${args[@]}" : "$galaxy" "${args[@]}" : --preload "$fail_exchange" "$galaxy" "${args[@]}"
    [ "$(rc exch)" -ne 0 ] && [ "$(rc exch)" -ne 124 ] && ok "rank 2 failing mid-run: exit $(rc exch)" ||
        bad "rank 2 failing mid-run: exit $(rc exch) (124 = hung)"
    [ "$(errors exch)" -eq 1 ] && grep -q "^galaxy: error: rank 2: mpi: MPI_Allgatherv failed: " "$tmp/exch.err" &&
        ok "one message from galaxy, naming rank 2" || { bad "messages:"; cat "$tmp/exch.err"; }
    # An error another rank's backend finds (bodies 1 and 2, on ranks 1 and 2, coincide with
    # softening 0): every rank stops at the same block, rank 0 reports it, no abort.
    printf '1 0 0 0 0 0 0\n1 1 0 0 0 0.5 0\n1 1 0 0 0 0 0\n' >"$tmp/coincident.tab"
    run 3 coinc --data "$tmp/coincident.tab" --integrator hermite4 --eps 0 --t-end 1 "${common[@]}"
    [ "$(rc coinc)" -eq 2 ] && [ "$(errors coinc)" -eq 1 ] &&
        grep -q "bodies 1 and 2 are at the same place" "$tmp/coinc.err" &&
        ! grep -qE "MPI_ABORT|ORTE_ERROR_LOG" "$tmp/coinc.err" && ok "Hermite error on ranks 1 and 2: reported once by rank 0, exit 2" ||
        { bad "Hermite error over 3 ranks: exit $(rc coinc)"; cat "$tmp/coinc.err"; }
    # A bad file is read by rank 0 only: its message once, every rank stops.
    run 2 file --data "$tmp/missing.tab" --steps 5 "${common[@]}"
    [ "$(rc file)" -eq 1 ] && [ "$(errors file)" -eq 1 ] && grep -q "missing.tab: cannot open" "$tmp/file.err" &&
        ok "missing file on 2 ranks: exit 1, one message" ||
        { bad "missing file: exit $(rc file)"; cat "$tmp/file.err"; }
    # A bad option: every rank parses it, only rank 0 says so.
    run 2 opt --steps 5 --dt nan "${common[@]}"
    [ "$(rc opt)" -eq 2 ] && [ "$(errors opt)" -eq 1 ] && ok "bad option on 2 ranks: exit 2, one message" ||
        { bad "bad option: exit $(rc opt)"; cat "$tmp/opt.err"; }
    # One rank's own command line fails, or asks for --help: every rank ends, promptly, with
    # the one message from rank 0 (before, the job hung).
    args=(--model plummer -n 64 --integrator leapfrog --steps 5 --threads 1 --backend cpu)
    ranks badone "$galaxy" "${args[@]}" : "$galaxy" "${args[@]}" --dt nan
    [ "$(rc badone)" -ne 0 ] && [ "$(rc badone)" -ne 124 ] && [ "$(errors badone)" -eq 1 ] &&
        grep -q "^galaxy: error: rank 1: --dt expects a number" "$tmp/badone.err" &&
        ok "rank 1's bad option: every rank ends, one message naming rank 1" ||
        { bad "rank 1's bad option: exit $(rc badone) (124 = hung)"; cat "$tmp/badone.err"; }
    ranks helpone "$galaxy" "${args[@]}" : "$galaxy" "${args[@]}" --help
    [ "$(rc helpone)" -ne 0 ] && [ "$(rc helpone)" -ne 124 ] &&
        grep -q "^galaxy: error: rank 1: started with other options than rank 0: '--steps 5 --help' where rank 0 has '--steps 5'" "$tmp/helpone.err" &&
        ok "--help on rank 1 alone: refused, every rank ends" ||
        { bad "--help on rank 1 alone: exit $(rc helpone) (124 = hung)"; cat "$tmp/helpone.err"; }
    # Ranks started with different options would run rank 0's: refused, the option named.
    ranks differ "$galaxy" "${args[@]}" : "$galaxy" "${args[@]/--steps/--t-end}"
    [ "$(rc differ)" -ne 0 ] && [ "$(rc differ)" -ne 124 ] && [ "$(errors differ)" -eq 1 ] &&
        grep -q "rank 1: started with other options than rank 0: '--t-end 5" "$tmp/differ.err" &&
        ok "different options on rank 1: refused, naming --t-end" ||
        { bad "different options: exit $(rc differ)"; cat "$tmp/differ.err"; }
    # Modes that time one device refuse to run over several ranks.
    run 2 bench --benchmark -n 256 "${common[@]}"
    [ "$(rc bench)" -eq 2 ] && [ "$(errors bench)" -eq 1 ] && ok "--benchmark on 2 ranks: refused once" ||
        { bad "--benchmark on 2 ranks: exit $(rc bench)"; cat "$tmp/bench.err"; }
    ;;
small)
    # Fewer bodies than ranks: ranks that own none still take part in every exchange.
    for np in 1 3; do
        run $np pyth$np --model pythagorean --t-end 2 --report-every 1 "${common[@]}"
        run $np two$np --model plummer -n 2 --integrator leapfrog --eps 0.1 --steps 20 --report-every 10 "${common[@]}"
        # regularised groups forming, merging and coupled to the rest: every rank runs them alike
        run $np pbin$np --model pythagorean-binaries --t-end 2 --report-every 0.5 "${common[@]}"
    done
    for t in pyth two pbin; do
        [ "$(rc ${t}3)" -eq 0 ] && same_rows ${t}1 ${t}3 && ok "$t: 3 ranks agree with 1" ||
            { bad "$t on 3 ranks: exit $(rc ${t}3)"; cat "$tmp/${t}3.out" "$tmp/${t}3.err"; }
    done
    run 4 pyth4 --model pythagorean --t-end 1 "${common[@]}"
    [ "$(rc pyth4)" -eq 0 ] && ok "3 bodies on 4 ranks" || { bad "3 bodies on 4 ranks: exit $(rc pyth4)"; cat "$tmp/pyth4.err"; }
    ;;
view)
    # Headless frames on rank 0 while rank 1 follows: the picture equals the one-rank
    # picture pixel for pixel (positions are exchanged and gathered exactly).
    unset DISPLAY WAYLAND_DISPLAY # no window system may be touched
    # An AddressSanitizer build keeps Mesa's driver loaded in the one-rank run, as the viewer
    # tests do (tests/viewer/sanitizer.py), so LeakSanitizer can name its leftovers (the
    # ranks under mpiexec have a dlclose that unloads nothing: tests/mpi.cmake).
    asan=$(ldd "$galaxy" | awk '/libasan/ && /=>/ { print $3; exit }')
    driver=$(ls /usr/lib/*/dri/swrast_dri.so 2>/dev/null | head -1)
    preload=()
    [ -n "$asan" ] && [ -n "$driver" ] && preload=(env "LD_PRELOAD=$asan $driver")
    args=(--headless --frames 6 -n 1024 --size 160x100 "${common[@]}")
    pre=("${preload[@]}")
    run 1 view1 "${args[@]}" --screenshot "$tmp/one.png"
    pre=()
    if [ "$(rc view1)" -ne 0 ]; then
        echo "SKIP: headless rendering does not work here:"; cat "$tmp/view1.err"; exit 77
    fi
    run 2 view2 "${args[@]}" --screenshot "$tmp/two.png"
    [ "$(rc view2)" -eq 0 ] && cmp -s "$tmp/one.png" "$tmp/two.png" &&
        ok "headless picture on 2 ranks = 1 rank" ||
        { bad "headless on 2 ranks: exit $(rc view2)"; cat "$tmp/view2.err"; }
    no_repeats view2
    ;;
*)
    echo "unknown part '$part'"; exit 2 ;;
esac
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
