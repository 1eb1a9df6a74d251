#!/usr/bin/env bash
# scripts/install-deps as root without sudo, as a user with sudo and as one without, on
# releases that name packages differently: stand-ins for id, sudo, dpkg-query, apt-cache and
# apt-get record what it would install (nothing is installed). The same as CI's root and a
# newcomer's sudo user, whoever runs the test.
# Usage: test_install_deps.sh SOURCE_DIR
# SPDX-License-Identifier: MIT
set -u
src=$1
tmp="${GC_TEST_TMP:-/tmp}/install_deps"
rm -rf "$tmp"
mkdir -p "$tmp/bin" "$tmp/tools"
# The tools install-deps uses, and no others: the system's own sudo and apt-get must not be
# found (as a user with sudo, a real apt-get would run).
for t in sh env grep sed tr ls head; do
    p=$(command -v "$t") || { echo "FAIL: no $t here"; exit 1; }
    ln -s "$p" "$tmp/tools/$t"
done
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2"; fail=$((fail + 1)); }

cat >"$tmp/bin/id" <<'SH'
#!/bin/sh
echo "$FAKE_UID"
SH
# Installed: the names in $INSTALLED ("all": every one).
cat >"$tmp/bin/dpkg-query" <<'SH'
#!/bin/sh
for p; do :; done
case " $INSTALLED " in *" $p "*|" all ") echo "install ok installed"; exit 0 ;; esac
exit 1
SH
# The release's archive: every name but those in $NOT_IN_ARCHIVE.
cat >"$tmp/bin/apt-cache" <<'SH'
#!/bin/sh
for p; do :; done
echo "$p:"
case " $NOT_IN_ARCHIVE " in *" $p "*) echo "  Candidate: (none)" ;; *) echo "  Candidate: 1.0" ;; esac
SH
cat >"$tmp/bin/apt-get" <<'SH'
#!/bin/sh
echo "apt-get $* (uid $FAKE_UID)" >>"$LOG"
SH
cat >"$tmp/sudo" <<'SH'
#!/bin/sh
FAKE_UID=0 exec "$@"
SH
chmod +x "$tmp/bin/"* "$tmp/sudo"

# run UID sudo|nosudo NOT_IN_ARCHIVE INSTALLED GROUP...: output in $tmp/out, apt-get's calls
# in $tmp/log.
run() {
    local uid=$1 how=$2 missing=$3 installed=$4
    shift 4
    rm -f "$tmp/bin/sudo"
    [ "$how" = sudo ] && ln -s "$tmp/sudo" "$tmp/bin/sudo"
    : >"$tmp/log"
    env -i PATH="$tmp/bin:$tmp/tools" FAKE_UID="$uid" LOG="$tmp/log" \
        NOT_IN_ARCHIVE="$missing" INSTALLED="$installed" \
        "$tmp/tools/sh" "$src/scripts/install-deps" "$@" >"$tmp/out" 2>&1
}
installs() { grep "^apt-get install .*--no-install-recommends" "$tmp/log"; }

# Debian 12/13, Ubuntu 24.04: every first name there; a user with sudo; the test group.
run 1000 sudo "" "" test; rc=$?
[ "$rc" -eq 0 ] && grep -q "^apt-get update -q (uid 0)$" "$tmp/log" &&
    installs | grep -q " libglut-dev .*libclang-rt-dev (uid 0)$" && ok ||
    bad "a user with sudo, all names in the archive: exit $rc; apt-get calls:" "$tmp/log"
grep -q "^install-deps: updating the package lists" "$tmp/out" &&
    grep -q "^install-deps: installing .* libglut-dev" "$tmp/out" && ok ||
    bad "no line per stage:" "$tmp/out"
# Ubuntu 22.04: freeglut3-dev, and no libclang-rt-dev (optional); as root, without sudo.
run 0 nosudo "libglut-dev libclang-rt-dev" "" test; rc=$?
[ "$rc" -eq 0 ] && installs | grep -q " freeglut3-dev .*(uid 0)$" && ! grep -q "libglut-dev\|libclang-rt-dev" "$tmp/log" &&
    grep -q "skipping libclang-rt-dev: not available in this release (optional)" "$tmp/out" && ok ||
    bad "root, Ubuntu 22.04's names: exit $rc; apt-get calls:" "$tmp/log"
# Without the test group, none of its packages.
run 0 nosudo "" "" ; rc=$?
[ "$rc" -eq 0 ] && installs | grep -q " libopenmpi-dev " && ! installs | grep -q "xvfb\|clang" && ok ||
    bad "root, the default groups: exit $rc; apt-get calls:" "$tmp/log"
# Everything there: no apt-get, no sudo asked for.
run 1000 nosudo "" all test; rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$tmp/log" ] && grep -q "all packages present" "$tmp/out" && ok ||
    bad "all installed: exit $rc; output:" "$tmp/out"
# A user without sudo: told what to install, nothing run.
run 1000 nosudo "" "" test; rc=$?
[ "$rc" -eq 1 ] && [ ! -s "$tmp/log" ] && grep -q "not root and no sudo; install these packages:.* cmake" "$tmp/out" && ok ||
    bad "a user without sudo: exit $rc, want 1, no apt-get and the list; output:" "$tmp/out"
# A misspelt group.
run 0 nosudo "" "" tests; rc=$?
[ "$rc" -eq 2 ] && grep -q "unknown group 'tests'" "$tmp/out" && ok ||
    bad "an unknown group: exit $rc, want 2; output:" "$tmp/out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
