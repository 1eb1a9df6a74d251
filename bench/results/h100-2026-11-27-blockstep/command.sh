#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin; R=.devref/hermite_blocks
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "this: $(cat .devviewer/built-from)  ref: $(cat .devref/built-from)"
for t in "test_hermite cuda mixed" "test_hermite cuda double"; do f=$OUT/$(echo $t|tr ' ' _).log; timeout 200 $B/$t > $f 2>&1; echo "$t rc=$?"; grep -E "GPU vs CPU|device loop|groups|failed|FAIL" $f|head -12; done
timeout 120 $B/galaxy-bench --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -3 | tee $OUT/table2.txt
for n in "65536 0.125 3" "1048576 0.00390625 3" "262144 0.03125 2"; do set -- $n; for r in $(seq $3); do for v in this ref; do H=$B/hermite_blocks; [ $v = ref ] && H=$R; echo "## $v N=$1 round $r"; timeout 150 $H $1 4 $2 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop|host-driven \('; done; done; done > $OUT/blocks.txt 2>&1
grep -E '##|backend loop|^ +(1|2|4|8|4096|8192|65536) ' $OUT/blocks.txt | cut -c1-140
for n in "1048576 0.00390625" "65536 0.0078125"; do set -- $n; timeout 200 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv -k regex:"h_select|h_force|h_correct" $B/hermite_blocks $1 4 $2 cuda mixed > /tmp/ncu_$1.csv 2>/tmp/ncu_$1.err; echo "ncu $1 rc=$?"; python3 .devref/ncu_kernel_times.py /tmp/ncu_$1.csv N=$1 | tee -a $OUT/ncu.txt; done
timeout 120 compute-sanitizer --tool memcheck $B/hermite_blocks 2048 4 0.004 cuda mixed > $OUT/memcheck.txt 2>&1; echo "memcheck rc=$?"; tail -1 $OUT/memcheck.txt
date -u
