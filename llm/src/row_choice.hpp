// The largest value over a set of rows, and which row holds it: what the row kernels, the
// trimmed head and its policy pass between them. No llama.cpp here.
#pragma once

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

} // namespace ilotoki
