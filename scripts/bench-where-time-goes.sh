#!/usr/bin/env bash
# Where a token's time goes, measured with `ilotoki bench` on one file, alternating the
# variants round by round:
#   - choosing the token: our argmax vs llama.cpp's greedy sampler vs a top-k/top-p/temperature
#     chain, over the whole vocabulary (262k for Gemma), in ms per token;
#   - logits for every prompt token vs only the last, in prefill tokens/second.
# The Swift layer's share of a token is measured in instructions by bench-swift-layer.sh.
#   scripts/bench-where-time-goes.sh [--model FILE] [--rounds 3] [--threads 2]
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
rounds=3
threads=$(nproc)
while [ $# -gt 0 ]; do
    case "$1" in
    --model) model=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -f "$model" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
swift build -c release --product ilotoki >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ILOTOKI_HOME="$work/home"

variants=(argmax greedy chain logits-all)
for round in $(seq "$rounds"); do
    for variant in "${variants[@]}"; do
        case "$variant" in
        logits-all) extra=(--logits-all) ;;
        *) extra=(--selection "$variant") ;;
        esac
        .build/release/ilotoki bench --model "$model" --threads "$threads" --prompts 12 --max-tokens 32 --json "${extra[@]}" \
            >"$work/$variant-$round.json"
    done
    log "round $round done"
done

python3 - "$work" "$rounds" "$threads" <<'PY'
import json, statistics, sys
work, rounds, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def runs(variant):
    return [json.load(open(f"{work}/{variant}-{r}.json"))["runs"][0] for r in range(1, rounds + 1)]
print(f"\n{threads} threads, 12 prompts × 32 tokens, {rounds} rounds (medians)\n")
print("token choice        ms per token   decode tok/s")
base = None
for variant, label in [("argmax", "argmax (ours)"), ("greedy", "llama greedy sampler"), ("chain", "top-k/top-p/temp chain")]:
    r = runs(variant)
    ms = statistics.median(x["selectionMsPerToken"] for x in r)
    tps = statistics.median(x["decodeTokensPerSecond"] for x in r)
    base = base or tps
    print(f"{label:22} {ms:10.3f}   {tps:10.1f}  ({tps / base:.3f} × argmax)")
plain = statistics.median(x["prefillTokensPerSecond"] for x in runs("argmax"))
everything = statistics.median(x["prefillTokensPerSecond"] for x in runs("logits-all"))
print(f"\nprefill, logits for the last prompt token only: {plain:.1f} tok/s")
print(f"prefill, logits for every prompt token:         {everything:.1f} tok/s ({everything / plain:.3f} ×)")
PY
