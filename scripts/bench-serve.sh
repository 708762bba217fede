#!/usr/bin/env bash
# `ilotoki serve` under load beside llama.cpp's own llama-server: the same Gemma file, the same
# prompts (ilo toki's format), greedy, the same threads, llama-server with --parallel 8 and
# continuous batching, its prompt cache on and the full sliding-window cache as ours has it
# (--swa-full: without it llama.cpp's attention sums differ a little, and the base test model's
# near ties, such as " She" against "\n" 0.04 nats apart, come out the other way); 1, 4, 16 and
# 64 clients at once, each sending one English sentence at a time over a new connection
# (scripts/serve_load.py). Prints throughput (sentences/s) and p50/p95 latency, whether the
# answers are ours, and our server's resident memory.
#
# llama-server runs twice: as it comes, and with GGML_CPU_COLUMN_EXACT=1 (llm/patches, 0004),
# where its products compute each column as a one-column product does, as our core always
# does. As it comes, a prompt's arithmetic depends on how it was cut (the cached beginning, the
# other prompts in the step), so its answers at near ties depend on the load and on the prompt
# cache; with the switch, it gives the answers ours gives, at every load.
#
#   scripts/bench-serve.sh [--model FILE] [--threads 2] [--clients "1 4 16 64"] [--rounds 2]
#                          [--soak N] [--avx2]
#
# --avx2: llama.cpp (ours and llama-server) built for AVX2 and the row kernels on their AVX2
# path, to measure an AVX2-only x86-64 CPU on one with AVX-512.
#
# Each level is bounded: max(32, 4 × clients) requests or 300 s. The servers take turns going
# first, round by round. --soak N: then N requests at 16 clients to our server in steps of
# 1,000, its resident memory after each (flat, or it leaks).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
threads=2
clients="1 4 16 64"
rounds=2
soak=0
avx2=false
while [ $# -gt 0 ]; do
    case "$1" in
    --model) model=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --soak) soak=$2; shift 2 ;;
    --avx2) avx2=true; shift ;;
    *) die "unknown option $1" ;;
    esac
done
[ -f "$model" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
if [ "$avx2" = true ]; then
    llama_server=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-server --avx2)
    ilotoki=$(release_ilotoki --avx2)
    export ILOTOKI_ROW_KERNEL=avx2
else
    llama_server=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-server)
    ilotoki=$(release_ilotoki)
fi
python=python3
[ -x "$BUILD_DIR/venv/bin/python" ] && python="$BUILD_DIR/venv/bin/python"

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
export ILOTOKI_HOME="$work/home"
mkdir -p "$ILOTOKI_HOME"

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

our_port=$(free_port)
"$ilotoki" serve --port "$our_port" --model "$model" --threads "$threads" --batch 8 --queue 4096 2>"$work/ours.log" &
ours=$!
pids+=("$ours")
wait_for_url "http://127.0.0.1:$our_port/health"
their_port=$(free_port)
"$llama_server" -m "$model" -t "$threads" --parallel 8 -c 4096 --cont-batching --swa-full --host 127.0.0.1 --port "$their_port" \
    >"$work/theirs.log" 2>&1 &
pids+=($!)
wait_for_url "http://127.0.0.1:$their_port/health"
exact_port=$(free_port)
GGML_CPU_COLUMN_EXACT=1 "$llama_server" -m "$model" -t "$threads" --parallel 8 -c 4096 --cont-batching --swa-full --host 127.0.0.1 \
    --port "$exact_port" >"$work/exact.log" 2>&1 &
pids+=($!)
wait_for_url "http://127.0.0.1:$exact_port/health"

