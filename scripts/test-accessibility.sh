#!/usr/bin/env bash
# The GTK app as a screen reader meets it: each place of the demo app is opened on a virtual
# display (Xvfb) with its own D-Bus session and accessibility bus (Debian's dbus and
# at-spi2-core), and scripts/a11y_probe.py walks the tree over AT-SPI (python3-pyatspi) and
# fails on any control without a name (a chooser announced as "GtkDropDown"). scripts/test.sh
# runs it.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

ensure_apt_packages at-spi2-core python3-pyatspi dbus xvfb xauth
swift build --product ilotoki-gtk >&2
app="$(swift build --show-bin-path)/ilotoki-gtk"
status=0
for place in main history models settings about; do
    log "accessibility: the $place place"
    # The app runs in the background of the session; the probe's exit is the session's.
    # shellcheck disable=SC2016 # expanded by the inner shell, from its arguments
    GSK_RENDERER=cairo xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- bash -c '
        "$1" --demo --place "$2" >/dev/null 2>&1 &
        app=$!
        /usr/bin/python3 scripts/a11y_probe.py "$2"
        result=$?
        kill "$app" 2>/dev/null
        wait "$app" 2>/dev/null
        exit $result' probe "$app" "$place" 2>&1 | grep -v -e "dbus-daemon" -e "SpiRegistry" || status=1
done
[ "$status" = 0 ] || die "some controls of the GTK app have no accessible name (above)"
log "accessibility: every control of every place has a name"
