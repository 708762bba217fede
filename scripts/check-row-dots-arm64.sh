#!/usr/bin/env bash
# Cross-builds the trimmed head's row kernels and their test for arm64 with the dot-product
# instructions (as the Android build and Apple silicon Macs compile them) and runs the test
# under qemu's user-mode emulator, so the NEON kernel is checked on an x86-64 machine too.
# scripts/test.sh runs it; setup.sh --with-test-tools installs the cross compiler and qemu.
set -euo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT"

if [ "$(uname -m)" = aarch64 ]; then
    log "arm64 row kernels: this machine is arm64; build/llm/bin/row_dots_test runs them natively"
    exit 0
fi
for tool in aarch64-linux-gnu-g++ qemu-aarch64; do
    command -v "$tool" >/dev/null || die "$tool is missing: run scripts/setup.sh --with-test-tools (as root)"
done
source_dir=$("$REPO_ROOT/scripts/llama-source.sh")
out="$BUILD_DIR/row-dots-arm64"
mkdir -p "$out"
log "arm64 row kernels: cross-built, run under qemu-aarch64"
aarch64-linux-gnu-g++ -O2 -std=c++17 -Wall -Wextra -Werror -march=armv8.2-a+dotprod \
    -I "$source_dir/ggml/include" -I llm/src llm/src/row_dots.cpp llm/tests/row_dots_test.cpp -o "$out/row_dots_test"
qemu-aarch64 -L /usr/aarch64-linux-gnu "$out/row_dots_test" | tee "$out/result.txt"
grep -q "neon-dotprod, 640 values: ok" "$out/result.txt" || die "the arm64 kernel did not run"
