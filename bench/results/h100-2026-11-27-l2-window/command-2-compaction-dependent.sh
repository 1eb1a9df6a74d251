#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "H: b47964f (head)  P: H + the compaction launched as a programmatic dependent of the correction  P16: P + 16 block steps a loop trip"
for a in mixed double; do f=$OUT/th_P_$a.log; s=$(date +%s); timeout 200 .devref/th_P cuda $a > $f 2>&1; echo "test_hermite P cuda $a rc=$? $(( $(date +%s)-s ))s"; grep -E "GPU vs CPU|failed|FAIL" $f|head -6; done
for v in P H; do echo "table2 $v"; timeout 120 .devref/gb_$v --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -2 | tee $OUT/table2_$v.txt; done
date -u
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in P P16 H; do run $v 1048576 0.00390625 $r; done; for v in P P16 H; do run $v 65536 0.125 $r; done; done; for v in P H; do run $v 262144 0.03125 1; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==512||$1==8192||$1==32768||$1==262144||$1==524288) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
