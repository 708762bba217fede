#!/usr/bin/env bash
# Real LibreTranslate clients, unmodified, against a real `ilotoki serve` on 127.0.0.1 with the
# tiny model: PyPI's libretranslatepy (languages, detect, translate, source auto) and
# libretranslate-aio (its sync and async clients: arrays, health, settings, a subtitle file and
# a text file through /translate_file and /download_file). Each translation must be the one
# `ilotoki translate --json` makes of the same text. Exits 1 on any difference.
set -euo pipefail
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/pins.sh"
cd "$REPO_ROOT"

tiny=build/test-models/tiny.gguf
[ -f "$tiny" ] || die "the test models are missing: run scripts/fetch-test-models.sh"
venv_pip install --quiet "${SERVE_CLIENT_REQUIREMENTS[@]}" >&2 || die "could not install the LibreTranslate clients"
swift build --product ilotoki >&2
bin="$(swift build --show-bin-path)/ilotoki"

work=$(mktemp -d)
server=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
    [ -z "$server" ] || kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
export ILOTOKI_HOME="$work/home" NO_COLOR=1
mkdir -p "$ILOTOKI_HOME"

"$bin" serve --port 0 --model "$tiny" --threads 1 2>"$work/serve.log" &
server=$!
port=$(serve_port "$work/serve.log") || { cat "$work/serve.log" >&2; die "ilotoki serve did not start"; }

# What the command line makes of each text, for the clients' answers to be compared with.
expect() { "$bin" translate --model "$tiny" --threads 1 --from "$1" --to "$2" --json -- "$3" | "$VENV_PYTHON" -c 'import json,sys; print(json.load(sys.stdin)["result"])'; }
export EXPECT_LOVE EXPECT_MORNING EXPECT_TOKI
EXPECT_LOVE=$(expect en tok "I love you.")
EXPECT_MORNING=$(expect en tok "Good morning.")
EXPECT_TOKI=$(expect tok en "toki! mi moku e kili.")

printf '1\r\n00:00:01,000 --> 00:00:02,500\r\nI love you.\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\nGood morning.\r\n' >"$work/film.srt"
printf 'I love you.\n\nGood morning.\n' >"$work/notes.txt"

"$VENV_PYTHON" - "$port" "$work" <<'PY'
import asyncio, os, sys, urllib.request
from libretranslatepy import LibreTranslateAPI
from libretranslate_aio import AsyncLibreTranslate, LibreTranslate

port, work = sys.argv[1], sys.argv[2]
url = f"http://127.0.0.1:{port}/"
love, morning, toki = os.environ["EXPECT_LOVE"], os.environ["EXPECT_MORNING"], os.environ["EXPECT_TOKI"]
failures = []
def check(what, got, want):
    ok = got == want
    print(("ok  " if ok else "FAIL"), what, "" if ok else f": {got!r} != {want!r}")
    if not ok: failures.append(what)

lt = LibreTranslateAPI(url)
languages = lt.languages()
check("libretranslatepy languages", [(l["code"], l["targets"]) for l in languages],
      [("tok", ["en", "ru", "vi"]), ("en", ["tok"]), ("ru", ["tok"]), ("vi", ["tok"])])
check("libretranslatepy detect", lt.detect("toki! mi moku e kili.")[0]["language"], "tok")
check("libretranslatepy translate", lt.translate("I love you.", "en", "tok"), love)
check("libretranslatepy translate, source auto", lt.translate("toki! mi moku e kili.", "auto", "en"), toki)

with LibreTranslate(url) as client:
    check("libretranslate-aio health", client.health(), True)
    settings = client.frontend_settings()
    check("libretranslate-aio settings", (settings.key_required, settings.suggestions, settings.supported_files_format), (False, False, [".txt", ".srt"]))
    batch = client.translate(["I love you.", "Good morning."], source="en", target="tok")
    check("libretranslate-aio translate an array", batch.translated_text, [love, morning])
    auto = client.translate("toki! mi moku e kili.", source="auto", target="en")
    check("libretranslate-aio source auto", (auto.translated_text, auto.detected_language.language), (toki, "tok"))
    srt = client.translate_file(f"{work}/film.srt", source="en", target="tok")
    got = urllib.request.urlopen(srt.translated_file_url).read().decode()
    # Numbers, times and the file's line ending kept; a blank line after each cue, as SubRip has it.
    check("libretranslate-aio subtitles", got, f"1\r\n00:00:01,000 --> 00:00:02,500\r\n{love}\r\n\r\n2\r\n00:00:03,000 --> 00:00:04,000\r\n{morning}\r\n\r\n")
    txt = client.translate_file(f"{work}/notes.txt", source="en", target="tok")
    check("libretranslate-aio text file", urllib.request.urlopen(txt.translated_file_url).read().decode(), f"{love}\n\n{morning}\n")

async def together():
    async with AsyncLibreTranslate(url) as client:
        answers = await asyncio.gather(*[client.translate(text, source="en", target="tok") for text in ["I love you.", "Good morning."] * 4])
        return [a.translated_text for a in answers]
check("libretranslate-aio async, 8 at once", asyncio.run(together()), [love, morning] * 4)
sys.exit(1 if failures else 0)
PY
status=$?
kill -TERM "$server"
wait "$server" || die "ilotoki serve did not stop cleanly (status $?)"
server=
exit $status
