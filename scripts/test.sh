#!/usr/bin/env bash
# Sets everything up and runs every test: the C core's own tests, then the Swift tests
# (which use the tiny model, the Gemma 3 270M file and servers on 127.0.0.1).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

"$REPO_ROOT/scripts/setup.sh" --with-test-tools
"$REPO_ROOT/scripts/fetch-test-models.sh"

log "C core tests"
build/llm/bin/output_filter_test
build/llm/bin/c_api_test

log "Swift tests"
swift build --build-tests
swift test --skip-build "$@"
