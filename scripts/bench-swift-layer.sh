#!/usr/bin/env bash
# How much of a generated token's work is the Swift layer (the engine's queue, the stream,
# the consumer) rather than llama.cpp and the inference library, counted in instructions with
# valgrind's callgrind (stable where timings on a shared machine are not).
#
# Two runs of `ilotoki bench` differ only in tokens per prompt; the difference between them
# is the work of the extra tokens, free of start-up and loading. Inside that difference,
# everything under ilotoki_llm_next/ilotoki_llm_start is the C side; the rest is Swift.
#
# valgrind cannot run AVX-512 code, so this uses a build of llama.cpp for AVX2 CPUs (in its
# own build directory); with AVX2, llama.cpp needs more instructions per token than with
# AVX-512, so the Swift layer's instructions per token are the figure that carries over.
#   scripts/bench-swift-layer.sh [--model FILE] [--tokens "8 24"]
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
tokens="8 24"
while [ $# -gt 0 ]; do
    case "$1" in
    --model) model=$2; shift 2 ;;
    --tokens) tokens=$2; shift 2 ;;
    *) die "unknown option $1" ;;
    esac
done
command -v valgrind >/dev/null || ensure_apt_packages valgrind
[ -f "$model" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
"$REPO_ROOT/scripts/build-llm.sh" --avx2 >&2
ILOTOKI_LLM_LIB="$BUILD_DIR/llm-avx2/lib" swift build -c release --product ilotoki --scratch-path "$REPO_ROOT/.build-avx2" >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ILOTOKI_HOME="$work/home"
# valgrind 3.19 cannot read the DWARF 5 the toolchain writes; the symbol table is enough.
cp "$REPO_ROOT/.build-avx2/release/ilotoki" "$work/ilotoki"
strip -g "$work/ilotoki"

for n in $tokens; do
    log "callgrind: 2 prompts, $n tokens each (this takes a few minutes)"
    valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$n" \
        "$work/ilotoki" bench --model "$model" --threads 1 --prompts 2 --max-tokens "$n" --json \
        >"$work/bench.$n.json" 2>"$work/valgrind.$n.log"
    callgrind_annotate --inclusive=yes --threshold=100 "$work/callgrind.$n" >"$work/annotate.$n" 2>/dev/null
done

# shellcheck disable=SC2086 # one argument per token count
python3 - "$work" $tokens <<'PY'
import json, re, sys
work, small, large = sys.argv[1], sys.argv[2], sys.argv[3]

def figures(n):
    text = open(f"{work}/annotate.{n}").read()
    total = int(re.search(r"([\d,]+)\s+\(100\.0%\)\s+PROGRAM TOTALS", text).group(1).replace(",", ""))
    def inclusive(name):
        best = 0
        for line in text.splitlines():
            if re.search(rf"\b{name}\b", line):
                match = re.match(r"\s*([\d,]+)", line)
                if match:
                    best = max(best, int(match.group(1).replace(",", "")))
        return best
    core = inclusive("ilotoki_llm_next") + inclusive("ilotoki_llm_start")
    run = json.load(open(f"{work}/bench.{n}.json"))["runs"][0]
    generated = sum(p["generatedTokens"] for p in run["prompts"])
    return total, core, generated

t1, c1, g1 = figures(small)
t2, c2, g2 = figures(large)
extra = g2 - g1
swift = (t2 - t1) - (c2 - c1)
print(f"tokens generated: {g1} and {g2} ({extra} extra, {extra} more single-token evaluations)")
print(f"instructions per extra token: {(t2 - t1) / extra:,.0f} in all, {(c2 - c1) / extra:,.0f} in the inference library and llama.cpp")
print(f"Swift layer per token: {swift / extra:,.0f} instructions = {100 * swift / (t2 - t1):.3f} % of a token")
PY
