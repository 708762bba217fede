#!/usr/bin/env bash
# Checks on Linux what can be checked of the Android app without the Android SDK, the NDK or
# the Swift SDK for Android (scripts/test.sh runs it; scripts/test-jni.sh runs the bridge):
#   - the generated Kotlin is current: the design constants (Design.kt, from IloTokiDesign)
#     and the contract with Core (Contract.kt, from Core's Action, ActionOutcome and screens);
#   - the manifest and resources link with aapt2 against Android's framework-res.apk (API 29,
#     Debian's android-framework-res), which also writes the app's R class;
#   - every Kotlin file of the app compiles with a Kotlin 2.x compiler (pinned, from PyPI)
#     against the committed stubs of the Android and Compose API it uses (android/stubs), the
#     generated contract, the R class, NativeBridge.java and the real org.json (Debian's
#     libandroid-json-java, Android's own implementation);
#   - the C and C++ of the Android build (the main-queue bridge, SHA-256, the JNI shim, the
#     llm/ core) pass clang --target=aarch64-linux-android28 -fsyntax-only, with the NDK's
#     android/looper.h (Debian's android-platform-frameworks-native-headers);
#   - the manifest has the permissions, the service and the foreground-service type the
#     download needs, and the Gradle settings match the app's version and ABI.
# A pass means the app agrees with Core and with our stubs of the documented API; it does
# not prove that the app builds with Gradle: docs/android.md says what does.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

# ILOTOKI_CHECK_ROOT: another tree to check (scripts/test-front-end-checks.sh plants mistakes in
# a copy); the repository's by default. The generated files' currency is checked only there.
root=${ILOTOKI_CHECK_ROOT:-$REPO_ROOT}
app=$root/android/app/src/main
if [ "$root" = "$REPO_ROOT" ]; then
    "$REPO_ROOT/scripts/generate-android-design.sh" --check
    "$REPO_ROOT/scripts/generate-android-contract.sh" --check
fi
ensure_apt_packages aapt android-framework-res android-platform-frameworks-native-headers libandroid-json-java \
    libc6-dev-arm64-cross libstdc++-12-dev-arm64-cross
if ! command -v javac >/dev/null; then ensure_apt_packages default-jdk-headless; fi
framework=/usr/share/android-framework-res/framework-res.apk
json_jar=/usr/share/java/com.android.json.jar
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

log "Android app: aapt2 links the manifest and resources against framework-res.apk"
# Gradle puts the namespace into the manifest; so does this copy of it.
namespace=$(sed -n 's/^ *namespace = "\(.*\)"/\1/p' "$root/android/app/build.gradle.kts")
[ -n "$namespace" ] || die "android/app/build.gradle.kts names no namespace"
sed "s|<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\">|<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"$namespace\">|" \
    "$app/AndroidManifest.xml" >"$work/AndroidManifest.xml"
aapt2 compile --dir "$app/res" -o "$work/resources.zip" || die "aapt2 could not compile the resources"
aapt2 link -I "$framework" --manifest "$work/AndroidManifest.xml" --min-sdk-version 28 --target-sdk-version 29 \
    --java "$work/generated" -o "$work/app.apk" "$work/resources.zip" || die "aapt2 could not link the manifest and resources"

