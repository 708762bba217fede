#!/usr/bin/env bash
# Prints the directory of a Kotlin 2.x compiler that runs on the JDK, fetched once from the
# pinned PyPI wheel (scripts/pins.sh) and kept in the cache: its jars, the compiler's
# (kotlin-jupyter-kernel-*-all.jar) and the standard library's (kotlin-stdlib-*.jar).
set -euo pipefail
. "$(dirname "$0")/common.sh"

dir="$ILOTOKI_CACHE/kotlin/$KOTLIN_KERNEL_VERSION-${KOTLIN_KERNEL_WHEEL_SHA256:0:12}"
if ! ls "$dir"/kotlin-stdlib-*.jar "$dir"/kotlin-jupyter-kernel-*-all.jar >/dev/null 2>&1; then
    log "fetching a Kotlin compiler ($KOTLIN_KERNEL_PACKAGE $KOTLIN_KERNEL_VERSION) from PyPI"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    venv_pip download --quiet --no-deps "$KOTLIN_KERNEL_PACKAGE==$KOTLIN_KERNEL_VERSION" -d "$work" >&2 \
        || die "pip could not download $KOTLIN_KERNEL_PACKAGE==$KOTLIN_KERNEL_VERSION"
    got=$(sha256_of "$work"/*.whl)
    [ "$got" = "$KOTLIN_KERNEL_WHEEL_SHA256" ] \
        || die "$KOTLIN_KERNEL_PACKAGE $KOTLIN_KERNEL_VERSION has sha256 $got, expected $KOTLIN_KERNEL_WHEEL_SHA256 (scripts/pins.sh)"
    "$VENV_PYTHON" -m zipfile -e "$work"/*.whl "$work/unpacked"
    mkdir -p "$dir.partial"
    cp "$work"/unpacked/run_kotlin_kernel/jars/kotlin-stdlib-*.jar "$work"/unpacked/run_kotlin_kernel/jars/kotlin-jupyter-kernel-*-all.jar "$dir.partial/"
    rm -rf "$dir"
    mv "$dir.partial" "$dir"
fi
printf '%s\n' "$dir"
