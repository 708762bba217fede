#!/usr/bin/env bash
# Renders the GTK app's screenshots into docs/screenshots/: a phone (360×720) and a desktop
# (1000×680) size, light and dark, Latin and sitelen pona, and the other places. The app runs
# its demo (canned translations, no model needed) on a virtual display.
# sitelen pona is drawn with the font that comes with the app (sitelen seli kiwen asuki, put in
# build/fonts by scripts/fetch-fonts.sh), as a fresh install draws it.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

"$REPO_ROOT/scripts/setup.sh" --with-test-tools
swift build --product ilotoki-gtk >&2
app="$(swift build --show-bin-path)/ilotoki-gtk"
out="$REPO_ROOT/docs/screenshots"
mkdir -p "$out"

font="$BUILD_DIR/fonts/$SITELEN_FONT_FILE"
[ -f "$font" ] || die "no sitelen pona font at $font: scripts/fetch-fonts.sh puts it there"
export ILOTOKI_FONT_DIRS="$BUILD_DIR/fonts" GSK_RENDERER=cairo NO_AT_BRIDGE=1 LANG=C.UTF-8

# name  size  options…
shots=(
    "phone-light-latin        360x720  --theme light"
    "phone-light-sitelen-pona 360x720  --theme light --sitelen-pona"
    "phone-dark-latin         360x720  --theme dark"
    "phone-dark-sitelen-pona  360x720  --theme dark --sitelen-pona"
    "phone-light-no-model     360x720  --theme light --demo-without-model"
    "phone-light-english      360x720  --theme light --direction en-tok --text Good_morning!"
    "phone-light-history      360x720  --theme light --place history"
    "phone-light-models       360x720  --theme light --place models"
    "phone-light-stand-in     360x720  --theme light --demo-stand-in"
    "phone-light-word         360x720  --theme light --word pona"
    "phone-dark-settings      360x720  --theme dark --place settings"
    "phone-light-about        360x720  --theme light --place about"
    "desktop-light-latin      1000x680 --theme light"
    "desktop-dark-sitelen-pona 1000x680 --theme dark --sitelen-pona"
)
for shot in "${shots[@]}"; do
    read -r name size options <<<"$shot"
    # shellcheck disable=SC2086 # options are words; "_" stands for a space inside --text
    set -- $options
    arguments=()
    for word in "$@"; do arguments+=("${word//_/ }"); done
    xvfb-run -a -s "-screen 0 1280x1024x24" "$app" --demo --size "$size" "${arguments[@]}" --screenshot "$out/$name.png" \
        2> >(grep -v 'dbus' >&2) || die "the screenshot $name failed"
    log "$out/$name.png"
done
