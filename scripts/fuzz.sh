#!/usr/bin/env bash
# libFuzzer over everything that reads outside input:
#   gguf               the check a sideloaded model file goes through before llama.cpp (C++)
#   output-filter      UTF-8 assembly of streamed pieces, stop sequences, the line limit (C++)
#   history, settings, added-models, catalog
#                      the JSON files other processes and older versions leave (Swift)
#   download-response  a response's status and headers, and what the downloader decides (Swift)
#   segmenter          lines, sentences and words of any text (Swift)
#   direction          the Toki Pona detector over any text (Swift)
#   request            `ilotoki serve`'s request bodies (JSON, forms) and HTML text nodes (Swift)
#
#   scripts/fuzz.sh --list                    the target names, one per line
#   scripts/fuzz.sh --build                   builds every target
#   scripts/fuzz.sh TARGET [--seconds N]      runs one from its seed corpus (Fuzz/corpus/TARGET)
#
# A run exits non-zero on a crash, a leak, an abort (a property a target checks) or a
# timeout, and leaves the input in build/fuzz/findings/TARGET/; once fixed, the input goes
# into Fuzz/corpus/TARGET/ as a regression seed. What the run discovers stays in
# build/fuzz/corpus/TARGET/ for the next run.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

cxx_targets=(gguf output-filter)
swift_targets=(history settings added-models catalog download-response segmenter direction request)
out="$BUILD_DIR/fuzz"

build_swift() {
    local dir="$out/swift" clang_dir
    clang_dir=$(dirname "$(command -v swift)")
    mkdir -p "$dir/CSHA256"
    printf 'module CSHA256 {\n    header "%s"\n    export *\n}\n' "$REPO_ROOT/Sources/CSHA256/include/ilotoki_sha256.h" >"$dir/CSHA256/module.modulemap"
    local core_sources
    # Core with its live downloader (the download-response target reaches its decisions).
    mapfile -t core_sources < <(find Sources/IloTokiCore Sources/IloTokiDownloadLive -name '*.swift' | sort)
    # The inputs of the build, to rebuild only when one changed.
    local stamp
        # The server's request decoding (Foundation only) is compiled in with them.
    local server_sources=(Sources/IloTokiServer/RequestFields.swift Sources/IloTokiServer/HTMLText.swift)
    stamp=$(cat Sources/CSHA256/sha256.c Sources/IloTokiLocking/*.swift Sources/IloTokiDesign/*.swift "${core_sources[@]}" "${server_sources[@]}" Fuzz/*.swift | short_hash)
    [ -x "$dir/ilotoki-fuzz-swift" ] && [ "$(cat "$dir/stamp" 2>/dev/null)" = "$stamp" ] && return 0
    log "building the Swift fuzz targets"
    "$clang_dir/clang" -fsanitize=fuzzer-no-link,address -O1 -g -c Sources/CSHA256/sha256.c -I Sources/CSHA256/include -o "$dir/sha256.o"
    swiftc -parse-as-library -module-name IloTokiLocking -wmo -sanitize=fuzzer,address -emit-module \
        -emit-module-path "$dir/IloTokiLocking.swiftmodule" -emit-object Sources/IloTokiLocking/*.swift -o "$dir/IloTokiLocking.o"
    swiftc -parse-as-library -module-name IloTokiDesign -wmo -sanitize=fuzzer,address -emit-module \
        -emit-module-path "$dir/IloTokiDesign.swiftmodule" -emit-object Sources/IloTokiDesign/*.swift -o "$dir/IloTokiDesign.o"
    # The targets are compiled into the IloTokiCore module itself, so they reach its internal parsers;
    # the package name is SwiftPM's, for the `package` declarations.
    swiftc -parse-as-library -module-name IloTokiCore -package-name ilotoki -wmo -Onone -g -sanitize=fuzzer,address -suppress-warnings \
        -I "$dir" -Xcc -fmodule-map-file="$dir/CSHA256/module.modulemap" "${core_sources[@]}" "${server_sources[@]}" Fuzz/FuzzTargets.swift \
        "$dir/IloTokiLocking.o" "$dir/IloTokiDesign.o" "$dir/sha256.o" -o "$dir/ilotoki-fuzz-swift"
    printf '%s\n' "$stamp" >"$dir/stamp"
}

build_all() {
    local core
    core=$(build_sanitized_core)
    mkdir -p "$out/bin"
    cp "$core/fuzz_gguf" "$out/bin/fuzz-gguf"
    cp "$core/fuzz_output_filter" "$out/bin/fuzz-output-filter"
    build_swift
}

case "${1:-}" in
--list) printf '%s\n' "${cxx_targets[@]}" "${swift_targets[@]}"; exit 0 ;;
--build) build_all; exit 0 ;;
"" | -*) die "usage: fuzz.sh --list | --build | TARGET [--seconds N]" ;;
esac

target=$1
shift
seconds=60
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    *) die "unknown option $1" ;;
    esac
done

runner=()
if printf '%s\n' "${cxx_targets[@]}" | grep -qx "$target"; then
    [ -x "$out/bin/fuzz-$target" ] || build_all
    runner=("$out/bin/fuzz-$target")
elif printf '%s\n' "${swift_targets[@]}" | grep -qx "$target"; then
    build_swift
    runner=(env ILOTOKI_FUZZ_TARGET="$target" "$out/swift/ilotoki-fuzz-swift")
else
    die "no fuzz target '$target' (scripts/fuzz.sh --list)"
fi

seeds="$REPO_ROOT/Fuzz/corpus/$target"
[ -d "$seeds" ] || die "no seed corpus for $target ($seeds)"
corpus="$out/corpus/$target"
findings="$out/findings/$target"
mkdir -p "$corpus" "$findings"
log "fuzzing $target for $seconds s"
status=0
# New inputs go into the first directory (build/), the committed seeds are only read. Leaks
# count as findings (ASan's leak check runs after every input that allocated more than it freed).
ASAN_OPTIONS="detect_leaks=1:halt_on_error=1" UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    "${runner[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "$seeds" >"$out/$target.log" 2>&1 || status=$?
grep -E "stat::number_of_executed_units|stat::new_units_added" "$out/$target.log" | sed "s/^/  $target: /" >&2 || true
if [ "$status" != 0 ]; then
    grep -E "ERROR|SUMMARY|runtime error|Test unit written|#[0-9]+ 0x" "$out/$target.log" | head -30 >&2
    die "fuzz target $target found a problem (exit $status; log: $out/$target.log; input in $findings/)"
fi
