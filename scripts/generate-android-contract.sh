#!/usr/bin/env bash
# Writes the Android app's contract with Core (actions, outcomes, screen values, UI string keys) from
# the Swift types in Sources/IloTokiCore, so the Kotlin side never restates a name or a type by hand.
#
#   scripts/generate-android-contract.sh          regenerate android/…/Contract.kt
#   scripts/generate-android-contract.sh --check  fail if it is not current (scripts/test.sh)
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

generate_kotlin ilotoki-contract android/app/src/main/java/org/ilotoki/android/Contract.kt "the Android contract's types" "${1:-}"