log "Android app: the Kotlin compiles against the contract, the R class and the API stubs"
kotlin=$("$REPO_ROOT/scripts/fetch-kotlin.sh")
compiler=$(ls "$kotlin"/kotlin-jupyter-kernel-*-all.jar)
stdlib=$(ls "$kotlin"/kotlin-stdlib-*.jar)
java -cp "$compiler" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -no-stdlib -no-reflect -jvm-target 17 -Werror \
    -cp "$stdlib:$json_jar" -d "$work/classes" "$root"/android/stubs/*.kt "$app"/java/org/ilotoki/android/*.kt \
    "$app"/java/org/ilotoki/android/*.java "$work"/generated/org/ilotoki/android/R.java \
    || die "the Android app's Kotlin does not compile"

log "Android app: the C and C++ of the Android build, for aarch64-linux-android28"
clang_dir=$(dirname "$(command -v swift)")
source_dir=$("$REPO_ROOT/scripts/llama-source.sh")
jdk=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
target=(--target=aarch64-linux-android28 -fsyntax-only -Wall -Wextra -Werror -nostdinc)
# The C library's headers are glibc's for arm64 (Debian's cross package), not bionic's: the
# check is of our code on the NDK's target, with __ANDROID__ defined.
system=(-isystem "$clang_dir/../lib/clang/$("$clang_dir/clang" -dumpversion | cut -d. -f1)/include" -isystem /usr/aarch64-linux-gnu/include
    -isystem /usr/include/android)
for file in "$root/Sources/CIloTokiMainQueue/main_queue.c" "$root/Sources/CSHA256/sha256.c"; do
    "$clang_dir/clang" "${target[@]}" "${system[@]}" -I "$root/Sources/CIloTokiMainQueue/include" -I "$root/Sources/CSHA256/include" "$file" \
        || die "$file does not compile for Android"
done
printf '#include "shim.h"\n' >"$work/jni.c"
"$clang_dir/clang" "${target[@]}" "${system[@]}" -I "$root/Sources/CJNI" -I "$jdk/include" -I "$jdk/include/linux" "$work/jni.c" \
    || die "the JNI shim does not compile for Android"
for file in "$root"/llm/src/*.cpp; do
    "$clang_dir/clang++" "${target[@]}" -std=c++17 -march=armv8.2-a+dotprod+fp16 -nostdinc++ \
        -isystem /usr/aarch64-linux-gnu/include/c++/12 -isystem /usr/aarch64-linux-gnu/include/c++/12/aarch64-linux-gnu "${system[@]}" \
        -I "$root/llm/include" -I "$root/llm/src" -I "$source_dir/include" -I "$source_dir/ggml/include" -I "$source_dir/src" "$file" \
        || die "$file does not compile for Android"
done

ensure_venv
log "Android app: manifest, resources and Gradle settings"
cd "$root"
"$VENV_PYTHON" - <<'PY'
import pathlib, re, sys
import xml.etree.ElementTree as ET

sys.path.insert(0, "scripts")
from front_end_checks import app_version, check, finish

android = "{http://schemas.android.com/apk/res/android}"
app = pathlib.Path("android/app/src/main")
manifest = ET.parse(app / "AndroidManifest.xml").getroot()
permissions = {p.get(android + "name") for p in manifest.iter("uses-permission")}
for permission in ["INTERNET", "FOREGROUND_SERVICE", "FOREGROUND_SERVICE_DATA_SYNC", "POST_NOTIFICATIONS"]:
    check("android.permission." + permission in permissions, f"the manifest lacks {permission}")
services = {s.get(android + "name"): s for s in manifest.iter("service")}
check(services.get(".DownloadService") is not None and services[".DownloadService"].get(android + "foregroundServiceType") == "dataSync",
      "the manifest has no dataSync foreground service for downloads")
check(manifest.find("application").get(android + "allowBackup") == "false", "backups must be off: models are gigabytes, history is private")
# Text from other apps: the text-selection menu (PROCESS_TEXT) and shares (SEND) of plain text reach the main activity.
activities = {a.get(android + "name"): a for a in manifest.iter("activity")}
filters = [(f.findall("action"), f.findall("data"), f) for f in activities[".MainActivity"].iter("intent-filter")]
for action in ["android.intent.action.PROCESS_TEXT", "android.intent.action.SEND"]:
    check(any(any(a.get(android + "name") == action for a in actions) and any(d.get(android + "mimeType") == "text/plain" for d in data)
              and f.get(android + "label") == "@string/translate_with" for actions, data, f in filters),
          f"MainActivity does not take {action} of text/plain under @string/translate_with")
# Their label is Core's UIText.translateWith, in each of Core's languages (tables in the order en, ru, vi, tok).
core = re.findall(r'\.translateWith: "([^"]*)"', pathlib.Path("Sources/IloTokiCore/Screen/UIStrings.swift").read_text())
check(len(core) == 4, f"Core has {len(core)} translateWith strings, not 4")
for directory, text in zip(["values", "values-ru", "values-vi", "values-b+tok"], core):
    strings = {s.get("name"): s.text for s in ET.parse(app / "res" / directory / "strings.xml").getroot().iter("string")}
    check(strings.get("translate_with") == text, f"res/{directory}: translate_with is {strings.get('translate_with')!r}, Core says {text!r}")
for xml in (app / "res").rglob("*.xml"):
    ET.parse(xml)

gradle = pathlib.Path("android/app/build.gradle.kts").read_text()
version = app_version()
check(f'versionName = "{version}"' in gradle, f"the app's versionName is not AboutPage.version ({version})")
check('abiFilters += listOf("arm64-v8a")' in gradle and "minSdk = 28" in gradle, "the app is not arm64-v8a from API 28")
check('dependsOn(buildNative)' in gradle and '"./scripts/build-android.sh"' in gradle, "Gradle does not run scripts/build-android.sh first")

finish(f"checked the manifest, {len(list((app / 'res').rglob('*.xml')))} resource files and the Gradle settings")
PY
