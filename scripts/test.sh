#!/usr/bin/env bash
# Sets everything up and runs every test: the C core's own tests, then the Swift tests
# (which use the tiny model, the Gemma 3 270M file and servers on 127.0.0.1), with the GTK
# app's tests on a virtual display (Xvfb).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

"$REPO_ROOT/scripts/setup.sh" --with-test-tools
"$REPO_ROOT/scripts/fetch-test-models.sh"

"$REPO_ROOT/scripts/check-apple.sh"
"$REPO_ROOT/scripts/check-android.sh"

log "C core tests"
build/llm/bin/output_filter_test
build/llm/bin/output_rows_test
build/llm/bin/row_dots_test
"$REPO_ROOT/scripts/check-row-dots-arm64.sh"
build/llm/bin/argmax_test
build/llm/bin/c_api_test build/test-models

log "Swift tests"
swift build --build-tests
# GTK draws with Cairo on Xvfb; the app's tests need no desktop session or accessibility bus.
export GSK_RENDERER=cairo NO_AT_BRIDGE=1
xvfb-run -a -s "-screen 0 1280x1024x24" swift test --skip-build "$@"

"$REPO_ROOT/scripts/test-jni.sh"
"$REPO_ROOT/scripts/test-model-pipeline.sh"

log "benchmark smoke run (tiny model)"
ILOTOKI_HOME="$(mktemp -d)" "$(swift build --show-bin-path)/ilotoki" bench --model build/test-models/tiny.gguf --prompts 3 --max-tokens 8 >/dev/null

log "Core and the design without the inference core (no llama.cpp linked)"
ILOTOKI_CORE_ONLY=1 ILOTOKI_LLM_LIB=/nonexistent swift test --quiet >/dev/null
