// Batches: several prompts decoded together (ilotoki_llm_start_batch). Each prompt is a
// sequence in a context of the batch's own, whose KV cache keeps one stream per sequence, so
// each sequence's attention sums run over its own cells in the order they would alone. A
// prompt is evaluated by itself when it takes a slot (its first token comes from that, as with
// `start`); after that every running sequence's latest token is evaluated in one step, and the
// weights are read once for all of them. Steps of up to kTrimmedBatchMost sequences use the
// trimmed head as a single translation does: each kept row is read once for every sequence's
// state, the states wait in the head's slots, and one check of the excluded rows serves all of
// them; a sequence whose token does not hold is rolled back alone and takes that step with
// llama.cpp's head, so each sequence's tokens stay the ones it gets alone. Every method runs
// under the handle's run mutex.
#include "handle.hpp"

#include "argmax.hpp"
#include "llama_log.hpp"
#include "output_rows.hpp"
#include "utf8.hpp"

#include <algorithm>
#include <cstring>

using namespace ilotoki;

namespace {

constexpr int32_t kDefaultSequences = 8;
constexpr int32_t kLargestEvaluation = 512;

} // namespace

void ilotoki_llm::prepare_batch_context(int32_t sequences, int32_t per_sequence, int32_t tokens_per_evaluation) {
    if (batches.context != nullptr && batches.sequences >= sequences && batches.length >= per_sequence &&
        batches.most_tokens >= tokens_per_evaluation) {
        return;
    }
    if (batches.context != nullptr) {
        free_context(batches.context);
        batches.head_hooked = false;
        // The cells were made in this context: another one starts again.
        batches.prefixes.clear();
        return_freed_memory();
    }
    if (batches.tokens_allocated) {
        llama_batch_free(batches.tokens);
        batches.tokens_allocated = false;
    }
    auto context_params = llama_context_default_params();
    context_params.n_seq_max = static_cast<uint32_t>(sequences);
    // One KV stream per sequence: no sequence's attention runs over another's cells.
    context_params.kv_unified = false;
    context_params.n_ctx = static_cast<uint32_t>(sequences * per_sequence);
    context_params.n_batch = static_cast<uint32_t>(tokens_per_evaluation);
    context_params.n_ubatch = static_cast<uint32_t>(tokens_per_evaluation);
    batches.context = make_context(context_params, "for " + std::to_string(sequences) + " sequences of " + std::to_string(per_sequence) + " tokens");
    batches.sequences = sequences;
    batches.length = static_cast<int32_t>(llama_n_ctx_seq(batches.context));
    batches.most_tokens = tokens_per_evaluation;
    batches.tokens = llama_batch_init(tokens_per_evaluation, 0, 1);
    batches.tokens_allocated = true;
}

