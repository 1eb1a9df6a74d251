#!/usr/bin/env bash
# The encounter options and scenes end to end: today's pair unchanged to the byte, every bad
# value and geometry refused with its range or reason, scenes written, read back and refused.
# Usage: test_encounter_cli.sh GALAXY [options|scenes]. "scenes" exits 77 (skipped) in a
# build without libinih, whose galaxy says so when asked to read one.
# SPDX-License-Identifier: MIT
set -u
bin="$1"
part="${2:-options}"
tmp="${GC_TEST_TMP:-/tmp}/encounter_cli_$part"
rm -rf "$tmp"
mkdir -p "$tmp"
fail=0; pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# expect CODE PATTERN -- ARGS...: exit status CODE and output matching PATTERN (extended regex)
expect() {
    local code="$1" pattern="$2"; shift 3
    local out rc
    out=$(timeout 120 "$bin" "$@" 2>&1 </dev/null); rc=$?
    if [ "$rc" -ne "$code" ] || ! grep -qE -- "$pattern" <<<"$out"; then
        bad "galaxy $* -> exit $rc (want $code), output: $(head -3 <<<"$out")  (wanted: $pattern)"
    else
        ok
    fi
}

# The bodies of a run without steps worth the name: --save's table (exact for float bodies).
save() { local out="$1"; shift; timeout 120 "$bin" --backend cpu --steps 1 --quiet --save "$out" "$@" >/dev/null 2>&1; }

if [ "$part" = options ]; then
    # Today's pair, bit for bit: sha256 of --save's table as written by the code before
    # encounters existed (commit fd1aabd, built and run on Debian 12: its libm decides the
    # last bits), for the default N on the CPU (8192), 4096, 1000 and the fewest bodies.
    while read -r want args; do
        # shellcheck disable=SC2086
        save "$tmp/pair.tab" $args
        got=$(sha256sum < "$tmp/pair.tab" | cut -c1-64)
        [ "$got" = "$want" ] && ok || bad "galaxy $args: bodies differ from the pair before encounters ($got)"
        # shellcheck disable=SC2086
        save "$tmp/pair_s.tab" --scenario mw-m31 $args
        cmp -s "$tmp/pair.tab" "$tmp/pair_s.tab" && ok || bad "--scenario mw-m31 $args differs from the default"
    done <<'EOF'
