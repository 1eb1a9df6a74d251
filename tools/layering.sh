#!/usr/bin/env bash
# Prints the include graph between the folders of src/ and kernels/, and fails on an include that points up or sideways (so no cycle can form).
# SPDX-License-Identifier: MIT
#
# Usage: tools/layering.sh [SOURCE_DIR]
# Each folder has a layer number (the table below, bottom = 0); a file may include headers of
# its own folder and of folders on lower layers only. A quoted include is resolved by its
# file name against the headers of src/*/ and kernels/; names that are not ours (GL, HDF5,
# system headers) are skipped. Exit status: 0 all edges point down, 1 otherwise, 2 when a
# folder is missing from the table or a header name is ambiguous.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root" || exit 2

# Layer of each folder: what it may include is on a lower line.
layers='
core 0
physics 0
picture 0
io 1
models 1
parallel 1
record 1
view 1
kernels 1
backends 2
force 3
integrators 4
sim 5
cli 6
modes 7
viewer 8
src 9
'
layer_of() { awk -v f="$1" '$1 == f { print $2 }' <<<"$layers"; }

# Folder of a source file: kernels/x.cu -> kernels, src/a/x.c -> a, src/main.c -> src.
folder_of() {
    case $1 in
    kernels/*) echo kernels ;;
    src/*/*) local d=${1#src/}; echo "${d%%/*}" ;;
    src/*) echo src ;;
    esac
}

files=$(find src kernels -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort)
status=0

# Header name -> folder; a name in two folders would make the graph ambiguous.
declare -A home
for f in $files; do
    case $f in *.h) ;; *) continue ;; esac
    name=${f##*/}
    dir=$(folder_of "$f")
    if [ -n "${home[$name]:-}" ] && [ "${home[$name]}" != "$dir" ]; then
        echo "layering: header $name is in both ${home[$name]} and $dir"
        status=2
    fi
    home[$name]=$dir
done
for dir in $(for f in $files; do folder_of "$f"; done | sort -u); do
    if [ -z "$(layer_of "$dir")" ]; then
        echo "layering: folder $dir has no layer in tools/layering.sh: add it to the table"
        status=2
    fi
done
[ $status = 0 ] || exit $status

declare -A edges
bad=""
for f in $files; do
    from=$(folder_of "$f")
    lf=$(layer_of "$from")
    while IFS=: read -r line inc; do
        name=${inc##*/}
        to=${home[$name]:-}
        [ -n "$to" ] || continue
        [ "$to" = "$from" ] && continue
        edges["$from -> $to"]=$((${edges["$from -> $to"]:-0} + 1))
        if [ "$(layer_of "$to")" -ge "$lf" ]; then
            bad="$bad
  $f:$line includes $name ($from, layer $lf -> $to, layer $(layer_of "$to"))"
        fi
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
             sed 's/^\([0-9]*\):[^"]*"\([^"]*\)".*/\1:\2/')
done

echo "include graph (folder -> folder: includes), layers bottom up:"
echo "$layers" | awk 'NF { printf "  %s=%s", $1, $2 } END { print "" }'
for e in "${!edges[@]}"; do echo "  $e: ${edges[$e]}"; done | sort
if [ -n "$bad" ]; then
    echo "layering: includes that point up or sideways (a layer may include only lower ones):$bad"
    exit 1
fi
echo "layering: every include points down"
