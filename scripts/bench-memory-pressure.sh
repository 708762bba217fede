#!/usr/bin/env bash
# Decode speed under memory pressure: `ilotoki bench` in a cgroup (v1) memory limit, at a sweep
# of limits, with each output head, after the model's pages were dropped from the page cache
# (so the limit really bounds what stays resident). Prints decode speed, major page faults
# and peak memory per limit; docs/benchmarks.md keeps the table.
#
#   sudo scripts/bench-memory-pressure.sh [--model FILE] [--limits "none 400 300 250"] [--to tok] [--prompts 4]
#                                         [--heads "full trimmed"] [--restore "on off"] [--no-few-shot]
#
# The prompts are few-shot (bench --few-shot: three example translations first), so the base
# test model answers toward Toki Pona in Toki Pona and the small head's rows are the ones read;
# --restore runs each with and without reading the model's missing pages back before decoding.
#
# Needs root and the cgroup v1 memory controller (/sys/fs/cgroup/memory).
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

model="$BUILD_DIR/test-models/$GEMMA_TEST_MODEL_FILE"
limits="none 400 300 250"
target=tok
prompts=4
threads=2
heads="full trimmed"
restores="on off"
few_shot=(--few-shot)
while [ $# -gt 0 ]; do
    case "$1" in
    --heads) heads=$2; shift 2 ;;
    --restore) restores=$2; shift 2 ;;
    --no-few-shot) few_shot=(); shift ;;
    --model) model=$2; shift 2 ;;
    --limits) limits=$2; shift 2 ;;
    --to) target=$2; shift 2 ;;
    --prompts) prompts=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    *) die "unknown option $1" ;;
    esac
done

controller=/sys/fs/cgroup/memory
[ "$(id -u)" = 0 ] || die "this needs root (it creates cgroups under $controller)"
[ -w "$controller" ] || die "no writable cgroup v1 memory controller at $controller"
[ -f "$model" ] || "$REPO_ROOT/scripts/fetch-test-models.sh" >&2
swift build -c release --product ilotoki >&2
ilotoki="$REPO_ROOT/.build/release/ilotoki"
work=$(mktemp -d)
group="$controller/ilotoki-bench-$$"
cleanup() {
    if [ -d "$group" ]; then rmdir "$group" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
export ILOTOKI_HOME="$work/home"

drop_model_pages() {
    python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
os.close(fd)' "$model"
}

log "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
log "model: $model ($(file_size "$model") bytes); → $target, $prompts prompts, $threads threads"
for limit in $limits; do
    for run in $(for h in $heads; do for r in $restores; do echo "$h-$r"; done; done); do
        head=${run%-*}
        restore=${run#*-}
        mkdir -p "$group"
        if [ "$limit" = none ]; then
            echo -1 >"$group/memory.limit_in_bytes"
        else
            echo $((limit * 1024 * 1024)) >"$group/memory.limit_in_bytes"
        fi
        drop_model_pages
        sh -c 'echo $$ >"$1/cgroup.procs"; shift; exec "$@"' sh "$group" \
            "$ilotoki" bench --model "$model" --threads "$threads" --to "$target" --prompts "$prompts" --head "$head" \
            --restore "$restore" "${few_shot[@]}" --json >"$work/$limit-$run.json" || die "the benchmark failed at the $limit MiB limit"
        cat "$group/memory.max_usage_in_bytes" >"$work/$limit-$run.peak"
        rmdir "$group"
        log "limit $limit, $head head, restore $restore done"
    done
done

python3 - "$work" "$limits" "$target" "$heads" "$restores" <<'PY'
import json, sys
work, limits, target, heads, restores = sys.argv[1], sys.argv[2].split(), sys.argv[3], sys.argv[4].split(), sys.argv[5].split()
print()
print(f"Decode toward {target} under a cgroup memory limit (model pages dropped before each run)")
print("decode+restore: decoded tokens over decode time plus the time reading pages back; same tokens: as unlimited")
print()
print("resident: the least share of the model (without rows a streamed check reads) in memory as a prompt began;")
print("group peak: the cgroup's peak usage (page cache included); read MB/s: restored bytes over restore time")
print()
print("sketch: checks the sketch of the excluded rows served / all checks, and the rows they read exactly, per check")
print()
print("limit MiB   head      restore   decode tok/s   decode+restore   vs unlimited   major faults   restored MiB   read MB/s   resident   group peak MiB   peak anon MiB   rows/token   streamed   sketch           same tokens")
base, reference = {}, {}
for limit in limits:
    for head in heads:
        for restore in restores:
            report = json.load(open(f"{work}/{limit}-{head}-{restore}.json"))
            run = report["runs"][0]
            decode = run["decodeTokensPerSecond"]
            with_restore = run["decodeWithRestoreTokensPerSecond"]
            key = (head, restore)
            base.setdefault(key, with_restore)
            tokens = [p["tokens"] for p in run["prompts"]]
            reference.setdefault(key, tokens)
            rows = max(p["headRows"] for p in run["prompts"])
            # The first prompt begins after the pages were dropped on purpose; the rest show what stayed.
            resident = min((p["residentBefore"] for p in run["prompts"][1:]), default=1.0)
            restore_s = sum(p["restoreMs"] for p in run["prompts"]) / 1000
            read_speed = f"{run['restoredBytes'] / 1e6 / restore_s:9.0f}" if restore_s > 0 and run["restoredBytes"] > 0 else "        —"
            group_peak = int(open(f"{work}/{limit}-{head}-{restore}.peak").read()) / 1048576
            streams = "yes" if report.get("trimmedHeadCheckStreams") else "no"
            sketched = run.get("headSketchedChecks", 0)
            sketch = f"{sketched}/{run['headChecks']}, {run.get('headRowsReadExactly', 0) / sketched:.0f}" if sketched else "—"
            print(f"{limit:>9}   {head:<8} {restore:>7} {decode:14.1f} {with_restore:16.1f} {with_restore / base[key]:14.2f} "
                  f"{run['majorPageFaults']:14d} {run['restoredBytes'] / 1048576:14.1f}   {read_speed} {resident * 100:9.1f}% "
                  f"{group_peak:16.1f} {run['peakAnonymousRSSMiB']:15.1f} {rows:12d}   {streams:>8}   {sketch:<16} {'yes' if tokens == reference[key] else 'NO'}")
PY