566f0fefc6892bcbae18fa23371960a22938bfc39c468a99fb3af4794500dc18 --seed 1
4765d6296a7d68bac5cea3eda83009d7c95e50368f1ffa8b3a9c69e26eae575b -n 4096
4765d6296a7d68bac5cea3eda83009d7c95e50368f1ffa8b3a9c69e26eae575b -n 4096 --threads 1
047ee19f2fcd341fb36dcdee2b978e1213bd9163ddd90ec0b2ff73f812c25b87 -n 1000 --seed 42
02e319df4af26546b2a26cb5f1c52db4b11f55d09b4ca841cddd3e5adb243897 -n 6 --seed 3
EOF
    # An encounter is not the pair, and the same options give the same bodies.
    save "$tmp/a.tab" -n 2000 --mass-ratio 1:3
    save "$tmp/b.tab" -n 2000 --mass-ratio 0.333333333333333333
    cmp -s "$tmp/a.tab" "$tmp/b.tab" && ok || bad "--mass-ratio 1:3 and 0.333.. build different bodies"
    save "$tmp/c.tab" -n 2000
    cmp -s "$tmp/a.tab" "$tmp/c.tab" && bad "--mass-ratio 1:3 built today's pair" || ok
    save "$tmp/d.tab" -n 2000 --pericentre 12kpc
    save "$tmp/e.tab" -n 2000 --pericentre 3.75
    cmp -s "$tmp/d.tab" "$tmp/e.tab" && ok || bad "--pericentre 12kpc and 3.75 (units) differ"

    # Every preset runs (a step) and says what it built.
    for s in prograde retrograde polar head-on minor antennae mice; do
        expect 0 "encounter $s: mass ratio 1:[0-9.]+, pericentre" -- --scenario "$s" -n 512 --backend cpu --steps 1
    done
    expect 0 "encounter antennae \(changed\): mass ratio 1:2" -- --scenario antennae --mass-ratio 1:2 -n 512 --backend cpu --steps 1

    # Out of range: exit 2 naming the range.
    expect 2 "--mass-ratio expects .* from 1:20 to 1:1 \(or 0.05 to 1\), got '1:21'" -- --mass-ratio 1:21 --steps 1
    expect 2 "--mass-ratio expects .*got '2'" -- --mass-ratio 2 --steps 1
    expect 2 "--mass-ratio expects .*got '1:x'" -- --mass-ratio 1:x --steps 1
    expect 2 "--pericentre expects a distance from 0.1 to 200 kpc.*got '250kpc'" -- --pericentre 250kpc --steps 1
    expect 2 "--pericentre expects a distance from 0.1 to 200 kpc.*\(0.03125 to 62.5\), got '70'" -- --pericentre 70 --steps 1
    expect 2 "--pericentre expects .*got '-3kpc'" -- --pericentre -3kpc --steps 1
    expect 2 "--eccentricity expects a number from 0 to 5, got '6'" -- --eccentricity 6 --steps 1
    expect 2 "--separation expects a distance from 0.1 to 2000 kpc" -- --separation 3000kpc --steps 1
    expect 2 "--primary-disk expects prograde, retrograde, polar or I,OMEGA.*got '190,0'" -- --primary-disk 190,0 --steps 1
    expect 2 "--companion-disk expects .*got '30,200'" -- --companion-disk 30,200 --steps 1
    expect 2 "--companion-disk expects .*got 'sideways'" -- --companion-disk sideways --steps 1
    expect 2 "unknown scenario 'cartwheel'; available: mw-m31\|prograde" -- --scenario cartwheel --steps 1
    # Geometries that cannot start, with the reason.
    expect 2 "cannot start: the galaxies would start overlapping: at 40 kpc apart their half-mass radii" -- --scenario prograde --separation 40kpc --steps 1
    expect 2 "cannot start: the starting separation 10 kpc is inside the pericentre 16 kpc" -- --scenario prograde --separation 10kpc --steps 1
    expect 2 "cannot start: a bound orbit \(eccentricity 0.5\) .* apocentre 48 kpc; the starting separation 96 kpc" -- --scenario prograde --eccentricity 0.5 --separation 96kpc --steps 1
    expect 2 "cannot start: the galaxies would start overlapping.*a larger pericentre or eccentricity" -- --scenario prograde --eccentricity 0.2 --steps 1
    # Not the built-in pair: said, not ignored.
    expect 2 "--scenario sets up the built-in galaxy pair \(--model mw-m31\); it does not apply to --model plummer" -- --model plummer --scenario minor --steps 1
    expect 2 "--pericentre sets up the built-in galaxy pair .*--data" -- --data "$tmp/a.tab" --pericentre 10kpc --steps 1
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
fi

# ---- scenes ----
printf '[run]\nseed = 2\n' > "$tmp/probe.ini"
if "$bin" --scene "$tmp/probe.ini" -n 6 --steps 1 --backend cpu 2>&1 | grep -q "reads no scenes"; then
    echo "SKIP: this build reads no scenes (libinih-dev was not found when it was built)"
    exit 77
fi

# Round trip: a setup written as a scene, read back: the same bodies, and the same scene.
args=(--scenario antennae --mass-ratio 1:2 --pericentre 18kpc --companion-disk retrograde -n 1500 --seed 7)
save "$tmp/direct.tab" "${args[@]}" --save-scene "$tmp/s1.ini"
[ -s "$tmp/s1.ini" ] && ok || bad "--save-scene wrote no scene"
[ -e "$tmp/s1.ini.part" ] && bad "--save-scene left its .part file" || ok
save "$tmp/scene.tab" --scene "$tmp/s1.ini" --save-scene "$tmp/s2.ini"
cmp -s "$tmp/direct.tab" "$tmp/scene.tab" && ok || bad "the scene's run has other bodies than the command line's"
cmp -s "$tmp/s1.ini" "$tmp/s2.ini" && ok || bad "a scene read and written again differs: $(diff "$tmp/s1.ini" "$tmp/s2.ini" | head -5)"
grep -q "^scenario = antennae$" "$tmp/s1.ini" && grep -q "^seed = 7$" "$tmp/s1.ini" &&
    grep -q "^bodies = 1500$" "$tmp/s1.ini" && ok || bad "the scene lacks its preset, seed or N: $(cat "$tmp/s1.ini")"
