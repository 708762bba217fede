#!/usr/bin/env bash
# Puts Space Grotesk (the UI font, SIL Open Font License) in build/fonts/, from the PyPI
# package fontpkg-space-grotesk, with its licence. The GTK app loads fonts from there.
set -euo pipefail
. "$(dirname "$0")/common.sh"

out="$BUILD_DIR/fonts"
[ -f "$out/SpaceGrotesk[wght].ttf" ] && [ -f "$out/SpaceGrotesk-LICENSE.txt" ] && exit 0
cache="$ILOTOKI_CACHE/fonts"
mkdir -p "$out" "$cache"
if [ ! -f "$cache/SpaceGrotesk[wght].ttf" ]; then
    log "fetching Space Grotesk from PyPI"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    python3 -m pip download --quiet --no-deps "fontpkg-space-grotesk==$SPACE_GROTESK_VERSION" -d "$work" >&2 \
        || die "pip could not download fontpkg-space-grotesk"
    python3 -m zipfile -e "$work"/*.whl "$work/unpacked"
    font=$(find "$work/unpacked" -name 'SpaceGrotesk*.ttf' | head -1)
    licence=$(find "$work/unpacked" -path '*fontpkg_space_grotesk/LICENSE' | head -1)
    [ -n "$font" ] && [ -n "$licence" ] || die "the fontpkg-space-grotesk package has no font or licence"
    got=$(sha256_of "$font")
    [ "$got" = "$SPACE_GROTESK_SHA256" ] || die "Space Grotesk has sha256 $got, expected $SPACE_GROTESK_SHA256 (scripts/pins.sh)"
    cp "$font" "$cache/SpaceGrotesk[wght].ttf"
    cp "$licence" "$cache/SpaceGrotesk-LICENSE.txt"
fi
cp "$cache/SpaceGrotesk[wght].ttf" "$cache/SpaceGrotesk-LICENSE.txt" "$out/"
