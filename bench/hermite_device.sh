#!/usr/bin/env bash
# Hermite on the GPU machine, in one call: the CUDA Hermite tests, then Table 2 of
# Portegies Zwart, Belleman & Geldof (2007) (Plummer, eps 1/256, t = 0.25 -> 0.5 timed) and
# the time per block step against the active count. Prebuilt binaries come in BIN
# (default .devbuild/bin: galaxy-bench, test_hermite, hermite_blocks, lib/ for libgomp; or
# the viewer bundle's bin/ with LIB naming its lib/). PREC (mixed, the default, or double)
# is the force pass's --precision for the Table 2 and block stages.
# Usage: bench/hermite_device.sh STAGE...   stages: tests, h4, h4big, h6, h6big,
# blocks, blocksbig, blocks1m, blocksbig6 (hermite_blocks at 65,536, 262,144, 2^20 and
# hermite6 at 262,144, both precisions), ab (this kernel against BIN/ref and BIN/nounroll, interleaved), absmall
# (the same at N = 1024 and 4096 against BIN/ref), blocksref,
# eta6 (hermite6 at larger eta, for the equal-time comparison); each writes $OUT/<stage>.txt. A stage is skipped when the deadline (DEADLINE
# seconds from start, default 580) is near.
set -u
BIN=${BIN:-.devbuild/bin}
LIB=${LIB:-$BIN/lib}
PREC=${PREC:-mixed}
OUT=${OUT:-/tmp/out}
DEADLINE=${DEADLINE:-580}
export LD_LIBRARY_PATH=$LIB:${LD_LIBRARY_PATH:-}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/device.txt"

left() { echo $((DEADLINE - SECONDS)); }
other() { if [ "$PREC" = mixed ]; then echo double; else echo mixed; fi; }

# One Plummer run; rows at every quarter time unit (time, energy, wall, interactions).
plummer() { # order N t_end [extra galaxy-bench options...]
    local order=$1 n=$2 t=$3
    shift 3
    local budget=$(( $(left) - 5 ))
    if [ "$budget" -lt 10 ]; then echo "## skipped N=$n hermite$order (deadline)"; return; fi
    echo "## hermite$order N=$n t_end=$t precision=$PREC $*"
    timeout "$budget" "${GB:-$BIN/galaxy-bench}" --model plummer -n "$n" --integrator "hermite$order" \
        --t-end "$t" --report-every 0.25 --backend cuda --quiet --precision "$PREC" "$@"
    echo "## rc=$?"
}

table() { # order, N list for t_end 1, N list for t_end 0.5
    local order=$1
    for n in $2; do plummer "$order" "$n" 1; done
    for n in $3; do plummer "$order" "$n" 0.5; done
}

small="256 512 1024 2048 4096 8192 16384 32768 65536"
for stage in "$@"; do
    f="$OUT/$stage.txt"
    echo "=== $stage ($(left) s left)"
    case $stage in
    tests)
        timeout 200 "$BIN/test_hermite" cuda double >"$f" 2>&1; echo "rc=$?" >>"$f"
        timeout 200 "$BIN/test_hermite" cuda mixed >>"$f" 2>&1; echo "rc=$?" >>"$f" ;;
    h4) table 4 "$small" "131072 262144" >"$f" 2>&1
        echo "## eta 0.02 instead of the default:" >>"$f"
        timeout 60 "$BIN/galaxy-bench" --model plummer -n 65536 --integrator hermite4 --eta 0.02 \
            --t-end 1 --report-every 0.25 --backend cuda --quiet >>"$f" 2>&1 ;;
    h4big) table 4 "" "524288" >"$f" 2>&1 ;;
    h6) table 6 "$small" "131072" >"$f" 2>&1 ;;
    h6big) table 6 "" "262144" >"$f" 2>&1 ;;
    # hermite_blocks: this precision's kernel, then the other one's, in the same call.
    blocks) for p in $PREC $(other); do
            timeout 60 "$BIN/hermite_blocks" 65536 4 0.125 cuda "$p"
        done >"$f" 2>&1 ;;
    blocks1m) for p in $PREC $(other); do
            timeout 150 "$BIN/hermite_blocks" 1048576 4 0.00390625 cuda "$p"
        done >"$f" 2>&1 ;;
    blocksbig6) for p in $PREC $(other); do
            timeout 120 "$BIN/hermite_blocks" 262144 6 0.015625 cuda "$p"
        done >"$f" 2>&1 ;;
    ab) for round in 1 2; do
            for v in ref nounroll this; do
                for order in 4 6; do
                    if [ "$v" = this ]; then GB=$BIN/galaxy-bench; else GB=$BIN/$v/galaxy-bench; fi
                    echo "## ab round=$round variant=$v"
                    GB=$GB plummer "$order" 65536 0.5
                done
            done
        done >"$f" 2>&1 ;;
    absmall) for round in 1 2; do
            for v in ref this; do
                for n in 1024 4096; do
                    for order in 4 6; do
                        if [ "$v" = this ]; then GB=$BIN/galaxy-bench; else GB=$BIN/$v/galaxy-bench; fi
                        echo "## ab round=$round variant=$v"
                        GB=$GB plummer "$order" "$n" 0.5
                    done
                done
            done
        done >"$f" 2>&1 ;;
    blocksref) timeout 60 "$BIN/ref/hermite_blocks" 65536 4 0.125 >"$f" 2>&1 ;;
    eta6) for n in 16384 65536; do
            for e in 0.25 0.35 0.5; do plummer 6 "$n" 1 --eta "$e"; done
        done >"$f" 2>&1 ;;
    blocksbig) for p in $PREC $(other); do
            timeout 100 "$BIN/hermite_blocks" 262144 4 0.03125 cuda "$p"
        done >"$f" 2>&1 ;;
    esac
    tail -n 40 "$f"
done
