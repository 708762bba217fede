#!/usr/bin/env bash
# Converts a Hugging Face checkpoint directory to an F16 GGUF with the pinned llama.cpp's own
# convert_hf_to_gguf.py (and its gguf-py), in the model pipeline's Python environment. The
# file appears only once it is whole.
#
#   scripts/convert-to-gguf.sh MODEL_DIR OUT.gguf
set -euo pipefail
. "$(dirname "$0")/common.sh"

[ $# -eq 2 ] || die "usage: scripts/convert-to-gguf.sh MODEL_DIR OUT.gguf"
model=$1 target=$2
ensure_model_tools
source_dir=$("$REPO_ROOT/scripts/llama-source.sh")
mkdir -p "$ILOTOKI_CACHE/logs"
trap 'rm -f "$target.tmp"' EXIT
run_logged "$ILOTOKI_CACHE/logs/convert-$(basename "$target").log" "converting $model" \
    env PYTHONPATH="$source_dir/gguf-py${PYTHONPATH:+:$PYTHONPATH}" \
    "$VENV_PYTHON" "$source_dir/convert_hf_to_gguf.py" "$model" --outtype f16 --outfile "$target.tmp"
mv "$target.tmp" "$target"
