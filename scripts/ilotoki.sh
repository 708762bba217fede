#!/usr/bin/env bash
# Builds ilo toki (release) if needed and runs the `ilotoki` command with the given arguments,
# e.g. scripts/ilotoki.sh translate --model FILE.gguf "jan li moku e kili"
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

"$REPO_ROOT/scripts/setup.sh" >&2
swift build -c release --product ilotoki >&2
exec "$REPO_ROOT/.build/release/ilotoki" "$@"
