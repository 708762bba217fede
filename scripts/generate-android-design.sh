#!/usr/bin/env bash
# Writes the Android app's design constants (colours, sizes, fonts, icon shapes) from
# Sources/IloTokiDesign, so the Kotlin side never copies a number by hand.
#
#   scripts/generate-android-design.sh          regenerate android/…/Design.kt
#   scripts/generate-android-design.sh --check  fail if it is not current (scripts/test.sh)
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

target=android/app/src/main/java/org/ilotoki/android/Design.kt
swift build --product ilotoki-design >&2
generated=$(mktemp)
trap 'rm -f "$generated"' EXIT
"$(swift build --show-bin-path)/ilotoki-design" >"$generated"
if [ "${1:-}" = --check ]; then
    diff -u "$target" "$generated" >&2 || die "$target is not current: run scripts/generate-android-design.sh"
    log "Android design constants are current"
else
    cp "$generated" "$target"
    log "wrote $target"
fi
