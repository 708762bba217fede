// The state of a batch (ilotoki_llm_start_batch): several prompts decoded together, one
// sequence each, in a context of the batches' own (BatchContext), and the run (BatchRun).
// Used by batch.cpp under the handle's run mutex; a sequence's `generated` and `stats` are
// read by other threads under stats_mutex.
#pragma once

#include "ilotoki_llm.h"

#include "llama.h"
#include "output_filter.hpp"
#include "prefix_cache.hpp"
#include "repetition.hpp"
#include "trimmed_policy.hpp"
#include "trimmed_run.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ilotoki {

/// The most sequences a step of a batch decodes with the trimmed head. A check reads every
/// excluded row once for up to 8 states: at 2 sequences that is once every 4 steps, at 4 once
/// every 2, and from 5 on once every step, which is what llama.cpp's head reads anyway. Only
/// a few kept rows pay: a step computes every row for every sequence either way (docs/benchmarks.md,
/// "The trimmed head in a batch").
inline constexpr int32_t kTrimmedBatchMost = 4;

/// A token of a batch's sequence not yet final, as a single translation's are (trimmed_run.hpp).
using BatchPending = PendingToken;

/// One prompt of a batch.
struct BatchSequence {
    std::vector<llama_token> prompt;
    int32_t max_tokens = 0;
    // Whether its answer is written in the batch's kept characters: only steps whose every
    // sequence's is take the trimmed head.
    bool in_kept_characters = true;
    // Why it could not start (then it ends at once with the finish reason ERROR).
    ilotoki_llm_status error_status = ILOTOKI_LLM_OK;
    std::string error;
    // The batch slot (llama.cpp sequence id) while it runs; -1 before and after.
    int32_t slot = -1;
    int32_t position = 0;
    // The latest chosen token, evaluated in the next step.
    llama_token next_input = 0;
    // Chosen by the trimmed head, waiting for a check (after the final ones in `generated`).
    std::vector<BatchPending> pending;
    bool finished = false;
    // Given up by the caller (ilotoki_llm_drop_from_batch); its end was reported then.
    bool dropped = false;
    OutputFilter output;
    RepetitionGuard repetition;
    std::vector<llama_token> generated;
    ilotoki_llm_stats stats{};
};

/// What `next_batch` hands out, in the order it happened.
struct BatchEvent {
    int32_t index;
    bool done; // the sequence ended (no text)
    std::string text;
};

/// The batches' context: one KV stream per sequence, made for the first batch and again when
/// one needs more sequences, a longer context per sequence or more tokens per evaluation.
struct BatchContext {
    llama_context *context = nullptr;
    int32_t sequences = 0;
    int32_t length = 0; // per sequence
    int32_t most_tokens = 0; // per evaluation
    llama_batch tokens{};
    bool tokens_allocated = false;
    // Whether the context's graph uses the trimmed head.
    bool head_hooked = false;
    // The prompts' shared beginnings (dropped with the context).
    PrefixCache prefixes;
};

struct BatchRun {
    std::vector<BatchSequence> sequences;
    // The sequence in each slot, -1 for a free slot.
    std::vector<int32_t> slots;
    size_t next_to_start = 0;
    std::deque<BatchEvent> events;
    std::vector<std::string> stop_sequences;
    int32_t max_lines = 0;
    // A prompt's token limit where it asks for none (params.max_tokens, or the context).
    int32_t default_limit = 0;
    bool ended = false;
    // Whether any piece has been handed out: until then the first prompt is stepped alone, so
    // the first piece comes as soon as a single translation's would.
    bool first_piece_out = false;
    // The trimmed head: whether steps of up to kTrimmedBatchMost sequences use it, the head's
    // slots the pending states fill (from 0), and the rollbacks that did not widen.
    bool trimming = false;
    int32_t states_used = 0;
    trimmed::Counters counters;
    // Whether prompts start from the cached beginnings (ilotoki_llm_start_params.reuse_prefix).
    bool reuse_prefix = true;
    // Whether steps the trimmed head does not take compute every row with its row kernel.
    bool every_row = false;
};

} // namespace ilotoki
