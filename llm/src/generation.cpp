// The generation state machine of a translation: start (tokenize, evaluate the prompt), then
// next, token by token (decode the last token, choose the next greedily, turn it into text
// through the output filter), until it finishes (end of generation, a limit, a stop
// sequence, a stop). Every method runs on the generating thread, under the handle's run mutex.
#include "handle.hpp"

#include "argmax.hpp"
#include "llama_log.hpp"
#include "utf8.hpp"

#include <algorithm>
#include <climits>
#include <cstring>

using namespace ilotoki;

void ilotoki_llm::finish(ilotoki_llm_finish_reason reason) {
    if (finished) return;
    finished = true;
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.finish_reason = reason;
        stats.major_page_faults = major_page_faults_so_far() - page_faults_at_start;
    }
    if (reason == ILOTOKI_LLM_FINISH_STOPPED || reason == ILOTOKI_LLM_FINISH_ERROR) {
        output.discard();
    } else if (reason == ILOTOKI_LLM_FINISH_END_OF_GENERATION || reason == ILOTOKI_LLM_FINISH_MAX_TOKENS ||
               reason == ILOTOKI_LLM_FINISH_REPETITION) {
        output.flush();
    }
}

/// Evaluates `count` tokens at the current position. Returns false if it was aborted.
bool ilotoki_llm::decode(const llama_token *tokens, int32_t count, bool logits_for_all) {
    for (int32_t offset = 0; offset < count; offset += batch_size) {
        const int32_t chunk = std::min(batch_size, count - offset);
        batch.n_tokens = chunk;
        for (int32_t i = 0; i < chunk; ++i) {
            const bool last = offset + i == count - 1;
            set_batch_token(batch, i, tokens[offset + i], position + i, 0, last || logits_for_all);
        }
        if (!evaluate(context, batch)) return false;
        position += chunk;
    }
    if (count > 0) last_decoded = tokens[count - 1];
    return true;
}

llama_token ilotoki_llm::select_token() {
    if (params.selection != ILOTOKI_LLM_SELECT_ARGMAX && sampler != nullptr) {
        return llama_sampler_sample(sampler, context, -1);
    }
    // Greedy decoding: one right answer per input, so the first highest logit wins (as
    // llama.cpp's greedy sampler picks it), without sorting a 262k vocabulary per token.
    const float *logits = llama_get_logits_ith(context, -1);
    if (logits == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
    return ilotoki::first_maximum(logits, vocabulary_size);
}

std::vector<llama_token> ilotoki_llm::tokenize(const char *text) const {
    const auto length = static_cast<int32_t>(std::strlen(text));
    std::vector<llama_token> tokens(static_cast<size_t>(length) + 2);
    // parse_special is off: text typed by the user can never become a control token.
    int32_t count = llama_tokenize(vocab, text, length, tokens.data(), static_cast<int32_t>(tokens.size()),
                                   /*add_special*/ true, /*parse_special*/ false);
    if (count < 0) {
        if (count == INT32_MIN) throw LLMError{ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG, "The text is too long to tokenize."};
        tokens.resize(static_cast<size_t>(-count));
        count = llama_tokenize(vocab, text, length, tokens.data(), static_cast<int32_t>(tokens.size()), true, false);
        if (count < 0) throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "Tokenizing the prompt failed."};
    }
    tokens.resize(static_cast<size_t>(count));
    return tokens;
}