void ilotoki_llm::start_batch(const char *const *prompts, size_t count, const int32_t *max_tokens, int32_t sequences,
                              const ilotoki_llm_start_params &start_params) {
    std::vector<std::string> stops = stop_sequences(start_params);
    translation_id.store(start_params.ticket != 0 ? start_params.ticket : reserve_ticket());
    follow_memory_pressure();
    // A single translation's state is over; `next` refuses until the next `start`.
    started = false;
    finished = true;
    hook_head(false);
    auto run = std::make_unique<BatchRun>();
    run->stop_sequences = std::move(stops);
    run->max_lines = start_params.max_lines;

    run->default_limit = start_params.max_tokens > 0 ? start_params.max_tokens : context_length;

    // Tokenized up front: a prompt that cannot be translated ends at once, and the context is
    // sized to the ones that can.
    run->sequences.resize(count);
    int32_t longest_prompt = 1;
    int32_t longest_need = 1;
    for (size_t i = 0; i < count; ++i) {
        BatchSequence &sequence = run->sequences[i];
        prepare_sequence(sequence, prompts[i], max_tokens != nullptr ? max_tokens[i] : 0, run->default_limit);
        if (start_params.written_in_output_characters != nullptr) sequence.in_kept_characters = start_params.written_in_output_characters[i];
        if (sequence.error_status != ILOTOKI_LLM_OK) continue;
        const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
        longest_prompt = std::max(longest_prompt, prompt_count);
        // A sequence's room is what it would have alone, never more than the handle's context.
        longest_need = std::max(longest_need, std::min(prompt_count + sequence.max_tokens, context_length));
    }
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        generated.clear();
        stats = {};
        started_at = Clock::now();
        page_faults_at_start = major_page_faults_so_far();
        batch_run = std::move(run);
    }
    BatchRun &batch = *batch_run;
    // A batch that prompts join keeps every slot, and room for what they may need.
    const bool joinable = start_params.joinable_room > 0;
    const int32_t most_slots = std::clamp(sequences > 0 ? sequences : kDefaultSequences, 1, ILOTOKI_LLM_MAX_SEQUENCES);
    const auto slots = joinable ? most_slots : static_cast<int32_t>(std::min<size_t>(count, static_cast<size_t>(most_slots)));
    if (joinable) longest_need = std::max(longest_need, std::min(start_params.joinable_room, context_length));
    batch.slots.assign(static_cast<size_t>(std::max(slots, 1)), -1);
    if (stop_requested()) {
        end_batch(ILOTOKI_LLM_FINISH_STOPPED);
        return;
    }
    // A step evaluates one token per running slot and the prompts admitted into it (from
    // their cached beginnings on): room for the longest prompt twice, or for it beside every
    // slot's token.
    const auto slot_count = static_cast<int32_t>(batch.slots.size());
    const int32_t tokens_per_evaluation =
        joinable ? kLargestEvaluation : round_up(std::min(kLargestEvaluation, std::max(2 * longest_prompt, longest_prompt + slot_count)), 16);
    batch.reuse_prefix = start_params.reuse_prefix;
    // Steps over every row need the trimmed head's row kernel; llama.cpp's head was asked for
    // (ILOTOKI_LLM_HEAD_FULL) by a caller that compares with it.
    batch.every_row = head != nullptr && start_params.head == ILOTOKI_LLM_HEAD_TRIMMED && head->every_row_is_faster();
    prepare_batch_context(static_cast<int32_t>(batch.slots.size()), round_up(longest_need, kContextGranule), tokens_per_evaluation);
    // The cells emptied, their buffers not zeroed (as for a single translation, generation.cpp).
    llama_memory_clear(llama_get_memory(batches.context), false);
    // The trimmed head, as `start` decides it (a batch is always greedy).
    const ilotoki::CharacterSet kept_characters(start_params.output_characters, start_params.output_character_count);
    batch.trimming = head != nullptr && start_params.head == ILOTOKI_LLM_HEAD_TRIMMED && !kept_characters.empty();
    if (batch.trimming) {
        head->use_characters(vocab, kept_characters,
                             ilotoki::CharacterSet(start_params.wider_characters, start_params.wider_character_count));
        drop_rows_read_through_mapping();
        batch.trimming = head->worth_trimming() && head->kept_rows_are_few();
    }
    // Pages the system took come back in one pass, before decoding (generation.cpp). Every
    // prompt of a batch takes its first token from llama.cpp's head, which reads every row
    // through the mapping, so the head's range counts here even where checks stream.
    restore_residency(start_params.restore_residency, /*whole_head*/ true);
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.context_length = batches.length;
        stats.head_rows = batch.trimming ? head->kept_rows() : vocabulary_size;
    }
}

void ilotoki_llm::prepare_sequence(BatchSequence &sequence, const char *prompt, int32_t max_tokens, int32_t default_limit) const {
    sequence.max_tokens = max_tokens > 0 ? std::min(max_tokens, default_limit) : default_limit;
    if (prompt == nullptr || !ilotoki::utf8::is_valid(prompt, std::strlen(prompt))) {
        sequence.error_status = ILOTOKI_LLM_ERROR_INVALID_TEXT;
        sequence.error = "The prompt is not valid UTF-8 text.";
    } else {
        try {
            sequence.prompt = tokenize(prompt);
        } catch (const LLMError &error) {
            sequence.error_status = error.status;
            sequence.error = error.message;
        }
    }
    const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
    sequence.stats.prompt_tokens = prompt_count;
    if (sequence.error_status == ILOTOKI_LLM_OK && prompt_count == 0) {
        sequence.error_status = ILOTOKI_LLM_ERROR_INVALID_ARGUMENT;
        sequence.error = "The prompt is empty.";
    } else if (sequence.error_status == ILOTOKI_LLM_OK && prompt_count >= context_length) {
        sequence.error_status = ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG;
        sequence.error = "The text is too long: the prompt has " + std::to_string(prompt_count) + " tokens and the model's context holds " +
                         std::to_string(context_length) + " (with room for the translation).";
    }
    if (sequence.error_status != ILOTOKI_LLM_OK) {
        sequence.finished = true;
        sequence.stats.finish_reason = ILOTOKI_LLM_FINISH_ERROR;
    }
}

