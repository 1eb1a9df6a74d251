#!/usr/bin/env bash
# Prepares .devmpi/ on the dev host for the GPU machine, which has no Open MPI and no package registry: galaxy built with CUDA and MPI, mpirun and the Open MPI/PMIx runtime relocated, every library they need; then proves the copy runs with the system's Open MPI hidden.
# SPDX-License-Identifier: MIT
#
# Usage (repository root, dev host with nvcc, libopenmpi-dev and openmpi-bin):
#   bench/mpi_prepare.sh            build build-devmpi/ (CUDA sm_90, MPI) unless built, fill .devmpi/, check it
#   BUILD=dir bench/mpi_prepare.sh  take galaxy from another build tree
#   CHECK=0 ...                     skip the relocation check
# Then on the device, with carry [".devmpi"]: bash bench/mpi_scaling.sh (see its header).
#
# Layout of .devmpi/: bin/ (galaxy, mpirun, orted), lib/ (every shared library they load
# except the C runtime and the GPU driver, which the device has), ompi/ (an Open MPI
# prefix: its components under the same relative path as here, help texts, the Debian
# MCA defaults), pmix/ (PMIx's components and help texts), env.sh (the environment that
# points Open MPI and PMIx there: OPAL_PREFIX, PMIX_PREFIX, LD_LIBRARY_PATH).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-devmpi}
DEST=$ROOT/.devmpi
CHECK=${CHECK:-1}

if [ ! -x "$BUILD/galaxy" ]; then
    # -DGC_NATIVE=OFF: the device's CPU need not have this host's vector extensions.
    # Without HDF5: the scaling runs write no snapshots, and libhdf5 brings libcurl and a
    # TLS stack (~15 MB) along.
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGC_NATIVE=OFF -DGC_ENABLE_CUDA=ON \
        -DGC_MPI=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DBUILD_TESTING=OFF \
        -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=ON
    cmake --build "$BUILD" -j"$(nproc)" --target galaxy
fi
"$BUILD/galaxy" --version | grep -q "MPI" || { echo "mpi_prepare: $BUILD/galaxy has no MPI"; exit 1; }

# Where this host's Open MPI lives (Debian: prefix /usr, libdir lib/x86_64-linux-gnu/openmpi/lib).
path() { ompi_info --path "$1" | sed 's/^[^:]*: *//'; }
prefix=$(path prefix)
pkglibdir=$(path pkglibdir)
pkgdatadir=$(path pkgdatadir)
sysconfdir=$(path sysconfdir)
rel_pkglib=$(realpath --relative-to="$prefix" "$pkglibdir")
rel_pkgdata=$(realpath --relative-to="$prefix" "$pkgdatadir")
orterun=$(readlink -f "$(command -v mpirun)")
orted=$(command -v orted)
# PMIx, when Open MPI uses an external one (Debian: /usr/lib/<arch>/pmix2).
cache=$(ldconfig -p)
pmix_so=$(awk '/libpmix\.so\.2 / { print $NF; exit }' <<<"$cache")
pmix_prefix=$(dirname "$(dirname "$(readlink -f "$pmix_so")")")
[ -n "$pmix_so" ] && [ -d "$pmix_prefix/lib/pmix" ] || pmix_prefix=""

