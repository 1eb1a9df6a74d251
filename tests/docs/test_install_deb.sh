#!/usr/bin/env bash
# The README's install line works as pasted as root without sudo and as a user with sudo:
# it is scripts/install-deb, which calls apt-get directly as root and through sudo
# otherwise, and says what to do where neither is possible. cpack, apt-get, sudo and id are
# stand-ins here that record what they were asked; nothing is installed.
# Usage: test_install_deb.sh SOURCE_DIR
set -u
src="$1"
tmp="${GC_TEST_TMP:-/tmp}/install_deb"
rm -rf "$tmp"
mkdir -p "$tmp/work/build" "$tmp/bin"
fail=0; pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $1"; [ -n "${2:-}" ] && cat "$2"; fail=$((fail + 1)); }

# The README's Install block: the package line is the script, with no bare sudo in it.
block=$(awk '/^### Install/ { on = 1 } on && /^```sh/ { inside = 1; next } inside && /^```/ { exit }
             inside { print }' "$src/README.md")
grep -q '^scripts/install-deb\b' <<<"$block" && ok ||
    bad "README's Install block runs scripts/install-deb: $block"
grep -qE '(^|[;&|(] *)sudo ' <<<"$block" && bad "README's Install block calls sudo, which root may not have: $block" || ok

# Stand-ins on a PATH of their own (with the few real tools the script needs).
for t in rm ls; do ln -s "$(command -v $t)" "$tmp/bin/$t"; done
cat >"$tmp/bin/id" <<'SH'
#!/bin/sh
echo "$FAKE_UID"
SH
cat >"$tmp/bin/cpack" <<'SH'
#!/bin/sh
: > galaxy_0.1.0_amd64.deb
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
: > "$tmp/work/build/CMakeCache.txt"

# run UID WITH_SUDO: runs the script in $tmp/work as the README does; output in $tmp/out.
run() {
    local path="$tmp/bin"
    rm -f "$tmp/bin/sudo"
    [ "$2" = sudo ] && ln -s "$tmp/sudo" "$tmp/bin/sudo"
    : > "$tmp/log"
    (cd "$tmp/work" && env -i PATH="$path" FAKE_UID="$1" LOG="$tmp/log" \
        /bin/sh "$src/scripts/install-deb") >"$tmp/out" 2>&1
}

run 0 nosudo; rc=$?
[ "$rc" -eq 0 ] && grep -qx "apt-get install ./build/galaxy_0.1.0_amd64.deb (uid 0)" "$tmp/log" && ok ||
    bad "as root without sudo: exit $rc; apt-get calls:" "$tmp/log"
run 1000 sudo; rc=$?
[ "$rc" -eq 0 ] && grep -qx "apt-get install ./build/galaxy_0.1.0_amd64.deb (uid 0)" "$tmp/log" && ok ||
    bad "as a user with sudo: exit $rc; apt-get calls:" "$tmp/log"
run 1000 nosudo; rc=$?
[ "$rc" -ne 0 ] && [ ! -s "$tmp/log" ] && grep -q "install-deb: not root and no sudo" "$tmp/out" && ok ||
    bad "as a user without sudo: exit $rc, want non-zero, no apt-get and a message:" "$tmp/out"
rm "$tmp/work/build/CMakeCache.txt"
run 0 nosudo; rc=$?
[ "$rc" -eq 2 ] && grep -q "build is not a configured build folder" "$tmp/out" && ok ||
    bad "without a configured build folder: exit $rc, want 2 and a message:" "$tmp/out"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
