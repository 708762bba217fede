#!/usr/bin/env bash
# From a trained LoRA adapter to the files of a catalog entry, in one command:
#
#   scripts/merge-and-quantize.sh BASE ADAPTER NAME [--ladder Q8_0,Q6_K,Q5_K_M,Q4_K_M]
#                                 [--format sourceTarget|queryAnswer] [--url-base URL] [--display-name TEXT]
#                                 [--out DIR]
#
# BASE and ADAPTER are local directories or Hugging Face repo ids (fetched with
# huggingface_hub, which honours HF_ENDPOINT and HF_TOKEN, into HF_HUB_CACHE or
# ~/.cache/ilotoki/huggingface). Writes into build/models/ (or --out):
#   NAME-F16.gguf                 the merged model (scripts/merge_lora.py, then
#                                 scripts/convert-to-gguf.sh: llama.cpp's own converter)
#   NAME-<QUANT>.gguf             one file per ladder step (llama-quantize, same source)
#   NAME.catalog.json             {"entries": [...]}: per quantized file its id, name, URL,
#                                 exact size, sha256, quantization and prompt format, the
#                                 shape of ModelCatalog; ILOTOKI_CATALOG=that file tries it,
#                                 and its entries are what a release adds to the catalog.
# --url-base is where the files will be published (default: https://huggingface.co/NAME/resolve/main).
set -euo pipefail
. "$(dirname "$0")/common.sh"

usage="usage: scripts/merge-and-quantize.sh BASE ADAPTER NAME [--ladder Q8_0,Q6_K,Q5_K_M,Q4_K_M] [--format sourceTarget|queryAnswer] [--url-base URL] [--display-name TEXT] [--out DIR]"
[ $# -ge 3 ] || die "$usage"
base=$1 adapter=$2 name=$3
shift 3
ladder=Q8_0,Q6_K,Q5_K_M,Q4_K_M
format=sourceTarget
url_base=
display_name=
out="$BUILD_DIR/models"
while [ $# -gt 0 ]; do
    case "$1" in
    --ladder) ladder=${2?--ladder needs a list (empty: F16 only)}; shift 2 ;;
    --format) format=${2:?--format needs a value}; shift 2 ;;
    --url-base) url_base=${2:?--url-base needs a URL}; shift 2 ;;
    --display-name) display_name=${2:?--display-name needs a name}; shift 2 ;;
    --out) out=${2:?--out needs a directory}; shift 2 ;;
    *) die "$usage" ;;
    esac
done
case "$format" in sourceTarget | queryAnswer) ;; *) die "--format takes sourceTarget or queryAnswer, not $format" ;; esac
[[ "$name" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "NAME must be letters, digits, '.', '_' or '-' (it names files): $name"
url_base=${url_base:-https://huggingface.co/$name/resolve/main}
display_name=${display_name:-$name}

ensure_model_tools
quantize=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-quantize)
mkdir -p "$out" "$ILOTOKI_CACHE/logs"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A directory as it is, or a repo id fetched into the cache.
resolve() {
    if [ -d "$1" ]; then
        (cd "$1" && pwd)
        return
    fi
    [[ "$1" =~ ^[A-Za-z0-9._-]+/[A-Za-z0-9._-]+$ ]] || die "$1 is neither a directory nor a Hugging Face repo id"
    log "fetching $1 from ${HF_ENDPOINT:-https://huggingface.co}"
    "$VENV_PYTHON" -c 'import os, sys
from huggingface_hub import snapshot_download
print(snapshot_download(sys.argv[1], cache_dir=sys.argv[2], token=os.environ.get("HF_TOKEN") or None,
      allow_patterns=["*.json", "*.safetensors", "tokenizer.model", "*.txt"]))' "$1" "${HF_HUB_CACHE:-$ILOTOKI_CACHE/huggingface}" \
        || die "could not fetch $1 (a private repo needs HF_TOKEN)"
}
base=$(resolve "$base" | tail -1)
adapter=$(resolve "$adapter" | tail -1)

log "merging $adapter into $base"
"$VENV_PYTHON" "$REPO_ROOT/scripts/merge_lora.py" "$base" "$adapter" "$work/merged"

log "converting to $out/$name-F16.gguf"
"$REPO_ROOT/scripts/convert-to-gguf.sh" "$work/merged" "$out/$name-F16.gguf"

files=()
IFS=, read -r -a steps <<<"$ladder"
for step in "${steps[@]}"; do
    [ -n "$step" ] || continue
    log "quantizing $step"
    run_logged "$ILOTOKI_CACHE/logs/quantize-$name-$step.log" "llama-quantize $step" \
        "$quantize" "$out/$name-F16.gguf" "$out/$name-$step.gguf.tmp" "$step"
    mv "$out/$name-$step.gguf.tmp" "$out/$name-$step.gguf"
    files+=("$name-$step.gguf")
done
files=("$name-F16.gguf" "${files[@]}")

"$VENV_PYTHON" - "$out" "$name" "$display_name" "$format" "$url_base" "${files[@]}" >"$out/$name.catalog.json.tmp" <<'PY'
import hashlib, json, pathlib, re, sys
out, name, display, prompt_format, url_base, *files = sys.argv[1:]
entries = []
for file in files:
    path = pathlib.Path(out) / file
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 22), b""):
            digest.update(block)
    quantization = file[len(name) + 1:-len(".gguf")]
    entries.append({
        "id": re.sub(r"[^a-z0-9]+", "-", f"{name}-{quantization}".lower()).strip("-"),
        "displayName": display, "quantization": quantization,
        "url": f"{url_base.rstrip('/')}/{file}", "bytes": path.stat().st_size,
        "format": prompt_format, "deprecated": False, "sha256": digest.hexdigest()})
print(json.dumps({"entries": entries}, indent=2))
PY
mv "$out/$name.catalog.json.tmp" "$out/$name.catalog.json"
log "wrote $out/$name-F16.gguf, ${files[*]} and $name.catalog.json"
