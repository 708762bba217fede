#!/usr/bin/env bash
# Sets everything up and runs every test: the inference library's own tests, then the Swift tests
# (which use the tiny model, the Gemma 3 270M file and servers on 127.0.0.1), with the GTK
# app's tests on a virtual display (Xvfb), the Android bridge, real LibreTranslate clients and Dialect
# against `ilotoki serve`, the model pipeline, the exit
# stress run, the sanitizers and the fuzzers.
#
# Every step runs, whatever became of the one before (one failure never hides another); the
# end lists each step with its time and whether it passed, and the exit status is 1 if any
# failed. Arguments go to `swift test` (for example --filter).
set -uo pipefail
. "$(dirname "$0")/common.sh"
cd "$REPO_ROOT" || exit 1

# Without these nothing else can run: they stop the script when they fail.
"$REPO_ROOT/scripts/setup.sh" --with-test-tools || die "setup failed"
"$REPO_ROOT/scripts/fetch-test-models.sh" || die "fetching the test models failed"

steps=()
failed=()
# What each step printed, so that the summary can end with the last lines of each that failed
# (a log that keeps only the end of the run still shows why).
step_logs=$(mktemp -d)
trap 'rm -rf "$step_logs"' EXIT
# step NAME COMMAND…: runs one step and records how it went.
step() {
    local name=$1 start status
    shift
    log "$name"
    start=$(date +%s)
    "$@" > >(tee "$step_logs/${#steps[@]}") 2>&1
    status=$?
    local took=$(($(date +%s) - start))
    if [ "$status" = 0 ]; then
        steps+=("passed  ${took}s  $name")
    else
        steps+=("FAILED  ${took}s  $name (exit $status)")
        failed+=("${#steps[@]}:$name")
    fi
}

llm_tests() {
    build/llm/bin/output_filter_test &&
        build/llm/bin/output_rows_test &&
        build/llm/bin/row_dots_test &&
        build/llm/bin/check_sketch_test &&
        build/llm/bin/principal_axes_test &&
        build/llm/bin/axes_sketch_test &&
        build/llm/bin/argmax_test &&
        build/llm/bin/trimmed_policy_test &&
        build/llm/bin/repetition_test &&
        build/llm/bin/row_dots_bench build/test-models/gemma-3-270m-q4_k_m.gguf &&
        build/llm/bin/c_api_test build/test-models &&
        batch_tokens_match &&
        each_kernel_matches &&
        prefix_reuse_matches &&
        streamed_check_matches
}

