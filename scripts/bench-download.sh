#!/usr/bin/env bash
# Benchmark: downloads a large file from a server on 127.0.0.1 with the product's downloader
# (ilotoki-fetch, release build) and reports throughput and the downloader's peak memory.
#   scripts/bench-download.sh [SIZE_MIB (default 1024)] [CUT_EVERY_MIB (default: no cuts)]
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

size_mib=${1:-1024}
cut_mib=${2:-0}
"$REPO_ROOT/scripts/setup.sh" >&2
ensure_apt_packages time
swift build -c release --product ilotoki-fetch >&2
swift build -c release --product ilotoki-test-server >&2

work=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

log "making a ${size_mib} MiB file"
head -c "$((size_mib << 20))" /dev/urandom >"$work/bench.gguf"
expected=$(sha256_of "$work/bench.gguf")
server_args=("$work/bench.gguf" --port-file "$work/port" --linked-etag "$expected")
[ "$cut_mib" -gt 0 ] && server_args+=(--cut-every "$((cut_mib << 20))")
.build/release/ilotoki-test-server "${server_args[@]}" >/dev/null &
server_pid=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(cat "$work/port")
url="http://127.0.0.1:$port/NetherQuartz/ilo-toki-1.1-MiLMMT-46-1b-merged/resolve/main/bench.gguf"

mkdir -p "$work/out"
start=$(date +%s.%N)
/usr/bin/time -v -o "$work/time" .build/release/ilotoki-fetch "$url" "$work/out/bench.gguf" --size "$((size_mib << 20))" >"$work/fetch.log" \
    || { tail -5 "$work/fetch.log"; die "the download failed"; }
end=$(date +%s.%N)
got=$(awk '/^installed/ {print $3}' "$work/fetch.log")
[ "$got" = "$expected" ] || die "sha256 differs: got $got, expected $expected"
peak_kib=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
retries=$(grep -c '^retrying' "$work/fetch.log" || true)
python3 - "$size_mib" "$start" "$end" "$peak_kib" "$cut_mib" "$retries" "$expected" <<'PY'
import sys
size, start, end, peak, cut, retries, sha = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]
elapsed = end - start
print(f"downloaded {size} MiB from 127.0.0.1" + (f" (connection cut every {cut} MiB: {retries} retries)" if cut else ""))
print(f"  time {elapsed:.2f} s including sha256 verification and install: {size / elapsed:.0f} MiB/s")
print(f"  downloader peak RSS {peak / 1024:.1f} MiB")
print(f"  sha256 verified: {sha}")
PY