int32_t ilotoki_llm::add_to_batch(const char *prompt, int32_t max_tokens, bool written_in_output_characters) {
    if (batch_run == nullptr || batch_run->ended || stop_requested()) {
        throw LLMError{ILOTOKI_LLM_ERROR_NOT_STARTED, "No batch is running to add the prompt to: start a batch with it."};
    }
    BatchRun &batch = *batch_run;
    BatchSequence sequence;
    prepare_sequence(sequence, prompt, max_tokens, batch.default_limit);
    sequence.in_kept_characters = written_in_output_characters;
    if (sequence.error_status == ILOTOKI_LLM_OK) {
        // The batch's cells were sized when it started; a prompt that needs more room than a
        // sequence has there waits for a batch of its own (its tokens must be those it gets alone).
        const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
        const int32_t need = std::min(prompt_count + sequence.max_tokens, context_length);
        if (need > batches.length) {
            throw LLMError{ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG, "The prompt and its translation need " + std::to_string(need) +
                                                                  " tokens and this batch's sequences hold " +
                                                                  std::to_string(batches.length) + ": start a batch with it."};
        }
    }
    std::lock_guard<std::mutex> lock(stats_mutex);
    batch.sequences.push_back(std::move(sequence));
    return static_cast<int32_t>(batch.sequences.size() - 1);
}

void ilotoki_llm::drop_from_batch(int32_t index) {
    if (batch_run == nullptr || index < 0 || static_cast<size_t>(index) >= batch_run->sequences.size()) {
        throw LLMError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "No prompt " + std::to_string(index) + " in the batch."};
    }
    BatchRun &batch = *batch_run;
    BatchSequence &sequence = batch.sequences[static_cast<size_t>(index)];
    if (sequence.finished) return;
    // Its tokens waiting for a check are given up with it (the check still reads their states).
    sequence.pending.clear();
    sequence.dropped = true;
    finish_in_batch(static_cast<size_t>(index), ILOTOKI_LLM_FINISH_STOPPED);
    batch.events.push_back({index, true, {}});
}

bool ilotoki_llm::decode_sequence(const llama_token *tokens, int32_t count, int32_t slot, int32_t at) {
    for (int32_t offset = 0; offset < count; offset += batches.most_tokens) {
        const int32_t chunk = std::min(batches.most_tokens, count - offset);
        batches.tokens.n_tokens = chunk;
        for (int32_t i = 0; i < chunk; ++i) set_batch_token(batches.tokens, i, tokens[offset + i], at + offset + i, slot, offset + i == count - 1);
        if (!evaluate(batches.context, batches.tokens)) return false;
    }
    return true;
}

int32_t ilotoki_llm::take_slot(int32_t slot, size_t index) {
    BatchRun &batch = *batch_run;
    BatchSequence &sequence = batch.sequences[index];
    batch.slots[static_cast<size_t>(slot)] = static_cast<int32_t>(index);
    sequence.slot = slot;
    sequence.output.reset(batch.stop_sequences, batch.max_lines);
    sequence.repetition.reset();
    sequence.pending.clear();
    // The slot's cache held the sequence before: this one starts on empty cells, or on the
    // cached cells of its prompt's beginning.
    llama_memory_seq_rm(llama_get_memory(batches.context), slot, -1, -1);
    const int32_t reused = batch.reuse_prefix ? batches.prefixes.restore(batches.context, slot, sequence.prompt) : 0;
    sequence.position = reused;
    std::lock_guard<std::mutex> lock(stats_mutex);
    sequence.stats.reused_prompt_tokens = reused;
    stats.reused_prompt_tokens += reused;
    return reused;
}

void ilotoki_llm::prompt_evaluated(size_t index, llama_token first, double prefill_ms) {
    BatchRun &batch = *batch_run;
    BatchSequence &sequence = batch.sequences[index];
    const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
    sequence.position = prompt_count;
    if (batch.reuse_prefix) batches.prefixes.remember(batches.context, sequence.slot, sequence.prompt);
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        sequence.stats.prefill_ms = prefill_ms;
        stats.prompt_tokens += prompt_count;
        sequence.stats.prefix_cache_bytes = batches.prefixes.bytes();
        stats.prefix_cache_bytes = sequence.stats.prefix_cache_bytes;
    }
    release_in_batch(index, first);
}

