#!/usr/bin/env bash
# Study: the tree's walk with the acceleration-scaled opening criterion (GC_STUDY_ALPHA)
# against theta 0.5, same binary, same device call. Output: $OUT/study.log
set -u
ROOT=$(pwd); OUT=${OUT:-$ROOT/out}; mkdir -p "$OUT"
exec > >(tee -a "$OUT/study.log") 2>&1
T=/tmp/gcs; mkdir -p $T
xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
B=$T/viewer/bin/galaxy-bench
DUB=$ROOT/.devviewer/dubinski.tab.gz
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
cat .devviewer/built-from
row() { # label env... -- args
    local label=$1; shift
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
    local r
    r=$(env "${envs[@]}" timeout -s KILL 150 "$B" --backend cuda --benchmark --force tree --quiet "$@" 2>&1 | grep -E '^ +[0-9]+ +[0-9.]+ ' | tail -1)
    echo "$label | $r"
}
row "1M theta 0.5" X=1 -- -n 1048576 --repeats 5
row "1M prev alpha=7e-4" GC_STUDY_ALPHA=7e-4 -- -n 1048576 --repeats 5
for a in 5e-4 7e-4 1e-3; do row "1M coarse2 alpha=$a" GC_STUDY_ALPHA=$a GC_STUDY_EST=2 -- -n 1048576 --repeats 5; done
row "1M coarse1 alpha=7e-4" GC_STUDY_ALPHA=7e-4 GC_STUDY_EST=1 -- -n 1048576 --repeats 5
row "dubinski theta 0.5" X=1 -- --data "$DUB" --repeats 5
row "dubinski coarse2 alpha=7e-4" GC_STUDY_ALPHA=7e-4 GC_STUDY_EST=2 -- --data "$DUB" --repeats 5
row "4M theta 0.5" X=1 -- -n 4194304 --repeats 5
row "4M coarse2 alpha=7e-4" GC_STUDY_ALPHA=7e-4 GC_STUDY_EST=2 -- -n 4194304 --repeats 5
row "16M theta 0.5" X=1 -- -n 16777216 --repeats 3
row "16M coarse2 alpha=7e-4" GC_STUDY_ALPHA=7e-4 GC_STUDY_EST=2 -- -n 16777216 --repeats 3
echo done
