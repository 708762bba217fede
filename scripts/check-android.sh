#!/usr/bin/env bash
# Checks on Linux what can be checked of the Android app without the Android SDK, the NDK or
# the Swift SDK for Android (scripts/test.sh runs it; scripts/test-jni.sh runs the bridge):
#   - the Kotlin design constants are current (regenerated from Sources/IloTokiDesign);
#   - the manifest and resources are well-formed XML with the permissions, the service and
#     the foreground-service type the download needs;
#   - every name the Kotlin code takes from the bridge exists there: native methods in
#     NativeBridge.java, actions the Swift session performs, UI string keys in Core, JSON
#     fields of Core's screen values, and Design constants.
# Nothing here compiles the Kotlin code: docs/android.md says what does.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

"$REPO_ROOT/scripts/generate-android-design.sh" --check
ensure_venv
log "Android app: manifest, resources, names from the bridge and Core"
"$VENV_PYTHON" - <<'PY'
import pathlib, re, sys
import xml.etree.ElementTree as ET

sys.path.insert(0, "scripts")
from front_end_checks import app_version, check, finish, swift_sources, ui_text_cases

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
for xml in (app / "res").rglob("*.xml"):
    ET.parse(xml)

kotlin = "\n".join(p.read_text() for p in sorted((app / "java").rglob("*.kt")))
java = (app / "java/org/ilotoki/android/NativeBridge.java").read_text()
natives = set(re.findall(r"static native \S+ (\w+)\(", java))
for call in set(re.findall(r"NativeBridge\.(\w+)\(", kotlin)):
    check(call in natives, f"NativeBridge has no native method {call}")

session = pathlib.Path("Sources/IloTokiJNI/Session.swift").read_text()
body = session[session.index("switch action {"):]
actions = set(re.findall(r'case ((?:"\w+"(?:, )?)+):', body))
actions = {a for group in actions for a in re.findall(r'"(\w+)"', group)}
used = set(re.findall(r'(?:act|perform)\("(\w+)"', kotlin)) | {action for _, action in re.findall(r'"(\w+)" to "(set\w+)"', kotlin)}
for action in used:
    check(action in actions, f"the Swift session performs no action {action}")
places = set(re.findall(r'case "(\w+)"(?:, "(\w+)")?: try ScreenJSON', session))
places = {p for pair in places for p in pair if p}
for place in set(re.findall(r'screen\("(\w+)"\)', kotlin)) | set(re.findall(r'go\("(\w+)"\)', kotlin)) - {"main"}:
    check(place in places or place == "main", f"the session has no place {place}")

core = swift_sources("Sources/IloTokiCore")
text_cases = ui_text_cases(core)
for key in set(re.findall(r'bridge\.text\("([\w.]+)"\)', kotlin)):
    check(key in text_cases or re.fullmatch(r"language\.(tok|en|ru|vi)", key), f"UIText has no case {key}")

# Every JSON field the Kotlin code reads is a property of a Core screen value (or of what
# the session adds: the licence offer, the catalog entry, a switch action's payload).
fields = set(re.findall(r"public (?:internal\(set\) )?(?:var|let) (\w+)", core)) | {"licence", "entry", "name", "summary", "url", "id", "_0"}
fields |= set(re.findall(r"case (\w+)", pathlib.Path("Sources/IloTokiCore/Screen/ModelsPage.swift").read_text()))
fields |= {"formats", "format", "title", "theme"}
for field in set(re.findall(r'(?:get|opt)(?:String|JSONObject|JSONArray|Boolean|Double|Int)\("(\w+)"\)', kotlin)) | set(re.findall(r'\.has\("(\w+)"\)', kotlin)):
    check(field in fields, f"no Core screen value has a field {field}")

design = (app / "java/org/ilotoki/android/Design.kt").read_text()
for reference in set(re.findall(r"Design\.((?:[A-Z][a-z]\w*\.)?[A-Z_]{2,}\w*)", kotlin)):
    name = reference.split(".")[-1]
    check(re.search(rf"(const )?val {name}\b", design), f"Design.kt has no {reference}")

gradle = pathlib.Path("android/app/build.gradle.kts").read_text()
version = app_version()
check(f'versionName = "{version}"' in gradle, f"the app's versionName is not AboutPage.version ({version})")
check('abiFilters += listOf("arm64-v8a")' in gradle and "minSdk = 28" in gradle, "the app is not arm64-v8a from API 28")
check('dependsOn(buildNative)' in gradle and '"./scripts/build-android.sh"' in gradle, "Gradle does not run scripts/build-android.sh first")

finish(f"checked the manifest, {len(list((app / 'res').rglob('*.xml')))} resource files and {kotlin.count(chr(10))} lines of Kotlin against the bridge and Core")
PY
