#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin; R=.devref/hermite_blocks
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader; nproc
echo "this: $(cat .devviewer/built-from)  ref: $(cat .devref/built-from)"
for t in "test_hermite cuda mixed" "test_hermite cuda double"; do f=$OUT/$(echo $t|tr ' ' _).log; timeout 200 $B/$t > $f 2>&1; echo "$t rc=$?"; grep -E "GPU vs CPU|device loop|groups|failed|FAIL" $f|head -8; done
for n in "65536 0.125 3" "1048576 0.00390625 3"; do set -- $n; for r in $(seq $3); do for v in this ref; do H=$B/hermite_blocks; [ $v = ref ] && H=$R; echo "## $v N=$1 round $r"; timeout 150 $H $1 4 $2 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop|host-driven \('; done; done; done > $OUT/blocks.txt 2>&1
grep -E '##|^ +(1|2) ' $OUT/blocks.txt | cut -c1-140
date -u
M1=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,smsp__issue_active.avg.pct_of_peak_sustained_active
timeout 200 ncu --clock-control none --cache-control none --metrics $M1 --csv -k regex:"h_select|h_force|h_correct" $B/hermite_blocks 1048576 4 0.00390625 cuda mixed > $T/n1.csv 2>$T/n1.err; echo "ncu 2^20 rc=$?"; python3 .devref/ncu_pick.py $T/n1.csv N=1048576 | tee $OUT/ncu_m1.txt | cut -c1-400
date -u
timeout 200 ncu --clock-control none --cache-control none --metrics gpu__time_duration.sum --csv -k regex:"h_force" $B/hermite_blocks 262144 4 0.03125 cuda mixed > $T/n2.csv 2>$T/n2.err; echo "ncu pass1 rc=$?"
idx=$(python3 .devref/ncu_pick.py $T/n2.csv --index 'h_force<4'); echo "longest h_force<4> launch: $idx"
M2=sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_xu_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second
timeout 200 ncu --clock-control none --cache-control none -k regex:"h_force" --launch-skip $idx --launch-count 1 --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --metrics $M2 $B/hermite_blocks 262144 4 0.03125 cuda mixed > $OUT/ncu_force262k.txt 2>&1; echo "ncu pass2 rc=$?"; grep -E "h_force|issue_active|pipe_|inst_executed|warps_active|dram__|duration|Stall|Warp Cycles|Registers|Achieved|Theoretical Occ|cycles_elapsed" $OUT/ncu_force262k.txt | head -40
date -u
for n in 16384 65536; do for t in 0.001 0.004; do for v in this ref plain; do
  G=$B/galaxy-bench; M=plummer-binaries; [ $v = ref ] && G=.devref/galaxy-bench; [ $v = plain ] && M=plummer
  timeout -s KILL 100 $G --model $M -n $n --backend cuda --t-end $t --report-every $t > $T/g.log 2>&1; rc=$?
  echo "## $v N=$n t=$t rc=$rc: $(grep -E 'block steps in' $T/g.log | cut -c1-40) | $(grep -E 'host time' $T/g.log | tail -1 | cut -c5-) | $(grep -E 'regularisation radius' $T/g.log | cut -c1-40)"
  grep -E "^ +[0-9]+ +[0-9.]+ |^#   groups" $T/g.log | tail -2 | cut -c1-120
done; done; done 2>&1 | tee $OUT/groups.txt
date -u
