#!/usr/bin/env bash
# Prepares on the dev host (Debian 12, nvcc, no GPU) what run_viewer_on_device.sh carries to the GPU machine.
# SPDX-License-Identifier: MIT
#
# Usage (repository root): tests/gpu/make_viewer_devbuild.sh
# Writes .devviewer/ (ignored by git), about 45 MB, and .gl/ (glvnd's GL/EGL debs, as the
# device tool's README says) when it is missing:
#   .devviewer/viewer.tar.xz  bin/galaxy (this tree: CUDA sm_90, FFmpeg, no HDF5, no MPI),
#                             bin/galaxy-before (BEFORE_REF's viewer, for the before/after
#                             pictures), bin/galaxy-bench, lib/ (every library they need that
#                             the device lacks: freeglut, GLEW, libpng, X11 clients, a minimal
#                             FFmpeg with libx264, FreeType), shaders/ and shaders-before/,
#                             fonts/DejaVuSans.ttf (found beside shaders/ through the
#                             GC_SHADER_DIR the run sets: the device has no fonts), tools/ffmpeg
#                             (a static ffmpeg program that decodes H.264, for the movie's
#                             pixel check: tests/viewer/moviecheck.py)
#   .devviewer/x11.tar.xz     Xvfb, xdotool, xkbcomp, the XKB data, Mesa's swrast DRI driver
#                             (Xvfb's own GLX needs one) and their libraries
#   .devviewer/dubinski.tab.gz  the table, when ../shared/data has it
# The device has no package manager and no network, so everything travels as files.
#
# FFmpeg: Debian's libavcodec pulls ~150 libraries (170 MB, 52 MB compressed), more than a
# device call can carry next to Xvfb; a minimal FFmpeg (libx264 encoder, mp4/mov/matroska
# muxers, swscale) is built from Debian's source package instead, with the same headers
# (without nasm: its own assembly off; x264 keeps its own, and the RGBA to YUV conversion runs
# in C, slower but only for movies). The device has no ffmpeg program either: a second,
# static build of the same source gives one that decodes H.264 to pictures and nothing more
# (2-3 MB).
# Mesa: libLLVM's libz3 and libicuuc's ICU data (54 MB) are never used by a software GL
# driver; they are replaced by stub libraries that only define the symbols asked for.
#
# Knobs: WORK (scratch, default /tmp/gc-devviewer), BEFORE_REF (default cbdc7fb: the viewer
# before the CUDA picture and the frame pipeline; empty = no before build), JOBS (default 2),
# FFMPEG (min, the default: the minimal FFmpeg above; off: a build without movies, no
# FFmpeg to build), TESTS (1: also the CUDA test programs and the measurement tools in bin/).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${WORK:-/tmp/gc-devviewer}
BEFORE_REF=${BEFORE_REF-cbdc7fb}
JOBS=${JOBS:-2}
FFMPEG=${FFMPEG:-min}
TESTS=${TESTS:-0}
DEST=$ROOT/.devviewer
ARCH=x86_64-linux-gnu
mkdir -p "$WORK"
log() { echo "== $* ($(date +%H:%M:%S))"; }