void ilotoki_llm::start(const char *prompt, const ilotoki_llm_start_params &start_params) {
    const size_t prompt_length = std::strlen(prompt);
    if (!ilotoki::utf8::is_valid(prompt, prompt_length)) {
        throw LLMError{ILOTOKI_LLM_ERROR_INVALID_TEXT, "The prompt is not valid UTF-8 text."};
    }
    std::vector<std::string> stops = ilotoki_llm::stop_sequences(start_params);
    translation_id.store(start_params.ticket != 0 ? start_params.ticket : reserve_ticket());
    follow_memory_pressure();
    started = false;
    finished = false;
    token_awaiting_decode = false;
    position = 0;
    params = start_params;
    repetition.reset();
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        generated.clear();
        stats = {};
        batch_run.reset();
        started_at = Clock::now();
        page_faults_at_start = major_page_faults_so_far();
    }

    params.stop_sequences = nullptr; // not kept: the caller owns those strings
    params.stop_sequence_count = 0;
    output.reset(std::move(stops), params.max_lines);

    if (sampler != nullptr) {
        llama_sampler_free(sampler);
        sampler = nullptr;
    }
    if (params.selection == ILOTOKI_LLM_SELECT_LLAMA_GREEDY) {
        sampler = llama_sampler_chain_init(llama_sampler_chain_default_params());
        llama_sampler_chain_add(sampler, llama_sampler_init_greedy());
    } else if (params.selection == ILOTOKI_LLM_SELECT_LLAMA_SAMPLING_CHAIN) {
        sampler = llama_sampler_chain_init(llama_sampler_chain_default_params());
        llama_sampler_chain_add(sampler, llama_sampler_init_top_k(40));
        llama_sampler_chain_add(sampler, llama_sampler_init_top_p(0.95f, 1));
        llama_sampler_chain_add(sampler, llama_sampler_init_temp(0.8f));
        llama_sampler_chain_add(sampler, llama_sampler_init_dist(kSamplingChainSeed));
    }

    // A stop that came before this translation began (for its reserved ticket) ends it
    // here, before any work.
    if (stop_requested()) {
        started = true;
        finish(ILOTOKI_LLM_FINISH_STOPPED);
        return;
    }

    prompt_tokens = tokenize(prompt);
    const auto prompt_count = static_cast<int32_t>(prompt_tokens.size());
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.prompt_tokens = prompt_count;
    }
    if (prompt_tokens.empty()) throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "The prompt is empty."};
    if (prompt_count >= context_length) {
        throw LLMError{ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG,
                        "The text is too long: the prompt has " + std::to_string(prompt_count) +
                            " tokens and the model's context holds " + std::to_string(context_length) +
                            " (with room for the translation)."};
    }

    prepare_context(std::min(context_length, prompt_count + token_limit()));
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.context_length = context_allocated;
    }
    // Every translation starts fresh: no conversation state is carried over, but the cells of
    // the prompt's beginning where an earlier prompt had the same (prefix_cache.hpp). The
    // cells are emptied, not their buffers zeroed: attention skips every cell not in use (its
    // mask is -inf, and llama.cpp's kernels leave such cells out), and zeroing tens of MiB of
    // buffers took milliseconds of every translation.
    llama_memory_clear(llama_get_memory(context), false);
    started = true;
    // The trimmed head serves greedy choices from the last prompt token on.
    bool trimming = head != nullptr && params.head == ILOTOKI_LLM_HEAD_TRIMMED && params.selection == ILOTOKI_LLM_SELECT_ARGMAX &&
                    !params.logits_for_all_prompt_tokens;
    const ilotoki::CharacterSet kept_characters(start_params.output_characters, start_params.output_character_count);
    // Without characters to keep there is nothing to trim to.
    if (trimming && kept_characters.empty()) trimming = false;
    if (trimming) {
        head->use_characters(vocab, kept_characters,
                             ilotoki::CharacterSet(start_params.wider_characters, start_params.wider_character_count));
        drop_rows_read_through_mapping();
        // Checking a choice costs a dot product with every excluded row, once per token: with
        // ggml's one-state kernel it pays only where the kept rows are few (see
        // docs/benchmarks.md, "The trimmed output head").
        trimming = head->worth_trimming();
    }
    trimmed_run.reset(trimming);
    // Pages the system took while the app was away come back in one pass, before decoding.
    // (A large kept set, not held compact, is read in place through the mapping: whole too.)
    restore_residency(params.restore_residency, !trimming || !head->kept_rows_are_few());
    // Not kept: the caller owns them.
    params.output_characters = nullptr;
    params.output_character_count = 0;
    params.wider_characters = nullptr;
    params.wider_character_count = 0;
    // The prompt's own choice comes from llama.cpp's head, so that the first piece is final
    // at once. Where checks stream, llama.cpp's head would read every row of the head through
    // its mapping once a translation, the very pages the streamed check keeps out of memory:
    // the trimmed head chooses it too, and it waits for a check like the tokens after it (a
    // token's results do not depend on what is evaluated beside it, patch 0004, so a step
    // taken again after a rollback computes what the prompt's evaluation did).
    const bool prompt_trimmed = trimming && head->streams();
    hook_head(prompt_trimmed);
    if (prompt_trimmed) head->prepare(0, false);
    trimmed_run.head_runs_before = head != nullptr ? head->runs() : 0;
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_rows = trimming ? head->kept_rows() : vocabulary_size;
    }
    const auto prefill_start = Clock::now();
    // Logits for every prompt token need every token evaluated.
    const bool reuse = params.reuse_prefix && !params.logits_for_all_prompt_tokens;
    const int32_t reused = reuse ? prefixes.restore(context, 0, prompt_tokens) : 0;
    position = reused;
    const bool completed =
        decode(prompt_tokens.data() + reused, prompt_count - reused, params.logits_for_all_prompt_tokens);
    if (completed && reuse) prefixes.remember(context, 0, prompt_tokens);
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.prefill_ms = milliseconds_between(prefill_start, Clock::now());
        stats.reused_prompt_tokens = reused;
        stats.prefix_cache_bytes = prefixes.bytes();
    }
    if (!completed) finish(ILOTOKI_LLM_FINISH_STOPPED);
    hook_head(trimming);
}