void ilotoki_llm::admit_to_batch(int32_t slot, size_t index) {
    BatchSequence &sequence = batch_run->sequences[index];
    const int32_t reused = take_slot(slot, index);
    // The prompt's own choice comes from llama.cpp's head, as in `start`.
    hook_batch_head(false);
    const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
    const auto prefill_start = Clock::now();
    if (!decode_sequence(sequence.prompt.data() + reused, prompt_count - reused, slot, reused)) {
        end_batch(ILOTOKI_LLM_FINISH_STOPPED);
        return;
    }
    const double prefill_ms = milliseconds_between(prefill_start, Clock::now());
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.prefill_ms += prefill_ms;
    }
    const float *logits = llama_get_logits_ith(batches.context, -1);
    if (logits == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
    prompt_evaluated(index, ilotoki::first_maximum(logits, vocabulary_size), prefill_ms);
}

void ilotoki_llm::hook_batch_head(bool on) {
    if (on == batches.head_hooked || batches.context == nullptr) return;
    llama_set_output_head(batches.context, on ? &ilotoki::TrimmedHead::build : nullptr, on ? head.get() : nullptr);
    batches.head_hooked = on;
}

bool ilotoki_llm::step_batch(const std::vector<Admission> &admissions) {
    BatchRun &batch = *batch_run;
    // Who takes part: every running sequence with room for one more token. One at its limit
    // whose last tokens still wait for their check is checked first (a rollback may free room).
    std::vector<size_t> members;
    bool settle_first = false;
    bool any_pending = false;
    bool all_in_kept_characters = true;
    for (const int32_t index : std::vector<int32_t>(batch.slots)) {
        if (index < 0) continue;
        BatchSequence &sequence = batch.sequences[static_cast<size_t>(index)];
        any_pending = any_pending || !sequence.pending.empty();
        const auto made = static_cast<int32_t>(sequence.generated.size() + sequence.pending.size());
        if (made >= sequence.max_tokens || sequence.position >= batches.length) {
            if (!sequence.pending.empty()) {
                settle_first = true;
            } else {
                finish_in_batch(static_cast<size_t>(index), ILOTOKI_LLM_FINISH_MAX_TOKENS);
            }
            continue;
        }
        members.push_back(static_cast<size_t>(index));
        all_in_kept_characters = all_in_kept_characters && sequence.in_kept_characters;
    }
    // A step that admits prompts does not keep states for a check; nor does one with a
    // sequence whose answer is written outside the kept characters (a batch into several
    // languages).
    const auto member_count = static_cast<int32_t>(members.size());
    const bool trimmed = admissions.empty() && batch.trimming && all_in_kept_characters && member_count > 0 &&
                         member_count <= ilotoki::kTrimmedBatchMost && head->kept_rows_are_few();
    // What waits is checked before a step that could not keep it: another head, or no free
    // slots for this step's states.
    // The states wait for one check at most as many as the cadence's (the head has slots for
    // the streamed cadence too).
    const int32_t room = head != nullptr ? std::min(head->slot_count(), cadence().every) : 0;
    if (any_pending && (settle_first || !trimmed || batch.states_used + member_count > room)) return settle_batch();
    if (members.empty() && admissions.empty()) return true;

    int32_t tokens = 0;
    const auto add_token = [&](llama_token token, llama_pos at, int32_t slot, bool output) {
        set_batch_token(batches.tokens, tokens++, token, at, slot, output);
    };
    const auto decode_tokens = [&]() {
        batches.tokens.n_tokens = tokens;
        return evaluate(batches.context, batches.tokens);
    };
    // The admitted prompts, each from its cached beginning on, all but their last tokens in one
    // evaluation that outputs nothing; their last tokens join the step below, so each one's
    // first choice comes with the running sequences' next.
    std::vector<int32_t> reused(admissions.size());
    double prefill_ms = 0;
    if (!admissions.empty()) {
        for (size_t a = 0; a < admissions.size(); ++a) {
            reused[a] = take_slot(admissions[a].slot, admissions[a].index);
            batch.next_to_start = admissions[a].index + 1;
            const BatchSequence &sequence = batch.sequences[admissions[a].index];
            const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
            for (int32_t at = reused[a]; at < prompt_count - 1; ++at) {
                add_token(sequence.prompt[static_cast<size_t>(at)], at, sequence.slot, false);
            }
        }
        const auto prefill_start = Clock::now();
        hook_batch_head(false);
        if (tokens > 0 && !decode_tokens()) return false;
        prefill_ms = milliseconds_between(prefill_start, Clock::now());
    }

    // The step: one token of each, in the slots' order, which is the order of the outputs
    // (llama.cpp's micro-batches take consecutive sequences in order).
    struct Participant {
        size_t index;
        int32_t admission; // -1 for a running sequence
    };
    std::vector<Participant> participants;
    for (const size_t index : members) participants.push_back({index, -1});
    for (size_t a = 0; a < admissions.size(); ++a) participants.push_back({admissions[a].index, static_cast<int32_t>(a)});
    std::sort(participants.begin(), participants.end(), [&](const Participant &x, const Participant &y) {
        return batch.sequences[x.index].slot < batch.sequences[y.index].slot;
    });
    const auto count = static_cast<int32_t>(participants.size());
    // A step the trimmed head does not take computes every row with its row kernel, each row
    // read once for all the step's sequences (faster than llama.cpp's products of a few
    // columns); nothing is left out, so its choices are final but for near ties, which
    // llama.cpp's head takes.
    const bool every_row = !trimmed && batch.every_row && count >= 2 && count <= ilotoki::TrimmedHead::kMostColumns &&
                           head->slot_count() >= count;
    std::vector<BatchPending> entries(participants.size());
    std::vector<int32_t> state_slots(participants.size());
    tokens = 0;
    for (size_t i = 0; i < participants.size(); ++i) {
        const BatchSequence &sequence = batch.sequences[participants[i].index];
        const bool admitted = participants[i].admission >= 0;
        const llama_token input = admitted ? sequence.prompt.back() : sequence.next_input;
        const int32_t at = admitted ? static_cast<int32_t>(sequence.prompt.size()) - 1 : sequence.position;
        add_token(input, at, sequence.slot, true);
        entries[i] = BatchPending{input, at, -1, 0.0f, true, -1};
        // The states of a trimmed step wait in the head's slots after those already waiting;
        // a step over every row keeps none (its slots from the first serve).
        state_slots[i] = trimmed ? batch.states_used + static_cast<int32_t>(i) : static_cast<int32_t>(i);
    }
    hook_batch_head(trimmed || every_row);
    if (trimmed || every_row) head->prepare_columns(state_slots.data(), count, every_row);
    const auto step_start = Clock::now();
    if (!decode_tokens()) return false;
    const double step_ms = milliseconds_between(step_start, Clock::now());
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.decode_ms += step_ms;
        stats.prefill_ms += prefill_ms;
        stats.decoded_tokens += member_count;
        for (const size_t index : members) {
            batch.sequences[index].stats.decode_ms += step_ms;
            batch.sequences[index].stats.decoded_tokens += 1;
            if (count > 1) batch.sequences[index].stats.shared_steps += 1;
        }
    }
    // Each one's choice: from the head's rows where it computed the step, from llama.cpp's
    // logits where it kept its own head.
    std::vector<bool> again(participants.size(), false);
    const int32_t computed = trimmed || every_row ? head->columns_computed() : 0;
    for (size_t i = 0; i < participants.size(); ++i) {
        BatchPending &entry = entries[i];
        if (computed == count) {
            const ilotoki::KeptChoice kept = head->kept_choice(static_cast<int32_t>(i));
            ilotoki::RowChoice best = kept.best;
            // A near tie among the kept rows is decided by every kept row's exact value (as in a
            // single translation, generation.cpp); one over every row, by llama.cpp's own head.
            if (ilotoki::trimmed::near_tie(kept.best, kept.runner_up)) best = trimmed ? head->exact_kept_best(state_slots[i]) : ilotoki::RowChoice{};
            entry.chosen = best.row;
            again[i] = best.row < 0;
            if (trimmed) {
                // Chosen among the kept rows: it waits for the check of the excluded ones.
                entry.value = best.value;
                entry.exact = false;
                entry.state = state_slots[i];
            }
        } else if (computed == 0) {
            const float *logits = llama_get_logits_ith(batches.context, static_cast<int32_t>(i));
            if (logits == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
            entry.chosen = ilotoki::first_maximum(logits, vocabulary_size);
        } else {
            again[i] = true; // the head computed part of the step: all of it again, with llama.cpp's
        }
    }
    if (computed == count && trimmed) batch.states_used += count;
    for (size_t i = 0; i < participants.size(); ++i) {
        if (!again[i]) continue;
        const llama_token token = batch_step_with_full_head(batch.sequences[participants[i].index], entries[i].decoded, entries[i].position);
        if (token < 0) return false;
        entries[i].chosen = token;
        entries[i].exact = true;
        entries[i].state = -1;
    }
    bool due = false;
    for (size_t i = 0; i < participants.size(); ++i) {
        const size_t index = participants[i].index;
        const BatchPending &entry = entries[i];
        if (participants[i].admission >= 0) {
            // An admitted prompt's first token (never trimmed: final at once).
            prompt_evaluated(index, entry.chosen, prefill_ms + step_ms);
            continue;
        }
        BatchSequence &sequence = batch.sequences[index];
        sequence.position += 1;
        sequence.next_input = entry.chosen;
        if (entry.exact && sequence.pending.empty()) {
            // Nothing before it waits for a check, and nothing was left out: final at once.
            release_in_batch(index, entry.chosen);
            continue;
        }
        sequence.pending.push_back(entry);
        // Checked now where the sequence may end: its end, its limit, the end of a line where a
        // stop sequence or a line limit may end the output there. (A step that would overfill
        // the head's slots is settled before it is taken.)
        ilotoki::trimmed::AfterChoice after;
        after.ends_output = llama_vocab_is_eog(vocab, entry.chosen);
        after.at_token_limit = static_cast<int32_t>(sequence.generated.size() + sequence.pending.size()) >= sequence.max_tokens;
        after.line_end_may_stop = (batch.max_lines > 0 || !batch.stop_sequences.empty()) &&
                                  ilotoki::token_text(vocab, entry.chosen, /*special*/ false).find('\n') != std::string::npos;
        due = due || ilotoki::trimmed::check_now(after);
    }
    if (due) return settle_batch();
    return true;
}

