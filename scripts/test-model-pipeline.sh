#!/usr/bin/env bash
# The model pipeline's test: a tiny random Gemma 3 and a LoRA adapter go through
# merge-and-quantize.sh, and our inference library must choose the same greedy tokens as
# transformers + PEFT, while PEFT's plain merge_and_unload() must not (scripts/test_model_pipeline.py).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

ensure_model_tools
"$REPO_ROOT/scripts/build-llm.sh" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log "model pipeline test"
"$VENV_PYTHON" "$REPO_ROOT/scripts/test_model_pipeline.py" "$work"
