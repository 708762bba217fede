# Shared by the scripts in this directory: paths, the build cache, logging, tool installation.
# Source it; it does not run anything by itself.

REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Build outputs that are expensive to make live outside the repository, keyed by what
# produced them, so a second build is quick; nothing here is ever required to exist.
ILOTOKI_CACHE=${ILOTOKI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ilotoki}
# What the Swift package links and the tests read: small, regenerated from the cache.
BUILD_DIR="$REPO_ROOT/build"

# shellcheck source=pins.sh
. "$REPO_ROOT/scripts/pins.sh"

log() { printf '\033[1m==>\033[0m %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }
short_hash() { sha256sum | cut -c1-16; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else return 1; fi
}

APT_UPDATED=
# Installs Debian packages that are missing. Usage: ensure_apt_packages pkg…
ensure_apt_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    command -v apt-get >/dev/null || die "missing packages (${missing[*]}) and no apt-get to install them"
    log "installing ${missing[*]}"
    if [ -z "$APT_UPDATED" ]; then
        as_root apt-get update -qq || die "apt-get update failed"
        APT_UPDATED=1
    fi
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
        || die "could not install ${missing[*]}"
}

# cmake and ninja build llama.cpp; from Debian when possible, otherwise from PyPI.
ensure_build_tools() {
    command -v cmake >/dev/null && command -v ninja >/dev/null && return 0
    if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null; }; then
        ensure_apt_packages cmake ninja-build
    else
        log "installing cmake and ninja from PyPI"
        python3 -m pip install --quiet --user cmake ninja || die "could not install cmake and ninja"
        export PATH="$HOME/.local/bin:$PATH"
    fi
}

# Identifies the CPU a native build is for: a cached build from another CPU can die of an
# illegal instruction.
cpu_fingerprint() {
    { uname -m; grep -m1 -E '^(model name|Hardware|CPU part)' /proc/cpuinfo; grep -m1 -E '^(flags|Features)' /proc/cpuinfo; } 2>/dev/null | short_hash
}