bool ilotoki_llm::settle_batch() {
    BatchRun &batch = *batch_run;
    bool any_state = false;
    for (const auto &sequence : batch.sequences) {
        for (const auto &entry : sequence.pending) any_state = any_state || !entry.exact;
    }
    if (any_state) {
        // One read of every excluded row for all the states that wait, whichever sequence's.
        // The kept winners' values by state, for a check that can rule rows out by the sketch.
        std::vector<float> kept_values(static_cast<size_t>(std::max(0, batch.states_used)), INFINITY);
        for (const auto &sequence : batch.sequences) {
            for (const auto &entry : sequence.pending) {
                if (!entry.exact && entry.state >= 0 && entry.state < batch.states_used) kept_values[static_cast<size_t>(entry.state)] = entry.value;
            }
        }
        check_head(batch.states_used, kept_values.data());
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.head_checks += 1;
    }
    // Every sequence's decision comes from this one check; a rollback touches only its own
    // sequence's cells.
    const int32_t most_rollbacks = ilotoki::trimmed::kRollbacksBeforeFullHead * static_cast<int32_t>(batch.sequences.size());
    for (const int32_t index : std::vector<int32_t>(batch.slots)) {
        if (index < 0) continue;
        BatchSequence &sequence = batch.sequences[static_cast<size_t>(index)];
        if (sequence.pending.empty()) continue;
        std::vector<BatchPending> entries;
        entries.swap(sequence.pending);
        std::vector<ilotoki::trimmed::PendingCheck> checks(entries.size());
        for (size_t i = 0; i < entries.size(); ++i) {
            const BatchPending &entry = entries[i];
            checks[i] = {entry.value, entry.exact, entry.exact ? ilotoki::RowChoice{} : head->excluded_choice(entry.state)};
        }
        // The batch's sequences share one count of rollbacks (and one check).
        const ilotoki::trimmed::Settlement decision = ilotoki::trimmed::settle(
            checks.data(), static_cast<int32_t>(checks.size()), any_state, [this](int32_t row) { return head->can_widen_to(vocab, row); },
            batch.counters, most_rollbacks);
        batch.counters.rollbacks = decision.counters.rollbacks;
        for (int32_t i = 0; i < decision.settled && !sequence.finished; ++i) {
            release_in_batch(static_cast<size_t>(index), entries[static_cast<size_t>(i)].chosen);
        }
        if (decision.failed < 0 || sequence.finished) continue;

        // Back to the failed step, its choice made again from its rows' exact values where they
        // decide it, else with the full head; the others' cells stay.
        const BatchPending &entry = entries[static_cast<size_t>(decision.failed)];
        {
            std::lock_guard<std::mutex> lock(stats_mutex);
            stats.head_rollbacks += 1;
            sequence.stats.head_rollbacks += 1;
        }
        llama_token token = exact_choice_after_check(entry.state, entry.chosen);
        if (token >= 0 && llama_memory_seq_rm(llama_get_memory(batches.context), sequence.slot, entry.position + 1, -1)) {
            std::lock_guard<std::mutex> lock(stats_mutex);
            stats.head_exact_choices += 1;
            sequence.stats.head_exact_choices += 1;
        } else {
            token = batch_step_with_full_head(sequence, entry.decoded, entry.position);
        }
        if (token < 0) return false;
        sequence.position = entry.position + 1;
        release_in_batch(static_cast<size_t>(index), token);
        if (decision.next == ilotoki::trimmed::NextRows::FullHead) batch.trimming = false;
        after_rollback(decision);
    }
    batch.states_used = 0;
    return true;
}

