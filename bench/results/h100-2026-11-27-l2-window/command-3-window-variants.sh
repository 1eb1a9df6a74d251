#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "H: b47964f (window over all records, hit ratio persist/bytes = 0.49)  W80/W50/W25: hit ratio x0.8/0.5/0.25  WF: window = the first 'persist' bytes, hit 1  WF50: WF at hit 0.5  W0: no window  S: H + records field by field in chunks of 32  P: H + compaction as a dependent"
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop|L2|window'; }
{ for r in 1 2; do for v in H W80 W50 W25 WF WF50 W0 S; do run $v 1048576 0.00390625 $r; done; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==32768||$1==524288) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
