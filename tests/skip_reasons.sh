#!/bin/sh
# Prints why each test of the ctest run just made was skipped: ctest runs this after the
# tests (CTEST_CUSTOM_POST_TEST, written by tests/CMakeLists.txt), as its console shows a
# skipped test's name but not its output. A test that skips says why in its last line of
# output, "SKIP: reason", and exits 77.
# SPDX-License-Identifier: MIT
# Usage: tests/skip_reasons.sh BUILD_DIR
# While ctest runs this, the run's log is still under a temporary name (LastTest.log.tmp):
# the newest of the logs is this run's.
log=$(ls -t "$1"/Testing/Temporary/LastTest.log* 2>/dev/null | head -n 1)
[ -n "$log" ] || exit 0
awk '
    /^[0-9]+\/[0-9]+ Test: / { name = $3; next }
    /^Output:$/ { inside = 1; last = ""; getline; next }
    inside && /^<end of output>$/ {
        inside = 0
        if (last ~ /^SKIP: /) {
            why = substr(last, 7)
            if (!(why in names)) order[++n] = why
            names[why] = names[why] (names[why] == "" ? "" : ", ") name
        }
        next
    }
    inside && NF { last = $0 }
    END {
        if (!n) exit
        print "Why tests were skipped:"
        for (k = 1; k <= n; k++) print "  " order[k] ": " names[order[k]]
    }
' "$log"
exit 0
