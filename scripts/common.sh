# shellcheck shell=bash
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

# Runs a command with its output in LOG; if it fails, shows the end of the log and stops.
# Usage: run_logged LOG WHAT COMMAND…   (stops with "WHAT failed (log: LOG)")
run_logged() {
    local log_file=$1 what=$2
    shift 2
    "$@" >"$log_file" 2>&1 || { tail -30 "$log_file" >&2; die "$what failed (log: $log_file)"; }
}

# sha256sum is GNU coreutils; macOS has shasum.
if command -v sha256sum >/dev/null; then
    sha256_of() { sha256sum "$1" | cut -d' ' -f1; }
    short_hash() { sha256sum | cut -c1-16; }
else
    sha256_of() { shasum -a 256 "$1" | cut -d' ' -f1; }
    short_hash() { shasum -a 256 | cut -c1-16; }
fi

# CPUs this process may use (nproc is GNU coreutils).
cpu_count() { nproc 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2; }

# A file's size in bytes (GNU stat -c, BSD stat -f).
file_size() { stat -c %s "$1" 2>/dev/null || stat -f %z "$1"; }

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

can_install_apt_packages() {
    command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || command -v sudo >/dev/null; }
}

# One virtual environment under build/ for every Python tool the scripts use (pip itself to
# fetch pinned packages, numpy for the tiny test model, cmake and ninja where Debian's are
# out of reach). Nothing goes into the system Python or ~/.local: Debian 12 and Ubuntu 24.04
# refuse that (PEP 668). Sets VENV_PYTHON.
VENV_DIR="$BUILD_DIR/venv"
ensure_venv() {
    VENV_PYTHON="$VENV_DIR/bin/python"
    [ -x "$VENV_PYTHON" ] && "$VENV_PYTHON" -m pip --version >/dev/null 2>&1 && return 0
    command -v python3 >/dev/null || die "python3 is needed to fetch pinned sources"
    if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        # Debian keeps venv's pip in python3-venv.
        can_install_apt_packages || die "python3 cannot make a virtual environment: install python3-venv"
        ensure_apt_packages python3-venv
    fi
    log "making the Python environment $VENV_DIR"
    rm -rf "$VENV_DIR"
    python3 -m venv "$VENV_DIR" >&2 || die "python3 -m venv $VENV_DIR failed"
}

# serve_port LOG: waits (up to a minute) for an `ilotoki serve` whose standard error goes to
# LOG to say it answers, and prints its 127.0.0.1 port; fails when it never says so.
serve_port() {
    local log=$1
    for _ in $(seq 600); do grep -q " answers on " "$log" 2>/dev/null && break; sleep 0.1; done
    grep -q " answers on " "$log" 2>/dev/null || return 1
    grep -o '127.0.0.1:[0-9]*' "$log" | head -1 | cut -d: -f2
}

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# wait_for_url URL: waits (up to two minutes) until URL answers 200; fails the script when it never does.
wait_for_url() {
    for _ in $(seq 600); do
        python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' "$1" 2>/dev/null && return 0
        sleep 0.2
    done
    die "$1 did not answer"
}

# pip inside the environment. Usage: venv_pip download …  /  venv_pip install …
venv_pip() {
    ensure_venv
    "$VENV_PYTHON" -m pip --disable-pip-version-check "$@"
}

# The switches that make llama.cpp just the static libraries the inference library links: no
# tools, examples, tests, server, network or OpenMP. Each build adds its platform's own.
# shellcheck disable=SC2034 # read by the build scripts that source this file
LLAMA_STATIC_FLAGS=(
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF
    -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_BUILD_COMMON=OFF
    -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF -DGGML_OPENMP=OFF -DGGML_CCACHE=OFF
)

# One archive holding the core and every llama.cpp library it needs (ggml, ggml-base,
# ggml-cpu; on Apple platforms also ggml-metal and ggml-blas), so no link line depends on
# the order of static archives.
# Usage: merge_core_archive OUT CORE_BUILD_DIR LLAMA_INSTALL_DIR [AR]
# AR reads MRI scripts (GNU ar, the NDK's llvm-ar); "libtool" merges with Apple's libtool,
# as Apple's ar has no MRI scripts.
merge_core_archive() {
    local out=$1 core=$2 install=$3 ar=${4:-ar}
    local libs=("$core/libilotoki_llm_core.a" "$install/lib/libllama.a" "$install/lib"/libggml*.a)
    if [ "$ar" = libtool ]; then
        libtool -static -o "$out" "${libs[@]}"
        return
    fi
    {
        echo "CREATE $out"
        for lib in "${libs[@]}"; do echo "ADDLIB $lib"; done
        echo "SAVE"
        echo "END"
    } | "$ar" -M
    "$ar" s "$out"
}