# ---- a minimal FFmpeg: libavcodec (libx264 only), libavformat, libswscale, libavutil ----
# Debian's FFmpeg source into $WORK/src, once (both FFmpeg builds below start from it).
ffmpeg_source() {
    ls "$WORK"/src/ffmpeg_*.orig.tar.xz >/dev/null 2>&1 && return 0
    log "FFmpeg source (Debian's)"
    mkdir -p "$WORK/apt/lists/partial" "$WORK/src"
    echo "deb-src http://deb.debian.org/debian bookworm main" >"$WORK/apt/src.list"
    local apt=(-o Dir::Etc::SourceList="$WORK/apt/src.list" -o Dir::Etc::SourceParts=/dev/null
               -o Dir::State::Lists="$WORK/apt/lists")
    (cd "$WORK/src" &&
        apt-get "${apt[@]}" update -qq &&
        apt-get "${apt[@]}" source --download-only -qq ffmpeg)
}
FF=$WORK/ffmin
if [ "$FFMPEG" = min ] && [ ! -f "$FF/lib/pkgconfig/libavcodec.pc" ]; then
    ffmpeg_source
    log "libx264's headers"
    (cd "$WORK/src" && apt-get download -qq libx264-dev)
    rm -rf "$WORK/src/x264dev" "$WORK/src/ffmpeg-src"
    dpkg -x "$WORK"/src/libx264-dev_*.deb "$WORK/src/x264dev"
    X264=$WORK/src/x264dev/usr
    ln -sf /usr/lib/$ARCH/libx264.so.164 "$X264/lib/$ARCH/libx264.so"
    sed -i "s#^prefix=.*#prefix=$X264#; s#^libdir=.*#libdir=$X264/lib/$ARCH#; s#-L/usr/lib/$ARCH#-L\${libdir}#" \
        "$X264/lib/$ARCH/pkgconfig/x264.pc"
    mkdir -p "$WORK/src/ffmpeg-src"
    tar -xf "$WORK"/src/ffmpeg_*.orig.tar.xz -C "$WORK/src/ffmpeg-src" --strip-components=1
    log "configure and build the minimal FFmpeg"
    (cd "$WORK/src/ffmpeg-src" &&
        PKG_CONFIG_PATH=$X264/lib/$ARCH/pkgconfig ./configure --prefix="$FF" \
            --enable-shared --disable-static --enable-gpl --disable-autodetect --enable-pthreads \
            --disable-everything --disable-programs --disable-doc --disable-avdevice \
            --disable-avfilter --disable-swresample --disable-postproc --disable-network \
            --enable-libx264 --enable-encoder=libx264 --enable-muxer=mp4,mov,matroska \
            --enable-protocol=file --enable-swscale --disable-x86asm >"$WORK/ffmpeg-configure.log" &&
        nice make -j"$JOBS" >"$WORK/ffmpeg-build.log" 2>&1 && make install >/dev/null)
fi

# ---- ffmpeg, the program, for the movie check on the device: H.264 in, PPM pictures out ----
# Static, so that it loads neither the minimal FFmpeg's libraries (on the device's library
# path) nor a system one. Its own copy of the source: FFmpeg builds out of a tree only when
# that tree holds no build of its own. Without its assembly too (no nasm here): its pictures
# were checked to match Debian's ffmpeg's (tests/viewer/moviecheck.py's figures, to 0.1).
FFDEC=$WORK/ffdec
if [ "$FFMPEG" = min ] && [ ! -x "$FFDEC/bin/ffmpeg" ]; then
    ffmpeg_source
    log "build a static ffmpeg program that decodes H.264, for the movie check"
    rm -rf "$WORK/src/ffdec-src" && mkdir -p "$WORK/src/ffdec-src"
    tar -xf "$WORK"/src/ffmpeg_*.orig.tar.xz -C "$WORK/src/ffdec-src" --strip-components=1
    (cd "$WORK/src/ffdec-src" &&
        ./configure --prefix="$FFDEC" --enable-static --disable-shared --disable-autodetect \
            --enable-pthreads --disable-everything --disable-doc --disable-ffplay \
            --disable-ffprobe --disable-avdevice --disable-swresample --disable-postproc \
            --disable-network --enable-ffmpeg --enable-avfilter --enable-swscale \
            --enable-decoder=h264 --enable-parser=h264 --enable-demuxer=mov \
            --enable-filter=select,scale,format,null --enable-encoder=ppm \
            --enable-muxer=image2pipe --enable-protocol=file,pipe \
            --disable-x86asm >"$WORK/ffdec-configure.log" &&
        nice make -j"$JOBS" >"$WORK/ffdec-build.log" 2>&1 && make install >/dev/null)
fi

