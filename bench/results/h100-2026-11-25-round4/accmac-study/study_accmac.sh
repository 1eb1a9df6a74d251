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
for a in none 3e-4 5e-4 7e-4 1e-3; do
    if [ $a = none ]; then e=(X=1); else e=(GC_STUDY_ALPHA=$a); fi
    row "1M alpha=$a" "${e[@]}" -- -n 1048576 --repeats 5
done
for a in none 5e-4 1e-3; do
    if [ $a = none ]; then e=(X=1); else e=(GC_STUDY_ALPHA=$a); fi
    row "dubinski alpha=$a" "${e[@]}" -- --data "$DUB" --repeats 5
done
for a in none 5e-4; do
    if [ $a = none ]; then e=(X=1); else e=(GC_STUDY_ALPHA=$a); fi
    row "4M alpha=$a" "${e[@]}" -- -n 4194304 --repeats 5
done
for a in none 5e-4; do
    if [ $a = none ]; then e=(X=1); else e=(GC_STUDY_ALPHA=$a); fi
    row "16M alpha=$a" "${e[@]}" -- -n 16777216 --repeats 3
done
echo done