std::vector<std::string> ilotoki_llm::stop_sequences(const ilotoki_llm_start_params &start_params) {
    std::vector<std::string> stops;
    for (size_t i = 0; i < start_params.stop_sequence_count && start_params.stop_sequences != nullptr; ++i) {
        const char *stop = start_params.stop_sequences[i];
        if (stop == nullptr) continue;
        // A stop sequence that is not text could match inside a character of the output and
        // cut it in two (found by fuzz_output_filter); valid ones match only whole characters.
        if (!ilotoki::utf8::is_valid(stop, std::strlen(stop))) {
            throw LLMError{ILOTOKI_LLM_ERROR_INVALID_TEXT, "Stop sequence " + std::to_string(i + 1) + " is not valid UTF-8 text."};
        }
        stops.emplace_back(stop);
    }
    return stops;
}

void ilotoki_llm::drop_rows_read_through_mapping() {
    // A kept set's compact copy reads its rows through the mapping; where checks stream, the
    // head's pages are not to stay.
    if (head != nullptr && head->read_rows_through_mapping() && residency != nullptr) {
        residency->drop(head->file_offset(), head->file_bytes());
    }
}

bool ilotoki_llm::begin_streamed_checks() {
    std::string why;
    if (!head->stream_checks(path, why)) return false;
    // Nothing reads the rows through a mapping now: their pages go, and the restore before
    // each translation leaves them out.
    residency->leave_out(head->file_offset(), head->file_bytes());
    residency->drop(head->file_offset(), head->file_bytes());
    return true;
}

void ilotoki_llm::check_head(int32_t count, const float *kept_values) {
    const ilotoki::TrimmedHead::SketchCounts before = head->sketch_counts();
    head->check(count, threadpool, kept_values);
    const ilotoki::TrimmedHead::SketchCounts after = head->sketch_counts();
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.head_sketched_checks += static_cast<int32_t>(after.checks - before.checks);
    stats.head_rows_read_exactly += static_cast<int64_t>(after.rows_read - before.rows_read);
}

void ilotoki_llm::follow_memory_pressure() {
    const int said = memory_pressure.exchange(-1);
    if (said < 0 || head == nullptr || residency == nullptr) return;
    if (said == 1 && !head->streams()) {
        // Where the file cannot be read again, the checks go on through the mapping.
        if (!begin_streamed_checks()) return;
        if (check_streams_signalled.empty()) {
            check_streams_signalled = std::string("the device said it is short of memory (") + head->stream_method() + ")";
        }
        streams_for_pressure = true;
        check_streams.store(check_streams_signalled.c_str());
    } else if (said == 0 && streams_for_pressure) {
        head->stop_streaming();
        streams_for_pressure = false;
        residency->set_left_out(false);
        check_streams.store("");
    }
}