# ---- the viewer of this tree, and the one before (for the before/after pictures) ----
build() { # src build-dir "targets" extra-cmake-args...
    local src=$1 dir=$2 targets=$3
    shift 3
    cmake -S "$src" -B "$dir" -DCMAKE_BUILD_TYPE=Release -DGC_NATIVE=OFF \
        -DGC_ENABLE_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_DISABLE_FIND_PACKAGE_HDF5=ON \
        -DGC_MPI=OFF -DBUILD_TESTING=OFF "$@" >"$dir.configure.log"
    # shellcheck disable=SC2086
    nice cmake --build "$dir" -j"$JOBS" --target $targets >"$dir.build.log" 2>&1
}
TARGETS="galaxy galaxy-bench"
EXTRA=()
if [ "$TESTS" = 1 ]; then
    TARGETS="$TARGETS test_tree test_backend_cuda test_bench_cuda test_hermite test_keyframes tree_vs_allpairs hermite_blocks"
    EXTRA+=(-DBUILD_TESTING=ON)
fi
if [ "$FFMPEG" = min ]; then
    log "build this tree's viewer (sm_90, minimal FFmpeg)"
    PKG_CONFIG_PATH=$FF/lib/pkgconfig build "$ROOT" "$WORK/build-after" "$TARGETS" \
        -DGC_ENABLE_FFMPEG=ON "${EXTRA[@]}"
    grep -q "Movie recording: FFmpeg" "$WORK/build-after.configure.log" ||
        { echo "the build did not find the minimal FFmpeg"; exit 1; }
    grep -q "On-screen text: FreeType" "$WORK/build-after.configure.log" ||
        { echo "the build did not find FreeType (libfreetype-dev)"; exit 1; }
else
    log "build this tree's viewer (sm_90, no movies)"
    build "$ROOT" "$WORK/build-after" "$TARGETS" -DGC_ENABLE_FFMPEG=OFF "${EXTRA[@]}"
fi
if [ -n "$BEFORE_REF" ]; then
    log "build the viewer of $BEFORE_REF"
    rm -rf "$WORK/src-before" && mkdir -p "$WORK/src-before"
    git -C "$ROOT" archive "$BEFORE_REF" | tar -x -C "$WORK/src-before"
    # built as this tree's is (no movies: else Debian's FFmpeg and its ~150 libraries travel)
    before_ff=()
    [ "$FFMPEG" = min ] || before_ff=(-DGC_ENABLE_FFMPEG=OFF)
    build "$WORK/src-before" "$WORK/build-before" galaxy "${before_ff[@]}"
fi

# ---- what travels ----
STAGE=$WORK/stage
rm -rf "$STAGE" && mkdir -p "$STAGE/viewer/bin" "$STAGE/viewer/lib" "$STAGE/x11/bin" \
    "$STAGE/x11/lib" "$STAGE/x11/dri"
cp "$WORK/build-after/galaxy" "$WORK/build-after/galaxy-bench" "$STAGE/viewer/bin/"
if [ "$TESTS" = 1 ]; then
    cp "$WORK"/build-after/tests/test_{tree,backend_cuda,bench_cuda,hermite,keyframes} \
        "$WORK/build-after/tools/tree_vs_allpairs" "$WORK/build-after/bench/hermite_blocks" \
        "$STAGE/viewer/bin/"
fi
cp -r "$ROOT/shaders" "$STAGE/viewer/shaders"
# The font of the text on screen: the viewer looks in fonts/ beside its shaders folder.
mkdir -p "$STAGE/viewer/fonts"
cp -L /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf "$STAGE/viewer/fonts/"
if [ -n "$BEFORE_REF" ]; then
    cp "$WORK/build-before/galaxy" "$STAGE/viewer/bin/galaxy-before"
    cp -r "$WORK/src-before/shaders" "$STAGE/viewer/shaders-before"
fi
if [ "$FFMPEG" = min ]; then
    mkdir -p "$STAGE/viewer/tools"
    cp "$FFDEC/bin/ffmpeg" "$STAGE/viewer/tools/"
fi

