#!/usr/bin/env bash
# What a run writes must not change the run, and what it writes must say what it is:
#  - a Hermite run ends in the same state, to the bit, whatever its --report-every and
#    --snapshot-every (dt_max is a physics setting, outputs between block times predict);
#    and so does a leapfrog run, with all pairs and with the tree;
#  - a table written by --save (17 digits) and read back with --data is the same set of
#    bodies to the bit, and a Hermite run from it is the run from the model itself;
#  - snapshot names sort in time order past snapshot 999;
#  - the log shows Myr only for galaxy units (not for a cluster, a cluster's table or its
#    snapshots), and shows it for the Dubinski-style galaxy table.
# Usage: test_outputs.sh GALAXY
set -u
bin="$1"
tmp="${GC_TEST_TMP:-/tmp}/outputs"
rm -rf "$tmp"
mkdir -p "$tmp"
cd "$tmp" || exit 1
fail=0; pass=0
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && tail -n 5 "$2"; fail=$((fail + 1)); }
ok() { pass=$((pass + 1)); }

# ---- output settings do not change the trajectory ----
# The Pythagorean problem to t = 3 (two close approaches) and a small Plummer sphere, each
# with three output schedules: the end only, reports every 0.1 and snapshots every 0.75,
# reports every 0.37 (not a block time) and snapshots every 1.5.
for integ in hermite4 hermite6; do
    for model in pythagorean plummer; do
        case $model in
        pythagorean) args=(--model pythagorean) ;;
        plummer) args=(--model plummer -n 64) ;;
        esac
        k=0
        for sched in "--snapshot-every 3" "--report-every 0.1 --snapshot-every 0.75" \
                     "--report-every 0.37 --snapshot-every 1.5"; do
            k=$((k + 1))
            d="$integ.$model.$k"
            # shellcheck disable=SC2086
            "$bin" --backend cpu "${args[@]}" --integrator "$integ" --t-end 3 $sched \
                --snapshot-dir "$d" >"$d.out" 2>"$d.err" || { bad "$d: the run failed" "$d.err"; continue; }
            n=$(ls "$d" | tail -n 1)
            "$bin" --backend cpu --data "$d/$n" --t-end 3.001 --quiet --save "$d.tab" \
                >/dev/null 2>"$d.c.err" || bad "$d: reading $n back failed" "$d.c.err"
        done
        if cmp -s "$integ.$model.1.tab" "$integ.$model.2.tab" &&
           cmp -s "$integ.$model.1.tab" "$integ.$model.3.tab"; then
            ok
        else
            bad "$integ $model: the state at t = 3 depends on --report-every/--snapshot-every"
        fi
        # The header names dt_max as given (the default), not one fitted to the outputs.
        grep -q "dt_max 0.125, to t = 3" "$integ.$model.3.out" && ok ||
            bad "$integ $model: dt_max is not the default 0.125" "$integ.$model.3.out"
    done
done

# ---- nor a leapfrog run: every step is whole, however the steps are split into calls ----
# The galaxy pair to t = 0.4 (40 steps), with all pairs and with the tree, three schedules:
# the end only, reports and snapshots every 0.1, and every 0.2. The state at t = 0.2 (a
# snapshot read back) and at the end must be the same bits in each.
for force in allpairs tree; do
    k=0
    for every in "" 0.1 0.2; do
        k=$((k + 1))
        d="lf.$force.$k"
        sched=()
        [ -n "$every" ] && sched=(--report-every "$every" --snapshot-every "$every" --snapshot-dir "$d")
        "$bin" --backend cpu -n 2048 --force "$force" --t-end 0.4 "${sched[@]}" --save "$d.tab" \
            >"$d.out" 2>"$d.err" || { bad "$d: the run failed" "$d.err"; continue; }
    done
    cmp -s "lf.$force.1.tab" "lf.$force.2.tab" && cmp -s "lf.$force.1.tab" "lf.$force.3.tab" &&
        ok || bad "leapfrog, $force: the state at t = 0.4 depends on --report-every/--snapshot-every"
    for d in "lf.$force.2/snapshot_000002.hdf5" "lf.$force.3/snapshot_000001.hdf5"; do
        "$bin" --backend cpu --data "$d" --t-end 0.2001 --quiet --save "$d.tab" >/dev/null \
            2>"$d.err" || bad "reading $d back failed" "$d.err"
    done
    cmp -s "lf.$force.2/snapshot_000002.hdf5.tab" "lf.$force.3/snapshot_000001.hdf5.tab" && ok ||
        bad "leapfrog, $force: the snapshots at t = 0.2 differ between --snapshot-every 0.1 and 0.2"
done

