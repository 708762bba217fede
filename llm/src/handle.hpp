// The handle behind ilotoki_llm.h: one loaded model, its context, and the translation under
// way. Shared by the C API (ilotoki_llm.cpp) and the generation state machine (generation.cpp).
#pragma once

#include "ilotoki_llm.h"

#include "ggml-cpu.h"
#include "llama.h"
#include "batch_run.hpp"
#include "output_filter.hpp"
#include "prefix_cache.hpp"
#include "repetition.hpp"
#include "residency.hpp"
#include "trimmed_head.hpp"
#include "trimmed_policy.hpp"
#include "trimmed_run.hpp"

#include <sys/resource.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ilotoki {

inline constexpr int32_t kDefaultContextLength = 2048;
// The context a handle starts with; a translation that needs more makes it again, larger, in
// steps of kContextGranule (see prepare_context).
inline constexpr int32_t kFirstContextLength = 512;
inline constexpr int32_t kContextGranule = 256;
inline constexpr int32_t kDefaultMaxTokens = 512;
inline constexpr uint32_t kSamplingChainSeed = 1234;
// Below this fraction of the file in memory, a translation reads the missing pages back first.
inline constexpr double kRestoreThreshold = 0.98;

using Clock = std::chrono::steady_clock;

inline int32_t round_up(int32_t value, int32_t granule) { return (value + granule - 1) / granule * granule; }

