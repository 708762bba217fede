// The handle behind ilotoki_llm.h: one loaded model, its context, and the translation under
// way. Shared by the C API (ilotoki_llm.cpp) and the generation state machine (generation.cpp).
#pragma once

#include "ilotoki_llm.h"

#include "ggml-cpu.h"
#include "llama.h"
#include "output_filter.hpp"

#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace ilotoki {

inline constexpr int32_t kDefaultContextLength = 2048;
inline constexpr int32_t kDefaultMaxTokens = 512;
inline constexpr uint32_t kSamplingChainSeed = 1234;

using Clock = std::chrono::steady_clock;

inline double milliseconds_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}

inline int64_t major_page_faults_so_far() {
    struct rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0;
    return usage.ru_majflt;
}

inline void write_error(char *error, size_t error_len, const std::string &message) {
    if (error == nullptr || error_len == 0) return;
    const size_t length = std::min(message.size(), error_len - 1);
    std::memcpy(error, message.data(), length);
    error[length] = '\0';
}

/// Thrown inside the core; turned into a status code at the API boundary.
struct CoreError {
    ilotoki_llm_status status;
    std::string message;
};

} // namespace ilotoki

struct ilotoki_llm {
    llama_model *model = nullptr;
    llama_context *context = nullptr;
    ggml_threadpool *threadpool = nullptr;
    const llama_vocab *vocab = nullptr;
    llama_batch batch{};
    bool batch_allocated = false;
    std::string architecture;
    std::string description;
    std::string path;
    int32_t context_length = 0;
    int32_t batch_size = 0;
    int32_t threads = 0;
    int32_t vocabulary_size = 0;

    // Held by start and next for their whole run; stop takes it to wait for them to return.
    std::mutex run_mutex;
    // Every translation has a ticket: reserved by the caller before `start` (so a stop that
    // comes before `start` has begun still has a target), or taken by `start` itself. Stop
    // records the latest ticket issued; a translation is stopped when that is its own, so a
    // stop aimed at one translation can never end the next one.
    std::atomic<uint64_t> issued_ticket{0};
    std::atomic<uint64_t> translation_id{0};
    std::atomic<uint64_t> stopped_id{0};
    // Guards `stats` and `generated`, which other threads may read while a translation runs.
    mutable std::mutex stats_mutex;

    // The current translation.
    bool started = false;
    bool finished = false;
    bool token_awaiting_decode = false;
    llama_token last_token = 0;
    int32_t position = 0;
    ilotoki_llm_start_params params{};
    std::vector<llama_token> generated;
    std::vector<llama_token> prompt_tokens;
    ilotoki::OutputFilter output;
    std::string piece;
    llama_sampler *sampler = nullptr;
    ilotoki_llm_stats stats{};
    ilotoki::Clock::time_point started_at;
    int64_t page_faults_at_start = 0;

    ~ilotoki_llm() {
        if (sampler != nullptr) llama_sampler_free(sampler);
        if (batch_allocated) llama_batch_free(batch);
        if (context != nullptr) {
            llama_detach_threadpool(context);
            llama_free(context);
        }
        if (threadpool != nullptr) ggml_threadpool_free(threadpool);
        if (model != nullptr) llama_model_free(model);
    }

    bool stop_requested() const { return stopped_id.load() == translation_id.load(); }

    uint64_t reserve_ticket() { return issued_ticket.fetch_add(1) + 1; }

    static bool abort_callback(void *data) { return static_cast<ilotoki_llm *>(data)->stop_requested(); }

    void finish(ilotoki_llm_finish_reason reason);
    /// Evaluates `count` tokens at the current position. Returns false if it was aborted.
    bool decode(const llama_token *tokens, int32_t count, bool logits_for_all);
    llama_token select_token();
    std::vector<llama_token> tokenize(const char *text) const;
    void start(const char *prompt, const ilotoki_llm_start_params &start_params);
    /// Returns true with a piece in `piece`, or false once the translation has ended.
    bool next();
};
