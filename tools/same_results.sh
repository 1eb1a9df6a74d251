#!/usr/bin/env bash
# Runs the same CPU-backend command lines with two builds and says whether their results are identical to the bit.
# SPDX-License-Identifier: MIT
#
# Usage: tools/same_results.sh OLD_BUILD_DIR NEW_BUILD_DIR [WORK_DIR]
#
# For a change that must not change behaviour (a refactor): build the commit before it in a
# worktree, then compare, e.g.
#   git worktree add /tmp/before HEAD~1 && cmake -S /tmp/before -B /tmp/before/build && cmake --build /tmp/before/build -j
#   tools/same_results.sh /tmp/before/build build
# Each run's energy table (every column but wall-clock time), its --save table and its
# final snapshot (every dataset and the Time attribute, compared as raw bytes) must be
# identical. Runs: the galaxy pair with the leapfrog; Plummer spheres with hermite4 and
# hermite6; a restart from the hermite4 run's snapshot; Burrau's problem with its close
# groups; the galaxy pair on 2 MPI ranks (when both builds have MPI and mpiexec exists).
# Exit status: 0 identical, 1 a difference (printed), 2 usage or a run failed.
set -u
old=$(cd "${1:?usage: same_results.sh OLD_BUILD_DIR NEW_BUILD_DIR [WORK_DIR]}" && pwd)
new=$(cd "${2:?usage: same_results.sh OLD_BUILD_DIR NEW_BUILD_DIR [WORK_DIR]}" && pwd)
work=${3:-$(mktemp -d)}
mkdir -p "$work"
status=0

# The wall-clock column (8th) and the timing lines change from run to run; all else must not.
table() {
    grep -v -e '^# [0-9]* \(block \)\?steps in ' -e '^#   host time of the groups' "$1" |
        awk '!/^#/ { $8 = "-" } { print }'
}

# A Python with h5py (Debian's python3-h5py lives in /usr/bin/python3, which a pyenv may shadow).
py=""
for p in python3 /usr/bin/python3; do
    if "$p" -c 'import h5py' 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "same_results: needs Python with h5py (python3-h5py)"; exit 2; }

# Every dataset of a snapshot as raw bytes, with the Time attribute, in a fixed order.
snapshot_digest() {
    "$py" - "$1" <<'EOF'
import hashlib, sys
import h5py
h = hashlib.sha256()
with h5py.File(sys.argv[1], "r") as f:
    h.update(repr(f["Header"].attrs["Time"]).encode())
    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            h.update(name.encode())
            h.update(obj[()].tobytes())
    f.visititems(visit)
print(h.hexdigest())
EOF
}

# run NAME ARGS...: with both builds; compares tables, saved bodies and the last snapshot.
run() {
    local name=$1
    shift
    for side in old new; do
        local dir=$old
        [ "$side" = new ] && dir=$new
        local out="$work/$side/$name"
        rm -rf "$out"
        mkdir -p "$out"
        # @RUN@ in an argument: this side's folder of runs (a restart from an earlier run)
        local args=("${@//@RUN@/$work/$side}")
        if ! (cd "$out" && "${launcher[@]}" "$dir/galaxy" "${args[@]}" --save bodies.tab \
                  --snapshot-dir snaps >table.out 2>log.err); then
            echo "same_results: $name failed with the $side build ($dir):"
            tail -5 "$out/log.err"
            exit 2
        fi
    done
    local a="$work/old/$name" b="$work/new/$name" same=1
    cmp -s <(table "$a/table.out") <(table "$b/table.out") || {
        echo "DIFF $name: energy tables differ"
        diff <(table "$a/table.out") <(table "$b/table.out") | head -6
        same=0
    }
    cmp -s "$a/bodies.tab" "$b/bodies.tab" || { echo "DIFF $name: --save tables differ"; same=0; }
    local last
    last=$(ls "$a/snaps" | sort | tail -1)
    if [ -z "$last" ] || [ ! -f "$b/snaps/$last" ]; then
        echo "DIFF $name: snapshot $last missing in one run"
        same=0
    elif [ "$(snapshot_digest "$a/snaps/$last")" != "$(snapshot_digest "$b/snaps/$last")" ]; then
        echo "DIFF $name: final snapshot $last differs"
        same=0
    fi
    if [ $same = 1 ]; then
        echo "same $name ($(grep -vc '^#' "$a/table.out") table rows, $last)"
    else
        status=1
    fi
}

common=(--backend cpu --threads 2 --quiet)
launcher=()
run leapfrog "${common[@]}" -n 2048 --steps 200 --report-every 50 --snapshot-every 1
run hermite4 "${common[@]}" --model plummer -n 512 --t-end 0.5 --report-every 0.125 \
    --snapshot-every 0.25
run hermite6 "${common[@]}" --model plummer -n 512 --integrator hermite6 --t-end 0.5 \
    --report-every 0.125 --snapshot-every 0.25
# a restart from the hermite4 run's state at t = 0.25; close groups (regularisation)
run hermite4-restart "${common[@]}" --data @RUN@/hermite4/snaps/snapshot_000001.hdf5 \
    --t-end 0.5 --report-every 0.125 --snapshot-every 0.25
run pythagorean "${common[@]}" --model pythagorean --t-end 20 --report-every 5 \
    --snapshot-every 5
if command -v mpiexec >/dev/null && "$old/galaxy" --version | grep -q MPI &&
   "$new/galaxy" --version | grep -q MPI; then
    launcher=(env OMPI_MCA_plm=isolated mpiexec --oversubscribe --allow-run-as-root -n 2)
    run mpi2-leapfrog --backend cpu --threads 1 --quiet -n 2048 --steps 100 --report-every 25 \
        --snapshot-every 1
    run mpi2-hermite4 --backend cpu --threads 1 --quiet --model plummer -n 512 --t-end 0.25 \
        --report-every 0.125 --snapshot-every 0.25
else
    echo "skip mpi2: a build without MPI, or no mpiexec"
fi
[ $status = 0 ] && echo "same_results: identical" || echo "same_results: DIFFERENT"
exit $status