# torch, transformers, PEFT and the rest of the model pipeline, pinned (scripts/pins.sh), in
# the same environment. Several GB the first time; a minute or two from pip's cache after.
ensure_model_tools() {
    ensure_venv
    if ! "$VENV_PYTHON" - "${MODEL_TOOLS_REQUIREMENTS[@]}" <<'PY' 2>/dev/null; then
import sys
from importlib.metadata import version
for requirement in sys.argv[1:]:
    name, wanted = requirement.split("==")
    if version(name).split("+")[0] != wanted:
        sys.exit(1)
PY
        log "installing the model pipeline's Python packages into $VENV_DIR (torch, transformers, PEFT; several GB)"
        venv_pip install --quiet "${MODEL_TOOLS_REQUIREMENTS[@]}" >&2 || die "could not install the model pipeline's packages"
    fi
}

# cmake and ninja build llama.cpp; from Debian when possible, otherwise from PyPI (into the
# environment under build/).
ensure_build_tools() {
    command -v cmake >/dev/null && command -v ninja >/dev/null && return 0
    if [ "$(uname -s)" = Darwin ] && command -v brew >/dev/null; then
        log "installing cmake and ninja with Homebrew"
        brew install cmake ninja >&2 || die "brew install cmake ninja failed"
    elif can_install_apt_packages; then
        ensure_apt_packages cmake ninja-build
    else
        export PATH="$VENV_DIR/bin:$PATH"
        command -v cmake >/dev/null && command -v ninja >/dev/null && return 0
        log "installing cmake and ninja from PyPI into $VENV_DIR"
        venv_pip install --quiet cmake ninja >&2 || die "could not install cmake and ninja"
    fi
}

# Identifies the CPU a native build is for: a cached build from another CPU can die of an
# illegal instruction.
cpu_fingerprint() {
    { uname -m; grep -m1 -E '^(model name|Hardware|CPU part)' /proc/cpuinfo; grep -m1 -E '^(flags|Features)' /proc/cpuinfo
      sysctl -n machdep.cpu.brand_string; } 2>/dev/null | short_hash
}

# Configures and builds llama.cpp from SOURCE with the CMake FLAGS into DIR/install, once:
# DIR/install/.complete marks a finished build, and a DIR without it is built again from scratch.
# Usage: build_llama_once DIR WHAT SOURCE FLAG…   (WHAT names the build in messages)
build_llama_once() {
    local dir=$1 what=$2 source=$3
    shift 3
    [ -f "$dir/install/.complete" ] && return 0
    log "building $what ($(cpu_count) jobs; a few minutes the first time) into $dir"
    rm -rf "$dir"
    mkdir -p "$dir"
    local start
    start=$(date +%s)
    run_logged "$dir/configure.log" "configuring $what" \
        cmake -S "$source" -B "$dir/build" -G Ninja "$@" -DCMAKE_INSTALL_PREFIX="$dir/install"
    run_logged "$dir/build.log" "building $what" ninja -C "$dir/build" install
    touch "$dir/install/.complete"
    log "$what built in $(($(date +%s) - start)) s"
}

