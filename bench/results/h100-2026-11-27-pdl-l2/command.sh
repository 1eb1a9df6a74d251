#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin; cp $B/hermite_blocks .devref/hb_F
date -u; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
echo "F (this): $(cat .devviewer/built-from); W: F without the block-a-body correction; A: $(cat .devref/built-from)"
for t in "test_hermite cuda mixed" "test_hermite cuda double"; do f=$OUT/$(echo $t|tr ' ' _).log; timeout 100 $B/$t > $f 2>&1; echo "$t rc=$?"; grep -E "GPU vs CPU|checks passed|FAIL|failed|L2" $f|sort -u|head -6; done
timeout 60 $B/galaxy-bench --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda > $OUT/table2.txt 2>&1; grep -E "L2" $OUT/table2.txt; tail -3 $OUT/table2.txt
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop|L2'; }
{ for r in 1 2; do for v in F W A; do run $v 65536 0.125 $r; done; done
  for r in 1 2; do for v in F W A; do run $v 1048576 0.00390625 $r; done; done
  for v in F A; do run $v 262144 0.03125 1; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==8192||$1==32768||$1==65536) k[h" m="$1]=k[h" m="$1]" "$NF" ("$6")"} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
