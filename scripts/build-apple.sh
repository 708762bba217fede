#!/usr/bin/env bash
# Builds the inference library for Apple's platforms and makes
# build/apple/CIloTokiLLM.xcframework, which Package.swift links on a Mac: llama.cpp (pinned,
# as on Linux) and llm/, static, one archive per platform, merged with libtool.
#
#   iOS device      arm64            Metal (shaders embedded in the library)
#   iOS simulator   arm64, x86_64    CPU: the simulator's Metal is not the phone's
#   macOS           arm64, x86_64    Metal
#
# Then, with --project or --open, generates Apple/IloToki.xcodeproj with XcodeGen (and opens
# it). Needs Xcode, CMake and, for the project, XcodeGen: `brew install cmake xcodegen`.
#
#   scripts/build-apple.sh [--project | --open]
set -euo pipefail
. "$(dirname "$0")/common.sh"

mode=library
case "${1:-}" in
"") ;;
--project) mode=project ;;
--open) mode=open ;;
*) die "usage: scripts/build-apple.sh [--project | --open]" ;;
esac

[ "$(uname -s)" = Darwin ] || die "the Apple build needs a Mac with Xcode (on Linux, scripts/check-apple.sh checks what can be checked)"
command -v xcodebuild >/dev/null || die "xcodebuild not found: install Xcode and run 'sudo xcode-select -s /Applications/Xcode.app'"
command -v cmake >/dev/null || die "cmake not found: brew install cmake"
if [ "$mode" != library ]; then
    command -v xcodegen >/dev/null || die "xcodegen not found: brew install xcodegen"
fi

IOS_MIN=17.0
MACOS_MIN=14.0
source_dir=$("$REPO_ROOT/scripts/llama-source.sh")
"$REPO_ROOT/scripts/fetch-fonts.sh"
"$REPO_ROOT/scripts/fetch-words.sh"
generator=(-G "Unix Makefiles")
command -v ninja >/dev/null && generator=(-G Ninja)
jobs=$(cpu_count)

COMMON_FLAGS=("${LLAMA_STATIC_FLAGS[@]}" -DGGML_NATIVE=OFF)

# Builds one slice: llama.cpp, then llm/, merged into $ILOTOKI_CACHE/apple/<key>/libilotoki_llm.a.
# Prints that archive's path. Usage: build_slice NAME ARCH CMAKE_FLAGS…
build_slice() {
    local name=$1 arch=$2
    shift 2
    local flags=("${COMMON_FLAGS[@]}" -DCMAKE_OSX_ARCHITECTURES="$arch" "$@")
    local key
    key=$(printf '%s\n' "$LLAMA_CPP_PYTHON_VERSION:$LLAMA_CPP_PYTHON_SHA256:$(basename "$source_dir")" "${flags[*]}" "$(xcodebuild -version | head -1)" \
        "$(cat "$REPO_ROOT"/llm/src/*.cpp "$REPO_ROOT"/llm/src/*.hpp "$REPO_ROOT"/llm/include/*.h "$REPO_ROOT/llm/CMakeLists.txt" | short_hash)" | short_hash)
    local dir="$ILOTOKI_CACHE/apple/$name-$key"
    if [ ! -f "$dir/.complete" ]; then
        log "building $name ($arch) into $dir"
        rm -rf "$dir"
        mkdir -p "$dir"
        run_logged "$dir/llama-configure.log" "configuring llama.cpp for $name" \
            cmake -S "$source_dir" -B "$dir/llama" "${generator[@]}" "${flags[@]}" -DCMAKE_INSTALL_PREFIX="$dir/install"
        run_logged "$dir/llama-build.log" "building llama.cpp for $name" cmake --build "$dir/llama" --target install -j "$jobs"
        run_logged "$dir/core-configure.log" "configuring llm/ for $name" \
            cmake -S "$REPO_ROOT/llm" -B "$dir/core" "${generator[@]}" "${flags[@]}" -DILOTOKI_LLM_TESTS=OFF \
            -DCMAKE_PREFIX_PATH="$dir/install" -DLLAMA_SOURCE_DIR="$source_dir"
        run_logged "$dir/core-build.log" "building llm/ for $name" cmake --build "$dir/core" -j "$jobs"
        merge_core_archive "$dir/libilotoki_llm.a" "$dir/core" "$dir/install" libtool
        touch "$dir/.complete"
    fi
    echo "$dir/libilotoki_llm.a"
}

METAL=(-DGGML_METAL=ON -DGGML_METAL_EMBED_LIBRARY=ON)
# Every Mac that runs macOS 14 has AVX2, and so has the Intel Mac that runs the x86_64 simulator.
X86=(-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON)
IOS=(-DCMAKE_SYSTEM_NAME=iOS -DCMAKE_OSX_DEPLOYMENT_TARGET="$IOS_MIN")

device=$(build_slice ios-arm64 arm64 "${IOS[@]}" -DCMAKE_OSX_SYSROOT=iphoneos "${METAL[@]}")
simulator_arm=$(build_slice ios-simulator-arm64 arm64 "${IOS[@]}" -DCMAKE_OSX_SYSROOT=iphonesimulator -DGGML_METAL=OFF)
simulator_x86=$(build_slice ios-simulator-x86_64 x86_64 "${IOS[@]}" -DCMAKE_OSX_SYSROOT=iphonesimulator -DGGML_METAL=OFF "${X86[@]}")
mac_arm=$(build_slice macos-arm64 arm64 -DCMAKE_OSX_DEPLOYMENT_TARGET="$MACOS_MIN" "${METAL[@]}")
mac_x86=$(build_slice macos-x86_64 x86_64 -DCMAKE_OSX_DEPLOYMENT_TARGET="$MACOS_MIN" "${METAL[@]}" "${X86[@]}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/ios" "$work/simulator" "$work/macos" "$work/headers"
cp "$device" "$work/ios/libilotoki_llm.a"
lipo -create "$simulator_arm" "$simulator_x86" -output "$work/simulator/libilotoki_llm.a"
lipo -create "$mac_arm" "$mac_x86" -output "$work/macos/libilotoki_llm.a"

# The same header and module name as on Linux (Sources/CIloTokiLLM), linking the C++ runtime.
cp "$REPO_ROOT/llm/include/ilotoki_llm.h" "$work/headers/"
cat >"$work/headers/module.modulemap" <<'MAP'
module CIloTokiLLM {
    header "ilotoki_llm.h"
    link "c++"
    export *
}
MAP

out="$BUILD_DIR/apple/CIloTokiLLM.xcframework"
rm -rf "$out"
mkdir -p "$BUILD_DIR/apple"
xcodebuild -create-xcframework \
    -library "$work/ios/libilotoki_llm.a" -headers "$work/headers" \
    -library "$work/simulator/libilotoki_llm.a" -headers "$work/headers" \
    -library "$work/macos/libilotoki_llm.a" -headers "$work/headers" \
    -output "$out" >&2
log "made $out"

if [ "$mode" != library ]; then
    (cd "$REPO_ROOT/Apple" && xcodegen generate --spec project.yml >&2)
    log "made Apple/IloToki.xcodeproj"
fi
if [ "$mode" = open ]; then
    open "$REPO_ROOT/Apple/IloToki.xcodeproj"
fi
