#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin; cp $B/hermite_blocks .devref/hb_H
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
# A ref 51a0606; B d32b5f2 (pdl + L2 window, limit = max); C = B, limit = records' bytes; D = B without window; E = B without pdl; F = H without U16; G = H without block correction; H = e3890a2
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in A B C D E F G H; do run $v 65536 0.125 $r; done; done
  for r in 1 2; do for v in A B C D E H; do run $v 1048576 0.00390625 $r; done; done
  for v in F G; do run $v 1048576 0.00390625 1; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1==1||$1==8||$1==8192||$1==32768) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