# Libraries a binary needs, less what every Linux has, the GPU driver's and glvnd's (the
# .gl debs bring those), into dir.
SKIP='^(linux-vdso|libc\.so|libm\.so|libdl\.so|libpthread|librt\.so|ld-linux|libstdc\+\+|libgcc_s|libcuda\.so|libGL\.so|libEGL\.so|libOpenGL|libGLX\.so|libGLdispatch|libGLESv2)'
collect() { # dir binaries...
    local dir=$1
    shift
    LD_LIBRARY_PATH=$FF/lib ldd "$@" | awk '$2 == "=>" && $3 ~ /^\// {print $1, $3}' | sort -u |
        while read -r name path; do
            [[ $name =~ $SKIP ]] || cp -L "$path" "$dir/$name"
        done
}
collect "$STAGE/viewer/lib" "$STAGE"/viewer/bin/*
ldd "$STAGE/viewer/bin/galaxy" | grep -q "not found" &&
    { echo "unresolved libraries:"; ldd "$STAGE/viewer/bin/galaxy" | grep "not found"; exit 1; }

cp /usr/bin/Xvfb /usr/bin/xdotool /usr/bin/xkbcomp "$STAGE/x11/bin/"
cp -L /usr/lib/$ARCH/dri/swrast_dri.so "$STAGE/x11/dri/"
cp -r /usr/share/X11/xkb "$STAGE/x11/xkb"
# libGLX_mesa: the client side of Mesa's GLX, a fallback to compare NVIDIA's GLX with.
collect "$STAGE/x11/lib" "$STAGE"/x11/bin/* "$STAGE/x11/dri/swrast_dri.so" \
    /usr/lib/$ARCH/libGLX_mesa.so.0
cp -L /usr/lib/$ARCH/libGLX_mesa.so.0 "$STAGE/x11/lib/"
# Stubs: every symbol the real library would give, as an empty function or a zero byte.
stub() { # soname real-library users...
    local so=$1 real=$2
    shift 2
    local c=$WORK/${so%%.so*}_stub.c
    echo "/* stub of $so: symbols defined so the loader is content; never called */" >"$c"
    nm -D --defined-only "$real" | awk '{print $2, $3}' | sort -u >"$WORK/defined.txt"
    for u in "$@"; do nm -D --undefined-only "$u" | awk '{print $2}'; done | sed 's/@.*//' |
        sort -u | while read -r s; do
            kind=$(awk -v s="$s" '$2 == s {print $1; exit}' "$WORK/defined.txt")
            case "$kind" in
            T | W | i) echo "void $s(void) {}" ;;
            R | D | B | V) echo "const char ${s}[16];" ;;
            esac
        done >>"$c"
    cc -shared -fPIC -o "$STAGE/x11/lib/$so" -Wl,-soname,"$so" "$c"
}
stub libz3.so.4 /usr/lib/$ARCH/libz3.so.4 /usr/lib/$ARCH/libLLVM-15.so.1
stub libicudata.so.72 /usr/lib/$ARCH/libicudata.so.72 /usr/lib/$ARCH/libicuuc.so.72
# Check the driver loads with the stubs, all symbols bound now.
LD_LIBRARY_PATH=$STAGE/x11/lib LD_BIND_NOW=1 python3 -c \
    "import ctypes; ctypes.CDLL('$STAGE/x11/dri/swrast_dri.so')" ||
    { echo "swrast_dri.so does not load with the stubs"; exit 1; }

log "compress"
rm -rf "$DEST" && mkdir -p "$DEST"
tar -C "$STAGE" -cf - viewer | xz -T"$JOBS" -6 >"$DEST/viewer.tar.xz"
tar -C "$STAGE" -cf - x11 | xz -T"$JOBS" -6 >"$DEST/x11.tar.xz"
git -C "$ROOT" rev-parse HEAD >"$DEST/built-from"
# The table travels too, in case the device's copy of the repository has no shared/ folder.
[ -f "$ROOT/../shared/data/dubinski.tab.gz" ] && cp "$ROOT/../shared/data/dubinski.tab.gz" "$DEST/"
echo "$BEFORE_REF" >"$DEST/before-ref"

if [ ! -d "$ROOT/.gl" ]; then
    log "glvnd debs into .gl (the device tool's recipe)"
    mkdir -p "$ROOT/.gl" /tmp/amd64/partial
    o=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
    apt-get "${o[@]}" update -qq
    (cd "$ROOT/.gl" && apt-get "${o[@]}" download -qq libvulkan1 libegl1 libglvnd0 libopengl0 \
        libgl1 libglx0 libgles2)
fi
du -sh "$DEST"/* "$ROOT/.gl"
echo "carry: [\".devviewer\", \".gl\"]"
