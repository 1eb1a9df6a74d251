#!/usr/bin/env bash
# The README's set-up commands on fresh Debian systems, as a newcomer pastes them: a minimal
# root (debootstrap --variant=minbase, plus git, and sudo for the user), a `git clone` of one
# revision, then the README's code blocks 1 (install, build, viewer), 2 (install the test
# tools, build, tests), 1 again (nothing left to install) and 3 (the headless picture), each
# timed, its exit status against what the README says it should be, download size, test
# counts and skip reasons in a summary.
# SPDX-License-Identifier: MIT
#
# Usage (as root on a Debian host with debootstrap; one case at a time, each a fresh copy):
#   tools/fresh_install_check.sh [-r REV] [-w WORKDIR] [CASE...]
#     CASE   SUITE:USER, SUITE one of bookworm (Debian 12), trixie (Debian 13), USER root or
#            sudo (a user in group sudo, without a password); default: all four
#     -r     the git revision to clone (default HEAD of this repository)
#     -w     where the roots and logs go (default /var/tmp/gc-fresh; a few GB)
# A suite's minimal root is made once and kept (WORKDIR/SUITE.base); each case runs in a
# fresh copy. Logs: WORKDIR/logs/SUITE-USER/, the summary: WORKDIR/logs/summary.md.
# A run of all four takes hours on a busy 2-core machine: run it under nice.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rev=HEAD
work=/var/tmp/gc-fresh
mirror=http://deb.debian.org/debian
while getopts r:w: opt; do
    case $opt in
    r) rev=$OPTARG ;;
    w) work=$OPTARG ;;
    *) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(bookworm:root bookworm:sudo trixie:root trixie:sudo)
