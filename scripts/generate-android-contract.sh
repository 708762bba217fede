#!/usr/bin/env bash
# Writes the Android app's contract with Core (actions, outcomes, screen values, UI string keys) from
# the Swift types in Sources/IloTokiCore, so the Kotlin side never restates a name or a type by hand.
#
#   scripts/generate-android-contract.sh          regenerate android/…/Contract.kt
#   scripts/generate-android-contract.sh --check  fail if it is not current (scripts/test.sh)
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

target=android/app/src/main/java/org/ilotoki/android/Contract.kt
swift build --product ilotoki-contract >&2
generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
"$(swift build --show-bin-path)/ilotoki-contract" >"$generated"
if [ "${1:-}" = --check ]; then
    diff -u "$target" "$generated" >&2 || die "$target is not current: run scripts/generate-android-contract.sh"
    log "the Android contract is current"
else
    cp "$generated" "$target"
    log "wrote $target"
fi
