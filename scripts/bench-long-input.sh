#!/usr/bin/env bash
# Text of any length through `ilotoki translate` on standard input: a 1 MB line of short
# sentences and a 1 MB file of short lines, with the tiny test model and a small output bound
# (--max-tokens 2: the reading, splitting, batching and writing are measured, not the model),
# against a one-line translation's peak memory; then Gemma 3 270M on the first 2,000
# sentences of the long line, timed. The reference for memory is one line: a sentence, and a
# line of 32 sentences (which fills the batch, as the long inputs do). Prints each run's wall time, peak resident memory
# (/usr/bin/time's maximum RSS) and the output's line count; docs/benchmarks.md keeps the table.
#
#   scripts/bench-long-input.sh [--threads N] [--gemma-sentences N] [--no-gemma]
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

threads=2
gemma_sentences=2000
gemma=1
while [ $# -gt 0 ]; do
    case "$1" in
    --threads) threads=$2; shift 2 ;;
    --gemma-sentences) gemma_sentences=$2; shift 2 ;;
    --no-gemma) gemma=0; shift ;;
    *) die "unknown option $1 (usage: bench-long-input.sh [--threads N] [--gemma-sentences N] [--no-gemma])" ;;
    esac
done

"$REPO_ROOT/scripts/fetch-test-models.sh" >&2
swift build -c release --product ilotoki >&2
ilotoki="$REPO_ROOT/.build/release/ilotoki"
tiny="$BUILD_DIR/test-models/tiny.gguf"
gemma_model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
[ -x /usr/bin/time ] || die "needs /usr/bin/time (Debian's time package)"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ILOTOKI_HOME="$work/home"

# Short English sentences, each different, about 1 MB in all.
python3 - "$work" "$gemma_sentences" <<'PY'
import sys
work, first = sys.argv[1], int(sys.argv[2])
subjects = ["The cat", "My friend", "A small child", "The old man", "Her sister", "The teacher"]
verbs = ["eats", "sees", "likes", "finds", "brings", "wants"]
objects = ["the red apple", "a big fish", "some water", "the green book", "a warm cup of tea", "the little dog"]
sentences, size, n = [], 0, 0
while size < 1 << 20:
    s = f"{subjects[n % 6]} {verbs[n // 6 % 6]} {objects[n // 36 % 6]} on day {n + 1}."
    sentences.append(s)
    size += len(s) + 1
    n += 1
open(f"{work}/line.txt", "w").write(" ".join(sentences) + "\n")
open(f"{work}/lines.txt", "w").write("\n".join(sentences) + "\n")
open(f"{work}/one.txt", "w").write(sentences[0] + "\n")
open(f"{work}/paragraph.txt", "w").write(" ".join(sentences[:32]) + "\n")
open(f"{work}/gemma.txt", "w").write(" ".join(sentences[:first]) + "\n")
print(f"{len(sentences)} sentences, {size} bytes", file=sys.stderr)
PY

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "CPU: $cpu, $(nproc) cores; threads $threads"
printf '%-34s %9s %12s %12s\n' run seconds "peak RSS" "output lines"
run() {
    local name=$1 model=$2 input=$3
    shift 3
    /usr/bin/time -f '%e %M' -o "$work/time" "$ilotoki" translate --model "$model" --from en --to tok --threads "$threads" "$@" \
        <"$input" >"$work/out" 2>"$work/err" || { cat "$work/err" >&2; die "$name failed"; }
    read -r seconds kilobytes <"$work/time"
    printf '%-34s %9s %9.1f MiB %12s\n' "$name" "$seconds" "$(echo "$kilobytes / 1024" | bc -l)" "$(wc -l <"$work/out")"
}
run "one sentence (tiny, --max-tokens 2)" "$tiny" "$work/one.txt" --max-tokens 2
run "a line of 32 (tiny, --max-tokens 2)" "$tiny" "$work/paragraph.txt" --max-tokens 2
run "1 MB line (tiny, --max-tokens 2)" "$tiny" "$work/line.txt" --max-tokens 2
run "1 MB of lines (tiny, --max-tokens 2)" "$tiny" "$work/lines.txt" --max-tokens 2
if [ "$gemma" = 1 ]; then
    run "a line of 32 (Gemma 3 270M)" "$gemma_model" "$work/paragraph.txt"
    run "$gemma_sentences sentences, one line (Gemma)" "$gemma_model" "$work/gemma.txt"
fi