# The window's settings travel too (read back by --save-scene, which writes what it read;
# they only apply where frames are drawn: one small headless frame).
view() { timeout 120 "$bin" --backend cpu --headless --frames 1 --size 64x64 --quiet "$@" >/dev/null 2>&1; }
view -n 600 --camera 30,20,55,1,2,3 --draw points --colour velocity --exposure -1.5 --title "Hello; world" --save-scene "$tmp/v1.ini"
view --scene "$tmp/v1.ini" --save-scene "$tmp/v2.ini"
# and a run without frames takes such a scene (its view settings then wait unused)
expect 0 "scene .*v1.ini read" -- --scene "$tmp/v1.ini" --steps 1 --backend cpu
cmp -s "$tmp/v1.ini" "$tmp/v2.ini" && ok || bad "view settings did not survive a round trip: $(diff "$tmp/v1.ini" "$tmp/v2.ini")"
grep -q "^camera = 30,20,55,1,2,3$" "$tmp/v1.ini" && grep -q "^draw = points$" "$tmp/v1.ini" &&
    grep -q "^colour = velocity$" "$tmp/v1.ini" && grep -q "^exposure = -1.5$" "$tmp/v1.ini" &&
    grep -q "^title = Hello, world$" "$tmp/v1.ini" && ok || bad "view settings missing: $(cat "$tmp/v1.ini")"
# Today's pair as a scene is today's pair.
save "$tmp/p1.tab" -n 800 --save-scene "$tmp/p.ini"
save "$tmp/p2.tab" --scene "$tmp/p.ini"
cmp -s "$tmp/p1.tab" "$tmp/p2.tab" && ok || bad "the mw-m31 scene builds other bodies"
grep -qE "^(mass-ratio|pericentre)" "$tmp/p.ini" && bad "the mw-m31 scene carries encounter values" || ok
# The command line wins over the scene.
save "$tmp/o1.tab" --scene "$tmp/s1.ini" --seed 8
save "$tmp/o2.tab" "${args[@]}" --seed 8
cmp -s "$tmp/o1.tab" "$tmp/o2.tab" && ok || bad "--seed on the command line did not win over the scene's"

# Bad scenes: the file and line named, exit 2.
printf '[encounter]\nscenario = mice\nmass-ratio = 1:40\n' > "$tmp/bad1.ini"
expect 2 "bad1.ini:3: mass-ratio expects the companion's mass .* got '1:40'" -- --scene "$tmp/bad1.ini" --steps 1
printf '# a scene\n[encounter]\n\nspin = fast\n' > "$tmp/bad2.ini"
expect 2 "bad2.ini:4: unknown key 'spin' in \[encounter\] \(its keys: scenario, mass-ratio" -- --scene "$tmp/bad2.ini" --steps 1
printf '[physics]\ndt = 0.1\n' > "$tmp/bad3.ini"
expect 2 "bad3.ini:2: unknown section \[physics\]" -- --scene "$tmp/bad3.ini" --steps 1
printf '[run]\nseed = 3\nthis line is not ini\n' > "$tmp/bad4.ini"
expect 2 "bad4.ini:3: not a 'key = value' line" -- --scene "$tmp/bad4.ini" --steps 1
printf '[view]\ndraw = fuzzy\n' > "$tmp/bad5.ini"
expect 2 "bad5.ini:2: draw: unknown value 'fuzzy'; available: points\|sprites\|plain" -- --scene "$tmp/bad5.ini" --steps 1
printf '[encounter]\nscenario = prograde\nseparation = 30kpc\n' > "$tmp/bad6.ini"
expect 2 "cannot start: the galaxies would start overlapping" -- --scene "$tmp/bad6.ini" --steps 1
printf '[run]\nbodies =\n' > "$tmp/bad7.ini"
expect 2 "bad7.ini:2: bodies needs a value" -- --scene "$tmp/bad7.ini" --steps 1
printf '[run]\nseed = 1\nbodies = many\n' > "$tmp/bad9.ini"
expect 2 "bad9.ini:3: bodies expects a whole number from 6 to [0-9]+ for model mw-m31, got 'many'" -- --scene "$tmp/bad9.ini" --steps 1
printf '[run]\nseed = 1\n[encounter\n' > "$tmp/bad8.ini"
expect 2 "bad8.ini:3: not a 'key = value' line" -- --scene "$tmp/bad8.ini" --steps 1
expect 2 "--scene $tmp/none.ini: cannot read it: No such file" -- --scene "$tmp/none.ini" --steps 1
expect 2 "--scene $tmp: not a regular file" -- --scene "$tmp" --steps 1
# A scene that cannot be written: said, nothing left under its name.
expect 1 "--save-scene .*no/such/dir/x.ini: cannot write there" -- --save-scene "$tmp/no/such/dir/x.ini" -n 100 --backend cpu --steps 1
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
