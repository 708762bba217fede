#!/usr/bin/env bash
# Checks on Linux what can be checked of the Apple app without a Mac (scripts/test.sh runs it):
#   - every Swift file of the app (Apple/IloToki) and of its tests (Apple/IloTokiTests) is
#     type-checked in Swift 6 mode against the real IloTokiCore, IloTokiDesign,
#     IloTokiDownloadLive and IloTokiEngineLive modules and the committed stubs of the SDK surface it uses
#     (Apple/Stubs: SwiftUI, UIKit or AppKit, UniformTypeIdentifiers, Core Text, CoreGraphics),
#     twice: the iOS branch (with UIKit) and the macOS branch (with AppKit);
#   - Info.plist and the entitlements parse and hold the keys the app needs;
#   - Apple/project.yml parses and names only products the manifest's Apple branch lists,
#     files that exist, and the manifest's deployment targets;
#   - both branches of Package.swift: Apple links the XCFramework with no unsafe flags,
#     Linux the archive;
#   - the scripts pass bash -n and shellcheck.
# A pass means the app agrees with Core and with our stubs of Apple's documented API; it does
# not prove that the app builds with the real SDK: docs/apple.md says what does.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

# ILOTOKI_CHECK_ROOT: another tree to check (scripts/test-front-end-checks.sh plants mistakes in
# a copy); the repository's by default.
root=${ILOTOKI_CHECK_ROOT:-$REPO_ROOT}

log "Apple app: type-checking against Core and the SDK stubs (iOS and macOS branches)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Core's modules, emitted from the tree's own sources (what the app imports from the package).
modules=$work/modules
mkdir -p "$modules/CSHA256"
printf 'module CSHA256 {\n    header "%s"\n    export *\n}\n' "$root/Sources/CSHA256/include/ilotoki_sha256.h" >"$modules/CSHA256/module.modulemap"
module_flags=(-I "$modules" -Xcc "-fmodule-map-file=$modules/CSHA256/module.modulemap"
    -Xcc "-fmodule-map-file=$root/Sources/CIloTokiLLM/module.modulemap")
