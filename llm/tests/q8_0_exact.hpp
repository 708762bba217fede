// The exact value of a Q8_0 row times a Q8_0 state, in double (each block's integer sum exact,
// the scales' product exact in double): what the sketches' bounds are held over in their tests.
#pragma once

#include "ggml.h"

#include <cstddef>
#include <cstdint>
#include <cstring>

inline double exact_q8_0_dot(const uint8_t *row, const uint8_t *state, int32_t embedding) {
    constexpr size_t kBlock = 34;
    double sum = 0.0;
    for (int32_t b = 0; b < embedding / 32; ++b) {
        const uint8_t *x = row + static_cast<size_t>(b) * kBlock;
        const uint8_t *y = state + static_cast<size_t>(b) * kBlock;
        ggml_fp16_t dx, dy;
        std::memcpy(&dx, x, 2);
        std::memcpy(&dy, y, 2);
        int64_t products = 0;
        for (size_t j = 2; j < kBlock; ++j) products += static_cast<int8_t>(x[j]) * static_cast<int8_t>(y[j]);
        sum += static_cast<double>(ggml_fp16_to_fp32(dx)) * ggml_fp16_to_fp32(dy) * static_cast<double>(products);
    }
    return sum;
}
