#!/usr/bin/env bash
# Runs llama.cpp's own llama-bench and `ilotoki bench` on the same GGUF file and thread
# counts, alternately, for several rounds, and prints our decode and prefill speed as a ratio
# of llama-bench's (medians of the rounds, with the spread), with each output head: llama.cpp's
# full head, the trimmed one, and auto (the default: the first prompts measure both, then the
# faster is used; its choice and figures are printed), overall and per target language.
#
#   scripts/bench-side-by-side.sh [--model FILE] [--threads "1 2"] [--rounds 5] [--max-tokens 32] [--avx2]
#                                 [--batch "1 2 4 8"] [--batch-only] [--server] [--serve-load]
#
# --server runs only what a person waits for beside what they would otherwise run: `ilotoki
# bench --lines set --batch 1,8` (the 112 real lines, one at a time and 8 at once) against
# llama.cpp's llama-server with --parallel 1 and one client, then --parallel 8 (continuous
# batching, its prompt cache on, the full sliding-window cache) and 8 clients, over loopback,
# the same prompts, bounds and line ends, greedy (scripts/lines_llama.py). Prints lines/s, the
# median first piece, and the lines whose tokens are not ours one at a time.
#
# --exact (with --server): llama-server with GGML_CPU_COLUMN_EXACT=1 (llm/patches, 0004): its
# products compute each column as a one-column product does, as our core's always do, so its
# tokens do not depend on its prompt cache.
#
# --serve-load runs `ilotoki serve` under load beside llama-server instead (1, 4, 16 and 64
# clients at once; scripts/bench-serve.sh, at the last of --threads, with --rounds and --avx2).
#
# --batch also runs llama.cpp's llama-batched-bench (-npl at each size, prompts of our
# paragraph's mean length) beside `ilotoki bench --to tok --prompts 8 --batch …` (an
# 8-sentence paragraph into Toki Pona, decoded that many at once) and prints the aggregate
# decode speeds side by side, our wall time against one sentence at a time, the first piece,
# and whether any sentence's tokens changed; then the same batches on the few-shot paragraph
# with llama.cpp's head and with the trimmed one. --batch-only runs just that.
#
# --avx2 measures an x86-64 CPU with AVX2 and no AVX-512 on this one: llama.cpp (ours,
# llama-bench and llama-batched-bench) built for AVX2 (scripts/build-llm.sh --avx2), and the
# trimmed head's check on its AVX2 kernel (ILOTOKI_ROW_KERNEL=avx2).
#
# Both are built from the same pinned llama.cpp with the same flags, and given the same
# settings: threads, batch 2048 / ubatch 512, flash attention automatic, the file mapped.
# llama-bench's pp runs at every length our prompts have, and is weighted like our prompts
# (the time llama-bench would take for the same prompts); its tg runs at our prompts' mean
# length, so both decode after a prompt of the same size. Ours evaluates every prompt whole
# here (--prefix fresh), as llama-bench and llama-batched-bench do; the prompt beginnings'
# cache is measured on its own (docs/benchmarks.md, "The shared prompt once").
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
threads="1 2"
rounds=5
max_tokens=32
avx2=false
batches=""
batch_only=false
server=false
serve_load=false
exact=false
while [ $# -gt 0 ]; do
    case "$1" in
    --batch) batches=$2; shift 2 ;;
    --batch-only) batch_only=true; shift ;;
    --server) server=true; shift ;;
    --serve-load) serve_load=true; shift ;;
    --exact) exact=true; shift ;;
    --avx2) avx2=true; shift ;;
    --model) model=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --max-tokens) max_tokens=$2; shift 2 ;;
    *) die "unknown option $1" ;;
    esac
done
if [ "$serve_load" = true ]; then
    serve_flags=(--model "$model" --threads "${threads##* }" --rounds "$rounds")
    [ "$avx2" = false ] || serve_flags+=(--avx2)
    exec "$REPO_ROOT/scripts/bench-serve.sh" "${serve_flags[@]}"
