// The state of a batch (ilotoki_llm_start_batch): several prompts decoded together, one
// sequence each, in a context of the batch's own. Used by batch.cpp under the handle's run
// mutex; a sequence's `generated` and `stats` are read by other threads under stats_mutex.
#pragma once

#include "ilotoki_llm.h"

#include "llama.h"
#include "output_filter.hpp"
#include "repetition.hpp"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace ilotoki {

/// One prompt of a batch.
struct BatchSequence {
    std::vector<llama_token> prompt;
    int32_t max_tokens = 0;
    // Why it could not start (then it ends at once with the finish reason ERROR).
    ilotoki_llm_status error_status = ILOTOKI_LLM_OK;
    std::string error;
    // The batch slot (llama.cpp sequence id) while it runs; -1 before and after.
    int32_t slot = -1;
    int32_t position = 0;
    // The latest chosen token, evaluated in the next step.
    llama_token next_input = 0;
    bool finished = false;
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

struct BatchRun {
    std::vector<BatchSequence> sequences;
    // The sequence in each slot, -1 for a free slot.
    std::vector<int32_t> slots;
    size_t next_to_start = 0;
    std::deque<BatchEvent> events;
    std::vector<std::string> stop_sequences;
    int32_t max_lines = 0;
    bool ended = false;
    // Whether any piece has been handed out: until then the first prompt is stepped alone, so
    // the first piece comes as soon as a single translation's would.
    bool first_piece_out = false;
};

} // namespace ilotoki