rm -rf "$DEST"
mkdir -p "$DEST/bin" "$DEST/lib" "$DEST/ompi/$rel_pkglib" "$DEST/ompi/$rel_pkgdata" "$DEST/ompi/etc"
cp "$BUILD/galaxy" "$DEST/bin/"
cp "$orterun" "$DEST/bin/mpirun"
cp "$orted" "$DEST/bin/orted"
# Components for one host's shared memory and TCP; not the network stacks of clusters (OFI,
# UCX, InfiniBand verbs, PSM: Debian's own MCA defaults turn most of them off), whose
# libraries would double the size of what travels.
for c in "$pkglibdir"/*.so; do
    case $(basename "$c") in *ofi* | *ucx* | *uct* | *openib* | *psm* | *verbs*) continue ;; esac
    cp "$c" "$DEST/ompi/$rel_pkglib/"
done
cp "$pkgdatadir"/* "$DEST/ompi/$rel_pkgdata/" 2>/dev/null || true
cp "$sysconfdir"/openmpi-mca-params.conf "$DEST/ompi/etc/" 2>/dev/null || true
if [ -n "$pmix_prefix" ]; then
    mkdir -p "$DEST/pmix/lib/pmix" "$DEST/pmix/share/pmix"
    cp "$pmix_prefix"/lib/pmix/*.so "$DEST/pmix/lib/pmix/"
    cp "$pmix_prefix"/share/pmix/* "$DEST/pmix/share/pmix/" 2>/dev/null || true
fi

# Every library the programs and components load, by soname, except what the device
# provides: the C runtime (newer there) and the NVIDIA driver.
skip='^(linux-vdso|ld-linux|libc\.so|libm\.so|libdl\.so|libpthread\.so|librt\.so|libresolv\.so|libgcc_s\.so|libstdc\+\+\.so|libcuda\.so|libnvidia)'
objs=("$DEST/bin/galaxy" "$DEST/bin/mpirun" "$DEST/bin/orted" "$DEST/ompi/$rel_pkglib"/*.so)
[ -n "$pmix_prefix" ] && objs+=("$DEST/pmix/lib/pmix"/*.so)
ldd "${objs[@]}" 2>/dev/null | awk '/=>/ && $3 ~ /^\// { print $1, $3 }' | sort -u |
while read -r soname file; do
    [[ $soname =~ $skip ]] && continue
    [ -e "$DEST/lib/$soname" ] || cp -L "$file" "$DEST/lib/$soname"
done
if ldd "${objs[@]}" 2>/dev/null | grep -q "not found"; then
    echo "mpi_prepare: some libraries are not found here:"; ldd "${objs[@]}" | grep "not found" | sort -u
fi

cat >"$DEST/env.sh" <<'EOF'
# Source this (bash) to run the carried Open MPI from this folder (made by bench/mpi_prepare.sh).
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=$here/ompi
export OPAL_SYSCONFDIR=$here/ompi/etc
# Debian's PMIx has absolute install folders, which PMIX_PREFIX does not move: name them.
if [ -d "$here/pmix" ]; then
    export PMIX_PREFIX=$here/pmix PMIX_LIBDIR=$here/pmix/lib PMIX_PKGLIBDIR=$here/pmix/lib/pmix
    export PMIX_DATADIR=$here/pmix/share PMIX_PKGDATADIR=$here/pmix/share/pmix
fi
export PATH=$here/bin:$PATH
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The machines lent run everything as root, on one host, without ssh: launch locally only.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated
# galaxy uses no NCCL; the multi-GPU machines' README asks to keep NVLink multicast off anyway.
export NCCL_NVLS_ENABLE=0
EOF
du -sh "$DEST"
echo "mpi_prepare: $(ls "$DEST/lib" | wc -l) libraries, $(ls "$DEST/ompi/$rel_pkglib" | wc -l) Open MPI components"

[ "$CHECK" = 1 ] || exit 0
# The check: a clean environment in a private mount namespace where this host's Open MPI,
# PMIx and every library copied above are hidden, so only the copies can be loaded.
if ! unshare -m true 2>/dev/null; then
    echo "mpi_prepare: cannot make a mount namespace here (needs root): relocation not checked"
    exit 0
fi
empty=$(mktemp -d)
hide="true"
for l in "$DEST"/lib/*; do
    sys=$(awk -v s="$(basename "$l")" '$1 == s { print $NF; exit }' <<<"$cache")
    [ -n "$sys" ] && hide="$hide; mount --bind /dev/null $(readlink -f "$sys")"
done
for f in "$orterun" "$orted" $(command -v ssh rsh); do hide="$hide; mount --bind /dev/null $f"; done
hide="$hide; mount --bind $empty $pkglibdir; mount --bind $empty $pkgdatadir"
[ -d "$sysconfdir" ] && hide="$hide; mount --bind $empty $sysconfdir"
[ -n "$pmix_prefix" ] && hide="$hide; mount --bind $empty $pmix_prefix"
out=$(unshare -m bash -c "$hide; env -i HOME=/tmp PATH=/usr/bin:/bin bash -c '
    . \"$DEST/env.sh\"
    which mpirun
    ldd \"$DEST/bin/galaxy\" | grep -E \"libmpi|libhdf5|libGLEW\"
    timeout 60 mpirun --bind-to none -np 2 galaxy --backend cpu --threads 1 --model plummer \
        -n 512 --integrator leapfrog --eps 0.01 --steps 4 --profile 2>&1
    echo exit=\$?'" 2>&1)
rmdir "$empty"
echo "$out"
if grep -q "^exit=0" <<<"$out" && grep -q "^# profile: ranks 2" <<<"$out" &&
    ! grep -qiE "sorry|could not|not found|error" <<<"$out" &&
    ! grep -q "/usr/lib" <<<"$(grep '=>' <<<"$out")"; then
    echo "mpi_prepare: relocation check passed (2 ranks from .devmpi with the system's Open MPI hidden)"
else
    echo "mpi_prepare: relocation check FAILED"
    exit 1
fi