void ilotoki_llm::whole_head_read(bool reading, bool stay) {
    if (residency == nullptr || !checks_stream()) return;
    if (reading) {
        if (!residency->is_left_out()) return;
        residency->set_left_out(false);
        const auto start = Clock::now();
        const auto done = residency->restore(kRestoreThreshold);
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.restored_bytes += done.bytes_read;
        stats.restore_ms += milliseconds_between(start, Clock::now());
    } else if (!stay) {
        residency->set_left_out(true);
    }
}

void ilotoki_llm::restore_residency(bool restore, bool whole_head) {
    if (residency != nullptr && checks_stream()) residency->set_left_out(!whole_head);
    double fraction = 1.0;
    uint64_t bytes = 0;
    double milliseconds = 0;
    const int64_t faults_before = major_page_faults_so_far();
    if (residency != nullptr && residency->available()) {
        const auto start = Clock::now();
        if (restore) {
            const auto done = residency->restore(kRestoreThreshold);
            fraction = done.resident_before;
            bytes = done.bytes_read;
        } else {
            fraction = residency->resident_fraction();
        }
        milliseconds = milliseconds_between(start, Clock::now());
    }
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.resident_fraction = fraction;
    stats.restored_bytes = bytes;
    stats.restore_ms = milliseconds;
    stats.restore_page_faults = major_page_faults_so_far() - faults_before;
}

llama_context *ilotoki_llm::make_context(llama_context_params params, const std::string &what) {
    params.n_threads = threads;
    params.n_threads_batch = threads;
    params.flash_attn_type = flash_attention;
    params.no_perf = true;
    params.abort_callback = &ilotoki_llm::abort_callback;
    params.abort_callback_data = this;
    ilotoki::clear_llama_errors();
    llama_context *made = llama_init_from_model(model, params);
    if (made == nullptr) {
        const std::string reason = ilotoki::first_llama_error();
        std::string message = "Could not create a context " + what;
        if (!reason.empty()) message += " (llama.cpp: " + reason + ")";
        throw LLMError{ILOTOKI_LLM_ERROR_OUT_OF_MEMORY, message + "."};
    }
    llama_attach_threadpool(made, threadpool, nullptr);
    return made;
}

void ilotoki_llm::prepare_context(int32_t need) {
    if (context != nullptr && context_allocated >= need) return;
    const int32_t size = std::min(context_length, round_up(need, kContextGranule));
    if (context != nullptr) {
        if (head_hooked) llama_set_output_head(context, nullptr, nullptr);
        head_hooked = false;
        // The cells were made in this context: another size starts again.
        prefixes.clear();
        free_context(context);
        context_allocated = 0;
        return_freed_memory();
    }
    auto context_params = llama_context_default_params();
    context_params.n_ctx = static_cast<uint32_t>(size);
    context_params.n_batch = static_cast<uint32_t>(std::min(batch_size, size));
    // Micro-batches of up to 512 tokens: smaller ones would save about a MiB and split
    // prompts, whose last token's logits then come from a product of another shape.
    context_params.n_ubatch = std::min<uint32_t>(512, context_params.n_batch);
    context_params.n_seq_max = 1;
    // swa_full stays on (llama.cpp's default): at sizes up to the sliding window plus a
    // micro-batch it saves nothing, and past them the sliding layers' cells a rollback of
    // the trimmed head needs again could already be overwritten (docs/benchmarks.md).
    context = make_context(context_params, "of " + std::to_string(size) + " tokens for the model '" + path + "'");
    context_allocated = static_cast<int32_t>(llama_n_ctx(context));
}

void ilotoki_llm::hook_head(bool on) {
    if (on == head_hooked) return;
    llama_set_output_head(context, on ? &ilotoki::TrimmedHead::build : nullptr, on ? head.get() : nullptr);
    head_hooked = on;
}

