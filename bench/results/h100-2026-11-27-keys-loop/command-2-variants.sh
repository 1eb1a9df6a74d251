#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "T: 7d058af (ref)  K: cfb6f58 (keys in compaction and force)  V1: keys in compaction only  V2: V1 + launch_dependents in compaction, force  V3: V2 + correction reads ctl before its wait"
for t in "cuda mixed" "cuda double"; do f=$OUT/th_V3_$(echo $t|tr ' ' _).log; timeout 200 .devref/th_V3 $t > $f 2>&1; echo "th_V3 $t rc=$?"; grep -E "GPU vs CPU|failed|FAIL|passed" $f|head -8; done
date -u
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in T K V1 V2 V3; do run $v 1048576 0.00390625 $r; done; for v in T K V1 V2 V3; do run $v 65536 0.125 $r; done; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==8192||$1==32768) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
