#!/usr/bin/env bash
# The sanitizers over the code that handles outside input and threads:
#   1. llama.cpp and the inference library (llm/) built with AddressSanitizer + UndefinedBehaviorSanitizer
#      (clang from the Swift toolchain, a build directory of its own, cached like the release
#      build), and the core's test programs run with the real models;
#   2. the Swift suites that drive the engine, the store, the history and settings, the app
#      model and the downloader, under ThreadSanitizer (`swift test --sanitize=thread`, a
#      scratch directory of its own).
# Any report fails the run: sanitizers stop at the first error (halt_on_error,
# -fno-sanitize-recover). Nothing is suppressed; the two checks left out of a few of
# llama.cpp's sources say why in scripts/sanitize-llama.ignorelist.
#
#   scripts/test-sanitizers.sh [--only c|swift]
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

only=
[ "${1:-}" = --only ] && only=${2:?--only needs c or swift}

c_core() {
    local core
    core=$(build_sanitized_core) || return 1
    export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1"
    export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
    log "the inference library's tests under ASan+UBSan"
    "$core/output_filter_test"
    "$core/output_rows_test"
    "$core/row_dots_test"
    "$core/check_sketch_test"
    "$core/principal_axes_test"
    "$core/axes_sketch_test"
    "$core/argmax_test"
    "$core/c_api_test" build/test-models
    # Real generations through the C API, the trimmed head's checks and rollbacks included.
    "$core/greedy_tokens" --head trimmed --threads 2 \
        --characters "$TOKI_PONA_TEST_CHARACTERS" --wider "$WIDER_TEST_CHARACTERS" \
        build/test-models/gemma-3-270m-q4_k_m.gguf 24 \
        "Translate into Toki Pona: The cat sleeps on the warm mat." "Переведи на токипону: кошка спит." >/dev/null
    "$core/greedy_tokens" --head full --threads 2 build/test-models/tiny.gguf 16 "a b c" >/dev/null
    # Checks streamed from the file and served by the sketch (built by the first), rows let
    # through to be read exactly among them, and a translation that leaves the kept rows.
    ILOTOKI_STREAMED_CHECK=1 ILOTOKI_SKETCH_READ_EVERY=211 "$core/greedy_tokens" --head trimmed --threads 2 \
        --characters "$TOKI_PONA_TEST_CHARACTERS" --wider "$WIDER_TEST_CHARACTERS" \
        build/test-models/gemma-3-270m-q4_k_m.gguf 24 \
        "Translate into Toki Pona: The cat sleeps on the warm mat." "Translate into Toki Pona: I love you." \
        "Toki Pona: mi moku e kili.
English:" >/dev/null
    # Prompts joining a running batch, one given up in it (the trimmed head's pending states).
    "$core/greedy_tokens" --batch 2 --join 1 --drop 1 --head trimmed --threads 2 \
        --characters "$TOKI_PONA_TEST_CHARACTERS" --wider "$WIDER_TEST_CHARACTERS" \
        build/test-models/gemma-3-270m-q4_k_m.gguf 24 \
        "Translate into Toki Pona: The cat sleeps." "Translate into Toki Pona: I love you." "Translate into Toki Pona: Good morning." >/dev/null
    unset ASAN_OPTIONS UBSAN_OPTIONS
}

swift_suites() {
    # The suites whose code has threads of its own or shares files between processes.
    local filter='IloTokiLLMTests|IloTokiEngineLiveTests|ModelDownloaderTests|DownloadEventOrderTests|SharedFilesTests|ModelStoreTests|TranslatorModelTests|ActionTests|LockedTests'
    log "Swift suites under ThreadSanitizer ($filter)"
    swift build --sanitize=thread --build-tests --scratch-path "$BUILD_DIR/tsan"
    # ThreadSanitizer slows every step several times over: the tests' waits for something to
    # happen are 3 times as long (testTimeScale), so a loaded machine is not read as a hang.
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1" ILOTOKI_TEST_TIME_SCALE=3 \
        swift test --sanitize=thread --skip-build --scratch-path "$BUILD_DIR/tsan" --filter "$filter"
}

case "$only" in
c) c_core ;;
swift) swift_suites ;;
"") c_core; swift_suites ;;
*) die "--only takes c or swift" ;;
esac
log "no sanitizer found anything"