void ilotoki_llm::release(llama_token token) {
    if (finished) return;
    if (llama_vocab_is_eog(vocab, token)) {
        finish(ILOTOKI_LLM_FINISH_END_OF_GENERATION);
        return;
    }
    switch (output.feed(ilotoki::token_text(vocab, token, /*special*/ false))) {
    case ilotoki::OutputFilter::Outcome::Continue:
        if (repetition.add(token)) finish(ILOTOKI_LLM_FINISH_REPETITION);
        break;
    case ilotoki::OutputFilter::Outcome::StopSequence: finish(ILOTOKI_LLM_FINISH_STOP_SEQUENCE); break;
    case ilotoki::OutputFilter::Outcome::LineLimit: finish(ILOTOKI_LLM_FINISH_LINE_LIMIT); break;
    }
}

/// Returns true with a piece in `piece`, or false once the translation has ended.
bool ilotoki_llm::next() {
    const auto step_start = Clock::now();
    struct DecodeTimer {
        ilotoki_llm &llm;
        Clock::time_point from;
        ~DecodeTimer() {
            std::lock_guard<std::mutex> lock(llm.stats_mutex);
            llm.stats.decode_ms += milliseconds_between(from, Clock::now());
        }
    } timer{*this, step_start};

    while (true) {
        if (stop_requested()) {
            finish(ILOTOKI_LLM_FINISH_STOPPED);
            return false;
        }
        if (output.take_ready(piece)) {
            std::lock_guard<std::mutex> lock(stats_mutex);
            if (stats.first_piece_ms == 0) stats.first_piece_ms = milliseconds_between(started_at, Clock::now());
            return true;
        }
        if (finished) return false;
        if (trimmed_run.active) {
            step_trimmed();
        } else {
            step_full();
        }
    }
}

int32_t ilotoki_llm::token_limit() const { return params.max_tokens > 0 ? params.max_tokens : context_length; }

bool ilotoki_llm::evaluate_last_token() {
    if (!decode(&last_token, 1, false)) return false;
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.decoded_tokens += 1;
    token_awaiting_decode = false;
    return true;
}

void ilotoki_llm::accept(llama_token token, double selection_ms) {
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.selection_ms += selection_ms;
        generated.push_back(token);
        stats.generated_tokens = static_cast<int32_t>(generated.size());
    }
    last_token = token;
    token_awaiting_decode = true;
}

void ilotoki_llm::keep_generated(size_t count) {
    std::lock_guard<std::mutex> lock(stats_mutex);
    generated.resize(count);
    stats.generated_tokens = static_cast<int32_t>(generated.size());
}

void ilotoki_llm::step_full() {
    if (static_cast<int32_t>(generated.size()) >= token_limit()) {
        finish(ILOTOKI_LLM_FINISH_MAX_TOKENS);
        return;
    }
    if (token_awaiting_decode) {
        if (position >= context_allocated) {
            finish(ILOTOKI_LLM_FINISH_MAX_TOKENS);
            return;
        }
        if (!evaluate_last_token()) {
            finish(ILOTOKI_LLM_FINISH_STOPPED);
            return;
        }
    }

    const auto selection_start = Clock::now();
    const llama_token token = select_token();
    accept(token, milliseconds_between(selection_start, Clock::now()));
    release(token);
}

