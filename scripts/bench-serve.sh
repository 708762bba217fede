#!/usr/bin/env bash
# `ilotoki serve` under load beside llama.cpp's own llama-server: the same Gemma file, the same
# prompts (ilo toki's format), greedy, the same threads, llama-server with --parallel 8 and
# continuous batching and the full sliding-window cache as ours has it (--swa-full: without it
# llama.cpp's attention sums differ a little, and the base test model's near ties, such as
# " She" against "\n" 0.04 nats apart, come out the other way); 1, 4, 16 and 64 clients at once, each sending one English sentence at a
# time (scripts/serve_load.py). Prints throughput (sentences/s) and p50/p95 latency for both,
# whether the answers are the same, and our server's resident memory.
#
#   scripts/bench-serve.sh [--model FILE] [--threads 2] [--clients "1 4 16 64"] [--rounds 2]
#                          [--soak N]
#
# Each level is bounded: max(32, 4 × clients) requests or 300 s. The servers alternate which
# goes first each round. --soak N: then N requests at 16 clients to our server in steps of
# 1,000, its resident memory after each (flat, or it leaks).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
threads=2
clients="1 4 16 64"
rounds=2
soak=0
while [ $# -gt 0 ]; do
    case "$1" in
    --model) model=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --soak) soak=$2; shift 2 ;;
    *) die "unknown option $1" ;;
    esac
done
[ -f "$model" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
llama_server=$("$REPO_ROOT/scripts/build-llama-tool.sh" llama-server)
swift build -c release --product ilotoki >&2
ilotoki="$REPO_ROOT/.build/release/ilotoki"
python=python3
[ -x "$BUILD_DIR/venv/bin/python" ] && python="$BUILD_DIR/venv/bin/python"

work=$(mktemp -d)
ours=
theirs=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    [ -z "$ours" ] || kill "$ours" 2>/dev/null || true
    [ -z "$theirs" ] || kill "$theirs" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export ILOTOKI_HOME="$work/home"
mkdir -p "$ILOTOKI_HOME"

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

our_port=$(free_port)
"$ilotoki" serve --port "$our_port" --model "$model" --threads "$threads" --batch 8 --queue 4096 2>"$work/ours.log" &
ours=$!
their_port=$(free_port)
"$llama_server" -m "$model" -t "$threads" --parallel 8 -c 4096 --cont-batching --swa-full --host 127.0.0.1 --port "$their_port" \
    >"$work/theirs.log" 2>&1 &
theirs=$!
wait_for_url "http://127.0.0.1:$our_port/health"
wait_for_url "http://127.0.0.1:$their_port/health"

log "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'); model: $model; $threads threads"
for round in $(seq "$rounds"); do
    for n in $clients; do
        requests=$((4 * n > 32 ? 4 * n : 32))
        run_ours() { "$python" scripts/serve_load.py --kind ilotoki --port "$our_port" --clients "$n" --requests "$requests" --seconds 300 --out "$work/ours-$n-$round.json"; }
        run_theirs() { "$python" scripts/serve_load.py --kind llama --port "$their_port" --clients "$n" --requests "$requests" --seconds 300 --out "$work/theirs-$n-$round.json"; }
        if [ $((round % 2)) = 1 ]; then run_theirs; run_ours; else run_ours; run_theirs; fi
        rss_kib "$ours" >"$work/rss-$n-$round"
    done
done

"$python" - "$work" "$rounds" "$clients" <<'PY'
import json, statistics, sys
work, rounds, clients = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
print()
print(f"ilotoki serve and llama-server under load, {rounds} rounds, medians; sentences/s and seconds")
print("clients   llama-server  /s   p50    p95   |  ilotoki serve  /s   p50    p95   |  throughput ratio   p95 ratio   answers differ   our RSS MiB")
for n in clients:
    ours = [json.load(open(f"{work}/ours-{n}-{r}.json")) for r in range(1, rounds + 1)]
    theirs = [json.load(open(f"{work}/theirs-{n}-{r}.json")) for r in range(1, rounds + 1)]
    med = lambda runs, key: statistics.median(run[key] for run in runs)
    differ = sum(1 for line, text in ours[0]["answers"].items() if theirs[0]["answers"].get(line) not in (None, text))
    compared = sum(1 for line in ours[0]["answers"] if line in theirs[0]["answers"])
    failed = sum(run["failures"] for run in ours + theirs)
    rss = max(int(open(f"{work}/rss-{n}-{r}").read()) for r in range(1, rounds + 1)) / 1024
    print(f"{n:>7}   {med(theirs, 'throughput'):14.2f} {med(theirs, 'p50'):6.2f} {med(theirs, 'p95'):6.2f}   |"
          f" {med(ours, 'throughput'):14.2f} {med(ours, 'p50'):6.2f} {med(ours, 'p95'):6.2f}   |"
          f" {med(ours, 'throughput') / med(theirs, 'throughput'):16.2f}× {med(ours, 'p95') / med(theirs, 'p95'):10.2f}×"
          f"   {differ:3d} of {compared:<3d}{'' if not failed else f' ({failed} failed)'}   {rss:8.1f}")
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
