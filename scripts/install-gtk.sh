#!/usr/bin/env bash
# Builds and installs the Linux app (and the ilotoki command) so that it appears in GNOME's
# and Phosh's launchers.
#   PREFIX=~/.local scripts/install-gtk.sh      (default PREFIX: /usr/local)
#   DESTDIR=/tmp/stage PREFIX=/usr scripts/install-gtk.sh   (for packaging)
#   ILOTOKI_BIN_DIR=DIR ...   installs the binaries already built in DIR instead of building them
#                             (scripts/package-deb.sh: linked with the Swift runtime statically)
# Installs: bin/ilotoki-gtk, bin/ilotoki, share/ilotoki/fonts (Space Grotesk and the sitelen
# pona font sitelen seli kiwen asuki), share/ilotoki/linku-words.json (lipu Linku's Toki Pona
# words, CC BY-SA 4.0), share/licenses/ilotoki (the project's MIT licence and
# those of llama.cpp and the fonts), the .desktop file, the icon and the AppStream metadata,
# the manual page and the bash and zsh completions of `ilotoki` (made by `ilotoki help --man`
# and `--completions`), and the systemd user units of `ilotoki serve` (ilotoki-serve.socket and .service: enable with
# `systemctl --user enable --now ilotoki-serve.socket`, and apps that speak LibreTranslate find
# it at http://localhost:5000 after login).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

prefix="${PREFIX:-/usr/local}"
root="${DESTDIR:-}$prefix"
id=org.ilotoki.IloToki

"$REPO_ROOT/scripts/setup.sh"
if [ -n "${ILOTOKI_BIN_DIR:-}" ]; then
    bin=$ILOTOKI_BIN_DIR
else
    swift build -c release --product ilotoki-gtk >&2
    swift build -c release --product ilotoki >&2
    bin="$(swift build -c release --show-bin-path)"
fi

install -d "$root/bin" "$root/share/ilotoki/fonts" "$root/share/applications" \
    "$root/share/icons/hicolor/scalable/apps" "$root/share/metainfo" "$root/share/licenses/ilotoki" \
    "$root/share/man/man1" "$root/share/bash-completion/completions"
install -m 755 "$bin/ilotoki-gtk" "$bin/ilotoki" "$root/bin/"
"$bin/ilotoki" help --man >"$root/share/man/man1/ilotoki.1"
"$bin/ilotoki" help --man ilotoki-gtk >"$root/share/man/man1/ilotoki-gtk.1"
"$bin/ilotoki" help --completions bash >"$root/share/bash-completion/completions/ilotoki"
# zsh reads a system's packages' completions from vendor-completions, the rest from site-functions.
zsh_functions="$root/share/zsh/site-functions"
[ "$prefix" != /usr ] || zsh_functions="$root/share/zsh/vendor-completions"
install -d "$zsh_functions"
"$bin/ilotoki" help --completions zsh >"$zsh_functions/_ilotoki"
chmod 644 "$root/share/man/man1/ilotoki.1" "$root/share/man/man1/ilotoki-gtk.1" "$root/share/bash-completion/completions/ilotoki" "$zsh_functions/_ilotoki"
install -m 644 "$BUILD_DIR/fonts/SpaceGrotesk[wght].ttf" "$BUILD_DIR/fonts/$SITELEN_FONT_FILE" "$root/share/ilotoki/fonts/"
install -m 644 "$BUILD_DIR/words/linku-words.json" "$root/share/ilotoki/"
install -m 644 LICENSE "$root/share/licenses/ilotoki/ilotoki-MIT.txt"
install -m 644 licenses/* "$root/share/licenses/ilotoki/"
install -m 644 "data/$id.desktop" "$root/share/applications/"
install -m 644 "data/$id.svg" "$root/share/icons/hicolor/scalable/apps/"
install -m 644 "data/$id.metainfo.xml" "$root/share/metainfo/"

# systemd looks for user units in ~/.local/share/systemd/user for a home prefix, else in
# PREFIX/lib/systemd/user.
case "$prefix" in
"$HOME"/*) units="$root/share/systemd/user" ;;
*) units="$root/lib/systemd/user" ;;
esac
install -d "$units"
install -m 644 data/ilotoki-serve.socket "$units/"
sed "s|@BINDIR@|$prefix/bin|g" data/ilotoki-serve.service >"$units/ilotoki-serve.service"
chmod 644 "$units/ilotoki-serve.service"

# Launchers read caches; refresh them when installing for this system (not into a DESTDIR).
if [ -z "${DESTDIR:-}" ]; then
    if command -v update-desktop-database >/dev/null; then update-desktop-database -q "$prefix/share/applications" || true; fi
    if command -v gtk4-update-icon-cache >/dev/null; then gtk4-update-icon-cache -q -t -f "$prefix/share/icons/hicolor" || true; fi
fi
log "installed ilo toki in $root (run: $prefix/bin/ilotoki-gtk)"
