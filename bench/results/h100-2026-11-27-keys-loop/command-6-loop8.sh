#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
export LD_LIBRARY_PATH=$T/viewer/lib:/usr/local/nvidia/lib64; B=$T/viewer/bin
date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "bundle: 01c3f71 + 8 block steps per loop iteration (= L8)  L4: 4 per iteration  T: 7d058af (ref)"
for t in "test_hermite cuda mixed" "test_hermite cuda double"; do f=$OUT/$(echo $t|tr ' ' _).log; timeout 200 $B/$t > $f 2>&1; echo "$t rc=$?"; grep -E "GPU vs CPU|failed|FAIL|passed" $f|head -8; done
timeout 120 $B/galaxy-bench --model plummer -n 65536 --integrator hermite4 --t-end 1 --report-every 0.25 --backend cuda --quiet 2>&1 | tail -2 | tee $OUT/table2.txt
date -u
run() { echo "## $1 N=$2 round $4"; timeout 100 .devref/hb_$1 $2 4 $3 cuda mixed 2>&1 | grep -E '^ +[0-9]|backend loop'; }
{ for r in 1 2; do for v in L8 L4 T; do run $v 1048576 0.00390625 $r; done; for v in L8 L4 T; do run $v 65536 0.125 $r; done; done; } > $OUT/blocks.txt 2>&1
awk '/^##/{h=$2" "$3} /^ +[0-9]/{ if ($1<=8||$1==512||$1==8192||$1==32768) k[h" m="$1]=k[h" m="$1]" "$NF} END{for (x in k) print x, k[x]}' $OUT/blocks.txt | sort -k2,2 -k3,3V -k1,1
date -u
