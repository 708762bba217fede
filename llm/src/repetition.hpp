// A runaway guard: notices when the output has become the same few tokens over and over
// (a model stuck in a loop), so the translation ends there instead of at the token limit.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace ilotoki {

/// Watches the tokens of one output as they become final, one at a time.
///
/// The output is looping when its last tokens are one block of `period` tokens (1 to
/// kLongestPeriod) written again and again: at least kRepeats copies in a row, and at least
/// kShortestRun tokens in all. A translation repeats a word or two ("mute mute", "very, very")
/// but never four copies of the same block over 32 tokens; a model caught in a loop does that
/// within a line. Per token it costs one comparison per period.
class RepetitionGuard {
public:
    static constexpr int32_t kLongestPeriod = 32;
    static constexpr int32_t kRepeats = 4;
    static constexpr int32_t kShortestRun = 32;

    void reset() {
        tokens_.clear();
        matched_.fill(0);
    }

    /// Adds the next final token; returns true when the output is now looping.
    bool add(int32_t token) {
        tokens_.push_back(token);
        const auto count = static_cast<int32_t>(tokens_.size());
        bool looping = false;
        for (int32_t period = 1; period <= kLongestPeriod; ++period) {
            int32_t &run = matched_[static_cast<size_t>(period)];
            // `run` counts the latest tokens that equal the token `period` before them: the
            // last run + period tokens are then `period`-periodic.
            run = count > period && tokens_[static_cast<size_t>(count - 1)] == tokens_[static_cast<size_t>(count - 1 - period)]
                      ? run + 1
                      : 0;
            if (run + period >= std::max(kRepeats * period, kShortestRun)) looping = true;
        }
        return looping;
    }

private:
    std::vector<int32_t> tokens_;
    std::array<int32_t, kLongestPeriod + 1> matched_{};
};

} // namespace ilotoki
