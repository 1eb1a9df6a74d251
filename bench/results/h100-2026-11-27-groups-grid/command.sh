#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
echo "this: $(cat .devviewer/built-from)  ref: $(cat .devref/built-from)"
timeout 100 $B/test_hermite cuda double > $OUT/test_hermite_cuda_double.log 2>&1; echo "test_hermite cuda double rc=$?"; grep -E "groups GPU|failed|passed" $OUT/test_hermite_cuda_double.log
for n in 16384 65536; do for t in 0.001 0.004; do for v in this ref; do
  G=$B/galaxy-bench; [ $v = ref ] && G=.devref/galaxy-bench
  timeout -s KILL 100 $G --model plummer-binaries -n $n --backend cuda --t-end $t --report-every $t > $T/g.log 2>&1; rc=$?
  echo "## $v N=$n t=$t rc=$rc: $(grep -E 'block steps in' $T/g.log | cut -c1-40) | $(grep -E 'host time' $T/g.log | tail -1 | cut -c5-)"
  grep -E "^ +[0-9]+ +[0-9.]+ " $T/g.log | tail -1 | cut -c1-80
done; done; done 2>&1 | tee $OUT/groups.txt
date -u
