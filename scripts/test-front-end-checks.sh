#!/usr/bin/env bash
# Proves that the front ends' checks cannot pass vacuously: plants one mistake at a time in a
# copy of the tree (a type error in a view, a Core property renamed or re-typed under the
# views, a misspelled resource, a C error in the Android branch, a plist key gone) and
# requires scripts/check-apple.sh or scripts/check-android.sh to fail on it, naming it.
# scripts/test.sh runs it; each case takes one run of a check (about 25 s).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=()

# Runs CHECK on a fresh copy of the tree with every OLD in FILE replaced by its NEW; the
# check must fail, and its output must contain EXPECTED. A mistake in Core is planted so
# that Core itself still compiles, and one in Contract.kt as the generator would write it,
# so that what fails is the front end that uses it.
#   plant NAME CHECK FILE EXPECTED OLD NEW [OLD NEW ...]
plant() {
    local name=$1 check=$2 file=$3 expected=$4 root="$work/tree"
    shift 4
    rm -rf "$root"
    mkdir -p "$root"
    cp -R Sources Apple android llm scripts "$root/"
    while [ $# -ge 2 ]; do
        grep -qF -- "$1" "$root/$file" || die "$name: $file has no '$1' to change (update this test)"
        OLD=$1 NEW=$2 "$VENV_PYTHON" -c 'import os, sys; p = sys.argv[1]; s = open(p).read(); open(p, "w").write(s.replace(os.environ["OLD"], os.environ["NEW"]))' "$root/$file"
        shift 2
    done
    local status=0
    ILOTOKI_CHECK_ROOT=$root "$REPO_ROOT/scripts/$check" >"$work/out.log" 2>&1 || status=$?
    if [ "$status" = 0 ]; then
        failed+=("$name: $check passed")
    elif ! grep -qF -- "$expected" "$work/out.log"; then
        tail -20 "$work/out.log" >&2
        failed+=("$name: $check failed, but not on '$expected'")
    else
        passed=$((passed + 1))
        log "caught: $name"
    fi
}

ensure_venv
plant "a type error in a SwiftUI view" check-apple.sh Apple/IloToki/PlateView.swift "PlateView.swift" \
    'Text(plate.languageTitle.uppercased())' 'Text(plate.languageTitle.count)'
plant "a Core property the Apple views use, renamed" check-apple.sh Sources/IloTokiCore/Screen/MainScreen.swift \
    "value of type 'MainScreen' has no member 'swapLabel'" 'swapLabel' 'swapName'
plant "a Core property the Apple views use, re-typed" check-apple.sh Sources/IloTokiCore/Screen/MainScreen.swift \
    "value of optional type 'Bool?' must be unwrapped" 'public var isMessage: Bool' 'public var isMessage: Bool?'
plant "a key gone from Info.plist" check-apple.sh Apple/IloToki/Info.plist "Info.plist has no ITSAppUsesNonExemptEncryption" \
    '<key>ITSAppUsesNonExemptEncryption</key>' '<key>ITSAppUsesExemptEncryption</key>'
plant "a type error in a Compose view" check-android.sh android/app/src/main/java/org/ilotoki/android/Ui.kt "Ui.kt" \
    'BasicText(plate.languageTitle.uppercase()' 'BasicText(plate.languageTitle.length'
plant "a contract property the Kotlin views use, renamed" check-android.sh android/app/src/main/java/org/ilotoki/android/Contract.kt \
    "unresolved reference 'swapLabel'" 'swapLabel' 'swapName'
plant "a contract property the Kotlin views use, re-typed" check-android.sh android/app/src/main/java/org/ilotoki/android/Contract.kt \
    "isImporting" 'val isImporting: Boolean,' 'val isImporting: String,' 'json.getBoolean("isImporting")' 'json.getString("isImporting")'
plant "a misspelled resource in the Kotlin" check-android.sh android/app/src/main/java/org/ilotoki/android/DownloadService.kt \
    "app_nam" 'R.string.app_name' 'R.string.app_nam'
plant "a misspelled resource in the manifest" check-android.sh android/app/src/main/AndroidManifest.xml "app_nam" \
    'android:label="@string/app_name"' 'android:label="@string/app_nam"'
plant "a C error on the Android branch only" check-android.sh Sources/CIloTokiMainQueue/main_queue.c "undeclared_call" \
    'static int on_looper_event(int fd, int events, void *data) {' 'static int on_looper_event(int fd, int events, void *data) { undeclared_call();'

if [ ${#failed[@]} -gt 0 ]; then
    printf '  %s\n' "${failed[@]}" >&2
    die "${#failed[@]} planted mistakes were not caught"
fi
log "the front ends' checks caught all $passed planted mistakes"
