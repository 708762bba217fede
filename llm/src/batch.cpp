// Batches: several prompts decoded together (ilotoki_llm_start_batch). Each prompt is a
// sequence in a context of the batch's own, whose KV cache keeps one stream per sequence, so
// each sequence's attention sums run over its own cells in the order they would alone. A
// prompt is evaluated by itself when it takes a slot (its first token comes from that, as with
// `start`); after that every running sequence's latest token is evaluated in one step, and the
// weights are read once for all of them. Every method runs under the handle's run mutex.
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
    if (batch_context != nullptr && batch_context_sequences >= sequences && batch_context_length >= per_sequence &&
        batch_context_tokens >= tokens_per_evaluation) {
        return;
    }
    if (batch_context != nullptr) {
        free_context(batch_context);
        return_freed_memory();
    }
    if (batch_tokens_allocated) {
        llama_batch_free(batch_tokens);
        batch_tokens_allocated = false;
    }
    auto context_params = llama_context_default_params();
    context_params.n_seq_max = static_cast<uint32_t>(sequences);
    // One KV stream per sequence: no sequence's attention runs over another's cells.
    context_params.kv_unified = false;
    context_params.n_ctx = static_cast<uint32_t>(sequences * per_sequence);
    context_params.n_batch = static_cast<uint32_t>(tokens_per_evaluation);
    context_params.n_ubatch = static_cast<uint32_t>(tokens_per_evaluation);
    batch_context = make_context(context_params, "for " + std::to_string(sequences) + " sequences of " + std::to_string(per_sequence) + " tokens");
    batch_context_sequences = sequences;
    batch_context_length = static_cast<int32_t>(llama_n_ctx_seq(batch_context));
    batch_context_tokens = tokens_per_evaluation;
    batch_tokens = llama_batch_init(tokens_per_evaluation, 0, 1);
    batch_tokens_allocated = true;
}

void ilotoki_llm::start_batch(const char *const *prompts, size_t count, const int32_t *max_tokens, int32_t sequences,
                              const ilotoki_llm_start_params &start_params) {
    std::vector<std::string> stops = stop_sequences(start_params);
    translation_id.store(start_params.ticket != 0 ? start_params.ticket : reserve_ticket());
    // A single translation's state is over; `next` refuses until the next `start`.
    started = false;
    finished = true;
    hook_head(false);
    auto run = std::make_unique<BatchRun>();
    run->stop_sequences = std::move(stops);
    run->max_lines = start_params.max_lines;
    const int32_t default_limit = start_params.max_tokens > 0 ? start_params.max_tokens : context_length;

    // Tokenized up front: a prompt that cannot be translated ends at once, and the context is
    // sized to the ones that can.
    run->sequences.resize(count);
    int32_t longest_prompt = 1;
    int32_t longest_need = 1;
    for (size_t i = 0; i < count; ++i) {
        BatchSequence &sequence = run->sequences[i];
        sequence.max_tokens = max_tokens != nullptr && max_tokens[i] > 0 ? std::min(max_tokens[i], default_limit) : default_limit;
        const char *prompt = prompts[i];
        if (prompt == nullptr || !ilotoki::utf8::is_valid(prompt, std::strlen(prompt))) {
            sequence.error_status = ILOTOKI_LLM_ERROR_INVALID_TEXT;
            sequence.error = "The prompt is not valid UTF-8 text.";
        } else {
            try {
                sequence.prompt = tokenize(prompt);
            } catch (const CoreError &error) {
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
            sequence.error = "The text is too long: the prompt has " + std::to_string(prompt_count) +
                             " tokens and the model's context holds " + std::to_string(context_length) +
                             " (with room for the translation).";
        }
        if (sequence.error_status != ILOTOKI_LLM_OK) continue;
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
    const auto slots = static_cast<int32_t>(std::min<size_t>(
        count, static_cast<size_t>(std::clamp(sequences > 0 ? sequences : kDefaultSequences, 1, ILOTOKI_LLM_MAX_SEQUENCES))));
    batch.slots.assign(static_cast<size_t>(std::max(slots, 1)), -1);
    if (stop_requested()) {
        end_batch(ILOTOKI_LLM_FINISH_STOPPED);
        return;
    }
    // Prompts are evaluated whole (up to llama.cpp's micro-batch, as `start` evaluates them),
    // and a step evaluates one token per slot.
    const int32_t tokens_per_evaluation =
        round_up(std::max(std::min(longest_prompt, kLargestEvaluation), static_cast<int32_t>(batch.slots.size())), 16);
    restore_residency(start_params.restore_residency);
    prepare_batch_context(static_cast<int32_t>(batch.slots.size()), round_up(longest_need, kContextGranule), tokens_per_evaluation);
    llama_memory_clear(llama_get_memory(batch_context), true);
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.context_length = batch_context_length;
    }
    for (size_t i = 0; i < batch.sequences.size(); ++i) {
        if (batch.sequences[i].error_status == ILOTOKI_LLM_OK) continue;
        batch.sequences[i].finished = true;
        {
            std::lock_guard<std::mutex> lock(stats_mutex);
            batch.sequences[i].stats.finish_reason = ILOTOKI_LLM_FINISH_ERROR;
        }
    }
}

bool ilotoki_llm::decode_sequence(const llama_token *tokens, int32_t count, int32_t slot, int32_t at) {
    for (int32_t offset = 0; offset < count; offset += batch_context_tokens) {
        const int32_t chunk = std::min(batch_context_tokens, count - offset);
        batch_tokens.n_tokens = chunk;
        for (int32_t i = 0; i < chunk; ++i) {
            batch_tokens.token[i] = tokens[offset + i];
            batch_tokens.pos[i] = at + offset + i;
            batch_tokens.n_seq_id[i] = 1;
            batch_tokens.seq_id[i][0] = slot;
            batch_tokens.logits[i] = offset + i == count - 1 ? 1 : 0;
        }
        const int32_t result = llama_decode(batch_context, batch_tokens);
        if (result == 2) return false;
        if (result != 0) {
            throw CoreError{ILOTOKI_LLM_ERROR_DECODE_FAILED,
                            "llama.cpp failed to evaluate the model (llama_decode returned " + std::to_string(result) + ")."};
        }
    }
    return true;
}

void ilotoki_llm::admit_to_batch(int32_t slot, size_t index) {
    BatchRun &batch = *batch_run;
    BatchSequence &sequence = batch.sequences[index];
    batch.slots[static_cast<size_t>(slot)] = static_cast<int32_t>(index);
    sequence.slot = slot;
    sequence.output.reset(batch.stop_sequences, batch.max_lines);
    sequence.repetition.reset();
    // The slot's cache held the sequence before: this one starts on empty cells.
    llama_memory_seq_rm(llama_get_memory(batch_context), slot, -1, -1);
    const auto prompt_count = static_cast<int32_t>(sequence.prompt.size());
    const auto prefill_start = Clock::now();
    if (!decode_sequence(sequence.prompt.data(), prompt_count, slot, 0)) {
        end_batch(ILOTOKI_LLM_FINISH_STOPPED);
        return;
    }
    sequence.position = prompt_count;
    const float *logits = llama_get_logits_ith(batch_context, -1);
    if (logits == nullptr) throw CoreError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
    const llama_token token = ilotoki::first_maximum(logits, vocabulary_size);
    const double prefill_ms = milliseconds_between(prefill_start, Clock::now());
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        sequence.stats.prefill_ms = prefill_ms;
        stats.prefill_ms += prefill_ms;
        stats.prompt_tokens += prompt_count;
    }
    release_in_batch(index, token);
}

