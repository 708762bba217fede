#!/usr/bin/env bash
# Runs every way the command line can end, over and over, with every core kept busy, and
# counts the runs that crashed (died of a signal it did not ask for, or printed a crash) or
# ended with a status other than the one that way of ending promises.
#
#   scripts/stress-exits.sh [--seconds N] [--ways "pipe sigint …"]
#       N: how long to go on (default 30; the tests run it for about 30 s); --ways: only these.
#
# The ways: a closed pipe, a full disk (arguments and standard input), SIGINT, SIGTERM and
# SIGHUP mid-translation, Ctrl-D, Ctrl-C and SIGTERM in the interactive session, a line that is not
# UTF-8 among good ones, a model file that is missing or not a model, a usage mistake, a
# download interrupted mid-file, `ilotoki bench` interrupted and piped into `head`, and
# `ilotoki serve` sent SIGTERM while eight clients' translations are under way.
# Prints "N runs, 0 crashes" and exits 0, or lists what went wrong and exits 1.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

seconds=30
only=
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --ways) only=${2:?--ways needs names}; shift 2 ;;
    *) die "unknown option $1 (usage: stress-exits.sh [--seconds N])" ;;
    esac
done

tiny=build/test-models/tiny.gguf
gemma=build/test-models/gemma-3-270m-q4_k_m.gguf
{ [ -f "$tiny" ] && [ -f "$gemma" ]; } || die "the test models are missing: run scripts/fetch-test-models.sh"
swift build --product ilotoki >&2
swift build --product ilotoki-test-server >&2
bin="$(swift build --show-bin-path)"
# Every run has a minute: one that takes longer hangs, and counts as a failure.
ilotoki=(timeout -k 5 60 "$bin/ilotoki")