llama_token ilotoki_llm::batch_step_with_full_head(BatchSequence &sequence, llama_token decoded, int32_t at) {
    // The sequence's cells from `at` on go; a KV cache of one stream per sequence always drops
    // a tail (llama_kv_cache_iswa), so nothing is evaluated again but this step.
    if (!llama_memory_seq_rm(llama_get_memory(batches.context), sequence.slot, at, -1)) {
        throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp could not drop a sequence's last cells to take a step again."};
    }
    hook_batch_head(false);
    if (!decode_sequence(&decoded, 1, sequence.slot, at)) return -1;
    const float *logits = llama_get_logits_ith(batches.context, -1);
    if (logits == nullptr) throw LLMError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.head_full_steps += 1;
    sequence.stats.head_full_steps += 1;
    return ilotoki::first_maximum(logits, vocabulary_size);
}

void ilotoki_llm::release_in_batch(size_t index, llama_token token) {
    BatchRun &batch = *batch_run;
    BatchSequence &sequence = batch.sequences[index];
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        sequence.generated.push_back(token);
        sequence.stats.generated_tokens = static_cast<int32_t>(sequence.generated.size());
        stats.generated_tokens += 1;
    }
    sequence.next_input = token;
    if (llama_vocab_is_eog(vocab, token)) {
        finish_in_batch(index, ILOTOKI_LLM_FINISH_END_OF_GENERATION);
        return;
    }
    switch (sequence.output.feed(ilotoki::token_text(vocab, token, /*special*/ false))) {
    case OutputFilter::Outcome::Continue:
        if (sequence.repetition.add(token)) {
            finish_in_batch(index, ILOTOKI_LLM_FINISH_REPETITION);
            return;
        }
        break;
    case OutputFilter::Outcome::StopSequence: finish_in_batch(index, ILOTOKI_LLM_FINISH_STOP_SEQUENCE); return;
    case OutputFilter::Outcome::LineLimit: finish_in_batch(index, ILOTOKI_LLM_FINISH_LINE_LIMIT); return;
    }
    std::string text;
    if (sequence.output.take_ready(text)) batch.events.push_back({static_cast<int32_t>(index), false, std::move(text)});
}

