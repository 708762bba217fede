#!/usr/bin/env bash
# Writes the Android app's design constants (colours, sizes, fonts, icon shapes) from
# Sources/IloTokiDesign, so the Kotlin side never copies a number by hand.
#
#   scripts/generate-android-design.sh          regenerate android/…/Design.kt
#   scripts/generate-android-design.sh --check  fail if it is not current (scripts/test.sh)
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

generate_kotlin ilotoki-design android/app/src/main/java/org/ilotoki/android/Design.kt "Android design constants" "${1:-}"