# Builds llama.cpp and the inference library (llm/) with AddressSanitizer, UndefinedBehaviorSanitizer and
# libFuzzer's coverage (clang from the Swift toolchain), cached like the release build, and
# prints the core's build directory: its test programs and fuzz targets live there. Used by
# scripts/test-sanitizers.sh and scripts/fuzz.sh.
build_sanitized_core() {
    ensure_build_tools
    local clang_dir source_dir key dir core
    clang_dir=$(dirname "$(command -v swift)")
    [ -x "$clang_dir/clang" ] || die "the Swift toolchain's clang is missing ($clang_dir/clang)"
    source_dir=$("$REPO_ROOT/scripts/llama-source.sh") || return 1
    # fuzzer-no-link: the fuzz targets link against this build and see into ggml's GGUF reader.
    local sanitize="-fsanitize=address,undefined,fuzzer-no-link -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
    # Two checks are left out for a few of llama.cpp's sources, each with its reason, in
    # sanitize-llama.ignorelist; the rest of llama.cpp and our own code keep both. The cache
    # key takes the list's text, not its path, so every checkout shares the build.
    local ignorelist="$REPO_ROOT/scripts/sanitize-llama.ignorelist"
    local vendor="$sanitize -fsanitize-ignorelist=$ignorelist"
    local common=("${LLAMA_STATIC_FLAGS[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
                  -DCMAKE_C_COMPILER="$clang_dir/clang" -DCMAKE_CXX_COMPILER="$clang_dir/clang++"
                  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined")
    key=$(printf '%s\n' "$(basename "$source_dir")" "$LLAMA_CPP_PYTHON_SHA256" "${common[*]}" "$sanitize" \
        "$(cat "$ignorelist")" "$("$clang_dir/clang" --version | head -1)" "$(cpu_fingerprint)" | short_hash)
    dir="$ILOTOKI_CACHE/llama-sanitized/$key"
    build_llama_once "$dir" "llama.cpp with ASan+UBSan" "$source_dir" "${common[@]}" -DCMAKE_C_FLAGS="$vendor" -DCMAKE_CXX_FLAGS="$vendor"
    core="$dir/core-$(printf '%s' "$REPO_ROOT" | short_hash)"
    run_logged "$dir/core-configure.log" "configuring the sanitized llm/" \
        cmake -S "$REPO_ROOT/llm" -B "$core" -G Ninja "${common[@]}" -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
        -DCMAKE_PREFIX_PATH="$dir/install" -DLLAMA_SOURCE_DIR="$source_dir" -DILOTOKI_LLM_FUZZERS=ON
    run_logged "$dir/core-build.log" "building the sanitized llm/" ninja -C "$core"
    printf '%s\n' "$core"
}

# Writes a Kotlin file that a product of the package prints (the Android app's generated
# Design.kt and Contract.kt), or with --check fails if the file is not what it prints.
# Usage: generate_kotlin PRODUCT TARGET WHAT [--check]
generate_kotlin() {
    local product=$1 target=$2 what=$3 mode=${4:-} generated
    swift build --product "$product" >&2
    generated=$(mktemp)
    "$(swift build --show-bin-path)/$product" >"$generated" || { rm -f "$generated"; die "$product failed"; }
    if [ "$mode" = --check ]; then
        if ! diff -u "$target" "$generated" >&2; then
            rm -f "$generated"
            die "$target is not current: run scripts/generate-android-${product#ilotoki-}.sh"
        fi
        rm -f "$generated"
        log "$what are current"
    else
        mv "$generated" "$target"
        chmod 644 "$target"
        log "wrote $target"
    fi
}

# Test data for the trimmed head in the inference library's own tools (greedy_tokens --characters/--wider):
# Toki Pona's letters and the shared punctuation, widening to Latin and Cyrillic. The app's own
# table is IloTokiCore's LanguageCharacters.swift.
# shellcheck disable=SC2034  # used by the scripts that source this file
TOKI_PONA_TEST_CHARACTERS="9-A,D,20-40,5B-60,7B-7E,41,45,49-50,53-55,57,61,65,69-70,73-75,77"
# shellcheck disable=SC2034
WIDER_TEST_CHARACTERS="9-A,D,20-7E,A0-24F,300-36F,400-4FF,1EA0-1EF9,2010-205E"

# release_ilotoki [--avx2]: builds the release `ilotoki` and prints its path. With --avx2, linked
# with llama.cpp built for AVX2 (build/llm-avx2) into a scratch path of its own, again each time
# (SwiftPM does not see the archive change).
release_ilotoki() {
    if [ "${1:-}" = --avx2 ]; then
        rm -f "$REPO_ROOT/.build-avx2/release/ilotoki"
        ILOTOKI_LLM_LIB="$BUILD_DIR/llm-avx2/lib" swift build -c release --product ilotoki --scratch-path "$REPO_ROOT/.build-avx2" >&2 || return 1
        echo "$REPO_ROOT/.build-avx2/release/ilotoki"
    else
        swift build -c release --product ilotoki >&2 || return 1
        echo "$REPO_ROOT/.build/release/ilotoki"
    fi
}