void ilotoki_llm::step_trimmed() {
    auto &pending = trimmed_run.pending;
    const int32_t max_tokens = token_limit();
    const bool at_limit = static_cast<int32_t>(generated.size()) >= max_tokens ||
                          (token_awaiting_decode && position >= context_allocated);
    if (at_limit) {
        // The last tokens still wait for their check; a rollback may free room.
        if (!pending.empty()) {
            if (!settle(false)) finish(ILOTOKI_LLM_FINISH_STOPPED);
            return;
        }
        finish(ILOTOKI_LLM_FINISH_MAX_TOKENS);
        return;
    }
    bool checked = false;
    bool due = false;
    if (token_awaiting_decode) {
        const auto slot = static_cast<int32_t>(pending.size());
        due = ilotoki::trimmed::check_in_step(slot, trimmed_run.counters,
                                              trimmed_run.check_every_step ? ilotoki::trimmed::Cadence{1, 1} : cadence());
        // A streamed check reads the file after the step (`settle`), not inside it.
        checked = due && !head->streams();
        head->prepare(slot, checked);
        trimmed_run.head_runs_before = head->runs();
        if (!evaluate_last_token()) {
            finish(ILOTOKI_LLM_FINISH_STOPPED);
            return;
        }
    }

    const auto selection_start = Clock::now();
    ilotoki::TrimmedRun::Pending entry{last_decoded, position - 1, 0, 0.0f, false};
    if (head->runs() == trimmed_run.head_runs_before) {
        // llama.cpp kept its own head for this graph: its logits are there, and exact.
        entry.chosen = select_token();
        entry.exact = true;
    } else {
        const ilotoki::KeptChoice kept = head->kept_choice();
        // A near tie among the kept rows, where this kernel's rounding could decide it, is
        // decided by llama.cpp's arithmetic over every kept row; the excluded ones wait for
        // the check as usual. Without a kept row at all, llama.cpp's own head takes the step.
        const ilotoki::RowChoice exact = ilotoki::trimmed::near_tie(kept.best, kept.runner_up)
                                             ? head->exact_kept_best(static_cast<int32_t>(pending.size()))
                                             : kept.best;
        entry.chosen = exact.row;
        entry.value = exact.value;
        if (exact.row < 0) {
            entry.chosen = choose_with_full_head(entry.decoded, entry.position);
            if (entry.chosen < 0) {
                finish(ILOTOKI_LLM_FINISH_STOPPED);
                return;
            }
            entry.exact = true;
        }
    }
    accept(entry.chosen, milliseconds_between(selection_start, Clock::now()));
    if (entry.exact && pending.empty()) {
        // Nothing before it waits for a check and llama.cpp's head chose it: final at once
        // (the prompt's own token among them, so the first piece comes as soon as with the
        // full head).
        release(entry.chosen);
        return;
    }
    pending.push_back(entry);

    ilotoki::trimmed::AfterChoice after;
    after.checked_in_step = due;
    after.ends_output = llama_vocab_is_eog(vocab, entry.chosen);
    after.slots_full = static_cast<int32_t>(pending.size()) >= head->slot_count();
    after.at_token_limit = static_cast<int32_t>(generated.size()) >= max_tokens;
    after.line_end_may_stop = (params.max_lines > 0 || output.has_stop_sequences()) &&
                              ilotoki::token_text(vocab, entry.chosen, /*special*/ false).find('\n') != std::string::npos;
    if (ilotoki::trimmed::check_now(after) && !settle(checked)) finish(ILOTOKI_LLM_FINISH_STOPPED);
}

bool ilotoki_llm::settle(bool ran) {
    auto &pending = trimmed_run.pending;
    const auto count = static_cast<int32_t>(pending.size());
    std::vector<ilotoki::trimmed::PendingCheck> checks = trimmed_run.checks(*head);
    const bool needed = ilotoki::trimmed::needs_check(checks.data(), count);
    if (!ran && needed) {
        // The kept winners' values, for a check that can rule rows out by the sketch.
        std::vector<float> kept_values(static_cast<size_t>(count), INFINITY);
        for (int32_t i = 0; i < count; ++i) {
            if (!checks[static_cast<size_t>(i)].exact) kept_values[static_cast<size_t>(i)] = checks[static_cast<size_t>(i)].value;
        }
        check_head(count, kept_values.data());
        checks = trimmed_run.checks(*head);
    }
    if (ran || needed) {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_checks += 1;
    }
    // The decision (trimmed_policy.hpp); what follows only acts on it.
    // Where checks stream, the wider set (too many rows for a compact copy) would be read in
    // place, through the mapping, every step: the head goes on with its rows instead.
    const ilotoki::trimmed::Settlement decision = ilotoki::trimmed::settle(
        checks.data(), count, ran || needed, [this](int32_t row) { return !head->streams() && head->can_widen_to(vocab, row); },
        trimmed_run.counters);
    trimmed_run.counters = decision.counters;
    const size_t first_pending = generated.size() - pending.size();
    std::vector<ilotoki::TrimmedRun::Pending> entries;
    entries.swap(pending);
    for (int32_t i = 0; i < decision.settled && !finished; ++i) {
        release(entries[static_cast<size_t>(i)].chosen);
        // The output ended at this token (a stop sequence): the ones after it never count.
        if (finished) keep_generated(first_pending + static_cast<size_t>(i) + 1);
    }
    if (decision.failed < 0 || finished) return true;

    // Roll back to the failed step and take its choice again: from the exact values of the
    // few rows it is about where they decide it, else with llama.cpp's head.
    const ilotoki::TrimmedRun::Pending &entry = entries[static_cast<size_t>(decision.failed)];
    keep_generated(first_pending + static_cast<size_t>(decision.failed));
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_rollbacks += 1;
    }
    // The cells after the failed step's own go; its state stays as it was evaluated.
    llama_token token = exact_choice_after_check(decision.failed, entry.chosen);
    if (token >= 0 && llama_memory_seq_rm(llama_get_memory(context), 0, entry.position + 1, -1)) {
        position = entry.position + 1;
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_exact_choices += 1;
    } else {
        token = choose_with_full_head(entry.decoded, entry.position);
    }
    if (token < 0) return false;
    accept(token, 0.0);
    release(token);
    if (decision.next == ilotoki::trimmed::NextRows::FullHead) {
        if (head->streams()) {
            // llama.cpp's head would read every row through its mapping, each step: checking
            // every step streams them instead.
            trimmed_run.check_every_step = true;
        } else {
            trimmed_run.active = false;
            hook_head(false);
        }
    }
    after_rollback(decision);
    return true;
}

