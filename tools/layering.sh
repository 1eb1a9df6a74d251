#!/usr/bin/env bash
# Prints the include graph between the folders of src/ and kernels/, and fails on an include that points up or sideways, or on a loop between the files of one folder.
# SPDX-License-Identifier: MIT
#
# Usage: tools/layering.sh [SOURCE_DIR [BUILD_DIR]]
# Each folder has a layer number (the table below, bottom = 0); a file may include headers of
# its own folder and of folders on lower layers only. A quoted include is resolved by its
# file name against the headers of src/*/ and kernels/; names that are not ours (GL, HDF5,
# system headers) are skipped.
# Inside a folder, files end where a concern ends: a module is a file name without its
# extension (x.c with x.h), and no module may reach itself through the includes of its
# folder (x.c includes y.h and y.c or y.h includes x.h: one concern cut in two). With a
# BUILD_DIR, the object files there are read too (nm): no .c file of a folder may reach
# itself through the functions and tables it uses from the others (a private header shared
# by several files hides such a loop from the includes).
# Exit status: 0 all edges point down and no folder has a loop, 1 otherwise, 2 when a
# folder is missing from the table or a header name is ambiguous.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
build=${2:-}
[ -z "$build" ] || build=$(cd "$build" && pwd) || exit 2
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
    status=1
else
    echo "layering: every include points down"
fi

# Loops inside a folder. Input: lines "folder from to" (edges between modules); output: each
# strongly connected set of more than one module (Tarjan), as "folder: a b c".
loops() {
    awk '
    function visit(v,    k, w) {
        index_of[v] = low[v] = ++counter
        stack[++top] = v; on[v] = 1
        for (k = 1; k <= deg[v]; k++) {
            w = adj[v, k]
            if (!(w in index_of)) { visit(w); if (low[w] < low[v]) low[v] = low[w] }
            else if (on[w] && index_of[w] < low[v]) low[v] = index_of[w]
        }
        if (low[v] == index_of[v]) {
            comp = ""; size = 0
            do { w = stack[top--]; on[w] = 0; comp = comp " " w; size++ } while (w != v)
            if (size > 1) print comp
        }
    }
    { a = $1 ":" $2; b = $1 ":" $3
      if (!((a, b) in seen)) { seen[a, b] = 1; adj[a, ++deg[a]] = b }
      nodes[a] = 1; nodes[b] = 1 }
    END { for (v in nodes) if (!(v in index_of)) visit(v) }' |
        awk '{ f = $1; sub(/:.*/, "", f); line = f ":"; for (i = 1; i <= NF; i++) { m = $i; sub(/^[^:]*:/, "", m); line = line " " m } print line }' |
        sort
}

# Modules and the includes between them, folder by folder.
module_of() { local b=${1##*/}; echo "${b%.*}"; }
include_edges=$(for f in $files; do
    dir=${f%/*}
    from=$(module_of "$f")
    grep -h '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | sed 's/^[^"]*"\([^"]*\)".*/\1/' |
        while read -r inc; do
            [ -f "$dir/${inc##*/}" ] || continue
            to=$(module_of "$inc")
            [ "$to" = "$from" ] || echo "$dir $from $to"
        done
done)
found=$(echo "$include_edges" | grep . | loops)
if [ -n "$found" ]; then
    echo "layering: files of one folder that include each other (one concern cut in two):"
    echo "$found" | sed 's/^/  /'
    status=1
else
    echo "layering: no two files of a folder include each other"
fi

# The same for the calls between the object files of a folder (CMake's build tree:
# <build>/<folder>/CMakeFiles/<target>.dir/<file>.o for the sources of <folder>).
if [ -n "$build" ]; then
    objects=$(find "$build/src" -name '*.o' -path '*CMakeFiles*' 2>/dev/null | sort)
    if [ -z "$objects" ]; then
        echo "layering: no object files under $build: build first"
        exit 2
    fi
    call_edges=$(for o in $objects; do
        # the source folder mirrors the object's (<dir>/CMakeFiles/...); objects of sources
        # that are gone (a stale build tree) are left out
        rel=${o#"$build"/}
        dir=${rel%%/CMakeFiles/*}
        file=${o##*/}
        [ -f "$root/$dir/${file%.o}" ] || continue
        nm "$o" 2>/dev/null | awk -v d="$dir" -v f="${file%.o}" \
            '$2 ~ /^[TDBRCV]$/ { print "D", d, f, $3 } $1 == "U" { print "U", d, f, $2 }'
    done | awk '$1 == "D" { def[$2 " " $4] = $3; next }
                { use[++n] = $2 " " $3 " " $4 }
                END { for (k = 1; k <= n; k++) { split(use[k], u, " ")
                          key = u[1] " " u[3]
                          if ((key in def) && def[key] != u[2]) print u[1], u[2], def[key] } }')
    found=$(echo "$call_edges" | grep . | loops)
    if [ -n "$found" ]; then
        echo "layering: files of one folder that call each other (one concern cut in two):"
        echo "$found" | sed 's/^/  /'
        status=1
    else
        echo "layering: no two files of a folder call each other"
    fi
fi
exit $status
