#!/usr/bin/env bash
# Dialect itself (Debian's dialect 2.1.1, the GNOME translator), unmodified, with its
# LibreTranslate instance set to `ilotoki serve` on localhost: on a virtual display (Xvfb) with
# its own D-Bus session and settings, scripts/dialect_probe.py types an English sentence into it
# over AT-SPI, presses Translate and reads Dialect's target field, which must show the
# translation `ilotoki translate` makes of the same sentence with the same model (the tiny
# test model: what it writes could come from nowhere else). A screenshot of the window is
# left in build/dialect.png.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

ensure_apt_packages dialect gstreamer1.0-plugins-base at-spi2-core python3-pyatspi dbus xvfb xauth x11-utils imagemagick
tiny=build/test-models/tiny.gguf
[ -f "$tiny" ] || die "the test models are missing: run scripts/fetch-test-models.sh"
swift build --product ilotoki >&2
bin="$(swift build --show-bin-path)/ilotoki"

work=$(mktemp -d)
server=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export ILOTOKI_HOME="$work/home" NO_COLOR=1
mkdir -p "$ILOTOKI_HOME"
sentence="I love you."
expected=$("$bin" translate --model "$tiny" --threads 1 --from en --to tok -- "$sentence")

"$bin" serve --port 0 --model "$tiny" --threads 1 2>"$work/serve.log" &
server=$!
port=$(serve_port "$work/serve.log") || die "ilotoki serve did not start: $(cat "$work/serve.log")"

# Dialect's settings, as the README tells a person to set them (gsettings writes the same keys):
# LibreTranslate, its instance localhost:PORT (plain HTTP only for "localhost:"), English into
# Toki Pona; its text-to-speech off (it would look Google's voices up).
mkdir -p "$work/config/glib-2.0/settings"
cat >"$work/config/glib-2.0/settings/keyfile" <<KEYS
[app/drey/Dialect/translators]
list=['google', 'libretranslate', 'lingva']
active='libretranslate'

[app/drey/Dialect/translators/libretranslate]
instance-url='localhost:$port'
src-langs=['en']
dest-langs=['tok']
api-key=''
init=true

[app/drey/Dialect/tts]
list=['google']
active=''
KEYS

# shellcheck disable=SC2016 # expanded by the inner shell
XDG_CONFIG_HOME="$work/config" GSETTINGS_BACKEND=keyfile GSK_RENDERER=cairo \
    timeout 180 xvfb-run -a -s "-screen 0 1100x700x24" dbus-run-session -- bash -c '
    # The display answers before Dialect starts; even so GTK sometimes fails to open it ("Gtk
    # couldn'"'"'t be initialized", 1 run in 5 here) and Dialect exits at once: it is started again.
    for _ in $(seq 100); do xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
    for _ in 1 2 3; do
        dialect >>"$1/dialect.log" 2>&1 &
        app=$!
        sleep 3
        kill -0 "$app" 2>/dev/null && break
    done
    /usr/bin/python3 scripts/dialect_probe.py "$2" "$1/shown"
    result=$?
    sleep 0.5
    import -window root "$3" 2>/dev/null || true
    kill "$app" 2>/dev/null
    wait "$app" 2>/dev/null
    exit $result' probe "$work" "$sentence" "$BUILD_DIR/dialect.png" >"$work/probe.log" 2>&1 || {
    cat "$work/probe.log" "$work/dialect.log" >&2
    die "Dialect showed no translation"
}
shown=$(cat "$work/shown")
kill -TERM "$server"
wait "$server" || true
server=
if [ "$shown" != "$expected" ]; then
    cat "$work/dialect.log" >&2
    die "Dialect showed '$shown', not the translation '$expected'"
fi
log "Dialect translated '$sentence' through ilotoki serve (screenshot: $BUILD_DIR/dialect.png)"
