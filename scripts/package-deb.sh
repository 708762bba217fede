#!/usr/bin/env bash
# Makes the Debian package a person installs on a Debian or Ubuntu machine without the Swift
# toolchain: build/deb/ilotoki_<version>_<arch>.deb, with `ilotoki` (and `ilotoki serve`) and
# `ilotoki-gtk` linked with the Swift runtime and Foundation statically, so nothing loads from
# the toolchain, and what scripts/install-gtk.sh installs (fonts, lipu Linku's words, the
# .desktop file, the icon, the AppStream metadata, the manual page, the bash and zsh
# completions, the systemd user units), with Debian's copyright file and changelog.
#
#   scripts/package-deb.sh             builds it, checks it with lintian, appstreamcli and
#                                      desktop-file-validate, prints what takes the space, and
#                                      prints the package's path on standard output
#
# The version is the one `ilotoki --version` prints (AboutPage.version); `Depends:` comes from
# dpkg-shlibdeps. The maintainer is $DEBFULLNAME <$DEBEMAIL> where they are set.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

"$REPO_ROOT/scripts/setup.sh" >&2
if can_install_apt_packages; then ensure_apt_packages dpkg-dev lintian appstream desktop-file-utils libcurl4-openssl-dev >&2; fi

# Foundation's static libraries leave libcurl (its networking) to the system: its
# development files give the linker the shared library, and the package depends on it.
# Linked apart from the usual build: the static runtime is a flag of the whole build.
scratch="$REPO_ROOT/.build-static"
for product in ilotoki ilotoki-gtk; do
    swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product "$product" >&2
done
bin=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)
for program in ilotoki ilotoki-gtk; do
    if ldd "$bin/$program" | grep -Eq 'libswift|libFoundation|libdispatch|libBlocksRuntime'; then
        die "$program still loads the Swift runtime: $(ldd "$bin/$program" | grep -E 'libswift|libFoundation|libdispatch' | head -3)"
    fi
done

version=$("$bin/ilotoki" --version | awk '{print $2}')
arch=$(dpkg --print-architecture)
out="$BUILD_DIR/deb"
stage="$out/stage"
rm -rf "$stage"
mkdir -p "$stage/DEBIAN"
DESTDIR="$stage" PREFIX=/usr ILOTOKI_BIN_DIR="$bin" "$REPO_ROOT/scripts/install-gtk.sh" >&2
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/ilotoki" "$stage/usr/bin/ilotoki-gtk"
gzip -9n "$stage/usr/share/man/man1/ilotoki.1" "$stage/usr/share/man/man1/ilotoki-gtk.1"

# Debian keeps a package's licences in its copyright file, in the machine-readable format.
doc="$stage/usr/share/doc/ilotoki"
mkdir -p "$doc"
license_text() { sed -e 's/^[[:space:]]*$/./' -e 's/^/ /' "$1"; }
{
    echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
    echo "Upstream-Name: ilo toki"
    echo
    echo "Files: *"
    echo "Copyright: 2026 The ilo toki authors; llama.cpp (linked in): 2023-2026 The ggml authors"
    echo "License: MIT"
    license_text LICENSE
    echo
    echo "Files: usr/share/ilotoki/fonts/SpaceGrotesk*"
    echo "Copyright: 2020 The Space Grotesk Project Authors"
    echo "License: OFL-1.1"
    license_text licenses/SpaceGrotesk-OFL.txt
    echo
    echo "Files: usr/share/ilotoki/fonts/$SITELEN_FONT_FILE"
    echo "Copyright: 2022 Kreative Software"
    echo "License: OFL-1.1-sitelen-seli-kiwen-asuki"
    license_text licenses/sitelen-seli-kiwen-asuki-OFL.txt
    echo
    echo "Files: usr/share/ilotoki/linku-words.json"
    echo "Copyright: the lipu Linku project and its contributors"
    echo "License: CC-BY-SA-4.0"
    license_text licenses/lipu-Linku-CC-BY-SA-4.0.txt
} >"$doc/copyright"
# The same texts, once: the copyright file holds them.
rm -rf "$stage/usr/share/licenses"
maintainer="${DEBFULLNAME:-The ilo toki authors} <${DEBEMAIL:-packages@ilotoki.org}>"
{
    echo "ilotoki ($version) unstable; urgency=medium"
    echo
    echo "  * ilo toki $version."
    echo
    echo " -- $maintainer  $(date -R -d "@$(git log -1 --format=%ct)")"
} | gzip -9n >"$doc/changelog.gz"
chmod 644 "$doc/copyright" "$doc/changelog.gz"

# Depends: what the programs link, as dpkg-shlibdeps reads it from the installed libraries.
shlibs=$(mktemp -d)
mkdir -p "$shlibs/debian"
printf 'Source: ilotoki\n\nPackage: ilotoki\nArchitecture: any\n' >"$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O -e"$stage/usr/bin/ilotoki" -e"$stage/usr/bin/ilotoki-gtk" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shlibs"
[ -n "$depends" ] || die "dpkg-shlibdeps found no dependencies"

(cd "$stage" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
cat >"$stage/DEBIAN/control" <<EOF
Package: ilotoki
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$stage" | cut -f1)
Depends: $depends
Section: utils
Priority: optional
Description: private translator between Toki Pona and English, Russian, Vietnamese
 ilo toki translates between Toki Pona and English, Russian or Vietnamese with
 a small model that runs on this device: once the model is downloaded, no
 network is used and nothing typed leaves the device.
 .
 The package holds the command line (ilotoki: text, standard input, files,
 an interactive session, and ilotoki serve, a LibreTranslate-compatible server
 on loopback for other apps) and the GTK app for desktops and Linux phones
 (ilotoki-gtk). The model itself is downloaded by the app on request.
EOF
chmod 644 "$stage/DEBIAN/control" "$stage/DEBIAN/md5sums"

package="$out/ilotoki_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$stage" "$package" >&2

log "checking it with Debian's tools"
appstreamcli validate --no-net "$stage/usr/share/metainfo/org.ilotoki.IloToki.metainfo.xml" >&2
desktop-file-validate "$stage/usr/share/applications/org.ilotoki.IloToki.desktop" >&2
lintian --fail-on error --info "$package" >&2

log "$(basename "$package"): $(($(file_size "$package") / 1024)) KiB, $(du -sh --exclude=DEBIAN "$stage" | cut -f1) installed; the largest:"
(cd "$stage" && find usr -type f -printf '%s %p\n' | sort -rn | head -8 | awk '{printf "  %8.1f MiB  %s\n", $1 / 1048576, $2}') >&2
echo "$package"
