#!/usr/bin/env bash
# The Android app's JNI bridge, checked on Linux: builds libIloTokiJNI.so, checks that its
# exported symbols are exactly NativeBridge.java's native methods, and runs the Java harness
# (Tests/JNIHarness) against it with -Xcheck:jni: a store, translations with the tiny model
# and Gemma 3 270M streamed through the listener, a stop mid-way, bad input, two threads.
# The NativeBridge.java it compiles is the Android app's own file.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

if ! command -v javac >/dev/null; then
    can_install_apt_packages || die "javac not found: install a JDK (Debian: default-jdk-headless)"
    ensure_apt_packages default-jdk-headless
fi
"$REPO_ROOT/scripts/fetch-test-models.sh"

log "building libIloTokiJNI.so"
swift build --product IloTokiJNI >&2
library_dir=$(swift build --show-bin-path)
"$REPO_ROOT/scripts/check-jni-symbols.sh" "$library_dir/libIloTokiJNI.so"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
javac -Xlint:all -Werror -d "$work/classes" android/app/src/main/java/org/ilotoki/android/NativeBridge.java Tests/JNIHarness/*.java

log "JNI harness (java -Xcheck:jni)"
status=0
java -Xcheck:jni -Djava.library.path="$library_dir" -cp "$work/classes" org.ilotoki.harness.JniHarness \
    "$work" build/test-models/tiny.gguf build/test-models/gemma-3-270m-q4_k_m.gguf android/app/src/main/java/org/ilotoki/android/Contract.kt \
    build/words/linku-words.json >"$work/out.log" 2>&1 || status=$?
cat "$work/out.log"
[ "$status" = 0 ] || die "the JNI harness failed (exit $status)"
# -Xcheck:jni reports misuse (an unchecked exception, a leaked local reference) as warnings.
if grep -E "WARNING in native method|FATAL ERROR in native method|JNI local refs" "$work/out.log" >/dev/null; then
    die "-Xcheck:jni found misuse of JNI (above)"
fi