# Prompts started from the cached cells of a beginning they share with earlier ones give the
# tokens of prompts evaluated whole: alone and batched (joining a running step), with both
# heads, in every direction of the real format and with few-shot examples, interleaved so that
# the cache holds several beginnings at once.
# (A subshell: its report file goes when it ends.)
prefix_reuse_matches() (
    local model=build/test-models/gemma-3-270m-q4_k_m.gguf fresh reused n
    local prompts=() line
    local directions=("English|Toki Pona|Hello, my friend." "Russian|English|Я тебя люблю." "Toki Pona|English|jan li moku e kili."
        "English|Toki Pona|The little child plays in the garden." "Vietnamese|Toki Pona|Tôi yêu bạn."
        "Toki Pona|Russian|mi olin e sina." "English|Toki Pona|We walk to the lake today." "Russian|English|Человек ест фрукты."
        "English|Toki Pona|Where is the water?" "Toki Pona|English|tenpo suno ni la mi tawa.")
    for line in "${directions[@]}"; do
        IFS='|' read -r from to text <<<"$line"
        prompts+=("Translate this from $from to $to:
$from: $text
$to:")
    done
    prompts+=("English: Hello!
Toki Pona: toki!
English: I eat fruit.
Toki Pona:" "English: Hello!
Toki Pona: toki!
English: My mother cooks food for the family.
Toki Pona:")
    local report long
    report=$(mktemp)
    trap 'rm -f "$report"' EXIT
    fresh=$(build/llm/bin/greedy_tokens --head full --prefix fresh --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
    reused=$(build/llm/bin/greedy_tokens --head full --threads 2 "$model" 24 "${prompts[@]}" 2>"$report") || return 1
    expect_tokens "$fresh" "$reused" "prompts started from cached cells give other tokens than prompts evaluated whole" || return 1
    grep -Eq ' [1-9][0-9]* of [0-9]+ prompt tokens reused' "$report" || { echo "no prompt started from cached cells: $(cat "$report")" >&2; return 1; }
    for n in 8 3; do
        reused=$(build/llm/bin/greedy_tokens --batch "$n" --threads 2 "$model" 24 "${prompts[@]}" 2>"$report") || return 1
        expect_tokens "$fresh" "$reused" "a batch of $n from cached cells gives other tokens than prompts evaluated whole" || return 1
        grep -Eq '\([1-9][0-9]* of [0-9]+ prompt tokens reused' "$report" || { echo "a batch of $n reused no cells: $(cat "$report")" >&2; return 1; }
    done
    # A direction's own beginning is learnt even where an entry already holds only what all
    # directions share ("Translate this from", split off by two earlier directions): the
    # third direction's later prompts copy more than its first did.
    build/llm/bin/greedy_tokens --head full --threads 2 "$model" 4 "${prompts[0]}" "${prompts[3]}" "${prompts[1]}" "${prompts[7]}" \
        "${prompts[4]}" "Translate this from Vietnamese to Toki Pona:
Vietnamese: Nước ở đâu?
Toki Pona:" "Translate this from Vietnamese to Toki Pona:
Vietnamese: Con mèo ngủ.
Toki Pona:" >/dev/null 2>"$report" || return 1
    n=$(sed -n 's/.*, \([0-9]*\) of [0-9]* prompt tokens reused.*/\1/p' "$report" | tr '\n' ' ')
    read -r _ _ _ _ first _ third _ <<<"$n"
    if [ -z "$third" ] || [ "$third" -le "$first" ]; then
        echo "a new direction's prompts never took their own beginning (reused: $n)" >&2
        return 1
    fi
    # Prompts added to a running batch (as a server adds requests), and one given up mid-way.
    reused=$(build/llm/bin/greedy_tokens --batch 4 --join 3 --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
    expect_tokens "$fresh" "$reused" "prompts added to a running batch give other tokens than prompts evaluated whole" || return 1
    reused=$(build/llm/bin/greedy_tokens --batch 4 --join 2 --drop 1 --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
    expect_tokens "$(sed '2s/.*/dropped/' <<<"$fresh")" "$reused" "a prompt given up in a batch changed the others' tokens" || return 1
    # A prompt longer than the model's sliding window first (its window layers no longer hold
    # its beginning): the prompts after it that share that beginning must not take its cells.
    long="Translate this from Toki Pona to English:
Toki Pona: $(for _ in $(seq 110); do printf 'jan li moku e kili. '; done)
English:"
    reused=$(build/llm/bin/greedy_tokens --head full --threads 2 "$model" 24 "$long" "${prompts[@]}" 2>/dev/null | tail -n +2) || return 1
    expect_tokens "$fresh" "$reused" "prompts after one longer than the sliding window give other tokens than prompts evaluated whole" ||
        return 1
    fresh=$(build/llm/bin/greedy_tokens --head full --prefix fresh --threads 2 "$model" 24 "${prompts[@]:9}" 2>/dev/null) || return 1
    for n in 0 2; do
        reused=$(build/llm/bin/greedy_tokens --batch "$n" --head trimmed --threads 2 --characters "$TOKI_PONA_TEST_CHARACTERS" \
            --wider "$WIDER_TEST_CHARACTERS" "$model" 24 "${prompts[@]:9}" 2>/dev/null) || return 1
        expect_tokens "$fresh" "$reused" "the trimmed head from cached cells (batch $n) gives other tokens than llama.cpp's head on whole prompts" ||
            return 1
    done
    reused=$(build/llm/bin/greedy_tokens --batch 2 --join 1 --head trimmed --threads 2 --characters "$TOKI_PONA_TEST_CHARACTERS" \
        --wider "$WIDER_TEST_CHARACTERS" "$model" 24 "${prompts[@]:9}" 2>/dev/null) || return 1
    expect_tokens "$fresh" "$reused" "the trimmed head on prompts added to a running batch gives other tokens than llama.cpp's head" ||
        return 1
)

# expect_tokens WANT GOT MESSAGE: true where GOT lists the tokens WANT lists (and WANT lists
# some); otherwise MESSAGE goes to standard error.
expect_tokens() {
    [ -n "$1" ] && [ "$1" = "$2" ] && return 0
    echo "$3" >&2
    return 1
}

# The trimmed head on each row kernel this CPU can run, and on ggml's vec_dot alone, gives
# llama.cpp's head's tokens. The AVX2 kernel is what an AVX2-only CPU runs: its load-time
# measurement there hands checks of few states to vec_dot, so both paths of a check are used.
each_kernel_matches() {
    local model=build/test-models/gemma-3-270m-q4_k_m.gguf full kernel trimmed
    local prompts=("English: The cat sleeps on the warm mat.
Toki Pona:" "English: I love my mother and my father.
Russian:" "Toki Pona: mi moku e kili.
English:" "English: We go to the big city today.
Vietnamese:")
    local sets=(--characters "$TOKI_PONA_TEST_CHARACTERS" --wider "$WIDER_TEST_CHARACTERS")
    full=$(build/llm/bin/greedy_tokens --head full --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
    for kernel in avx512-vnni avx2 vec_dot; do
        trimmed=$(ILOTOKI_ROW_KERNEL=$kernel build/llm/bin/greedy_tokens --head trimmed --threads 2 "${sets[@]}" \
            "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
        if [ "$trimmed" != "$full" ]; then
            echo "the trimmed head on $kernel gives other tokens than llama.cpp's head" >&2
            return 1
        fi
        # A batch's steps over every row (the prompts into several languages) on the same kernel.
        trimmed=$(ILOTOKI_ROW_KERNEL=$kernel build/llm/bin/greedy_tokens --batch 4 --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) ||
            return 1
        if [ "$trimmed" != "$full" ]; then
            echo "a batch's steps over every row on $kernel give other tokens than llama.cpp's head" >&2
            return 1
        fi
    done
}

# expect_in_report REPORT PATTERN WHAT: true where REPORT (greedy_tokens' standard error) has
# a line matching the extended PATTERN; else says WHAT, with the report.
expect_in_report() {
    grep -Eq "$2" "$1" && return 0
    echo "$3: $(cat "$1")" >&2
    return 1
}

# Where the model does not stay in memory the check streams the excluded rows from the file
# (ILOTOKI_STREAMED_CHECK=1 asks for it, as a small memory limit does): llama.cpp's head's tokens on
# every kernel, with rollbacks and widening among them, and afterwards none of the head's rows
# in the page cache but the few a run reads for its input embeddings (fincore; the model's
# pages dropped first). On tmpfs, whose pages are the file itself, only the tokens are checked.
# (A subshell: its report file goes when it ends.)
streamed_check_matches() (
    local model=build/test-models/gemma-3-270m-q4_k_m.gguf full kernel trimmed report resident size
    local examples="Translate this from English to Toki Pona:
English: Hello, my friend.
Toki Pona: toki, jan pona mi.
Translate this from English to Toki Pona:
English: I eat fruit in the morning.
Toki Pona: tenpo suno la mi moku e kili.
Translate this from English to Toki Pona:
English: The little child plays in the garden with the dog.
Toki Pona: jan lili li musi lon ma kasi lon soweli.
Translate this from English to Toki Pona:
English:"
    local prompts=("$examples Where is the water?
Toki Pona:" "$examples My mother cooks food for the family.
Toki Pona:" "Translate this from English to Toki Pona:
English: The river runs past the old mill.
Toki Pona:" "Toki Pona: mi moku e kili.
English:")
    local sets=(--characters "$TOKI_PONA_TEST_CHARACTERS" --wider "$WIDER_TEST_CHARACTERS")
    report=$(mktemp)
    trap 'rm -f "$report"' EXIT
    full=$(build/llm/bin/greedy_tokens --head full --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
    for kernel in avx512-vnni avx2 vec_dot; do
        trimmed=$(ILOTOKI_STREAMED_CHECK=1 ILOTOKI_ROW_KERNEL=$kernel build/llm/bin/greedy_tokens --head trimmed --threads 2 "${sets[@]}" \
            "$model" 24 "${prompts[@]}" 2>"$report") || return 1
        expect_in_report "$report" "checks stream the excluded rows" "the check did not stream" || return 1
        expect_tokens "$full" "$trimmed" "the streamed check on $kernel gives other tokens than llama.cpp's head" || return 1
    done
    expect_in_report "$report" "rollbacks [1-9]" "no streamed check failed a choice (nothing rolled back)" || return 1
    expect_in_report "$report" "sketched checks [1-9]" "no streamed check was served by the sketch" || return 1
    # The sketch's bound made to let chosen rows through (every 97th row is read exactly,
    # whatever its bound), and no sketch at all: the same tokens.
    trimmed=$(ILOTOKI_STREAMED_CHECK=1 ILOTOKI_SKETCH_READ_EVERY=97 build/llm/bin/greedy_tokens --head trimmed --threads 2 "${sets[@]}" \
        "$model" 24 "${prompts[@]}" 2>"$report") || return 1
    expect_in_report "$report" "sketched checks [1-9][0-9]* reading [0-9]{4,} rows" "the rows let through were not read" || return 1
    expect_tokens "$full" "$trimmed" "the sketch with rows let through gives other tokens than llama.cpp's head" || return 1
    trimmed=$(ILOTOKI_STREAMED_CHECK=1 ILOTOKI_CHECK_SKETCH=0 build/llm/bin/greedy_tokens --head trimmed --threads 2 "${sets[@]}" \
        "$model" 24 "${prompts[@]}" 2>"$report") || return 1
    expect_in_report "$report" "sketched checks 0 " "ILOTOKI_CHECK_SKETCH=0 still used the sketch" || return 1
    expect_tokens "$full" "$trimmed" "the streamed check without the sketch gives other tokens than llama.cpp's head" || return 1
    # The device says it is short of memory in the middle of the first translation, and has
    # memory again after the third: the checks stream from the second on, read through the
    # mapping again for the fourth, and no token changes.
    trimmed=$(build/llm/bin/greedy_tokens --pressure-at 3 --relief-after 3 --head trimmed --threads 2 "${sets[@]}" "$model" 24 \
        "${prompts[@]}" 2>"$report") || return 1
    expect_tokens "$full" "$trimmed" "the checks gave other tokens once the device said it is short of memory" || return 1
    if [ "$(grep '^checks ' "$report" | tr '\n' ,)" != "checks through the mapping,checks streamed,checks streamed,checks through the mapping," ]; then
        echo "the checks did not follow the device's memory: $(cat "$report")" >&2
        return 1
    fi
    if [ "$(stat -f -c %T "$model")" = tmpfs ]; then
        echo "the model is on tmpfs: the page cache is not checked" >&2
        return 0
    fi
    # A short answer that stays in the Toki Pona rows (no step with llama.cpp's head, which
    # reads every row through its own mapping), on a copy of the file that no other process
    # reads (the test model is shared with the cache's other links), its pages dropped first.
    local copy=build/test-models/streamed-check-copy.gguf
    trap 'rm -f "$report" "$copy"' EXIT
    cp "$model" "$copy"
    python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.fsync(fd); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$copy"
    ILOTOKI_STREAMED_CHECK=1 build/llm/bin/greedy_tokens --head trimmed --threads 2 "${sets[@]}" "$copy" 12 "${prompts[0]}" \
        >/dev/null 2>"$report" || return 1
    expect_in_report "$report" "rollbacks 0 full-head steps 0" "the short answer left the kept rows" || return 1
    resident=$(fincore --bytes --noheadings --output RES "$copy" | tr -d ' ')
    size=$(stat -c %s "$copy")
    # The head is about 170 MiB of the 241 MiB file; what stays is the body and a few rows.
    if [ "$resident" -gt $((size - 150 * 1048576)) ]; then
        echo "after a streamed check $((resident >> 20)) MiB of the $((size >> 20)) MiB file stayed in the page cache" >&2
        return 1
    fi
)

# Prompts decoded together give the tokens each gives alone (the C API directly; the Swift
# tests check the 36 benchmark prompts and the streams).
batch_tokens_match() {
    local model=build/test-models/gemma-3-270m-q4_k_m.gguf alone together
    local prompts=("English: Hello!
Toki Pona:" "Russian: Я тебя люблю.
English:" "Toki Pona: jan li moku e kili.
English:" "Vietnamese: Tôi yêu bạn.
English:" "English: The little child plays in the garden.
Toki Pona:" "Toki Pona: toki!
Russian:" "English: I love you.
Vietnamese:" "Russian: Привет!
Toki Pona:" "English: Today we go to the big city.
Russian:")
    alone=$(build/llm/bin/greedy_tokens --head full --threads 2 "$model" 32 "${prompts[@]}" 2>/dev/null) || return 1
    together=$(build/llm/bin/greedy_tokens --batch 8 --threads 2 "$model" 32 "${prompts[@]}" 2>/dev/null) || return 1
    if [ -z "$alone" ] || [ "$alone" != "$together" ]; then
        echo "batched tokens differ from alone" >&2
        return 1
    fi
    batch_trimmed_tokens_match
}

# The trimmed head in a batch: steps of 2 and 4 sequences choose among Toki Pona's rows, one
# check serves every sequence's waiting states, and a sequence whose answer leaves for English
# is rolled back alone and the head widens; each sequence's tokens are still the ones it gets
# alone with llama.cpp's head. The base model keeps few-shot answers in Toki Pona for a while.
batch_trimmed_tokens_match() (
    local model=build/test-models/gemma-3-270m-q4_k_m.gguf alone together report n
    local prompts=("English: Hello!
Toki Pona: toki!
English: I eat fruit.
Toki Pona:" "English: Good morning!
Toki Pona: suno pona!
English: The cat sleeps.
Toki Pona:" "English: Thank you.
Toki Pona: sina pona.
English: We go to the big city today.
Toki Pona:" "Russian: Привет!
Toki Pona: toki!
Russian: Я тебя люблю.
Toki Pona:" "English: Hello!
Toki Pona: toki!
English: My mother cooks food for the family.
Toki Pona:" "Toki Pona: mi moku e kili.
English:")
    local sets=(--characters "$TOKI_PONA_TEST_CHARACTERS" --wider "$WIDER_TEST_CHARACTERS")
    alone=$(build/llm/bin/greedy_tokens --head full --threads 2 "$model" 24 "${prompts[@]}" 2>/dev/null) || return 1
    report=$(mktemp)
    trap 'rm -f "$report"' EXIT
    for n in 2 4; do
        together=$(build/llm/bin/greedy_tokens --batch "$n" --head trimmed --threads 2 "${sets[@]}" "$model" 24 \
            "${prompts[@]}" 2>"$report") || return 1
        expect_tokens "$alone" "$together" "the trimmed head in a batch of $n gives other tokens than each prompt alone" || return 1
        # The trimmed head took part: at least one check ran for the batch's states.
        expect_in_report "$report" '^head: [0-9]+ rows, [1-9][0-9]* checks' "a batch of $n did not use the trimmed head" || return 1
        # The answer in English left the kept rows: its rollbacks were decided by their rows'
        # exact values, with the tokens above.
        expect_in_report "$report" ' [1-9][0-9]* exact choices' "no rollback of a batch of $n was decided by its rows' exact values" ||
            return 1
    done
    # A batch into several languages, as a server's (prompts joining while it runs): the prompt
    # answered in English is marked as written outside the kept characters, and every prompt
    # still gives its tokens alone, the others with the trimmed head's checks.
    together=$(build/llm/bin/greedy_tokens --batch 4 --join 2 --outside 5 --head trimmed --threads 2 "${sets[@]}" "$model" 24 \
        "${prompts[@]}" 2>"$report") || return 1
    expect_tokens "$alone" "$together" "a batch into several languages gives other tokens than each prompt alone" || return 1
    expect_in_report "$report" '^head: [0-9]+ rows, [1-9][0-9]* checks' \
        "the prompts into Toki Pona of a batch into several languages did not use the trimmed head" || return 1
    # Alone in a batch, the prompt written outside them never takes the trimmed head.
    together=$(build/llm/bin/greedy_tokens --batch 2 --outside 0 --head trimmed --threads 2 "${sets[@]}" "$model" 24 \
        "${prompts[5]}" 2>"$report") || return 1
    expect_tokens "$(sed -n 6p <<<"$alone")" "$together" "the prompt answered in English, alone in a batch" || return 1
    expect_in_report "$report" '^head: [0-9]+ rows, 0 checks' "a prompt written outside the kept characters took the trimmed head"
)

swift_tests() {
    swift build --build-tests || return 1
    # GTK draws with Cairo on Xvfb; the app's tests need no desktop session or accessibility bus.
    GSK_RENDERER=cairo NO_AT_BRIDGE=1 xvfb-run -a -s "-screen 0 1280x1024x24" swift test --skip-build "$@"
}

bench_smoke() {
    local home
    home=$(mktemp -d)
    local ilotoki status
    ilotoki="$(swift build --show-bin-path)/ilotoki"
    ILOTOKI_HOME="$home" "$ilotoki" bench --model build/test-models/tiny.gguf --prompts 3 --max-tokens 8 --batch 1,2 >/dev/null &&
        ILOTOKI_HOME="$home" "$ilotoki" bench --model build/test-models/tiny.gguf --lines set --prompts 4 --batch 1,2 >/dev/null &&
        printf 'jan li moku e kili.\nThe cat sleeps.\n\nЯ тебя люблю.\n' >"$home/lines.txt" &&
        ILOTOKI_HOME="$home" "$ilotoki" bench --model build/test-models/tiny.gguf --lines "$home/lines.txt" --json >"$home/lines.json" &&
        python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); assert r["lines"] and len(r["runs"][0]["prompts"]) == 3, r' "$home/lines.json"
    status=$?
    rm -rf "$home"
    return $status
}

# The Swift sources read as one style: the checked-in .swift-format, the toolchain's
# swift-format (Apple/Stubs mirror Apple's own names and are left as they are).
swift_format_lint() {
    swift format lint --strict --recursive Sources Tests Fuzz Apple/IloToki Apple/IloTokiTests
}

# Quiet when it passes; when it fails, the failures and the end of the run are shown.
without_llm() {
    local output status
    output=$(mktemp)
    ILOTOKI_WITHOUT_LLM=1 ILOTOKI_LLM_LIB=/nonexistent swift test >"$output" 2>&1
    status=$?
    if [ "$status" != 0 ]; then
        grep -E "✘|error:|Fatal error|failed \(" "$output" | head -40
        tail -30 "$output"
    fi
    rm -f "$output"
    return $status
}

fuzz_briefly() {
    "$REPO_ROOT/scripts/fuzz.sh" --build || return 1
    local status=0
    for target in $("$REPO_ROOT/scripts/fuzz.sh" --list); do
        "$REPO_ROOT/scripts/fuzz.sh" "$target" --seconds 10 || status=1
    done
    return $status
}

step "swift-format lint" swift_format_lint
step "Apple app: what Linux can check" "$REPO_ROOT/scripts/check-apple.sh"
step "Android app: what Linux can check" "$REPO_ROOT/scripts/check-android.sh"
step "the front ends' checks catch planted mistakes" "$REPO_ROOT/scripts/test-front-end-checks.sh"
step "inference library tests" llm_tests
step "arm64 row kernels under qemu" "$REPO_ROOT/scripts/check-row-dots-arm64.sh"
step "Swift tests" swift_tests "$@"
step "GTK app: every control has an accessible name (AT-SPI)" "$REPO_ROOT/scripts/test-accessibility.sh"
step "JNI bridge under a Java harness" "$REPO_ROOT/scripts/test-jni.sh"
step "LibreTranslate clients against ilotoki serve (libretranslatepy, libretranslate-aio)" "$REPO_ROOT/scripts/test-serve-clients.sh"
step "Dialect translating through ilotoki serve (Xvfb, AT-SPI)" "$REPO_ROOT/scripts/test-dialect.sh"
step "model pipeline" "$REPO_ROOT/scripts/test-model-pipeline.sh"
step "benchmark smoke run (tiny model)" bench_smoke
step "the Debian package: lintian-clean, installed and run in a minimal Debian 12, removed" "$REPO_ROOT/scripts/test-package.sh"
step "Core and the design without the inference library (no llama.cpp linked)" without_llm
step "every way out of the command line, cores busy (30 s)" "$REPO_ROOT/scripts/stress-exits.sh" --seconds 30
step "sanitizers (ASan+UBSan on the inference library, TSan on the Swift suites)" "$REPO_ROOT/scripts/test-sanitizers.sh"
step "fuzzers (10 s each)" fuzz_briefly

printf '\n'
log "summary"
printf '  %s\n' "${steps[@]}"
if [ ${#failed[@]} -gt 0 ]; then
    names=()
    for entry in "${failed[@]}"; do
        number=${entry%%:*}
        names+=("${entry#*:}")
        printf '\n--- the last lines of "%s" ---\n' "${entry#*:}"
        tail -n 25 "$step_logs/$((number - 1))"
    done
    printf '\n%s of %s steps failed: %s\n' "${#failed[@]}" "${#steps[@]}" "$(IFS=';'; echo "${names[*]}")"
    exit 1
fi
printf '\nall %s steps passed\n' "${#steps[@]}"
