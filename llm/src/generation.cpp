// The generation state machine of a translation: start (tokenize, evaluate the prompt), then
// next, token by token (decode the last token, choose the next greedily, turn it into text
// through the output filter), until it finishes (end of generation, a limit, a stop
// sequence, a stop). Every method runs on the generating thread, under the handle's run mutex.
#include "handle.hpp"

#include "argmax.hpp"
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
    } else if (reason == ILOTOKI_LLM_FINISH_END_OF_GENERATION || reason == ILOTOKI_LLM_FINISH_MAX_TOKENS) {
        output.flush();
    }
}

/// Evaluates `count` tokens at the current position. Returns false if it was aborted.
bool ilotoki_llm::decode(const llama_token *tokens, int32_t count, bool logits_for_all) {
    for (int32_t offset = 0; offset < count; offset += batch_size) {
        const int32_t chunk = std::min(batch_size, count - offset);
        batch.n_tokens = chunk;
        for (int32_t i = 0; i < chunk; ++i) {
            batch.token[i] = tokens[offset + i];
            batch.pos[i] = position + i;
            batch.n_seq_id[i] = 1;
            batch.seq_id[i][0] = 0;
            const bool last = offset + i == count - 1;
            batch.logits[i] = (last || logits_for_all) ? 1 : 0;
        }
        const int32_t result = llama_decode(context, batch);
        if (result == 2) return false;
        if (result != 0) {
            throw CoreError{ILOTOKI_LLM_ERROR_DECODE_FAILED,
                            "llama.cpp failed to evaluate the model (llama_decode returned " +
                                std::to_string(result) + ")."};
        }
        position += chunk;
    }
    return true;
}

llama_token ilotoki_llm::select_token() {
    if (params.selection != ILOTOKI_LLM_SELECT_ARGMAX && sampler != nullptr) {
        return llama_sampler_sample(sampler, context, -1);
    }
    // Greedy decoding: one right answer per input, so the first highest logit wins (as
    // llama.cpp's greedy sampler picks it), without sorting a 262k vocabulary per token.
    const float *logits = llama_get_logits_ith(context, -1);
    if (logits == nullptr) throw CoreError{ILOTOKI_LLM_ERROR_INTERNAL, "llama.cpp returned no logits."};
    return ilotoki::first_maximum(logits, vocabulary_size);
}

std::vector<llama_token> ilotoki_llm::tokenize(const char *text) const {
    const auto length = static_cast<int32_t>(std::strlen(text));
    std::vector<llama_token> tokens(static_cast<size_t>(length) + 2);
    // parse_special is off: text typed by the user can never become a control token.
    int32_t count = llama_tokenize(vocab, text, length, tokens.data(), static_cast<int32_t>(tokens.size()),
                                   /*add_special*/ true, /*parse_special*/ false);
    if (count < 0) {
        if (count == INT32_MIN) throw CoreError{ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG, "The text is too long to tokenize."};
        tokens.resize(static_cast<size_t>(-count));
        count = llama_tokenize(vocab, text, length, tokens.data(), static_cast<int32_t>(tokens.size()), true, false);
        if (count < 0) throw CoreError{ILOTOKI_LLM_ERROR_INTERNAL, "Tokenizing the prompt failed."};
    }
    tokens.resize(static_cast<size_t>(count));
    return tokens;
}

void ilotoki_llm::start(const char *prompt, const ilotoki_llm_start_params &start_params) {
    const size_t prompt_length = std::strlen(prompt);
    if (!ilotoki::utf8::is_valid(prompt, prompt_length)) {
        throw CoreError{ILOTOKI_LLM_ERROR_INVALID_TEXT, "The prompt is not valid UTF-8 text."};
    }
    translation_id.store(start_params.ticket != 0 ? start_params.ticket : reserve_ticket());
    started = false;
    finished = false;
    token_awaiting_decode = false;
    position = 0;
    params = start_params;
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        generated.clear();
        stats = {};
        started_at = Clock::now();
        page_faults_at_start = major_page_faults_so_far();
    }

    std::vector<std::string> stops;
    for (size_t i = 0; i < params.stop_sequence_count; ++i) {
        if (params.stop_sequences != nullptr && params.stop_sequences[i] != nullptr) stops.emplace_back(params.stop_sequences[i]);
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
    if (prompt_tokens.empty()) throw CoreError{ILOTOKI_LLM_ERROR_INVALID_ARGUMENT, "The prompt is empty."};
    if (prompt_count >= context_length) {
        throw CoreError{ILOTOKI_LLM_ERROR_PROMPT_TOO_LONG,
                        "The text is too long: the prompt has " + std::to_string(prompt_count) +
                            " tokens and the model's context holds " + std::to_string(context_length) +
                            " (with room for the translation)."};
    }

    // Every translation starts fresh: no conversation state is carried over.
    llama_memory_clear(llama_get_memory(context), true);
    started = true;
    const auto prefill_start = Clock::now();
    const bool completed = decode(prompt_tokens.data(), prompt_count, params.logits_for_all_prompt_tokens);
    {
        std::lock_guard<std::mutex> lock(stats_mutex);
        stats.prefill_ms = milliseconds_between(prefill_start, Clock::now());
    }
    if (!completed) finish(ILOTOKI_LLM_FINISH_STOPPED);
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

        const int32_t max_tokens = params.max_tokens > 0 ? params.max_tokens : context_length;
        if (static_cast<int32_t>(generated.size()) >= max_tokens) {
            finish(ILOTOKI_LLM_FINISH_MAX_TOKENS);
            continue;
        }
        if (token_awaiting_decode) {
            if (position >= context_length) {
                finish(ILOTOKI_LLM_FINISH_MAX_TOKENS);
                continue;
            }
            if (!decode(&last_token, 1, false)) {
                finish(ILOTOKI_LLM_FINISH_STOPPED);
                continue;
            }
            std::lock_guard<std::mutex> lock(stats_mutex);
            stats.decoded_tokens += 1;
            token_awaiting_decode = false;
        }

        const auto selection_start = Clock::now();
        const llama_token token = select_token();
        {
            std::lock_guard<std::mutex> lock(stats_mutex);
            stats.selection_ms += milliseconds_between(selection_start, Clock::now());
            generated.push_back(token);
            stats.generated_tokens = static_cast<int32_t>(generated.size());
        }
        last_token = token;
        token_awaiting_decode = true;
        if (llama_vocab_is_eog(vocab, token)) {
            finish(ILOTOKI_LLM_FINISH_END_OF_GENERATION);
            continue;
        }

        char buffer[256];
        int32_t length = llama_token_to_piece(vocab, token, buffer, sizeof(buffer), 0, /*special*/ false);
        std::string bytes;
        if (length < 0) {
            bytes.resize(static_cast<size_t>(-length));
            length = llama_token_to_piece(vocab, token, bytes.data(), -length, 0, false);
            bytes.resize(length > 0 ? static_cast<size_t>(length) : 0);
        } else {
            bytes.assign(buffer, static_cast<size_t>(length));
        }
        switch (output.feed(bytes)) {
        case ilotoki::OutputFilter::Outcome::Continue: break;
        case ilotoki::OutputFilter::Outcome::StopSequence: finish(ILOTOKI_LLM_FINISH_STOP_SEQUENCE); break;
        case ilotoki::OutputFilter::Outcome::LineLimit: finish(ILOTOKI_LLM_FINISH_LINE_LIMIT); break;
        }
    }
}
