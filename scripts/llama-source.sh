#!/usr/bin/env bash
# Prints the directory of the pinned llama.cpp source, fetching and checking it first.
#
# By default llama.cpp comes from the llama-cpp-python source distribution on PyPI
# (vendor/llama.cpp inside it), checked against the sha256 in scripts/pins.sh.
# LLAMA_CPP_DIR=/path/to/llama.cpp uses any local checkout instead.
#
# The patches in llm/patches/ (small, documented in llm/patches/README.md) are applied to the
# pinned source; the tree's name carries their hash, so a changed patch gives a fresh tree and
# a fresh build. A patch that no longer applies stops the build with its name. A local
# checkout is used as it is: it must carry the patches already (checked by a dry run).
set -euo pipefail
. "$(dirname "$0")/common.sh"

patches=("$REPO_ROOT"/llm/patches/*.patch)

if [ -n "${LLAMA_CPP_DIR:-}" ]; then
    [ -f "$LLAMA_CPP_DIR/include/llama.h" ] || die "LLAMA_CPP_DIR=$LLAMA_CPP_DIR does not look like llama.cpp (no include/llama.h)"
    for patch_file in "${patches[@]}"; do
        patch --dry-run --reverse --force --silent -p1 -d "$LLAMA_CPP_DIR" <"$patch_file" >/dev/null \
            || die "LLAMA_CPP_DIR=$LLAMA_CPP_DIR lacks the patch $(basename "$patch_file"): apply llm/patches/*.patch to it first"
    done
    cd "$LLAMA_CPP_DIR" && pwd
    exit 0
fi

src_dir="$ILOTOKI_CACHE/src"
tarball="$src_dir/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
patch_id=$(cat "${patches[@]}" | short_hash)
tree="$src_dir/llama.cpp-$LLAMA_CPP_PYTHON_VERSION-$patch_id"
mkdir -p "$src_dir"

if [ -f "$tree/.ilotoki-complete" ]; then
    echo "$tree"
    exit 0
fi

if [ ! -f "$tarball" ] || [ "$(sha256_of "$tarball")" != "$LLAMA_CPP_PYTHON_SHA256" ]; then
    log "fetching llama-cpp-python $LLAMA_CPP_PYTHON_VERSION source from PyPI"
    download=$(mktemp -d)
    trap 'rm -rf "$download"' EXIT
    # --no-binary keeps pip on the source distribution; --no-deps keeps it from building cmake.
    venv_pip download --quiet --no-deps --no-binary llama-cpp-python \
        "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$download" >&2 \
        || die "pip could not download llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION"
    got=$(sha256_of "$download/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz")
    [ "$got" = "$LLAMA_CPP_PYTHON_SHA256" ] \
        || die "llama-cpp-python source has sha256 $got, expected $LLAMA_CPP_PYTHON_SHA256 (scripts/pins.sh)"
    mv "$download/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz" "$tarball"
fi

log "extracting llama.cpp"
rm -rf "$tree" "$tree.tmp"
mkdir -p "$tree.tmp"
tar -xzf "$tarball" -C "$tree.tmp" --strip-components=3 "llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION/vendor/llama.cpp"
for patch_file in "${patches[@]}"; do
    log "applying $(basename "$patch_file")"
    patch --forward --batch --silent -p1 -d "$tree.tmp" <"$patch_file" >&2 \
        || die "llm/patches/$(basename "$patch_file") no longer applies to llama.cpp from llama-cpp-python $LLAMA_CPP_PYTHON_VERSION: update the patch"
done
touch "$tree.tmp/.ilotoki-complete"
mv "$tree.tmp" "$tree"
echo "$tree"
