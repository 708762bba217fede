#!/usr/bin/env bash
# Builds the native half of the Android app into build/android/: llama.cpp and llm/ with the
# NDK's CMake toolchain (static), the Swift JNI bridge with the Swift SDK for Android, the
# Swift runtime and libc++_shared.so beside it (build/android/jniLibs/arm64-v8a/), and the
# fonts (build/android/assets/). android/app/build.gradle.kts runs it before packaging.
#
# Needs: the Swift toolchain with the Swift SDK for Android installed (`swift sdk list` shows
# it), and the Android NDK r27 or newer (ANDROID_NDK_HOME, or the newest under
# $ANDROID_HOME/ndk). Every library is linked for 16 KB pages and checked.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

API=28            # what the Swift SDK for Android targets
ABI=arm64-v8a
TRIPLE=aarch64-unknown-linux-android$API

ndk=${ANDROID_NDK_HOME:-${ANDROID_NDK_ROOT:-}}
if [ -z "$ndk" ] && [ -d "${ANDROID_HOME:-/nonexistent}/ndk" ]; then
    ndk=$(find "$ANDROID_HOME/ndk" -mindepth 1 -maxdepth 1 -type d | sort -V | tail -1)
fi
if [ -z "$ndk" ] || [ ! -f "$ndk/build/cmake/android.toolchain.cmake" ]; then
    die "no Android NDK: set ANDROID_NDK_HOME (Android Studio → SDK Manager → NDK, r27 or newer)"
fi
swift sdk list 2>/dev/null | grep -qi android \
    || die "the Swift SDK for Android is not installed: see https://www.swift.org/documentation/articles/swift-sdk-for-android-getting-started.html"
ensure_build_tools
prebuilt=$(find "$ndk/toolchains/llvm/prebuilt" -mindepth 1 -maxdepth 1 -type d | head -1)
sysroot="$prebuilt/sysroot"

source_dir=$("$REPO_ROOT/scripts/llama-source.sh")
"$REPO_ROOT/scripts/fetch-fonts.sh"
"$REPO_ROOT/scripts/fetch-words.sh"
out="$BUILD_DIR/android"
mkdir -p "$out/assets" "$out/jniLibs/$ABI" "$out/llm/lib"
cp "$BUILD_DIR/fonts/SpaceGrotesk[wght].ttf" "$BUILD_DIR/fonts/$SITELEN_FONT_FILE" \
    "$BUILD_DIR/fonts/SpaceGrotesk-LICENSE.txt" "$BUILD_DIR/fonts/sitelen-seli-kiwen-LICENSE.txt" \
    "$BUILD_DIR/words/linku-words.json" "$REPO_ROOT/licenses/lipu-Linku-CC-BY-SA-4.0.txt" "$out/assets/"

# llama.cpp and the inference library, static, for arm64 phones: ARMv8.2 with dot product and fp16 (every
# arm64 Android phone since 2018), no OpenMP, performance cores chosen at run time as on Linux.
FLAGS=(
    -DCMAKE_TOOLCHAIN_FILE="$ndk/build/cmake/android.toolchain.cmake" -DANDROID_ABI="$ABI"
    -DANDROID_PLATFORM="android-$API" -DANDROID_STL=c++_shared -DANDROID_SUPPORT_FLEXIBLE_PAGE_SIZES=ON
    "${LLAMA_STATIC_FLAGS[@]}" -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DGGML_NATIVE=OFF -DGGML_CPU_ARM_ARCH=armv8.2-a+dotprod+fp16
)
# The core too: the trimmed head's arm64 kernel (llm/src/row_dots.cpp) needs the dot product.
CORE_FLAGS=(-DCMAKE_CXX_FLAGS=-march=armv8.2-a+dotprod)
key=$(printf '%s\n' "$LLAMA_CPP_PYTHON_VERSION:$LLAMA_CPP_PYTHON_SHA256:$(basename "$source_dir")" "${FLAGS[*]} ${CORE_FLAGS[*]}" "$(cat "$ndk/source.properties")" \
    "$(cat llm/src/*.cpp llm/src/*.hpp llm/include/*.h llm/CMakeLists.txt | short_hash)" | short_hash)
