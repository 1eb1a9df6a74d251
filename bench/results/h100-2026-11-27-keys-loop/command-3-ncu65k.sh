#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u
M1=gpu__time_duration.sum,dram__bytes_read.sum,lts__t_sector_hit_rate.pct,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active
for v in T V3; do timeout 120 ncu --clock-control none --cache-control none --metrics $M1 --csv -k regex:"h_select_compact|h_force|h_correct" .devref/hb_$v 65536 4 0.0078125 cuda mixed > $T/n_$v.csv 2>$T/n_$v.err; echo "ncu $v rc=$?"; python3 .devref/ncu_pick.py $T/n_$v.csv "$v N=65536" | tee $OUT/ncu65k_$v.txt | grep -E "launches|shortest" | cut -c1-400; done
date -u
