#!/usr/bin/env bash
# Builds llama.cpp (pinned, static) and the C inference library in llm/, and merges them into
# build/llm/lib/libilotoki_llm.a, which the Swift package links.
#
# Idempotent. llama.cpp's build is cached under $ILOTOKI_CACHE keyed by source, flags,
# compiler and CPU, so after the first run this takes seconds.
#
#   --avx2   build for any x86-64 CPU with AVX2 instead of this CPU, into build/llm-avx2/
#            (valgrind cannot run AVX-512 code: scripts/bench-swift-layer.sh uses this)
set -euo pipefail
. "$(dirname "$0")/common.sh"

variant=native
[ "${1:-}" = --avx2 ] && variant=avx2

ensure_build_tools
source_dir=$("$REPO_ROOT/scripts/llama-source.sh")

# Static libraries only, position-independent because Swift links them into
# position-independent executables and test bundles.
LLAMA_CMAKE_FLAGS=("${LLAMA_STATIC_FLAGS[@]}" -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
# ggml's AMX kernels (picked by -march=native on Xeons that have AMX) die of an illegal
# instruction on this project's CI machines; AMX exists only on server CPUs, never on the
# phones and desktops the app runs on, so the native build leaves it out.
if [ "$variant" = avx2 ]; then
    LLAMA_CMAKE_FLAGS+=(-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON)
elif [ "$(uname -m)" = x86_64 ]; then
    LLAMA_CMAKE_FLAGS+=(-DCMAKE_C_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
                        -DCMAKE_CXX_FLAGS="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16")
fi

if [ -n "${LLAMA_CPP_DIR:-}" ]; then
    source_id="dir:$source_dir:$(git -C "$source_dir" rev-parse HEAD 2>/dev/null || sha256_of "$source_dir/include/llama.h")"
else
    source_id="pypi:$LLAMA_CPP_PYTHON_VERSION:$LLAMA_CPP_PYTHON_SHA256:$(basename "$source_dir")"
fi
key=$(printf '%s\n' "$source_id" "${LLAMA_CMAKE_FLAGS[*]}" "$(c++ --version | head -1)" "$(cpu_fingerprint)" | short_hash)
llama_dir="$ILOTOKI_CACHE/llama/$key"

build_llama_once "$llama_dir" "llama.cpp (static)" "$source_dir" "${LLAMA_CMAKE_FLAGS[@]}"

# The core's build directory is per checkout (CMake ties a build tree to one source tree).
core_dir="$llama_dir/core-$(printf '%s' "$REPO_ROOT" | short_hash)"
run_logged "$llama_dir/core-configure.log" "configuring llm/" \
    cmake -S "$REPO_ROOT/llm" -B "$core_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_PREFIX_PATH="$llama_dir/install" -DLLAMA_SOURCE_DIR="$source_dir"
ninja -C "$core_dir" >&2 || die "building llm/ failed"

out="$BUILD_DIR/llm"
[ "$variant" = avx2 ] && out="$BUILD_DIR/llm-avx2"
mkdir -p "$out/lib" "$out/bin"
archiver="ar"
[ "$(uname -s)" = Darwin ] && archiver=libtool
merge_core_archive "$out/lib/libilotoki_llm.a.tmp" "$core_dir" "$llama_dir/install" "$archiver"
if cmp -s "$out/lib/libilotoki_llm.a.tmp" "$out/lib/libilotoki_llm.a"; then
    rm "$out/lib/libilotoki_llm.a.tmp"
else
    mv "$out/lib/libilotoki_llm.a.tmp" "$out/lib/libilotoki_llm.a"
    # SwiftPM does not know about this archive, so it would keep binaries linked against the
    # old one: remove the linked products and it links them again (the AVX2 variant is linked
    # into a scratch path of its own).
    if [ "$variant" = native ]; then
        for product in "$REPO_ROOT"/.build/*/debug/* "$REPO_ROOT"/.build/*/release/*; do
            case "$product" in
            *.xctest) rm -rf "$product" ;;
            *) if [ -f "$product" ] && [ -x "$product" ]; then rm -f "$product"; fi ;;
            esac
        done
    fi
fi
cp "$core_dir/output_filter_test" "$core_dir/output_rows_test" "$core_dir/row_dots_test" "$core_dir/check_sketch_test" "$core_dir/principal_axes_test" "$core_dir/axes_sketch_test" "$core_dir/row_dots_bench" "$core_dir/argmax_test" "$core_dir/trimmed_policy_test" "$core_dir/repetition_test" "$core_dir/c_api_test" "$core_dir/greedy_tokens" "$out/bin/"
printf '%s\n' "$source_dir" >"$out/llama-source-dir"
printf '%s\n' "$llama_dir" >"$out/llama-build-dir"
printf '%s\n' "${LLAMA_CMAKE_FLAGS[@]}" >"$out/llama-cmake-flags"
log "inference library ready: $out/lib/libilotoki_llm.a"
