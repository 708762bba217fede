#!/usr/bin/env bash
# Builds llama.cpp's own llama-bench from the same pinned source and with the same flags as the
# library the product links (so the two are compared like for like), cached beside it.
# Prints the path of the llama-bench binary.
set -euo pipefail
. "$(dirname "$0")/common.sh"

"$REPO_ROOT/scripts/build-llm.sh" >&2
source_dir=$(cat "$BUILD_DIR/llm/llama-source-dir")
llama_dir=$(cat "$BUILD_DIR/llm/llama-build-dir")
mapfile -t flags <"$BUILD_DIR/llm/llama-cmake-flags"
# The same flags, but with the tools (and the common library they need) switched on.
flags=("${flags[@]/-DLLAMA_BUILD_TOOLS=OFF/-DLLAMA_BUILD_TOOLS=ON}")
flags=("${flags[@]/-DLLAMA_BUILD_COMMON=OFF/-DLLAMA_BUILD_COMMON=ON}")
tools_dir="$llama_dir/tools-build"
if [ ! -x "$tools_dir/bin/llama-bench" ]; then
    log "building llama-bench (a few minutes the first time)"
    cmake -S "$source_dir" -B "$tools_dir" -G Ninja "${flags[@]}" >"$llama_dir/tools-configure.log" 2>&1 \
        || { tail -30 "$llama_dir/tools-configure.log" >&2; die "configuring llama-bench failed"; }
    ninja -C "$tools_dir" llama-bench >"$llama_dir/tools-build.log" 2>&1 \
        || { tail -30 "$llama_dir/tools-build.log" >&2; die "building llama-bench failed"; }
fi
echo "$tools_dir/bin/llama-bench"
