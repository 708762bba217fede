// The largest value over a set of rows, and which row holds it: what the row kernels, the
// trimmed head and its policy pass between them. No llama.cpp here.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace ilotoki {

/// The largest value over a set of rows, and the first row that has it.
struct RowChoice {
    float value = -INFINITY;
    int32_t row = -1;

    /// Whether (value, row) beats `other` under greedy decoding: higher, or equal and earlier.
    bool beats(const RowChoice &other) const {
        return value > other.value || (value == other.value && row >= 0 && (other.row < 0 || row < other.row));
    }
};

/// Where `value` (row `row`, rows coming in ascending order) beats `best`, it becomes the best;
/// with `runner_up`, the largest value of any other row is kept there too.
inline void keep_top_two(RowChoice &best, float *runner_up, float value, int32_t row) {
    if (value > best.value) {
        if (runner_up != nullptr) *runner_up = best.value;
        best = RowChoice{value, row};
    } else if (runner_up != nullptr && value > *runner_up) {
        *runner_up = value;
    }
}

/// Merges a part of the rows' best and runner-up into the whole's: the runner-up stays the
/// largest value of any row but the best.
inline void merge_part(RowChoice &best, float &runner_up, const RowChoice &found, float found_runner_up = -INFINITY) {
    if (found.beats(best)) {
        runner_up = std::max(runner_up, std::max(best.value, found_runner_up));
        best = found;
    } else {
        runner_up = std::max(runner_up, found.value);
    }
}

} // namespace ilotoki