work=$(mktemp -d)
busy=()
server=
cleanup() {
    [ ${#busy[@]} -eq 0 ] || kill "${busy[@]}" 2>/dev/null || true
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

export ILOTOKI_HOME="$work/home" NO_COLOR=1
mkdir -p "$ILOTOKI_HOME"

# A catalog with one model served from 127.0.0.1, to interrupt a download mid-file.
"$bin/ilotoki-test-server" "$gemma" --port-file "$work/port" --repo stress/model >/dev/null &
server=$!
for _ in $(seq 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || die "the test server did not start"
port=$(cat "$work/port")
gemma_sha=$(sha256_of "$gemma")
cat >"$work/catalog.json" <<EOF
{"entries": [{"id": "stress-model", "displayName": "Stress model", "quantization": "Q4_K_M",
  "url": "https://huggingface.co/stress/model/resolve/main/$(basename "$gemma")",
  "bytes": $(file_size "$gemma"), "format": "sourceTarget", "deprecated": false, "sha256": "$gemma_sha"}]}
EOF

# Ten lines: long enough that a signal or a closed pipe comes mid-translation.
lines=$(for i in $(seq 10); do printf 'Line %s of a letter about the cat that sleeps on the warm mat.\n' "$i"; done)

# The interactive session needs a terminal: Python's pty gives it one, types a line, and
# either waits for the translation and sends Ctrl-D, or sends Ctrl-C mid-translation first,
# or (session-sigterm) sends SIGTERM mid-translation, which ends the session (143).
cat >"$work/session.py" <<'EOF'
import os, pty, random, select, signal, sys, time
ilotoki, model, mode = sys.argv[1:4]
pid, fd = pty.fork()
if pid == 0:
    os.execv(ilotoki, [ilotoki, "--model", model, "--threads", "1", "--from", "en"])
seen = b""
def read_until(predicate, seconds):
    global seen
    end = time.time() + seconds
    while time.time() < end and not predicate(seen):
        if not select.select([fd], [], [], max(0.0, end - time.time()))[0]:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            return False
        if not chunk:
            return False
        seen += chunk
    return predicate(seen)
prompt = "\u203a ".encode()
def fail(why):
    print(why, "; the terminal showed:", seen[-400:])
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    sys.exit(125)
if not read_until(lambda s: prompt in s, 30): fail("no prompt")
os.write(fd, b"I love you and the cat\r")
if mode == "session-sigterm":
    time.sleep(random.uniform(0.0, 0.2))
    os.kill(pid, signal.SIGTERM)
elif mode == "ctrl-c":
    # Ctrl-C as the translation streams (or just before it starts), then at the prompt Ctrl-D.
    time.sleep(random.uniform(0.0, 0.2))
    os.write(fd, b"\x03")
if mode != "session-sigterm" and not read_until(lambda s: s.count(prompt) >= 2, 30): fail("no prompt after the translation")
# A moment at the prompt, as a person takes: libedit sets the terminal's mode after it has
# drawn the prompt, and a Ctrl-D that comes before that is read as a character, not an end.
if mode != "session-sigterm":
    time.sleep(0.15)
    os.write(fd, b"\x04")
read_until(lambda s: False, 30)  # until the terminal closes: the process is leaving
end = time.time() + 30
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done != 0: break
    if time.time() > end: fail("still running 30 s after Ctrl-D or SIGTERM")
    time.sleep(0.01)
if os.WIFSIGNALED(status):
    print("died of signal", os.WTERMSIG(status))
    sys.exit(128 + os.WTERMSIG(status))
sys.exit(os.WEXITSTATUS(status))
EOF
python=python3
[ -x "$BUILD_DIR/venv/bin/python" ] && python="$BUILD_DIR/venv/bin/python"

# Keep every core busy: races between the exit and the engine's threads show up on a busy machine.
for _ in $(seq "$(cpu_count)"); do
    (while :; do :; done) &
    busy+=($!)
done

runs=0
crashes=0
hangs=0
unexpected=0
declare -A per_way=()

# Random milliseconds in [low, high), as seconds for sleep.
pause() { local ms=$((RANDOM % ($2 - $1) + $1)); printf '0.%03d' "$ms"; }

# record WAY STATUS "EXPECTED…" STDERR_FILE: counts one run.
record() {
    local way=$1 status=$2 expected=$3 stderr_file=$4 ok=0
    runs=$((runs + 1))
    per_way[$way]=$((${per_way[$way]:-0} + 1))
    for want in $expected; do [ "$status" = "$want" ] && ok=1; done
    if [ "$status" = 124 ] || [ "$status" = 125 ] || [ "$status" = 137 ]; then
        hangs=$((hangs + 1))
        printf 'hang: %s did not end within its time (status %s); its standard error:\n' "$way" "$status" >&2
        tail -5 "$stderr_file" >&2
    elif grep -qE "died of signal|Segmentation fault|Fatal error|Illegal instruction|Aborted|core dumped|Bus error|AddressSanitizer|SUMMARY:" "$stderr_file" 2>/dev/null \
        || { [ "$ok" = 0 ] && [ "${status%%[!0-9]*}" -gt 128 ]; }; then
        crashes=$((crashes + 1))
        printf 'crash: %s ended with status %s (expected %s); its standard error:\n' "$way" "$status" "$expected" >&2
        tail -20 "$stderr_file" >&2
    elif [ "$ok" = 0 ]; then
        unexpected=$((unexpected + 1))
        printf 'unexpected: %s ended with status %s (expected %s); its standard error:\n' "$way" "$status" "$expected" >&2
        tail -5 "$stderr_file" >&2
    fi
}

# signal_mid_run WAY SIGNAL STATUS COMMAND…: starts the command, signals it a moment later.
signal_mid_run() {
    local way=$1 signal=$2 status=$3
    shift 3
    "$@" >/dev/null 2>"$work/err" <<<"$lines" &
    local pid=$!
    sleep "$(pause 50 600)"
    kill "-$signal" "$pid" 2>/dev/null || true
    local result=0
    wait "$pid" || result=$?
    # A run that ended before the signal came ended as it would have anyway.
    record "$way" "$result" "$status 0" "$work/err"
}

ways=(pipe full-arguments full-lines sigint sigterm sighup ctrl-d ctrl-c session-sigterm bad-line missing-model not-a-model usage
      download-sigint download-sigint-early bench-sigint bench-pipe serve-sigterm)
if [ -n "$only" ]; then read -ra ways <<<"$only"; fi
deadline=$(($(date +%s) + seconds))
round=0
while [ "$(date +%s)" -lt "$deadline" ]; do
    way=${ways[$((round % ${#ways[@]}))]}
    round=$((round + 1))
    status=0
    case "$way" in
    pipe)
        set +o pipefail
        printf '%s\n' "$lines" | "${ilotoki[@]}" --model "$tiny" --threads 1 --from en 2>"$work/err" | head -c 1 >/dev/null
        status=${PIPESTATUS[1]}
        set -o pipefail
        # Quiet: nothing on standard error.
        if [ -s "$work/err" ]; then status="$status+stderr"; fi
        record "$way" "$status" "0" "$work/err"
        ;;
    full-arguments)
        "${ilotoki[@]}" --model "$tiny" --threads 1 --from en "hello there, how are you" >/dev/full 2>"$work/err" || status=$?
        record "$way" "$status" "1" "$work/err"
        ;;
    full-lines)
        "${ilotoki[@]}" --model "$tiny" --from en >/dev/full 2>"$work/err" <<<"$lines" || status=$?
        record "$way" "$status" "1" "$work/err"
        ;;
    sigint) signal_mid_run "$way" INT 130 "${ilotoki[@]}" --model "$gemma" --threads 1 --from en ;;
    sigterm) signal_mid_run "$way" TERM 143 "${ilotoki[@]}" --model "$tiny" --threads 1 --from en ;;
    sighup) signal_mid_run "$way" HUP 129 "${ilotoki[@]}" --model "$gemma" --from en ;;
    ctrl-d | ctrl-c)
        timeout -k 5 90 "$python" "$work/session.py" "$bin/ilotoki" "$tiny" "$way" >"$work/err" 2>&1 || status=$?
        record "$way" "$status" "0" "$work/err"
        ;;
    session-sigterm)
        timeout -k 5 90 "$python" "$work/session.py" "$bin/ilotoki" "$tiny" "$way" >"$work/err" 2>&1 || status=$?
        record "$way" "$status" "143" "$work/err"
        ;;
    bad-line)
        printf 'a cat\n\xff\xfe\nthe mat\n' | "${ilotoki[@]}" --model "$tiny" --threads 1 --from en >/dev/null 2>"$work/err" || status=$?
        record "$way" "$status" "1" "$work/err"
        ;;
    missing-model)
        "${ilotoki[@]}" --model "$work/nowhere.gguf" hello >/dev/null 2>"$work/err" || status=$?
        record "$way" "$status" "1" "$work/err"
        ;;
    not-a-model)
        "${ilotoki[@]}" --model build/test-models/unknown-architecture.gguf hello >/dev/null 2>"$work/err" || status=$?
        record "$way" "$status" "1" "$work/err"
        ;;
    usage)
        "${ilotoki[@]}" translate --to xx hello >/dev/null 2>"$work/err" || status=$?
        record "$way" "$status" "2" "$work/err"
        ;;
    download-sigint)
        signal_mid_run "$way" INT 130 env ILOTOKI_CATALOG="$work/catalog.json" HF_ENDPOINT="http://127.0.0.1:$port" \
            "${ilotoki[@]}" models download stress-model --accept-licence
        ILOTOKI_CATALOG="$work/catalog.json" "${ilotoki[@]}" models remove stress-model >/dev/null 2>&1 || true
        ;;
    download-sigint-early)
        # Ctrl-C in the command's first milliseconds, with SIGINT's default disposition as a
        # terminal gives it (a background job of this script would start with it ignored):
        # the download must not go on. 130 either way: answered by the command, or its
        # default effect before the command's first line.
        status=$("$python" - "$work/err" "$(pause 5 60)" env ILOTOKI_CATALOG="$work/catalog.json" HF_ENDPOINT="http://127.0.0.1:$port" \
            "${ilotoki[@]}" models download stress-model --accept-licence <<'PY'
import signal, subprocess, sys, time
with open(sys.argv[1], "wb") as err:
    child = subprocess.Popen(sys.argv[3:], stdout=subprocess.DEVNULL, stderr=err,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(float(sys.argv[2]))
    child.send_signal(signal.SIGINT)
    try:
        code = child.wait(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        code = 124
print(128 - code if code < 0 else code)
PY
) || status=$?
        record "$way" "$status" "130" "$work/err"
        ILOTOKI_CATALOG="$work/catalog.json" "${ilotoki[@]}" models remove stress-model >/dev/null 2>&1 || true
        ;;
    bench-sigint) signal_mid_run "$way" INT 130 "${ilotoki[@]}" bench --model "$tiny" --threads 1 --prompts 6 --max-tokens 16 ;;
    serve-sigterm)
        # Eight clients at once, then SIGTERM: every answer given or refused cleanly, status 0.
        rm -f "$work/serve.err"
        "${ilotoki[@]}" serve --port 0 --model "$tiny" --threads 1 2>"$work/serve.err" &
        serve_pid=$!
        served_port=$(serve_port "$work/serve.err") || served_port=0
        "$python" - "$served_port" >/dev/null 2>&1 <<'PY' &
