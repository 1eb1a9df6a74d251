#!/usr/bin/env bash
# --help of each program lists exactly the options it accepts, the man pages list exactly
# what --help lists, and the hidden --help-man is accepted but not listed.
# Usage: test_help.sh GALAXY GALAXY_BENCH MAN_DIR
# SPDX-License-Identifier: MIT
set -u
galaxy="$1" bench="$2" mandir="$3"
fail=0 pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Option names (long and short) of a --help text, one a line, sorted.
help_names() { "$1" --help | sed -n 's/^  \(-[^ ,]*\)\(, \(-[^ ,]*\)\)\{0,1\}.*/\1 \3/p' | tr ' ' '\n' | sed '/^$/d' | sort -u; }
# The same from a man page: the bold names of each .TP head line.
man_names() { awk 'p { print; p = 0 } /^\.TP$/ { p = 1 }' "$1" | grep -o '\\fB[^\\]*\(\\-[^\\]*\)*\\fR' |
    sed 's/\\fB//; s/\\fR//; s/\\-/-/g' | sort -u; }

g_names=$(help_names "$galaxy")
b_names=$(help_names "$bench")
[ "$(echo "$g_names" | wc -l)" -gt 20 ] && ok || bad "galaxy --help lists few options: $g_names"
for o in --benchmark --compare --steps --bodies --backend --help --version; do
    grep -qx -- "$o" <<<"$b_names" && ok || bad "galaxy-bench --help does not list $o"
done
for o in --headless --frames --screenshot --size --fullscreen --screenshot-after --screenshot-dir \
         --no-interop --substeps; do
    grep -qx -- "$o" <<<"$b_names" && bad "galaxy-bench --help lists viewer option $o" || ok
done
"$bench" --help | grep -q 'Keys:' && bad "galaxy-bench --help describes the window's keys" || ok

# Everything galaxy-bench lists, it accepts (a bad value may still be refused, not the option).
for o in $b_names; do
    case "$o" in --help|-h|--help-man) continue ;; esac
    if "$bench" --help | grep -E -- "^  [^ ]*$o,? [A-Z]" >/dev/null; then args=("$o" 1); else args=("$o"); fi
    out=$("$bench" "${args[@]}" --help 2>&1)
    grep -qE "does not take|unknown option" <<<"$out" && bad "galaxy-bench lists $o but refuses it: $out" || ok
done
# Everything only galaxy lists, galaxy-bench refuses by name.
for o in $(comm -23 <(echo "$g_names") <(echo "$b_names")); do
    out=$("$bench" "$o" 2>&1); rc=$?
    [ "$rc" -eq 2 ] && grep -q "galaxy-bench does not take option '$o'" <<<"$out" && ok ||
        bad "galaxy-bench $o: exit $rc, '$out' (want 2 and 'does not take option')"
done

# --help-man: accepted by both, listed by neither; the generated man pages list what --help does.
for p in "$galaxy" "$bench"; do
    name=$(basename "$p")
    grep -qx -- --help-man <<<"$(help_names "$p")" && bad "$name --help lists --help-man" || ok
    "$p" --help-man | head -1 | grep -q '^\.TH ' && ok || bad "$name --help-man writes no man page"
    page="$mandir/$name.1"
    if [ ! -s "$page" ]; then bad "$page was not generated"; continue; fi
    diff <(help_names "$p") <(man_names "$page") >/dev/null && ok ||
        bad "$page and $name --help list different options: $(diff <(help_names "$p") <(man_names "$page") | grep '^[<>]' | tr '\n' ' ')"
done
"$bench" --version | grep -q '^galaxy-bench [0-9]' && ok || bad "galaxy-bench --version prints no version"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
