#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nproc
echo "this: $(cat .devviewer/built-from)  ref: $(cat .devref/built-from)"
for t in "test_hermite cuda mixed" "test_hermite cuda double"; do f=$OUT/$(echo $t|tr ' ' _).log; timeout 200 $B/$t > $f 2>&1; echo "$t rc=$?"; grep -E "GPU vs CPU|failed|FAIL|passed" $f|head -8; done
timeout 120 $B/galaxy-bench --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -2 | tee $OUT/table2.txt
for n in "65536 0.125" "1048576 0.00390625"; do set -- $n; for v in this ref; do H=$B/hermite_blocks; [ $v = ref ] && H=.devref/hermite_blocks; echo "## $v N=$1"; timeout 150 $H $1 4 $2 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; done; done > $OUT/blocks.txt 2>&1
grep -E '##|backend loop|^ +(1|2|4|4096|8192) ' $OUT/blocks.txt | cut -c1-140
for n in 16384 65536; do for t in 0.001 0.004; do for m in plummer plummer-binaries; do for v in this ref; do
  G=$B/galaxy-bench; [ $v = ref ] && G=.devref/galaxy-bench
  timeout -s KILL 200 $G --model $m -n $n --backend cuda --t-end $t --report-every $t > $T/g.log 2>&1; rc=$?
  echo "## $v $m N=$n t=$t rc=$rc: $(grep -E 'block steps in' $T/g.log | cut -c1-40) | $(grep -E 'host time' $T/g.log | tail -1 | cut -c5-)"
  grep -E "error" $T/g.log | head -2; grep -E "^ +[0-9]+ +[0-9.]+ " $T/g.log | tail -1 | cut -c1-100
done; done; done; done 2>&1 | tee $OUT/groups.txt
date -u
