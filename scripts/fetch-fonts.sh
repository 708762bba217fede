#!/usr/bin/env bash
# Puts the app's fonts in build/fonts/, each from a pinned PyPI package, with its licence:
#   SpaceGrotesk[wght].ttf         the UI font (fontpkg-space-grotesk; SIL Open Font License)
#   sitelen-seli-kiwen-asuki.ttf   the sitelen pona ligature font (sitelen-layer-static;
#                                  Kreative Korp, SIL Open Font License)
# The GTK app loads fonts from there (and, installed, from share/ilotoki/fonts).
set -euo pipefail
. "$(dirname "$0")/common.sh"

out="$BUILD_DIR/fonts"
cache="$ILOTOKI_CACHE/fonts"
mkdir -p "$out" "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Downloads a wheel into $work/<name>/ and unpacks it. Usage: fetch_wheel NAME REQUIREMENT
fetch_wheel() {
    venv_pip download --quiet --no-deps "$2" -d "$work/$1" >&2 || die "pip could not download $2"
    "$VENV_PYTHON" -m zipfile -e "$work/$1"/*.whl "$work/$1/unpacked"
}

if [ ! -f "$cache/SpaceGrotesk[wght].ttf" ] || [ ! -f "$cache/SpaceGrotesk-LICENSE.txt" ]; then
    log "fetching Space Grotesk from PyPI"
    fetch_wheel space "fontpkg-space-grotesk==$SPACE_GROTESK_VERSION"
    font=$(find "$work/space/unpacked" -name 'SpaceGrotesk*.ttf' | head -1)
    licence=$(find "$work/space/unpacked" -path '*fontpkg_space_grotesk/LICENSE' | head -1)
    if [ -z "$font" ] || [ -z "$licence" ]; then die "the fontpkg-space-grotesk package has no font or licence"; fi
    got=$(sha256_of "$font")
    [ "$got" = "$SPACE_GROTESK_SHA256" ] || die "Space Grotesk has sha256 $got, expected $SPACE_GROTESK_SHA256 (scripts/pins.sh)"
    cp "$font" "$cache/SpaceGrotesk[wght].ttf"
    cp "$licence" "$cache/SpaceGrotesk-LICENSE.txt"
fi

if [ ! -f "$cache/$SITELEN_FONT_FILE" ] || [ ! -f "$cache/sitelen-seli-kiwen-LICENSE.txt" ]; then
    log "fetching sitelen seli kiwen asuki from PyPI"
    fetch_wheel sitelen "$SITELEN_FONT_PACKAGE==$SITELEN_FONT_VERSION"
    got=$(sha256_of "$work"/sitelen/*.whl)
    [ "$got" = "$SITELEN_FONT_WHEEL_SHA256" ] \
        || die "$SITELEN_FONT_PACKAGE $SITELEN_FONT_VERSION has sha256 $got, expected $SITELEN_FONT_WHEEL_SHA256 (scripts/pins.sh)"
    font=$(find "$work/sitelen/unpacked" -name "$SITELEN_FONT_FILE" | head -1)
    licence=$(find "$work/sitelen/unpacked" -name 'OFL-sitelen-seli-kiwen.txt' | head -1)
    if [ -z "$font" ] || [ -z "$licence" ]; then die "the $SITELEN_FONT_PACKAGE package has no $SITELEN_FONT_FILE or licence"; fi
    cp "$font" "$cache/$SITELEN_FONT_FILE"
    cp "$licence" "$cache/sitelen-seli-kiwen-LICENSE.txt"
fi

for file in "SpaceGrotesk[wght].ttf" SpaceGrotesk-LICENSE.txt "$SITELEN_FONT_FILE" sitelen-seli-kiwen-LICENSE.txt; do
    cmp -s "$cache/$file" "$out/$file" || cp "$cache/$file" "$out/$file"
done