fi

[ -f "$model" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
if [ "$avx2" = true ]; then
    llama_bench=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-bench --avx2)
    [ -z "$batches" ] || llama_batched_bench=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-batched-bench --avx2)
    ilotoki=$(release_ilotoki --avx2)
    export ILOTOKI_ROW_KERNEL=avx2
else
    llama_bench=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-bench)
    [ -z "$batches" ] || llama_batched_bench=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-batched-bench)
    ilotoki=$(release_ilotoki)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ILOTOKI_HOME="$work/home"

log "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')$([ "$avx2" = true ] && echo ', measured as AVX2 only (llama.cpp built for AVX2, the check on its AVX2 kernel)')"
log "model: $model; threads: $threads; rounds: $rounds; $max_tokens tokens per prompt"

if [ "$server" = true ]; then
    tool_flags=()
    [ "$avx2" = false ] || tool_flags=(--avx2)
    llama_server=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-server "${tool_flags[@]}")
    python=python3
    [ -x "$BUILD_DIR/venv/bin/python" ] && python="$BUILD_DIR/venv/bin/python"
    port=$(free_port)
    for round in $(seq "$rounds"); do
        for t in $threads; do
            "$ilotoki" bench --model "$model" --threads "$t" --lines set --batch 1,8 --json >"$work/lines-ours-$t-$round.json"
            for parallel in 1 8; do
                GGML_CPU_COLUMN_EXACT=$([ "$exact" = true ] && echo 1 || echo 0) \
                    "$llama_server" -m "$model" -t "$t" --parallel "$parallel" -c $((1024 * parallel)) --cont-batching --swa-full \
                    --host 127.0.0.1 --port "$port" >"$work/server.log" 2>&1 &
                pid=$!
                wait_for_url "http://127.0.0.1:$port/health"
                "$python" scripts/lines_llama.py --port "$port" --clients "$parallel" --ours "$work/lines-ours-$t-$round.json" \
                    --out "$work/lines-llama-$parallel-$t-$round.json" || { kill "$pid"; die "llama-server did not answer the lines"; }
                kill "$pid"
                wait "$pid" 2>/dev/null || true
            done
            log "lines: round $round, $t threads done"
        done
    done
    python3 - "$work" "$rounds" "$threads" <<'PY'
import json, sys
work, rounds, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
print()
print("The 112 real lines (bench --lines set), each round: lines/s and the median first piece (ms)")
print(f"{'threads':>7} {'round':>5}  {'ours, 1 at a time':>18} {'llama-server, 1':>16}  {'ours, batch of 8':>16} {'llama-server, 8':>16}  tokens not ours (1 / 8)")
for t in threads:
    for r in range(1, rounds + 1):
        ours = json.load(open(f"{work}/lines-ours-{t}-{r}.json"))["runs"][0]
        one = json.load(open(f"{work}/lines-llama-1-{t}-{r}.json"))
        eight = json.load(open(f"{work}/lines-llama-8-{t}-{r}.json"))
        lines = len(ours["prompts"])
        ours_one = lines * 1000 / ours["oneAtATimeWallMs"]
        batch = next(b for b in ours["batches"] if b["sequences"] == 8)
        ours_eight = lines * 1000 / batch["wallMs"]
        print(f"{t:>7} {r:>5}  {ours_one:7.2f} ({ours['medianFirstPieceMs']:6.1f} ms) {one['lines_per_second']:6.2f} ({one['first_piece_ms_median']:6.1f} ms)"
              f"  {ours_eight:7.2f} ({batch['firstPieceMs']:5.1f} ms) {eight['lines_per_second']:6.2f} ({eight['first_piece_ms_median']:6.1f} ms)"
              f"  {len(one['differ'])} / {len(eight['differ'])}")
PY
    exit 0
fi