log "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')$([ "$avx2" = true ] && echo ', as AVX2 only'); model: $model; $threads threads"
servers=("llama $their_port theirs" "ilotoki $our_port ours" "llama $exact_port exact")
for round in $(seq "$rounds"); do
    for n in $clients; do
        requests=$((4 * n > 32 ? 4 * n : 32))
        # Each round starts with another server, so that none always runs first.
        for i in 0 1 2; do
            read -r kind port name <<<"${servers[$(((i + round - 1) % 3))]}"
            "$python" scripts/serve_load.py --kind "$kind" --port "$port" --clients "$n" --requests "$requests" --seconds 300 \
                --out "$work/$name-$n-$round.json"
        done
        rss_kib "$ours" >"$work/rss-$n-$round"
    done
done

"$python" - "$work" "$rounds" "$clients" <<'PY'
import json, statistics, sys
work, rounds, clients = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
runs = lambda name, n: [json.load(open(f"{work}/{name}-{n}-{r}.json")) for r in range(1, rounds + 1)]
med = lambda runs, key: statistics.median(run[key] for run in runs)
def differ(a, b):
    return sum(1 for line, text in a[0]["answers"].items() if b[0]["answers"].get(line) not in (None, text))
print()
print(f"ilotoki serve and llama-server under load, {rounds} rounds, medians; sentences/s, p50 and p95 in seconds")
print("llama-server: as it comes; exact: with GGML_CPU_COLUMN_EXACT=1 (each column computed as alone, as ours)")
print("clients | llama-server  /s   p50   p95 | exact  /s   p50   p95 | ilotoki serve  /s   p50   p95 | ours ÷ llama-server: /s  p95 | answers not ours: llama-server, exact | failed | our RSS MiB")
baseline = {}
for n in clients:
    theirs, exact, ours = runs("theirs", n), runs("exact", n), runs("ours", n)
    baseline.setdefault("ours", ours)
    failed = sum(run["failures"] for run in ours + theirs + exact)
    rss = max(int(open(f"{work}/rss-{n}-{r}").read()) for r in range(1, rounds + 1)) / 1024
    compared = len(ours[0]["answers"])
    print(f"{n:>7} | {med(theirs, 'throughput'):16.2f} {med(theirs, 'p50'):5.2f} {med(theirs, 'p95'):5.2f} |"
          f" {med(exact, 'throughput'):9.2f} {med(exact, 'p50'):5.2f} {med(exact, 'p95'):5.2f} |"
          f" {med(ours, 'throughput'):17.2f} {med(ours, 'p50'):5.2f} {med(ours, 'p95'):5.2f} |"
          f" {med(ours, 'throughput') / med(theirs, 'throughput'):23.2f}× {med(ours, 'p95') / med(theirs, 'p95'):4.2f}× |"
          f" {differ(ours, theirs):>17} of {compared}, {differ(ours, exact)} of {compared} | {failed:6} | {rss:8.1f}")
first = clients[0]
print()
print(f"Steady answers: each server's answers at every load against its own at {first} client(s), and lines answered two ways in one run")
for name, label in (("ours", "ilotoki serve"), ("theirs", "llama-server"), ("exact", "llama-server, exact")):
    alone = runs(name, first)
    changed = [differ(alone, runs(name, n)) for n in clients]
    unsteady = sum(len(run.get("unsteady", [])) for n in clients for run in runs(name, n))
    print(f"  {label:20} changed at {', '.join(f'{n}: {c}' for n, c in zip(clients, changed))}; answered two ways: {unsteady}")
PY

if [ "$soak" -gt 0 ]; then
    log "soak: $soak requests at 16 clients, our resident memory every 1,000"
    done_count=0
    while [ "$done_count" -lt "$soak" ]; do
        "$python" scripts/serve_load.py --kind ilotoki --port "$our_port" --clients 16 --requests 1000 --seconds 3600 --out "$work/soak.json" 2>/dev/null
        done_count=$((done_count + 1000))
        printf "  after %6d requests: %7.1f MiB\n" "$done_count" "$(awk -v k="$(rss_kib "$ours")" "BEGIN {print k / 1024}")"
    done
fi
