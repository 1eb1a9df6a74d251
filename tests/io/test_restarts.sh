#!/usr/bin/env bash
# A restart is the run it continues: from a snapshot at t = 1 to t = 2, a run must end with
# the bodies of the continuous run to the bit, and so must a further step from each (the
# integrator's own state, not only the bodies), for the leapfrog, hermite4 and hermite6 on
# the CPU backend. A snapshot given to --data brings its settings back; settings given on
# the command line win and are named.
# Usage: test_restarts.sh GALAXY
set -u
bin="$1"
tmp="${GC_TEST_TMP:-/tmp}/restarts"
rm -rf "$tmp"
mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0; pass=0
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && tail -n 5 "$2"; fail=$((fail + 1)); }


for integ in leapfrog hermite4 hermite6; do
    case $integ in
    leapfrog) model=(-n 512) ;;
    *) model=(--model plummer -n 256 --integrator "$integ") ;;
    esac
    # A: the continuous run, snapshots at t = 0, 1, 2.
    "$bin" --backend cpu "${model[@]}" --t-end 2 --snapshot-every 1 --snapshot-dir "A_$integ" \
        >"A_$integ.out" 2>"A_$integ.err" || { bad "$integ: the continuous run failed" "A_$integ.err"; continue; }
    # B: from A's snapshot at t = 1, with nothing but the times.
    "$bin" --backend cpu --data "A_$integ/snapshot_000001.hdf5" --t-end 2 --snapshot-every 1 \
        --snapshot-dir "B_$integ" >"B_$integ.out" 2>"B_$integ.err" ||
        { bad "$integ: the restart failed" "B_$integ.err"; continue; }
    [ -f "B_$integ/snapshot_000002.hdf5" ] || { bad "$integ: the restart did not write snapshot_000002" "B_$integ.err"; continue; }
    # The state at t = 2, and one step further from each (the integrator state carried on).
    for side in A B; do
        "$bin" --backend cpu --data "${side}_$integ/snapshot_000002.hdf5" --t-end 2.5 --quiet \
            --save "${side}_$integ.t2.tab" --snapshot-every 0.5 --snapshot-dir "${side}_$integ.c" \
            >/dev/null 2>"${side}_$integ.c.err" || bad "$integ: continuing $side failed" "${side}_$integ.c.err"
        "$bin" --backend cpu --data "${side}_$integ.c/snapshot_000005.hdf5" --t-end 3 --quiet \
            --save "${side}_$integ.t25.tab" >/dev/null 2>>"${side}_$integ.c.err" ||
            bad "$integ: reading $side's t = 2.5 failed" "${side}_$integ.c.err"
    done
    if cmp -s "A_$integ.t2.tab" "B_$integ.t2.tab" && cmp -s "A_$integ.t25.tab" "B_$integ.t25.tab"; then
        pass=$((pass + 1))
    else
        bad "$integ: the restart is not the continuous run at t = 2 and 2.5 (--save tables differ)"
    fi
    # Its table goes on with the continuous run's clock and energies.
    last_a=$(grep -v '^#' "A_$integ.out" | tail -n 1 | awk '{ print $2, $3 }')
    last_b=$(grep -v '^#' "B_$integ.out" | tail -n 1 | awk '{ print $2, $3 }')
    [ "$last_a" = "$last_b" ] && pass=$((pass + 1)) ||
        bad "$integ: the restart's last row ($last_b) is not the continuous run's ($last_a)"
done

# The settings come back: a Plummer/hermite4 snapshot given with no options continues with
# hermite4 and its eps (it used to go on with the leapfrog and eps 0.025).
grep -q "integrator hermite4, eps 0.00390625" B_hermite4.out && pass=$((pass + 1)) ||
    bad "the hermite4 snapshot did not bring its integrator and eps back" B_hermite4.out
grep -q "the run continues from there (hermite4, eps 0.00390625, with its integrator state)" \
    B_hermite4.err && pass=$((pass + 1)) || bad "the restart does not say what it continues" B_hermite4.err
# Told otherwise: the given value wins and is named.
out=$("$bin" --backend cpu --data A_hermite4/snapshot_000001.hdf5 --t-end 1.25 --eps 0.01 2>&1 >/dev/null)
grep -q "told otherwise: --eps 0.01 (its run: 0.00390625)" <<<"$out" && pass=$((pass + 1)) ||
    bad "--eps given against the snapshot's: not named: $out"
# -n thins a snapshot into new initial conditions at t = 0, with its settings.
out=$("$bin" --backend cpu --data A_hermite4/snapshot_000001.hdf5 -n 128 --t-end 0.25 2>&1)
grep -q "128 bodies, backend cpu.*integrator hermite4" <<<"$out" && pass=$((pass + 1)) ||
    bad "-n 128 of a hermite4 snapshot: $out"

# A restart state whose body is off its step's time grid (a tick that is no multiple of its
# level's step: a corrupt file) is refused with one message, before any step.
py=
for p in python3 /usr/bin/python3; do
    command -v "$p" >/dev/null 2>&1 && "$p" -c "import h5py" 2>/dev/null && { py=$p; break; }
done
if [ -n "$py" ]; then
    cp A_hermite4/snapshot_000001.hdf5 offgrid.hdf5
    "$py" - <<'PY' || bad "could not write offgrid.hdf5"
import h5py
with h5py.File("offgrid.hdf5", "r+") as f:
    t = f["IntegratorState/Tick"]
    t[3] = t[3] + 1
PY
    out=$("$bin" --backend cpu --data offgrid.hdf5 --t-end 1.25 2>&1 >/dev/null); rc=$?
    [ "$rc" -eq 2 ] && grep -q "body 3: level .* multiple of the level's step" <<<"$out" &&
        pass=$((pass + 1)) || bad "an off-grid restart tick: exit $rc, $out"
    # Values a file gives meet the command line's ranges: a tick far past the snapshot's
    # time (2^62), one on its grid but a step past it, and an eta --eta would refuse.
    for case in far:"t[3] = 2**62" ahead:"t[3] = t[3] + (1 << (40 - int(f['IntegratorState/Level'][3]))) * 8" \
                eta:"f['Parameters'].attrs['Eta'] = 1e10"; do
        name=${case%%:*}
        cp A_hermite4/snapshot_000001.hdf5 "$name.hdf5"
        "$py" - "$name.hdf5" "${case#*:}" <<'PY' || bad "could not write $name.hdf5"
import sys
import h5py
with h5py.File(sys.argv[1], "r+") as f:
    t = f["IntegratorState/Tick"]
    exec(sys.argv[2])
PY
        out=$("$bin" --backend cpu --data "$name.hdf5" --t-end 1.25 2>&1 >/dev/null); rc=$?
        case $name in
        eta) want="eta 1e+10 is out of range (--eta takes 1e-06 to 10)" ;;
        *) want="body 3: level .* at or before the state's time" ;;
        esac
        [ "$rc" -eq 2 ] && grep -q "$want" <<<"$out" && pass=$((pass + 1)) ||
            bad "restart state out of range ($name): exit $rc, $out"
    done
else
    echo "FAIL: python3 with h5py is needed for the off-grid restart check"; fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