[ "$(id -u)" -eq 0 ] || { echo "fresh_install_check: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "fresh_install_check: apt-get install debootstrap" >&2; exit 2; }
commit=$(git -C "$here" rev-parse --verify "$rev^{commit}")
mkdir -p "$work/logs"

say() { echo "fresh_install_check: $*"; }

# A suite's minimal root, made once: minbase, git, the release's usual suites in
# sources.list, no package lists or downloaded packages left (as in a container image).
base() {
    local suite=$1 dir=$work/$1.base
    [ -x "$dir/usr/bin/git" ] && return
    rm -rf "$dir"
    say "debootstrap $suite (minbase + git) into $dir"
    debootstrap --variant=minbase --include=git,ca-certificates "$suite" "$dir" "$mirror" \
        >"$work/logs/debootstrap-$suite.log" 2>&1 ||
        { tail -n 20 "$work/logs/debootstrap-$suite.log"; exit 1; }
    cat >"$dir/etc/apt/sources.list" <<EOF
deb $mirror $suite main
deb $mirror $suite-updates main
deb http://deb.debian.org/debian-security $suite-security main
EOF
    printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$dir/etc/hosts"
    rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/archives/*.deb
}

root=
unmount() {
    [ -n "$root" ] || return 0
    for m in dev/shm dev/pts dev sys proc; do
        mountpoint -q "$root/$m" && umount -l "$root/$m"
    done
    return 0
}
trap unmount EXIT

# What a run killed before its trap left mounted in dir, unmounted; removing dir must never
# reach through its bind mount of /dev into this machine's.
release() {
    local dir=$1 m
    for m in dev/shm dev/pts dev sys proc; do
        mountpoint -q "$dir/$m" && umount -l "$dir/$m"
    done
    if grep -q " $dir/" /proc/mounts; then
        say "$dir still has file systems mounted in it: not removed"
        exit 1
    fi
    return 0
}

# in USER COMMAND: a login shell of USER in the root, with a clean environment (no DISPLAY,
# nothing of this machine's PATH).
in_root() {
    local user=$1
    shift
    chroot "$root" /usr/bin/env -i TERM=dumb PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        su - "$user" -c "$*"
}

summary=$work/logs/summary.md
[ -f "$summary" ] || {
    echo "| system | user | block | exit | as the README says | time | downloaded | tests | skipped |"
    echo "|---|---|---|---|---|---|---|---|---|"
} >"$summary"
failed=0

# verdict STEP RC LOG: what the README promises of the block. Without a display the viewer's
# block ends with its message and exit status 1; the others succeed.
verdict() {
    case $1 in
    1 | 1again)
        [ "$2" -eq 1 ] && tail -n 3 "$3" | grep -q "galaxy: error: cannot open display" ;;
    3) [ "$2" -eq 0 ] && [ -s "$root$home/galaxy/out.png" ] ;;
    *) [ "$2" -eq 0 ] ;;
    esac
}

for c in "${cases[@]}"; do
    suite=${c%%:*} who=${c#*:}
    case $suite in bookworm) system="Debian 12" ;; trixie) system="Debian 13" ;;
        *) say "unknown suite $suite (bookworm, trixie)"; exit 2 ;; esac
    case $who in root) user=root home=/root ;; sudo) user=newcomer home=/home/newcomer ;;
        *) say "unknown user $who (root, sudo)"; exit 2 ;; esac
    base "$suite"
    logs=$work/logs/$suite-$who
    rm -rf "$logs"
    mkdir -p "$logs"
    unmount
    root=$work/run-$suite-$who
    release "$root"
    rm -rf --one-file-system "$root"
    say "$system, $who: copying the root"
    cp -a "$work/$suite.base" "$root"
    mount -t proc proc "$root/proc"
    mount -t sysfs sys "$root/sys"
    mount --bind /dev "$root/dev"
    mount --bind /dev/pts "$root/dev/pts"
    mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # The machine's name resolves, as an installed system's does (sudo looks it up).
    printf '127.0.1.1\t%s\n' "$(hostname)" >>"$root/etc/hosts"
    if [ "$who" = sudo ]; then
        # sudo is not in minbase: put it in, then forget the package lists again.
        chroot "$root" sh -c 'apt-get update -qq && apt-get install -y -qq sudo >/dev/null &&
            rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb' >"$logs/sudo.log" 2>&1 ||
            { cat "$logs/sudo.log"; exit 1; }
        chroot "$root" useradd -m -s /bin/bash -G sudo newcomer
        echo 'newcomer ALL=(ALL) NOPASSWD: ALL' >"$root/etc/sudoers.d/newcomer"
        chmod 440 "$root/etc/sudoers.d/newcomer"
    fi
    git -c advice.detachedHead=false clone -q --no-local "$here" "$root$home/galaxy"
    git -C "$root$home/galaxy" checkout -q --detach "$commit"
    say "$system, $who: $(git -C "$root$home/galaxy" log -1 --format='%h %s')"
    chroot "$root" chown -R "$user:" "$home/galaxy"
    case_t0=$(date +%s)

    for step in 1 2 1again 3; do
        n=${step%again}
        block=$("$root$home/galaxy/scripts/readme-block" "$n" "$root$home/galaxy/README.md")
        log=$logs/block$step.log
        say "$system, $who, block $step: $block"
        t0=$(date +%s)
        set +e
        in_root "$user" "cd ~/galaxy && $block" >"$log" 2>&1 </dev/null
        rc=$?
        set -e
        secs=$(($(date +%s) - t0))
        # apt-get's "Need to get 123 MB of archives", summed over the block's installs.
        got=$(sed -n 's/^Need to get \([0-9.,]*\) \([kM]\)B.*/\1 \2/p' "$log" |
              awk '{ gsub(",", "", $1); s += $2 == "k" ? $1 / 1000 : $1 } END { if (s) printf "%.0f MB", s }')
        tests=$(grep -Eo '[0-9]+% tests passed, [0-9]+ tests failed out of [0-9]+' "$log" | tail -n 1 || true)
        skipped=$(sed -n '/^The following tests did not run:/,/^[^[:space:]]/ s/^[[:space:]]*[0-9]* - \([^ ]*\) .*/\1/p' \
                  "$log" | paste -sd ' ' - || true)
        ending=$(tail -n 1 "$log")
        if verdict "$step" "$rc" "$log"; then ok=yes; else ok=NO; failed=$((failed + 1)); fi
        say "  exit $rc after ${secs} s (as the README says: $ok)${got:+, downloaded $got}${tests:+; $tests}; last line: $ending"
        [ -z "$skipped" ] || say "  skipped: $skipped"
        # ctest's last words: why each test was skipped (tests/skip_reasons.sh).
        sed -n '/^Why tests were skipped:/,$p' "$log" >"$logs/skips$step.txt"
        [ -s "$logs/skips$step.txt" ] && sed 's/^/  /' "$logs/skips$step.txt"
        printf '| %s | %s | %s | %s | %s | %d min %02d s | %s | %s | %s |\n' "$system" "$who" \
            "$step" "$rc" "$ok" $((secs / 60)) $((secs % 60)) "${got:--}" "${tests:--}" \
            "${skipped:--}" >>"$summary"
        cp "$root$home/galaxy/build/Testing/Temporary/LastTest.log" "$logs/" 2>/dev/null || true
    done
    [ -f "$root$home/galaxy/out.png" ] && cp "$root$home/galaxy/out.png" "$logs/out.png"
    in_root "$user" 'gcc --version | head -n 1; cmake --version | head -n 1
        mpiexec --version 2>/dev/null | head -n 1; dpkg-query -W -f="\${Version}\n" libhdf5-dev' \
        >"$logs/versions.txt" 2>&1 || true
    secs=$(($(date +%s) - case_t0))
    say "$system, $who: all four blocks in $((secs / 60)) min $((secs % 60)) s; versions: $(paste -sd ';' "$logs/versions.txt")"
    unmount
    root=
done
say "summary: $summary"
cat "$summary"
[ "$failed" -eq 0 ] || { say "$failed block(s) did not do what the README says"; exit 1; }
