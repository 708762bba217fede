#!/usr/bin/env bash
# The Debian package installed where nothing else is: a minimal Debian 12 root made by
# debootstrap (cached as a tarball under $ILOTOKI_CACHE, keyed by its suite, mirror and package
# list, and unpacked afresh for every run), the package installed there with
# `apt-get install ./ilotoki_….deb` so that its Depends resolve from the archive. Inside it:
# `ilotoki --version`, `ilotoki words pona`, a translation with the Gemma test file, `man
# ilotoki`, and the GTK app on a virtual display (Xvfb on this machine, its socket shared with
# the root) to its first window, a screenshot left in build/package-gtk.png. Then the package
# is purged, and nothing of it may be left but the person's own files (~/.local/share/ilotoki
# is never the package's).
#
#   scripts/test-package.sh [--deb FILE]     (default: scripts/package-deb.sh makes it)
#
# Needs root (debootstrap, chroot, mounts) and the network to this machine's Debian mirror.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

deb=
while [ $# -gt 0 ]; do
    case "$1" in
    --deb) deb=$2; shift 2 ;;
    *) die "unknown option $1 (usage: test-package.sh [--deb FILE])" ;;
    esac
done
[ "$(id -u)" = 0 ] || die "the package test needs root (debootstrap and chroot)"
[ -n "$deb" ] || deb=$("$REPO_ROOT/scripts/package-deb.sh")
[ -f "$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
ensure_apt_packages debootstrap xvfb xauth xdotool imagemagick x11-utils

# The mirror this machine installs from (deb822 or the one-line format).
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*debian\) .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -1)
[ -n "$mirror" ] || mirror=http://deb.debian.org/debian
suite=bookworm
# What a minimal system has besides the package: man-db to read the manual page.
include=man-db,ca-certificates
key=$(printf '%s %s %s' "$suite" "$mirror" "$include" | sha256sum | cut -c1-16)
cache="$ILOTOKI_CACHE/debootstrap/$suite-$key.tar"
if [ ! -f "$cache" ]; then
    log "making a minimal Debian 12 root with debootstrap (once; cached in $cache)"
    made=$(mktemp -d)
    debootstrap --variant=minbase --include="$include" "$suite" "$made/root" "$mirror" >&2
    rm -rf "$made/root/var/cache/apt/archives/"*.deb
    mkdir -p "$(dirname "$cache")"
    tar -C "$made/root" -cf "$cache.partial" .
    mv "$cache.partial" "$cache"
    rm -rf "$made"
fi

work=$(mktemp -d)
root="$work/root"
display=
xvfb=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    [ -z "$xvfb" ] || kill "$xvfb" 2>/dev/null || true
    for mount in "$root/tmp/.X11-unix" "$root/dev/pts" "$root/dev" "$root/proc"; do
        mountpoint -q "$mount" 2>/dev/null && umount -l "$mount"
    done
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$root"
tar -C "$root" -xf "$cache"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
in_root() { chroot "$root" env -i HOME=/home/person USER=person PATH=/usr/bin:/bin:/usr/sbin:/sbin LANG=C.UTF-8 "$@"; }

log "installing $(basename "$deb") into it with apt-get (its Depends from the archive)"
cp "$deb" "$root/tmp/"
in_root apt-get update -q >&2
in_root apt-get install -y -q --no-install-recommends "/tmp/$(basename "$deb")" >&2
in_root dpkg -L ilotoki | sort >"$work/files"

log "running it there"
mkdir -p "$root/home/person/.local/share/ilotoki"
version=$(in_root ilotoki --version)
[[ $version == "ilotoki "* ]] || die "ilotoki --version printed '$version'"
word=$(in_root ilotoki words pona)
[[ ${word,,} == *good* ]] || die "ilotoki words pona showed '$word'"
cp "$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE" "$root/tmp/model.gguf"
translation=$(in_root ilotoki --model /tmp/model.gguf --from en --to tok "I love you.")
[ -n "$translation" ] || die "the translation inside the root was empty"
page=$(in_root man -P cat ilotoki 2>/dev/null)
[[ $page == *"private translator"* ]] || die "man ilotoki did not show the page"

# The GTK app: Xvfb here, its socket shared with the root.
display_number=$(for n in $(seq 90 140); do [ -e "/tmp/.X11-unix/X$n" ] || { echo "$n"; break; }; done)
display=":$display_number"
Xvfb "$display" -screen 0 720x900x24 -nolisten tcp -ac >"$work/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 100); do DISPLAY=$display xdpyinfo >/dev/null 2>&1 && break; sleep 0.1; done
mkdir -p "$root/tmp/.X11-unix"
mount --bind /tmp/.X11-unix "$root/tmp/.X11-unix"
chroot "$root" env -i HOME=/home/person PATH=/usr/bin:/bin LANG=C.UTF-8 DISPLAY="$display" GSK_RENDERER=cairo NO_AT_BRIDGE=1 \
    ilotoki-gtk >"$work/gtk.log" 2>&1 &
app=$!
window=
for _ in $(seq 300); do
    window=$(DISPLAY=$display xdotool search --name 'ilo toki' 2>/dev/null | head -1) && [ -n "$window" ] && break
    kill -0 "$app" 2>/dev/null || { cat "$work/gtk.log" >&2; die "ilotoki-gtk ended before its window showed"; }
    sleep 0.1
done
[ -n "$window" ] || { cat "$work/gtk.log" >&2; die "ilotoki-gtk showed no window in 30 s"; }
sleep 1
DISPLAY=$display import -window root "$BUILD_DIR/package-gtk.png"
kill "$app" 2>/dev/null
wait "$app" 2>/dev/null || true
umount -l "$root/tmp/.X11-unix"

log "removing it: nothing of it is left but the person's files"
touch "$root/home/person/.local/share/ilotoki/history.json"
in_root apt-get purge -y -q ilotoki >&2
left=$(while read -r path; do if [ -f "$root$path" ] || [ -L "$root$path" ]; then echo "$path"; fi; done <"$work/files")
[ -z "$left" ] || die "left after purge: $left"
[ -f "$root/home/person/.local/share/ilotoki/history.json" ] || die "the purge touched the person's files"
log "the package installed, ran (translation: $translation; screenshot: $BUILD_DIR/package-gtk.png) and left nothing behind"