emit() {
    local name=$1
    shift
    # One package name, as SwiftPM gives its modules: `package` declarations reach each other.
    swiftc -parse-as-library -swift-version 6 -package-name ilotoki -module-name "$name" -emit-module -emit-module-path "$modules/$name.swiftmodule" \
        -suppress-warnings "${module_flags[@]}" "$@" || die "$name does not compile"
}
emit IloTokiLocking "$root"/Sources/IloTokiLocking/*.swift
emit IloTokiDesign "$root"/Sources/IloTokiDesign/*.swift
mapfile -t core_sources < <(find "$root/Sources/IloTokiCore" -name '*.swift' | sort)
emit IloTokiCore "${core_sources[@]}"
emit IloTokiLLM "$root"/Sources/IloTokiLLM/*.swift
emit IloTokiDownloadLive "$root"/Sources/IloTokiDownloadLive/*.swift
emit IloTokiEngineLive "$root"/Sources/IloTokiEngineLive/*.swift
for platform in ios macos; do
    dir=$work/$platform
    mkdir -p "$dir"
    ui=UIKit
    [ "$platform" = macos ] && ui=AppKit
    for module in CoreGraphics CoreText UniformTypeIdentifiers UserNotifications AppIntents "$ui" SwiftUI; do
        swiftc -parse-as-library -swift-version 6 -module-name "$module" -emit-module -emit-module-path "$dir/$module.swiftmodule" \
            -I "$dir" "$root/Apple/Stubs/$module.swift" || die "the $module stub does not compile"
    done
    # The app, emitted as a module (with testing on) for its tests to import.
    swiftc -parse-as-library -swift-version 6 -warnings-as-errors -module-name IloToki -emit-module -enable-testing \
        -emit-module-path "$dir/IloToki.swiftmodule" -I "$dir" "${module_flags[@]}" "$root"/Apple/IloToki/*.swift \
        || die "the Apple app does not type-check ($platform branch)"
    swiftc -typecheck -swift-version 6 -I "$dir" "${module_flags[@]}" "$root"/Apple/IloTokiTests/*.swift \
        || die "the Apple app's tests do not type-check ($platform branch)"
    log "Apple app: the $platform branch type-checks"
done

"$REPO_ROOT/scripts/fetch-fonts.sh"
"$REPO_ROOT/scripts/fetch-words.sh"
ILOTOKI_MANIFEST=apple swift package dump-package >"$work/apple.json" 2>"$work/apple.log" \
    || { cat "$work/apple.log" >&2; die "the Apple branch of Package.swift does not load"; }
swift package dump-package >"$work/linux.json" 2>"$work/linux.log" \
    || { cat "$work/linux.log" >&2; die "Package.swift does not load"; }

ensure_venv
"$VENV_PYTHON" -c 'import yaml' 2>/dev/null || venv_pip install --quiet pyyaml >&2
log "Apple app: plists, project.yml, manifest branches"
cd "$root"
"$VENV_PYTHON" - "$work/apple.json" "$work/linux.json" <<'PY'
import json, plistlib, re, sys, pathlib
import yaml

sys.path.insert(0, "scripts")
from front_end_checks import app_version, check, finish

apple, linux = (json.load(open(path)) for path in sys.argv[1:3])

def plist(path):
    with open(path, "rb") as f:
        return plistlib.load(f)

# Info.plist and the entitlements.
info = plist("Apple/IloToki/Info.plist")
for key in ["CFBundleIdentifier", "CFBundleExecutable", "CFBundleShortVersionString", "UILaunchScreen",
            "UISupportedInterfaceOrientations~ipad", "ITSAppUsesNonExemptEncryption"]:
    check(key in info, f"Info.plist has no {key}")
# The Mac's Services menu: the message is the provider's method, the entry Core's words.
services = info.get("NSServices") or [{}]
check(services[0].get("NSMessage") == "translate" and "func translate(_ pasteboard: NSPasteboard" in open("Apple/IloToki/Incoming.swift").read(),
      "NSServices does not send translate: to ServicesProvider")
check(services[0].get("NSSendTypes") == ["public.utf8-plain-text"], "the service does not take plain text")
english = re.findall(r'\.translateWith: "([^"]*)"', open("Sources/IloTokiCore/Screen/UIStrings.swift").read())[:1]
check(english and services[0].get("NSMenuItem", {}).get("default") == english[0], "the Services entry is not Core's translateWith")
version = app_version()
check(info.get("CFBundleShortVersionString") == version, f"Info.plist's version is not AboutPage.version ({version})")
memory = plist("Apple/IloToki/IloToki.entitlements")
for key in ["com.apple.developer.kernel.increased-memory-limit", "com.apple.developer.kernel.extended-virtual-addressing"]:
    check(memory.get(key) is True, f"IloToki.entitlements does not set {key}")
check(plist("Apple/IloToki/IloToki-FreeTeam.entitlements") == {}, "the free-team entitlements must ask for nothing")
mac = plist("Apple/IloToki/IloToki-macOS.entitlements")
for key in ["com.apple.security.app-sandbox", "com.apple.security.network.client", "com.apple.security.files.user-selected.read-only"]:
    check(mac.get(key) is True, f"IloToki-macOS.entitlements does not set {key}")
xcconfig = open("Apple/Config/App.xcconfig").read()
check("ILOTOKI_IOS_ENTITLEMENTS = IloToki/IloToki.entitlements" in xcconfig, "App.xcconfig does not choose the memory entitlements")
check('#include? "Local.xcconfig"' in xcconfig, "App.xcconfig cannot be overridden by Local.xcconfig")

# The manifest's two branches.
def target(manifest, name):
    return next((t for t in manifest["targets"] if t["name"] == name), None)
llm = target(apple, "CIloTokiLLM")
check(llm and llm["type"] == "binary" and llm.get("path") == "build/apple/CIloTokiLLM.xcframework",
      "the Apple branch does not link build/apple/CIloTokiLLM.xcframework as a binary target")
check("unsafeFlags" not in json.dumps(apple), "the Apple branch uses unsafe flags")
check(not any("Gtk" in t["name"] or "GTK" in t["name"] for t in apple["targets"]), "the Apple branch has GTK targets")
check(target(linux, "CIloTokiLLM")["type"] == "system", "the Linux branch does not link the archive")
check(target(linux, "IloTokiGTK") is not None, "the Linux branch has no GTK app")
platforms = {p["platformName"]: p["version"] for p in apple["platforms"]}
check(platforms == {"ios": "17.0", "macos": "14.0"}, f"platforms are {platforms}, not iOS 17 and macOS 14")

# project.yml.
project = yaml.safe_load(open("Apple/project.yml"))
products = {p["name"] for p in apple["products"]}
targets = project["targets"]
check(project["options"]["deploymentTarget"] == {"iOS": platforms.get("ios"), "macOS": platforms.get("macos")},
      "project.yml's deployment targets differ from Package.swift's")
for name, spec in targets.items():
    for dependency in spec.get("dependencies", []):
        if "package" in dependency:
            check(dependency["product"] in products, f"{name} depends on {dependency['product']}, which the package does not offer")
        if "target" in dependency:
            check(dependency["target"] in targets, f"{name} depends on an unknown target {dependency['target']}")
    for source in spec.get("sources", []):
        path = source if isinstance(source, str) else source["path"]
        check(pathlib.Path("Apple", path).exists(), f"{name} names {path}, which does not exist")
    for key, value in spec.get("settings", {}).get("base", {}).items():
        if key.startswith("CODE_SIGN_ENTITLEMENTS") or key == "INFOPLIST_FILE":
            if not value.startswith("$("):
                check(pathlib.Path("Apple", value).exists(), f"{key} names {value}, which does not exist")
app = targets["IloToki"]
check(set(app.get("supportedDestinations", [])) == {"iOS", "macOS"}, "the app is not one target for iOS and macOS")
check(app["settings"]["base"]["PRODUCT_BUNDLE_IDENTIFIER"] == "org.ilotoki.IloToki", "the bundle id is not the app id")

finish("checked 4 plists, project.yml and both manifest branches")
PY
cd "$REPO_ROOT"

log "scripts: bash -n and shellcheck"
for script in scripts/*.sh .ci/run; do
    bash -n "$script" || die "$script does not parse"
done
command -v shellcheck >/dev/null || ensure_apt_packages shellcheck
shellcheck -x scripts/*.sh .ci/run
