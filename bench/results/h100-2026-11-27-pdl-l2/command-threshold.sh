#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; echo "T: $(git log -1 --format=%h 2>/dev/null) A: $(cat .devref/built-from)"
run() { echo "## $1 N=$2 round $4"; timeout 60 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for v in T A; do run $v 1048576 0.00390625 1; done; for v in T A; do run $v 65536 0.125 1; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==8192||$1==32768) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
timeout 60 .devref/th_T cuda mixed > $OUT/th_T_mixed.log 2>&1; echo "th_T mixed rc=$?"; grep -E "GPU vs CPU|checks passed|FAIL|failed" $OUT/th_T_mixed.log | head
date -u
