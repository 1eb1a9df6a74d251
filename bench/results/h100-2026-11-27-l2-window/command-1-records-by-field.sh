#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "H: b47964f (head)  S: H + source records in chunks of 32, field by field  S16: S + 16 block steps a loop trip"
for v in H S S16; do for a in mixed double; do [ $v = S16 ] && [ $a = double ] && continue; f=$OUT/th_${v}_$a.log; s=$(date +%s); timeout 200 .devref/th_$v cuda $a > $f 2>&1; echo "test_hermite $v cuda $a rc=$? $(( $(date +%s)-s ))s"; grep -E "GPU vs CPU|failed|FAIL" $f|head -6; done; done
for v in H S; do echo "table2 $v"; timeout 120 .devref/gb_$v --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -2 | tee $OUT/table2_$v.txt; done
date -u
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in S S16 H; do run $v 1048576 0.00390625 $r; done; for v in S S16 H; do run $v 65536 0.125 $r; done; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==512||$1==8192||$1==32768||$1==262144||$1==524288) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
M1=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
for v in S H; do timeout 100 ncu --clock-control none --cache-control none --metrics $M1 --csv -k regex:"h_force" .devref/hb_$v 1048576 4 0.00390625 cuda mixed > $T/n_$v.csv 2>$T/n_$v.err; echo "ncu $v rc=$?"; python3 .devref/ncu_pick.py $T/n_$v.csv "$v N=1048576" | tee $OUT/ncu_m1_$v.txt | cut -c1-400; done
date -u
