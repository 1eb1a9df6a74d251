#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "H: b47964f  K80: the records' first bytes persisting (hit ratio 1) in 4/5 of the largest set-aside (the committed build)  K70/K60: 7/10, 6/10"
for a in mixed double; do f=$OUT/th_K80_$a.log; s=$(date +%s); timeout 200 .devref/th_K80 cuda $a > $f 2>&1; echo "test_hermite K80 cuda $a rc=$? $(( $(date +%s)-s ))s"; grep -E "GPU vs CPU|failed|FAIL" $f|head -6; done
echo "table2 K80"; timeout 120 .devref/gb_K80 --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -2 | tee $OUT/table2_K80.txt
timeout 60 .devref/gb_K80 --model plummer -n 1048576 --integrator hermite4 --t-end 0.0001 --backend cuda 2>&1 | grep -i "L2" | head -2
date -u
run() { echo "## $1 N=$2 round $4"; timeout 150 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2 3; do for v in K80 K70 K60 H; do run $v 1048576 0.00390625 $r; done; done; for v in K80 H; do run $v 262144 0.03125 1; run $v 65536 0.125 1; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==8192||$1==32768||$1==524288) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
{ for v in K80 H; do run $v 2097152 0.0009765625 1; done; } > $OUT/blocks2m.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==32768||$1==524288) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks2m.txt | sort -k2,2 -k3,3V -k1,1
date -u