bool ilotoki_llm::step_batch() {
    BatchRun &batch = *batch_run;
    // Who takes part: every running sequence with room for one more token.
    std::vector<size_t> members;
    for (const int32_t index : batch.slots) {
        if (index < 0) continue;
        BatchSequence &sequence = batch.sequences[static_cast<size_t>(index)];
        if (static_cast<int32_t>(sequence.generated.size()) >= sequence.max_tokens ||
            sequence.position >= batch_context_length) {
            finish_in_batch(static_cast<size_t>(index), ILOTOKI_LLM_FINISH_MAX_TOKENS);
            continue;
        }
        members.push_back(static_cast<size_t>(index));
    }
    if (members.empty()) return true;
    batch_tokens.n_tokens = static_cast<int32_t>(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
        const BatchSequence &sequence = batch.sequences[members[i]];
        batch_tokens.token[i] = sequence.next_input;
        batch_tokens.pos[i] = sequence.position;
        batch_tokens.n_seq_id[i] = 1;
        batch_tokens.seq_id[i][0] = sequence.slot;
        batch_tokens.logits[i] = 1;
    }
    const auto step_start = Clock::now();
    const int32_t result = llama_decode(batch_context, batch_tokens);
    if (result == 2) return false;
    if (result != 0) {
        throw CoreError{ILOTOKI_LLM_ERROR_DECODE_FAILED,
                        "llama.cpp failed to evaluate the model (llama_decode returned " + std::to_string(result) + ")."};
    }
    std::vector<llama_token> chosen(members.size());
    for (size_t i = 0; i < members.size(); ++i) {
        const float *logits = llama_get_logits_ith(batch_context, static_cast<int32_t>(i));
        if (logits == nullptr) throw CoreError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
        chosen[i] = ilotoki::first_maximum(logits, vocabulary_size);
    }
    const double step_ms = milliseconds_between(step_start, Clock::now());
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.decode_ms += step_ms;
        stats.decoded_tokens += static_cast<int32_t>(members.size());
        for (const size_t index : members) {
            batch.sequences[index].stats.decode_ms += step_ms;
            batch.sequences[index].stats.decoded_tokens += 1;
        }
    }
    for (size_t i = 0; i < members.size(); ++i) {
        batch.sequences[members[i]].position += 1;
        release_in_batch(members[i], chosen[i]);
    }
    return true;
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
        // Prompts that could not start are reported in their turn, as they come.
        while (batch.next_to_start < batch.sequences.size() && batch.sequences[batch.next_to_start].finished &&
               batch.sequences[batch.next_to_start].slot < 0 && batch.sequences[batch.next_to_start].error_status != ILOTOKI_LLM_OK) {
            batch.events.push_back({static_cast<int32_t>(batch.next_to_start), true, {}});
            batch.next_to_start += 1;
        }
        if (!batch.events.empty()) continue;
        // A free slot takes the next prompt; its first token comes from its own evaluation, so
        // its first piece is handed out before the next prompt is evaluated. Until the batch's
        // first piece is out, the first prompt runs alone (a first token that is not yet text,
        // such as part of a character, would otherwise wait for every other prompt's evaluation).
        const bool running_any = std::any_of(batch.slots.begin(), batch.slots.end(), [](int32_t slot) { return slot >= 0; });
        const auto free_slot = std::find(batch.slots.begin(), batch.slots.end(), -1);
        if (free_slot != batch.slots.end() && batch.next_to_start < batch.sequences.size() && (batch.first_piece_out || !running_any)) {
            const size_t admitted = batch.next_to_start++;
            admit_to_batch(static_cast<int32_t>(free_slot - batch.slots.begin()), admitted);
            continue;
        }
        if (!running_any) {
            end_batch(ILOTOKI_LLM_FINISH_END_OF_GENERATION);
            continue;
        }
        if (!step_batch()) end_batch(ILOTOKI_LLM_FINISH_STOPPED);
    }
}
