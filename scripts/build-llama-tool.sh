#!/usr/bin/env bash
# Builds one of llama.cpp's own tools from the same pinned source and with the same flags as
# the library the product links, cached beside it, and prints its path:
#   scripts/build-llama-tool.sh llama-bench      (compared like for like with ilotoki bench)
#   scripts/build-llama-tool.sh llama-quantize   (the model pipeline's quantization ladder)
#   scripts/build-llama-tool.sh llama-batched-bench   (compared with ilotoki bench --batch)
#   scripts/build-llama-tool.sh llama-server     (compared with ilotoki serve under load)
#   scripts/build-llama-tool.sh llama-bench --avx2   (beside build/llm-avx2: any x86-64 with AVX2)
set -euo pipefail
. "$(dirname "$0")/common.sh"

tool=${1:?usage: build-llama-tool.sh llama-bench|llama-batched-bench|llama-quantize|llama-server}
case "$tool" in
llama-bench | llama-batched-bench | llama-quantize | llama-server) ;;
*) die "build-llama-tool.sh builds llama-bench, llama-batched-bench, llama-quantize or llama-server, not $tool" ;;
esac

variant=llm
if [ "${2:-}" = --avx2 ]; then
    variant=llm-avx2
    "$REPO_ROOT/scripts/build-llm.sh" --avx2 >&2
else
    "$REPO_ROOT/scripts/build-llm.sh" >&2
fi
source_dir=$(cat "$BUILD_DIR/$variant/llama-source-dir")
llama_dir=$(cat "$BUILD_DIR/$variant/llama-build-dir")
mapfile -t flags <"$BUILD_DIR/$variant/llama-cmake-flags"
# The same flags, but with the tools (and the common library they need) switched on.
flags=("${flags[@]/-DLLAMA_BUILD_TOOLS=OFF/-DLLAMA_BUILD_TOOLS=ON}")
flags=("${flags[@]/-DLLAMA_BUILD_COMMON=OFF/-DLLAMA_BUILD_COMMON=ON}")
# llama-server too (its web page is built in; no network library: it serves plain HTTP).
flags=("${flags[@]/-DLLAMA_BUILD_SERVER=OFF/-DLLAMA_BUILD_SERVER=ON}")
tools_dir="$llama_dir/tools-build"
if [ ! -x "$tools_dir/bin/$tool" ]; then
    log "building $tool (a few minutes the first time)"
    run_logged "$llama_dir/tools-configure.log" "configuring llama.cpp's tools" cmake -S "$source_dir" -B "$tools_dir" -G Ninja "${flags[@]}"
    run_logged "$llama_dir/tools-build.log" "building $tool" ninja -C "$tools_dir" "$tool"
fi
echo "$tools_dir/bin/$tool"
