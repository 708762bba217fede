#!/usr/bin/env bash
# Everything needed to build ilo toki on a fresh Debian/Ubuntu machine with the Swift
# toolchain: system packages (GTK 4 for the Linux app, libedit for the command line), a Python environment under build/ for
# the fetchers, llama.cpp and the inference library, the app's fonts. Idempotent and quick once done.
#   --with-test-tools   also install what the tests need (strace, Xvfb, xdotool, hb-shape, shellcheck, a JDK,
#                       an arm64 cross compiler and qemu for the arm64 row kernels, groff and zsh)
set -euo pipefail
. "$(dirname "$0")/common.sh"

command -v swift >/dev/null || die "the Swift toolchain is not installed (https://swift.org/install)"
command -v python3 >/dev/null || die "python3 is needed to fetch pinned sources"

packages=(cmake ninja-build pkg-config patch libgtk-4-dev libedit-dev libmicrohttpd-dev)
for arg in "$@"; do
    case "$arg" in
    --with-test-tools)
        packages+=(strace xvfb xauth xdotool xclip desktop-file-utils appstream libharfbuzz-bin shellcheck default-jdk-headless)
        # The GTK app as a screen reader meets it (scripts/test-accessibility.sh).
        packages+=(dbus at-spi2-core python3-pyatspi)
        # The manual page and the shell completions the package installs (ManualPageTests).
        packages+=(groff-base zsh)
        # The Android app's checks: aapt2 and framework-res.apk, the NDK's looper header,
        # Android's org.json, arm64 C and C++ headers (scripts/check-android.sh).
        packages+=(aapt android-framework-res android-platform-frameworks-native-headers libandroid-json-java
            libc6-dev-arm64-cross libstdc++-12-dev-arm64-cross)
        # The arm64 row kernels are checked natively on arm64, elsewhere cross-built and emulated.
        [ "$(uname -m)" = aarch64 ] || packages+=(g++-aarch64-linux-gnu qemu-user)
        ;;
    *) die "unknown option $arg" ;;
    esac
done
if can_install_apt_packages; then
    ensure_apt_packages "${packages[@]}"
fi
# Python tools live in one environment under build/ (python3-venv is installed where missing).
ensure_venv
if [ "$(uname -s)" = Darwin ]; then
    # On a Mac the package links the XCFramework (Package.swift's Apple branch).
    [ -d "$BUILD_DIR/apple/CIloTokiLLM.xcframework" ] || "$REPO_ROOT/scripts/build-apple.sh"
else
    "$REPO_ROOT/scripts/build-llm.sh"
fi
"$REPO_ROOT/scripts/fetch-fonts.sh"
"$REPO_ROOT/scripts/fetch-words.sh"
