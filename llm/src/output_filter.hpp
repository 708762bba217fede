// The text side of generation: turns the bytes of generated tokens into pieces of
// complete UTF-8, and ends the output at a stop sequence or at the line limit.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ilotoki {

class OutputFilter {
public:
    enum class Outcome {
        /// The output goes on.
        Continue,
        /// The output reached a stop sequence; the sequence was not emitted.
        StopSequence,
        /// The output would have had more lines than allowed; the newline was not emitted.
        LineLimit,
    };

    /// Prepares for a new output. `max_lines` of 0 means no limit. The stop sequences must be
    /// valid UTF-8 (the C API refuses others): then they only ever match whole characters.
    void reset(std::vector<std::string> stop_sequences, int max_lines);

    /// Adds the bytes of one token. Complete text that cannot be part of a stop sequence
    /// becomes ready; the rest is held back.
    Outcome feed(std::string_view bytes);

    /// The output ended without a stop (end of generation, token limit): bytes of an
    /// unfinished character become U+FFFD and held-back text is released.
    void flush();

    /// Drops everything not yet taken (the translation was stopped).
    void discard();

    /// Whether the current output has any stop sequence.
    bool has_stop_sequences() const { return !stop_sequences_.empty(); }

    /// Moves the ready text into `out` (replacing its contents). Returns false when there is none.
    bool take_ready(std::string &out);

private:
    Outcome release(std::string text);
    void append_valid_utf8(std::string_view bytes, bool at_end);

    std::vector<std::string> stop_sequences_;
    int max_lines_ = 0;
    int emitted_newlines_ = 0;
    std::string incomplete_; // trailing bytes of a character that may still be completed
    std::string decoded_;    // scratch: complete text decoded from the latest bytes
    std::string held_;       // complete text that could be the beginning of a stop sequence
    std::string ready_;      // text ready to be handed out
};

} // namespace ilotoki