# Our prompts' lengths, from a short run.
"$ilotoki" bench --model "$model" --threads 1 --max-tokens 1 --json >"$work/lengths.json"
read -r prompt_length prompt_lengths < <(python3 -c '
import json, sys
lengths = [p["promptTokens"] for p in json.load(open(sys.argv[1]))["runs"][0]["prompts"]]
print(round(sum(lengths) / len(lengths)), ",".join(str(l) for l in sorted(set(lengths))))' "$work/lengths.json")
log "prompt lengths: $prompt_lengths (mean $prompt_length tokens)"

if [ -n "$batches" ]; then
    batch_list=$(echo "$batches" | tr ' ' ',')
    "$ilotoki" bench --model "$model" --threads 1 --max-tokens 1 --to tok --prompts 8 --json >"$work/paragraph.json"
    paragraph_length=$(python3 -c '
import json, sys
lengths = [p["promptTokens"] for p in json.load(open(sys.argv[1]))["runs"][0]["prompts"]]
print(round(sum(lengths) / len(lengths)))' "$work/paragraph.json")
    log "batches: $batches; the paragraph's 8 prompts have $paragraph_length tokens on average"
    for round in $(seq "$rounds"); do
        for t in $threads; do
            run_llama_batched() {
                "$llama_batched_bench" -m "$model" -t "$t" -npp "$paragraph_length" -ntg "$max_tokens" -npl "$batch_list" \
                    --output-format jsonl 2>/dev/null | grep '^{' >"$work/batched-llama-$t-$round.jsonl"
            }
            run_ours_batched() {
                "$ilotoki" bench --model "$model" --threads "$t" --max-tokens "$max_tokens" --head full --to tok --prompts 8 \
                    --prefix fresh --batch "$batch_list" --json >"$work/batched-ours-$t-$round.json"
            }
            # The trimmed head in a batch, against llama.cpp's head in the same batches: on the
            # few-shot paragraph, whose answers the base test model keeps in Toki Pona's rows.
            run_ours_heads() {
                local head
                for head in full trimmed; do
                    "$ilotoki" bench --model "$model" --threads "$t" --max-tokens "$max_tokens" --head "$head" --few-shot --to tok \
                        --prefix fresh --prompts 8 --batch "$batch_list" --json >"$work/heads-$head-$t-$round.json"
                done
            }
            if [ $((round % 2)) = 1 ]; then run_llama_batched; run_ours_batched; run_ours_heads; else run_ours_heads; run_ours_batched; run_llama_batched; fi
            log "batches: round $round, $t threads done"
        done
    done
    python3 - "$work" "$rounds" "$threads" <<'PY'
import json, statistics, sys
work, rounds, threads = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
print()
print(f"An 8-sentence paragraph into Toki Pona decoded N at a time, {rounds} rounds, medians [min–max]")
print("aggregate decode tok/s: llama-batched-bench S_TG (N sequences, prompts of the same mean length) and ours (all")
print("sequences' tokens over the decode steps' time); wall: the paragraph's time at 1 over its time at N")
print("threads     N   llama-batched-bench S_TG     ilotoki decode              ratio    wall speed-up   first piece ms   differ")
for t in threads:
    llama = [[json.loads(line) for line in open(f"{work}/batched-llama-{t}-{r}.jsonl")] for r in range(1, rounds + 1)]
    ours = [json.load(open(f"{work}/batched-ours-{t}-{r}.json"))["runs"][0]["batches"] for r in range(1, rounds + 1)]
    for i, batch in enumerate(ours[0]):
        n = batch["sequences"]
        theirs = [next(row["speed_tg"] for row in rows if row["pl"] == n) for rows in llama]
        mine = [run[i]["decodeTokensPerSecond"] for run in ours]
        speed_up = [run[i]["speedUp"] for run in ours]
        first = [run[i]["firstPieceMs"] for run in ours]
        differ = max(run[i]["promptsDiffering"] for run in ours)
        m = lambda v: f"{statistics.median(v):7.1f} [{min(v):.1f}–{max(v):.1f}]"
        print(f"{t:>7} {n:>5}   {m(theirs):>26}   {m(mine):>26}   {statistics.median(mine) / statistics.median(theirs):6.3f}"
              f"   {statistics.median(speed_up):10.2f}×   {statistics.median(first):14.1f}   {differ:6d}")
print()
print("The trimmed head in a batch: the few-shot paragraph (8 prompts into Toki Pona, answers ending at their line),")
print("aggregate decode tok/s with llama.cpp's head and with the trimmed one, in the same batches; differ: sentences whose")
print("tokens are not the ones they get translated alone, with either head")
print("threads     N   llama.cpp's head            trimmed head                ratio    checks   rollbacks   differ")
for t in threads:
    full = [json.load(open(f"{work}/heads-full-{t}-{r}.json"))["runs"][0]["batches"] for r in range(1, rounds + 1)]
    trimmed = [json.load(open(f"{work}/heads-trimmed-{t}-{r}.json"))["runs"][0]["batches"] for r in range(1, rounds + 1)]
    for i, batch in enumerate(full[0]):
        n = batch["sequences"]
        a = [run[i]["decodeTokensPerSecond"] for run in full]
        b = [run[i]["decodeTokensPerSecond"] for run in trimmed]
        checks = statistics.median(run[i]["headChecks"] for run in trimmed)
        rollbacks = statistics.median(run[i]["headRollbacks"] for run in trimmed)
        differ = max(run[i]["promptsDiffering"] for run in full + trimmed)
        m = lambda v: f"{statistics.median(v):7.1f} [{min(v):.1f}–{max(v):.1f}]"
        print(f"{t:>7} {n:>5}   {m(a):>26}   {m(b):>26}   {statistics.median(b) / statistics.median(a):6.3f}"
              f"   {checks:6.0f}   {rollbacks:9.0f}   {differ:6d}")
PY
    [ "$batch_only" = true ] && exit 0
fi

for round in $(seq "$rounds"); do
    for t in $threads; do
        run_llama() {
            "$llama_bench" -m "$model" -t "$t" -p "$prompt_lengths" -n 0 -r 1 -o json 2>/dev/null >"$work/llama-pp-$t-$round.json"
            "$llama_bench" -m "$model" -t "$t" -p 0 -n "$max_tokens" -d "$prompt_length" -r 1 -o json 2>/dev/null >"$work/llama-tg-$t-$round.json"
        }
        run_ours() {
            for head in full trimmed auto; do
                "$ilotoki" bench --model "$model" --threads "$t" --max-tokens "$max_tokens" --head "$head" --prefix fresh --json \
                    >"$work/ours-$head-$t-$round.json"
            done
        }
        # Alternate which goes first, so neither always runs on a warmer machine.
        if [ $((round % 2)) = 1 ]; then run_llama; run_ours; else run_ours; run_llama; fi
        log "round $round, $t threads done"
    done
done

python3 - "$work" "$rounds" "$threads" "$max_tokens" "$prompt_length" <<'PY'
import json, statistics, sys
work, rounds, threads, max_tokens, prompt_length = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(), sys.argv[4], sys.argv[5]

def load(name):
    return json.load(open(f"{work}/{name}"))

def spread(values):
    return f"{statistics.median(values):7.1f}  [{min(values):.1f}–{max(values):.1f}]"

print()
print(f"Side by side, {rounds} rounds, medians [min–max] in tokens/second")
print(f"prefill: our prompts vs llama-bench pp at each of their lengths, weighted the same way")
print(f"decode: {max_tokens} tokens after the prompt vs llama-bench tg{max_tokens} at depth {prompt_length}")
print()
print("threads   llama-bench pp             ilotoki prefill            ratio   |  llama-bench tg            ilotoki decode             ratio")
best = {}
lengths = [p["promptTokens"] for p in load("lengths.json")["runs"][0]["prompts"]]

def llama_prefill(results):
    # The speed llama-bench would show for our prompts: their tokens over the time its pp
    # takes for each of their lengths.
    speed = {r["n_prompt"]: r["avg_ts"] for r in results}
    return sum(lengths) / sum(n / speed[n] for n in lengths)

def target_decode(run, language):
    prompts = [p for p in run["prompts"] if p["targetLanguage"] == language]
    return sum(p["decodedTokens"] for p in prompts) * 1000 / sum(p["decodeMs"] for p in prompts)

per_target = {}
for t in threads:
    pp = [llama_prefill(load(f"llama-pp-{t}-{r}.json")) for r in range(1, rounds + 1)]
    tg = [load(f"llama-tg-{t}-{r}.json")[0]["avg_ts"] for r in range(1, rounds + 1)]
    for head in ("full", "trimmed", "auto"):
        ours = [load(f"ours-{head}-{t}-{r}.json") for r in range(1, rounds + 1)]
        prefill = [o["runs"][0]["prefillTokensPerSecond"] for o in ours]
        decode = [o["runs"][0]["decodeTokensPerSecond"] for o in ours]
        anon = max(o["runs"][0]["peakAnonymousRSSMiB"] for o in ours)
        chosen = ours[0]["runs"][0]["chosenByPerformanceCoreCount"]
        if head == "trimmed":
            best[t] = (statistics.median(decode), min(decode), max(decode), chosen)
            for language in ("tok", "en", "ru", "vi"):
                runs = [o["runs"][0]["prompts"] for o in ours]
                chosen_prompts = [p for prompts in runs for p in prompts if p["targetLanguage"] == language]
                per_target[(t, language)] = (
                    statistics.median(target_decode(o["runs"][0], language) for o in ours) / statistics.median(tg),
                    sum(p["headRollbacks"] for p in chosen_prompts),
                    sum(p["headWidened"] for p in chosen_prompts),
                    sum(p["headFellBack"] for p in chosen_prompts),
                    len(chosen_prompts),
                    min((p["headRows"] for p in chosen_prompts if not p["headWidened"] and not p["headFellBack"]), default=None))
        print(f"{t:>7}   {spread(pp)}   {spread(prefill)}   {statistics.median(prefill) / statistics.median(pp):5.3f}   |"
              f"  {spread(tg)}   {spread(decode)}   {statistics.median(decode) / statistics.median(tg):5.3f}   {head} head"
              + ("   ← performance_core_count()" if chosen else ""))
        print(f"          ilotoki peak anonymous RSS (beyond the mapped model), {head} head: {anon:.1f} MiB")
        if head == "auto":
            choices = [o["runs"][0]["headChoice"] or "undecided" for o in ours]
            print(f"          auto chose, round by round: {', '.join(choices)}; the first: {ours[0]['runs'][0]['headReason']}")
print()
print("trimmed head, decode per target language as a ratio of llama-bench's tg (median of the rounds):")
print("(rows: the target's own set, — where every prompt left it; those went on with the four languages' rows: widened)")
print("threads   target   rows/token   decode ratio   rollbacks   widened   on the full head after rollbacks")
for (t, language), (ratio, rollbacks, widened, fell_back, count, rows) in per_target.items():
    print(f"{t:>7}   {language:<6} {rows if rows is not None else '—':>12} {ratio:14.3f} {rollbacks:11d}   {widened:>3} of {count}   {fell_back} of {count}")
top = max(best, key=lambda t: best[t][0])
picked = [t for t in best if best[t][3]]
if picked:
    p = picked[0]
    within = best[p][2] >= best[top][1]
    print()
    print(f"fastest decode: {top} threads ({best[top][0]:.1f} tok/s); performance_core_count() picks {p}: "
          + ("the best" if p == top else ("within the spread of the best" if within else "OUTSIDE the spread of the best")))
PY