void ilotoki_llm::finish_in_batch(size_t index, ilotoki_llm_finish_reason reason) {
    BatchRun &batch = *batch_run;
    BatchSequence &sequence = batch.sequences[index];
    if (sequence.finished) return;
    sequence.finished = true;
    if (reason == ILOTOKI_LLM_FINISH_STOPPED || reason == ILOTOKI_LLM_FINISH_ERROR) {
        sequence.output.discard();
    } else {
        if (reason != ILOTOKI_LLM_FINISH_STOP_SEQUENCE && reason != ILOTOKI_LLM_FINISH_LINE_LIMIT) sequence.output.flush();
        std::string text;
        if (sequence.output.take_ready(text)) batch.events.push_back({static_cast<int32_t>(index), false, std::move(text)});
        batch.events.push_back({static_cast<int32_t>(index), true, {}});
    }
    if (sequence.slot >= 0) batch.slots[static_cast<size_t>(sequence.slot)] = -1;
    sequence.slot = -1;
    std::lock_guard<std::mutex> lock(stats_mutex);
    sequence.stats.finish_reason = reason;
    sequence.stats.major_page_faults = major_page_faults_so_far() - page_faults_at_start;
}

void ilotoki_llm::end_batch(ilotoki_llm_finish_reason reason) {
    BatchRun &batch = *batch_run;
    if (batch.ended) return;
    batch.ended = true;
    for (size_t i = 0; i < batch.sequences.size(); ++i) finish_in_batch(i, reason);
    // Nothing more is handed out after a stop or a failure.
    if (reason == ILOTOKI_LLM_FINISH_STOPPED || reason == ILOTOKI_LLM_FINISH_ERROR) batch.events.clear();
    std::lock_guard<std::mutex> lock(stats_mutex);
    stats.finish_reason = reason;
    stats.major_page_faults = major_page_faults_so_far() - page_faults_at_start;
}