# ---- a restart from a snapshot between block times is the run it continues ----
# t = 0.3 is no multiple of dt_max: the snapshot's bodies are predictions, its
# /IntegratorState each body's own last step, which the restart goes on from.
for integ in hermite4 hermite6; do
    "$bin" --backend cpu --model plummer -n 64 --integrator "$integ" --t-end 1.2         --snapshot-every 0.3 --snapshot-dir "rA.$integ" >/dev/null 2>"rA.$integ.err" ||
        bad "$integ: the run to 1.2 failed" "rA.$integ.err"
    "$bin" --backend cpu --data "rA.$integ/$(ls "rA.$integ" | sed -n 2p)" --t-end 1.2         --snapshot-every 0.3 --snapshot-dir "rB.$integ" >/dev/null 2>"rB.$integ.err" ||
        bad "$integ: the restart from t = 0.3 failed" "rB.$integ.err"
    grep -q "with its integrator state" "rB.$integ.err" && ! grep -q "not used" "rB.$integ.err" &&
        ok || bad "$integ: the restart at t = 0.3 did not take the integrator state" "rB.$integ.err"
    for side in rA rB; do
        "$bin" --backend cpu --data "$side.$integ/$(ls "$side.$integ" | tail -n 1)" --t-end 1.3             --quiet --save "$side.$integ.tab" >/dev/null 2>>"$side.$integ.err" ||
            bad "reading $side.$integ's last snapshot failed" "$side.$integ.err"
    done
    cmp -s "rA.$integ.tab" "rB.$integ.tab" && ok ||
        bad "$integ: the restart from t = 0.3 is not the continuous run at t = 1.2"
done

# ---- --save / --data keep double precision ----
"$bin" --backend cpu --model plummer -n 64 --t-end 0.01 --quiet --save p.tab >/dev/null 2>p.err ||
    bad "--save of a Plummer sphere failed" p.err
"$bin" --backend cpu --data p.tab --integrator hermite4 --eps 0.00390625 --t-end 0.01 --quiet \
    --save p2.tab >/dev/null 2>p2.err || bad "--data p.tab failed" p2.err
cmp -s p.tab p2.tab && ok || bad "--save -> --data -> --save is not the same table"
# A Hermite run from the table is the run from the model: the same state at t = 0.5.
"$bin" --backend cpu --model plummer -n 64 --t-end 0.5 --snapshot-every 0.5 --snapshot-dir pm \
    >/dev/null 2>pm.err || bad "the Plummer run failed" pm.err
"$bin" --backend cpu --data p.tab --integrator hermite4 --eps 0.00390625 --t-end 0.5 \
    --snapshot-every 0.5 --snapshot-dir pd >/dev/null 2>pd.err || bad "the run from p.tab failed" pd.err
for side in pm pd; do
    "$bin" --backend cpu --data "$side/$(ls "$side" | tail -n 1)" --t-end 0.6 --quiet --save "$side.tab" \
        >/dev/null 2>>"$side.err" || bad "reading $side's snapshot failed" "$side.err"
done
cmp -s pm.tab pd.tab && ok || bad "a hermite4 run from the --save table is not the run from the model"

# ---- snapshot names sort in time order ----
"$bin" --backend cpu --model pythagorean --t-end 1.001 --snapshot-every 0.001 --snapshot-dir many \
    >/dev/null 2>many.err || bad "1002 snapshots: the run failed" many.err
names=$(ls many)
[ "$(wc -l <<<"$names")" -eq 1002 ] && ok || bad "1002 snapshots: $(wc -l <<<"$names") files"
[ "$(head -n 1 <<<"$names")" = snapshot_000000.hdf5 ] && [ "$(tail -n 1 <<<"$names")" = snapshot_001001.hdf5 ] &&
    ok || bad "snapshot names do not sort in time order: first $(head -n 1 <<<"$names"), last $(tail -n 1 <<<"$names")"
# ... and by time: the file sorted last by name is the latest.
"$bin" --backend cpu --data "many/$(tail -n 1 <<<"$names")" --t-end 1.002 >/dev/null 2>last.err
grep -q "at t = 1.001" last.err && ok || bad "the last name is not the last time" last.err

# ---- units in the log ----
"$bin" --backend cpu --model plummer -n 64 --t-end 0.5 --snapshot-every 0.5 --snapshot-dir u1 \
    >u1.out 2>u1.err
! grep -q "Myr" u1.err u1.out && ok || bad "a Plummer run logs Myr" u1.err
"$bin" --backend cpu --data p.tab --t-end 0.5 --snapshot-every 0.5 --snapshot-dir u2 --integrator hermite4 \
    >u2.out 2>u2.err
! grep -q "Myr" u2.err u2.out && ok || bad "a run from a Plummer table logs Myr" u2.err
"$bin" --backend cpu --data "u1/$(ls u1 | tail -n 1)" -n 32 --t-end 1 >u3.out 2>u3.err
! grep -q "Myr" u3.err u3.out && ok || bad "a run thinned from a Plummer snapshot logs Myr" u3.err
# A galaxy table (the built-in galaxy saved) is in the Dubinski units: Myr.
"$bin" --backend cpu --model single -n 64 --steps 1 --quiet --save g.tab >/dev/null 2>&1
"$bin" --backend cpu --data g.tab --steps 2 --snapshot-every 0.01 --snapshot-dir u4 >u4.out 2>u4.err
grep -q "time\[Myr\]" u4.out && grep -q "Myr)" u4.err && ok || bad "a galaxy table does not log Myr" u4.err

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