/// Hands memory the allocator has freed back to the system where the C library would keep it:
/// glibc keeps a freed model's vocabulary and buffers (about 48 MiB for Gemma 3 270M) with the
/// process, so a check of a file or a model switch would leave it behind.
inline void return_freed_memory() {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

/// Frees a context (detached from the handle's threadpool first) and sets it to null.
inline void free_context(llama_context *&context) {
    if (context == nullptr) return;
    llama_detach_threadpool(context);
    llama_free(context);
    context = nullptr;
}

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
struct LLMError {
    ilotoki_llm_status status;
    std::string message;
};

/// Sets entry `i` of `batch`: `token` at position `at` of `sequence`, with its logits or not.
inline void set_batch_token(llama_batch &batch, int32_t i, llama_token token, llama_pos at, llama_seq_id sequence, bool output) {
    batch.token[i] = token;
    batch.pos[i] = at;
    batch.n_seq_id[i] = 1;
    batch.seq_id[i][0] = sequence;
    batch.logits[i] = output ? 1 : 0;
}

/// Evaluates `batch` (its first `n_tokens`): false where a stop interrupted it (llama.cpp's
/// abort callback); throws where llama.cpp failed.
inline bool evaluate(llama_context *context, const llama_batch &batch) {
    const int32_t result = llama_decode(context, batch);
    if (result == 2) return false;
    if (result != 0) {
        throw LLMError{ILOTOKI_LLM_ERROR_DECODE_FAILED,
                        "llama.cpp failed to evaluate the model (llama_decode returned " + std::to_string(result) + ")."};
    }
    return true;
}

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
    int32_t context_length = 0; // the most a translation may use (load parameter)
    int32_t context_allocated = 0; // what `context` holds now
    int32_t batch_size = 0;
    int32_t threads = 0;
    int32_t vocabulary_size = 0;
    llama_flash_attn_type flash_attention = LLAMA_FLASH_ATTN_TYPE_AUTO;
    // The model file's residency (a mapping of its own for mincore, the descriptor to read
    // missing pages back through).
    std::unique_ptr<ilotoki::Residency> residency;
    // The trimmed output head, or null (with the reason) when this model's cannot be trimmed.
    std::unique_ptr<ilotoki::TrimmedHead> head;
    std::string head_unavailable;
    // Why the trimmed head's checks stream the excluded rows from the file ("": they read
    // them through the mapping): the load's reason, or the device's signal (each kept, never
    // changed once set, so that the model info's pointer stays valid), and which of them
    // holds now ("" where checks read through the mapping; read from any thread).
    std::string check_streams_at_load;
    std::string check_streams_signalled;
    std::atomic<const char *> check_streams{""};
    // Whether llama.cpp's graph currently uses the trimmed head (llama_set_output_head).
    bool head_hooked = false;
    // When the trimmed head checks (trimmed_policy.hpp): where checks read through the
    // mapping, and where they stream (`cadence()` is the one that holds now).
    ilotoki::trimmed::Cadence mapped_cadence;
    ilotoki::trimmed::Cadence streamed_cadence;
    // The device's word on its memory (ilotoki_llm_set_memory_pressure): 1 short, 0 not, -1
    // nothing new; taken at the next start. Whether the checks stream because of it.
    std::atomic<int> memory_pressure{-1};
    bool streams_for_pressure = false;
    // The shared beginnings of the single translations' prompts (dropped with `context`).
    ilotoki::PrefixCache prefixes;

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

    // The trimmed head's state in the current translation (trimmed_run.hpp).
    ilotoki::TrimmedRun trimmed_run;
    llama_token last_decoded = 0;
    ilotoki::RepetitionGuard repetition;

    // Batches (batch.cpp): a context of their own, and the current (or last) batch, null
    // while a single translation runs (batch_run.hpp).
    ilotoki::BatchContext batches;
    std::unique_ptr<ilotoki::BatchRun> batch_run;

    ~ilotoki_llm() {
        if (context != nullptr && head_hooked) llama_set_output_head(context, nullptr, nullptr);
        if (batches.context != nullptr && batches.head_hooked) llama_set_output_head(batches.context, nullptr, nullptr);
        if (sampler != nullptr) llama_sampler_free(sampler);
        if (batch_allocated) llama_batch_free(batch);
        if (batches.tokens_allocated) llama_batch_free(batches.tokens);
        ilotoki::free_context(batches.context);
        ilotoki::free_context(context);
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
    /// Hands a token that is final to the output (end of generation, text, stops).
    void release(llama_token token);
    /// At most this many tokens are generated in this translation.
    int32_t token_limit() const;
    /// Evaluates `last_token` at the current position. Returns false if it was aborted.
    bool evaluate_last_token();
    /// Records `token` as the next generated one, to be evaluated next.
    void accept(llama_token token, double selection_ms);
    /// Drops the generated tokens after the first `count` (a rollback, an output that ended early).
    void keep_generated(size_t count);
    /// The caller's stop sequences, copied; throws for one that is not UTF-8 text.
    static std::vector<std::string> stop_sequences(const ilotoki_llm_start_params &start_params);
    /// Measures the file's residency and, when asked, restores it; the figures go to `stats`.
    /// `whole_head`: this translation reads every row of the head through the mapping
    /// (llama.cpp's head, steps over every row), so where checks stream the head's range is
    /// counted and restored for it, and left out again for one that does not.
    void restore_residency(bool restore, bool whole_head);
    // Streams the checks, or reads them through the mapping again, as the device last said
    // (ilotoki_llm_set_memory_pressure); between translations only.
    void follow_memory_pressure();
    // Makes the head's checks read the rows from the file (`path`), and lets the rows' mapped
    // pages go and stay out of the restore; false where the file cannot be read again.
    bool begin_streamed_checks();
    // The head's check of slots 0..<count (kept_values: each slot's kept winner's value, for
    // the sketch), with what the sketch did counted in the stats.
    void check_head(int32_t count, const float *kept_values);
    // Whether the trimmed head's checks stream now.
    bool checks_stream() const { return head != nullptr && head->streams(); }
    // The cadence of the checks as they are made now.
    ilotoki::trimmed::Cadence cadence() const { return checks_stream() ? streamed_cadence : mapped_cadence; }
    /// Where checks stream: drops the head's pages that a kept set's copy read (trimmed_head.hpp).
    void drop_rows_read_through_mapping();
    /// Where checks stream, around a step with llama.cpp's head (a rollback, a near tie), which
    /// reads every row through its mapping: `true` before it reads the head's range back in one
    /// sequential pass (faulted in one page at a time, as the range is advised while left out,
    /// the 178 MiB took seconds); `false` after drops it again, unless `stay` (the rest of the
    /// translation is taken with llama.cpp's head). No-op where checks do not stream.
    void whole_head_read(bool reading, bool stay = false);
    /// Makes sure `context` holds `need` tokens: made again (larger, rounded up to
    /// kContextGranule, at most `context_length`) when it holds fewer.
    void prepare_context(int32_t need);
    /// A context with `params` and the handle's threads, flash attention and stop; attached
    /// to the handle's threadpool. Throws OUT_OF_MEMORY naming `what` ("of 512 tokens …").
    llama_context *make_context(llama_context_params params, const std::string &what);
    void step_full();
    void step_trimmed();
    void hook_head(bool on);
    /// Checks the pending tokens (the check itself ran already when `ran` is true) and hands
    /// out those that hold; at the first that does not, rolls back and takes that step with
    /// the full head. Returns false if a stop interrupted it.
    bool settle(bool ran);
    /// What the head does after a rollback the policy decided (widen, or give up trimming:
    /// the caller stops its own run), with the figures.
    void after_rollback(const ilotoki::trimmed::Settlement &decision);
    /// Takes the step that evaluated `decoded` at `at` again with llama.cpp's own head and
    /// returns its greedy choice (-1 if a stop interrupted it).
    llama_token choose_with_full_head(llama_token decoded, int32_t at);
    /// After a failed check of the state in the head's `slot`, whose kept choice was `chosen`:
    /// llama.cpp's choice at that step from the exact values of the kept token and the excluded
    /// rows' best; -1 where those two do not decide it (another excluded row is within the
    /// margin). The caller drops the cells after the step.
    llama_token exact_choice_after_check(int32_t slot, llama_token chosen) const;
    std::vector<llama_token> tokenize(const char *text) const;
    void start(const char *prompt, const ilotoki_llm_start_params &start_params);
    /// Returns true with a piece in `piece`, or false once the translation has ended.
    bool next();

    // Batches (batch.cpp).
    enum class BatchStep { Piece, SequenceDone, Done };
    void start_batch(const char *const *prompts, size_t count, const int32_t *max_tokens, int32_t sequences,
                     const ilotoki_llm_start_params &start_params);
    /// Tokenizes `prompt` into `sequence` with its token limit; a prompt that cannot be
    /// translated gets its error (and ends at once when the batch reports it).
    void prepare_sequence(ilotoki::BatchSequence &sequence, const char *prompt, int32_t max_tokens, int32_t default_limit) const;
    /// Adds a prompt to the running batch (ilotoki_llm_add_to_batch); returns its index.
    int32_t add_to_batch(const char *prompt, int32_t max_tokens, bool written_in_output_characters);
    /// Gives up prompt `index` of the running batch (ilotoki_llm_drop_from_batch).
    void drop_from_batch(int32_t index);
    /// The next event of the batch: a piece (in `piece`) or a sequence's end, for `index`.
    BatchStep next_batch(int32_t &index);
    /// Ends every sequence of the batch not yet ended, with `reason`.
    void end_batch(ilotoki_llm_finish_reason reason);
    void prepare_batch_context(int32_t sequences, int32_t per_sequence, int32_t tokens_per_evaluation);
    /// Evaluates `count` tokens of one sequence from `at`; false if a stop interrupted it.
    bool decode_sequence(const llama_token *tokens, int32_t count, int32_t slot, int32_t at);
    /// A prompt of the batch (`index`) that takes a free slot in the next step.
    struct Admission {
        int32_t slot;
        size_t index;
    };
    /// Puts prompt `index` into `slot`, from the cached cells of its beginning where there are
    /// some; returns what was copied.
    int32_t take_slot(int32_t slot, size_t index);
    /// After prompt `index` was evaluated: keeps its cells for later prompts and hands out its
    /// first token.
    void prompt_evaluated(size_t index, llama_token first, double prefill_ms);
    /// Takes a slot and evaluates the prompt alone (the batch's first, or one too long to join a step).
    void admit_to_batch(int32_t slot, size_t index);
    /// One step: every running sequence's latest token, and the `admissions`' prompts (all but
    /// their last tokens evaluated first, without outputs; the last ones join the step).
    bool step_batch(const std::vector<Admission> &admissions);
    void release_in_batch(size_t index, llama_token token);
    void hook_batch_head(bool on);
    /// Checks every sequence's pending tokens at once and hands out those that hold; a
    /// sequence whose token does not is rolled back to it and takes that step with the full
    /// head (batch.cpp). Returns false if a stop interrupted it.
    bool settle_batch();
    /// Takes one sequence's step that evaluated `decoded` at `at` again, alone, with
    /// llama.cpp's own head; returns its greedy choice (-1 if a stop interrupted it).
    llama_token batch_step_with_full_head(ilotoki::BatchSequence &sequence, llama_token decoded, int32_t at);
    void finish_in_batch(size_t index, ilotoki_llm_finish_reason reason);
};
