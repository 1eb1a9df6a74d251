#!/usr/bin/env bash
# The CUDA backend over MPI ranks, checked on one GPU (both ranks on device 0): the 2-rank
# run must agree with the 1-rank run (leapfrog energies to float rounding, the same Hermite
# block-step count and energy). Uses the runtime of bench/mpi_prepare.sh (carry .devmpi).
# Not a scaling measurement: two ranks share one GPU here.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck disable=SC1091
. "$ROOT/.devmpi/env.sh"
fail=0
rows() { grep -E '^ +[0-9]+ ' | awk '{print $1, $3}'; }
check() { # name, args...
    local name=$1
    shift
    a=$(timeout 120 galaxy --backend cuda --device 0 --quiet "$@" | rows)
    b=$(timeout 120 mpirun --oversubscribe --bind-to none -np 2 galaxy --backend cuda --device 0 \
        --quiet "$@" | rows)
    echo "--- $name: 1 rank / 2 ranks (step energy)"
    paste <(echo "$a") <(echo "$b")
    python3 - "$name" <<PY || fail=1
import sys
a = """$a""".split("\n"); b = """$b""".split("\n")
ok = len(a) == len(b) and len(a) > 1
for x, y in zip(a, b):
    sa, ea = x.split(); sb, eb = y.split()
    ok &= sa == sb and abs(float(ea) - float(eb)) <= 1e-6 * abs(float(ea))
print(sys.argv[1], "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
PY
}
check leapfrog -n 65536 --steps 20 --report-every 10
check hermite4 --model plummer -n 16384 --integrator hermite4 --t-end 0.0625 --report-every 0.03125
check hermite6 --model plummer -n 8192 --integrator hermite6 --t-end 0.0625 --report-every 0.03125
exit $fail