llama_token ilotoki_llm::exact_choice_after_check(int32_t slot, llama_token chosen) const {
    // The failed step's state is in its slot. llama.cpp's choice is the kept token or the
    // excluded rows' best, by their exact values, where every other excluded row is below the
    // better of them by more than the margin (the kept rows' others were, at the choice).
    const ilotoki::RowChoice excluded = head->excluded_choice(slot);
    if (excluded.row < 0 || chosen < 0) return -1;
    const ilotoki::RowChoice kept{head->exact_value(slot, chosen), chosen};
    const ilotoki::RowChoice other{head->exact_value(slot, excluded.row), excluded.row};
    const ilotoki::RowChoice winner = other.beats(kept) ? other : kept;
    if (!(head->excluded_runner_up(slot) < winner.value - ilotoki::trimmed::margin(winner.value))) return -1;
    return winner.row;
}

void ilotoki_llm::after_rollback(const ilotoki::trimmed::Settlement &decision) {
    switch (decision.next) {
    case ilotoki::trimmed::NextRows::Widen: {
        // The output left the target language's rows for the wider set's (a copied name, a
        // base model answering in English): go on with their union.
        head->widen(vocab, decision.winner);
        // A wider set too large for a compact copy is read in place, through the mapping: the
        // head's range counts again for the rest of this translation.
        if (!head->kept_rows_are_few()) whole_head_read(true);
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_widened = true;
        stats.head_rows = head->kept_rows();
        return;
    }
    case ilotoki::trimmed::NextRows::FullHead: {
        // Choices this close to the excluded rows keep failing: the rest with the full head.
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_fell_back = true;
        stats.head_rows = vocabulary_size;
        return;
    }
    case ilotoki::trimmed::NextRows::Same: return;
    }
}

llama_token ilotoki_llm::choose_with_full_head(llama_token decoded, int32_t at) {
    llama_memory_t memory = llama_get_memory(context);
    if (!llama_memory_seq_rm(memory, 0, at, -1)) {
        // A memory that cannot drop its tail: evaluate everything up to `at` again, the way it
        // was evaluated (the prompt in one batch, then token by token), so nothing rounds
        // differently.
        llama_memory_clear(memory, true);
        position = 0;
        hook_head(false);
        const auto prompt_count = static_cast<int32_t>(prompt_tokens.size());
        if (!decode(prompt_tokens.data(), prompt_count, false)) return -1;
        for (int32_t i = 0; prompt_count + i < at; ++i) {
            if (!decode(&generated[static_cast<size_t>(i)], 1, false)) return -1;
        }
    }
    position = at;
    hook_head(false);
    whole_head_read(true);
    const bool completed = decode(&decoded, 1, false);
    whole_head_read(false, !trimmed_run.active);
    hook_head(trimmed_run.active);
    if (!completed) return -1;
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_full_steps += 1;
    }
    return select_token();
}
