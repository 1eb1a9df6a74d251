#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "V4: 01c3f71 (head)  L2/L4: head + 2/4 block steps per iteration of the graph's while loop  T: 7d058af (ref)"
for t in "cuda mixed" "cuda double"; do f=$OUT/th_L4_$(echo $t|tr ' ' _).log; timeout 200 .devref/th_L4 $t > $f 2>&1; echo "th_L4 $t rc=$?"; grep -E "GPU vs CPU|failed|FAIL|passed" $f|head -8; done
date -u
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in V4 L2 L4 T; do run $v 1048576 0.00390625 $r; done; for v in V4 L2 L4 T; do run $v 65536 0.125 $r; done; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==512||$1==8192||$1==32768) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
grep -E "backend loop" $OUT/blocks.txt | head -4
date -u