ilotoki_llm::BatchStep ilotoki_llm::next_batch(int32_t &index) {
    BatchRun &batch = *batch_run;
    while (true) {
        if (!batch.ended && stop_requested()) end_batch(ILOTOKI_LLM_FINISH_STOPPED);
        if (!batch.events.empty()) {
            BatchEvent event = std::move(batch.events.front());
            batch.events.pop_front();
            index = event.index;
            if (event.done) return BatchStep::SequenceDone;
            piece = std::move(event.text);
            batch.first_piece_out = true;
            std::lock_guard<std::mutex> lock(stats_mutex);
            ilotoki_llm_stats &own = batch.sequences[static_cast<size_t>(index)].stats;
            const double since_start = milliseconds_between(started_at, Clock::now());
            if (own.first_piece_ms == 0) own.first_piece_ms = since_start;
            if (stats.first_piece_ms == 0) stats.first_piece_ms = since_start;
            return BatchStep::Piece;
        }
        if (batch.ended) return BatchStep::Done;
        // Prompts that could not start are reported in their turn, as they come; those given
        // up before they started were reported then.
        while (batch.next_to_start < batch.sequences.size() && batch.sequences[batch.next_to_start].finished &&
               batch.sequences[batch.next_to_start].slot < 0) {
            if (!batch.sequences[batch.next_to_start].dropped) batch.events.push_back({static_cast<int32_t>(batch.next_to_start), true, {}});
            batch.next_to_start += 1;
        }
        if (!batch.events.empty()) continue;
        // A free slot takes the next prompt; its first token comes from its own evaluation, so
        // its first piece is handed out before the next prompt is evaluated. Until the batch's
        // first piece is out, the first prompt runs alone (a first token that is not yet text,
        // such as part of a character, would otherwise wait for every other prompt's evaluation).
        const bool running_any = std::any_of(batch.slots.begin(), batch.slots.end(), [](int32_t slot) { return slot >= 0; });
        if (!batch.first_piece_out && !running_any && batch.next_to_start < batch.sequences.size() &&
            !batch.sequences[batch.next_to_start].finished) {
            const size_t admitted = batch.next_to_start++;
            admit_to_batch(static_cast<int32_t>(std::find(batch.slots.begin(), batch.slots.end(), -1) - batch.slots.begin()), admitted);
            continue;
        }
        // After the first piece, the prompts that free slots take join the next step together
        // (each from its cached beginning on), as many as the step has room for; one too long
        // for that is evaluated alone.
        std::vector<Admission> admissions;
        if (batch.first_piece_out || !running_any) {
            int32_t room = batches.most_tokens -
                           static_cast<int32_t>(std::count_if(batch.slots.begin(), batch.slots.end(), [](int32_t slot) { return slot >= 0; }));
            size_t candidate = batch.next_to_start;
            bool alone = false;
            for (size_t slot = 0; slot < batch.slots.size(); ++slot) {
                if (batch.slots[slot] >= 0) continue;
                // A prompt that could not start is reported in its turn first.
                if (candidate >= batch.sequences.size() || batch.sequences[candidate].finished) break;
                const std::vector<llama_token> &prompt = batch.sequences[candidate].prompt;
                const int32_t need = static_cast<int32_t>(prompt.size()) - (batch.reuse_prefix ? batches.prefixes.shared_with(prompt) : 0);
                if (need > room) {
                    if (admissions.empty() && !running_any) {
                        admit_to_batch(static_cast<int32_t>(slot), batch.next_to_start++);
                        alone = true;
                    }
                    break;
                }
                room -= need;
                admissions.push_back({static_cast<int32_t>(slot), candidate++});
            }
            if (alone) continue;
        }
        if (!running_any && admissions.empty()) {
            if (std::any_of(batch.slots.begin(), batch.slots.end(), [](int32_t slot) { return slot >= 0; })) continue;
            end_batch(ILOTOKI_LLM_FINISH_END_OF_GENERATION);
            continue;
        }
        if (!step_batch(admissions)) end_batch(ILOTOKI_LLM_FINISH_STOPPED);
    }
}