dir="$ILOTOKI_CACHE/android/$key"
if [ ! -f "$dir/.complete" ]; then
    log "building llama.cpp and llm/ for $ABI into $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    run_logged "$dir/llama-configure.log" "configuring llama.cpp for Android" \
        cmake -S "$source_dir" -B "$dir/llama" -G Ninja "${FLAGS[@]}" -DCMAKE_INSTALL_PREFIX="$dir/install"
    run_logged "$dir/llama-build.log" "building llama.cpp for Android" ninja -C "$dir/llama" install
    run_logged "$dir/core-configure.log" "configuring llm/ for Android" \
        cmake -S llm -B "$dir/core" -G Ninja "${FLAGS[@]}" "${CORE_FLAGS[@]}" -DILOTOKI_LLM_TESTS=OFF -DCMAKE_PREFIX_PATH="$dir/install" \
        -DCMAKE_FIND_ROOT_PATH="$dir/install" -DLLAMA_SOURCE_DIR="$source_dir"
    run_logged "$dir/core-build.log" "building llm/ for Android" ninja -C "$dir/core"
    merge_core_archive "$dir/libilotoki_llm.a" "$dir/core" "$dir/install" "$prebuilt/bin/llvm-ar"
    touch "$dir/.complete"
fi
cp "$dir/libilotoki_llm.a" "$out/llm/lib/"

log "building the Swift JNI bridge for $TRIPLE"
ILOTOKI_JNI=android ILOTOKI_LLM_LIB="$out/llm/lib" swift build -c release --swift-sdk "$TRIPLE" \
    --build-path "$REPO_ROOT/.build-android" --product IloTokiJNI \
    -Xlinker -z -Xlinker max-page-size=16384 >&2
bridge="$REPO_ROOT/.build-android/$TRIPLE/release/libIloTokiJNI.so"
[ -f "$bridge" ] || bridge=$(find "$REPO_ROOT/.build-android" -name libIloTokiJNI.so -path '*release*' | head -1)
[ -f "$bridge" ] || die "swift build made no libIloTokiJNI.so"

# The bridge, and every shared library it needs that Android does not have: the Swift
# runtime from the SDK, libc++_shared.so from the NDK.
rm -f "$out/jniLibs/$ABI"/*.so
cp "$bridge" "$out/jniLibs/$ABI/"
sdk_libs=$(find "$HOME/.swiftpm/swift-sdks" "$HOME/Library/org.swift.swiftpm/swift-sdks" -path '*android*' \
    -name libswiftCore.so -path '*aarch64*' 2>/dev/null | head -1 | xargs -r dirname)
[ -n "$sdk_libs" ] || die "cannot find the Swift SDK for Android's runtime libraries (libswiftCore.so)"
pending=("$out/jniLibs/$ABI/libIloTokiJNI.so")
while [ ${#pending[@]} -gt 0 ]; do
    library=${pending[0]}
    pending=("${pending[@]:1}")
    for needed in $("$prebuilt/bin/llvm-readelf" -d "$library" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
        [ -f "$out/jniLibs/$ABI/$needed" ] && continue
        if [ -f "$sdk_libs/$needed" ]; then
            cp "$sdk_libs/$needed" "$out/jniLibs/$ABI/"
        elif [ "$needed" = libc++_shared.so ]; then
            cp "$sysroot/usr/lib/aarch64-linux-android/libc++_shared.so" "$out/jniLibs/$ABI/"
        else
            continue # a system library (libc, libm, libdl, liblog, libandroid)
        fi
        pending+=("$out/jniLibs/$ABI/$needed")
    done
done

# Android 15 devices may use 16 KB pages: every LOAD segment must be aligned to them.
for library in "$out/jniLibs/$ABI"/*.so; do
    if "$prebuilt/bin/llvm-readelf" -l "$library" | awk '$1 == "LOAD" { print $NF }' | grep -v -E '^0x(4000|8000|10000)$' >/dev/null; then
        die "$(basename "$library") is not aligned for 16 KB pages"
    fi
done
log "native libraries ready in $out/jniLibs/$ABI: $(cd "$out/jniLibs/$ABI" && echo *.so)"