import sys, threading, urllib.request
def ask(i):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/translate", data=f"q=Line {i} of a letter about the cat.&source=en&target=tok".encode(), timeout=30).read()
    except Exception:
        pass
threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
PY
        clients=$!
        sleep "$(pause 50 600)"
        kill -TERM "$serve_pid" 2>/dev/null || true
        wait "$serve_pid" || status=$?
        wait "$clients" 2>/dev/null || true
        record "$way" "$status" "0" "$work/serve.err"
        ;;
    bench-pipe)
        set +o pipefail
        "${ilotoki[@]}" bench --model "$tiny" --threads 1 --prompts 2 --max-tokens 8 2>"$work/err" | head -c 1 >/dev/null
        status=${PIPESTATUS[0]}
        set -o pipefail
        record "$way" "$status" "0" "$work/err"
        ;;
    esac
done

summary=""
for way in "${ways[@]}"; do summary+=" $way ${per_way[$way]:-0},"; done
printf 'runs per way:%s\n' "${summary%,}"
if [ "$unexpected" -gt 0 ]; then printf '%s runs ended with an unexpected status\n' "$unexpected"; fi
if [ "$hangs" -gt 0 ]; then printf '%s runs hung\n' "$hangs"; fi
printf '%s runs, %s crashes\n' "$runs" "$crashes"
[ "$crashes" = 0 ] && [ "$unexpected" = 0 ] && [ "$hangs" = 0 ]
