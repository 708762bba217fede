#!/usr/bin/env bash
# Checks that libIloTokiJNI.so exports one Java_… symbol for every native method of
# NativeBridge.java, and none for anything else (a renamed method would otherwise fail only
# at run time, on a phone, with UnsatisfiedLinkError).
#
#   scripts/check-jni-symbols.sh path/to/libIloTokiJNI.so
set -euo pipefail
. "$(dirname "$0")/common.sh"

library=${1:?usage: check-jni-symbols.sh LIBRARY}
java_file="$REPO_ROOT/android/app/src/main/java/org/ilotoki/android/NativeBridge.java"
prefix=Java_org_ilotoki_android_NativeBridge_

# JNI's short names: "_" in a method name is written "_1" (NativeBridge has no overloads).
expected=$(grep -E '^\s*(public |private |protected )?static native ' "$java_file" \
    | sed -E 's/.*native [^ ]+ ([A-Za-z0-9_]+)\(.*/\1/' | sed 's/_/_1/g' | sed "s/^/$prefix/" | sort)
exported=$(nm -D --defined-only "$library" | awk '{print $3}' | grep "^Java_" | sort)
[ -n "$expected" ] || die "found no native methods in $java_file"
if [ "$expected" != "$exported" ]; then
    diff <(echo "$expected") <(echo "$exported") | sed 's/^</  only in NativeBridge.java:/; s/^>/  only in the library:/' >&2 || true
    die "NativeBridge.java and $(basename "$library") disagree"
fi
nm -D --defined-only "$library" | grep " T JNI_OnLoad$" >/dev/null || die "$(basename "$library") does not export JNI_OnLoad"
log "JNI symbols: $(echo "$expected" | wc -l) native methods, each exported"
