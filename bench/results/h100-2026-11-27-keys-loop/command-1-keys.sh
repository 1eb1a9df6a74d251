#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "bundle: $(cat .devviewer/built-from)  K: cfb6f58 (level-byte keys)  U: K + sum_slices unroll 4  T: 7d058af (ref)"
for t in "test_hermite cuda mixed" "test_hermite cuda double"; do f=$OUT/$(echo $t|tr ' ' _).log; timeout 200 $B/$t > $f 2>&1; echo "$t rc=$?"; grep -E "GPU vs CPU|failed|FAIL|passed|groups" $f|head -8; done
timeout 120 $B/galaxy-bench --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -2 | tee $OUT/table2.txt
timeout -s KILL 100 $B/galaxy-bench --model plummer-binaries -n 16384 --backend cuda --t-end 0.004 --report-every 0.004 > $OUT/binaries.log 2>&1; echo "binaries rc=$?"; grep -E "block steps in|error" $OUT/binaries.log | head -3
date -u
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in K U T; do run $v 1048576 0.00390625 $r; done; for v in K U T; do run $v 65536 0.125 $r; done; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==8192||$1==32768) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
M1=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
timeout 150 ncu --clock-control none --cache-control none --metrics $M1 --csv -k regex:"h_select_compact|h_force|h_correct" .devref/hb_K 1048576 4 0.00390625 cuda mixed > $T/n_K.csv 2>$T/n_K.err; echo "ncu K rc=$?"; python3 .devref/ncu_pick.py $T/n_K.csv "K N=1048576" | tee $OUT/ncu_m1_K.txt | cut -c1-330
date -u
