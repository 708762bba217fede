// What both sketches of the excluded rows (check_sketch.cpp, axes_sketch.cpp) round and decode
// alike: norms and allowances rounded up, never down; Q8_0 rows as exact floats; the fifth bits of
// a Q5_0-like block spread over bytes.
#pragma once

#include "check_sketch.hpp"
#include "ggml.h"
#include "row_choice.hpp"

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#define ILOTOKI_SKETCH_X86 1
#define ILOTOKI_SKETCH_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

namespace ilotoki::sketch {

inline constexpr size_t kValues = 32;  // values in a block
inline constexpr size_t kQ8Block = 34; // a Q8_0 block: half scale, 32 quants

/// The half-precision value at or above `value` (≥ 0): an error norm is never rounded down.
inline ggml_fp16_t half_at_least(double value) {
    ggml_fp16_t half = ggml_fp32_to_fp16(static_cast<float>(value));
    while (static_cast<double>(ggml_fp16_to_fp32(half)) < value) ++half; // the next larger half
    return half;
}

/// The float at or above `value`.
inline float float_at_least(double value) {
    auto single = static_cast<float>(value);
    if (static_cast<double>(single) < value) single = std::nextafter(single, INFINITY);
    return single;
}

/// The values of one Q8_0 row (half scale, 32 quants a block), exact as floats. Written out, not
/// through ggml's type table: its entries are called through a pointer of another type, which
/// UBSan rejects.
inline void q8_0_values(const uint8_t *row, int32_t blocks, float *out) {
    for (int32_t b = 0; b < blocks; ++b) {
        const uint8_t *block = row + static_cast<size_t>(b) * kQ8Block;
        ggml_fp16_t half;
        std::memcpy(&half, block, sizeof(half));
        const float scale = ggml_fp16_to_fp32(half);
        for (size_t j = 0; j < kValues; ++j) out[static_cast<size_t>(b) * kValues + j] = scale * static_cast<int8_t>(block[2 + j]);
    }
}

/// Raises `target` to `value` where that is larger (threads may add rows at once).
inline void atomic_max(std::atomic<float> &target, float value) {
    float current = target.load(std::memory_order_relaxed);
    while (value > current && !target.compare_exchange_weak(current, value, std::memory_order_relaxed)) {
    }
}

/// Where `value` (state s's bound for `position`) reaches the floor, the row is reached; else it
/// is merged into the state's largest and next largest bound below.
inline void sort_bound(float value, int32_t position, int s, const float *floor, RowChoice *below, float *runner_below,
                       std::vector<SketchReach> &reached) {
    if (value >= floor[s]) {
        reached.push_back({position, s, value});
    } else {
        keep_top_two(below[s], &runner_below[s], value, position);
    }
}

/// Runs `run(floors, below, runner_below, padded)` over `states` states padded to whole groups of
/// `Group` (at most `Most` states): the empty states have no floor (nothing reaches it); what the
/// real states' below and runner_below become is copied back.
template <int Most, int Group, typename Run>
inline void in_whole_groups(int states, const float *floor, RowChoice *below, float *runner_below, Run run) {
    float floors[Most + Group];
    RowChoice spare_below[Most + Group];
    float spare_runner[Most + Group];
    const int padded = (states + Group - 1) / Group * Group;
    for (int s = 0; s < padded; ++s) {
        floors[s] = s < states ? floor[s] : INFINITY;
        spare_below[s] = s < states ? below[s] : RowChoice{};
        spare_runner[s] = s < states ? runner_below[s] : -INFINITY;
    }
    run(floors, spare_below, spare_runner, padded);
    for (int s = 0; s < states; ++s) {
        below[s] = spare_below[s];
        runner_below[s] = spare_runner[s];
    }
}

#if defined(__x86_64__)
/// The sum of a vector's eight lanes.
ILOTOKI_SKETCH_AVX2 inline float lane_sum(__m256 lanes) {
    const __m128 halves = _mm_add_ps(_mm256_castps256_ps128(lanes), _mm256_extractf128_ps(lanes, 1));
    const __m128 pairs = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));
    return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehdup_ps(pairs)));
}

/// A group's four states' bounds: lanes k and k + 4 of `sums` added.
ILOTOKI_SKETCH_AVX2 inline void group_sums(__m256 sums, float *out) {
    _mm_storeu_ps(out, _mm_add_ps(_mm256_castps256_ps128(sums), _mm256_extractf128_ps(sums, 1)));
}

/// The 32 values of a block laid out as ggml's Q5_0 (Bits 5: 32 fifth bits, then 16 bytes of
/// nibbles) or Q4_0 (16 bytes of nibbles) quants, from `codes`, as signed bytes: value j is the
/// low nibble of byte j, value j + 16 its high nibble; with 5 bits the value is (nibble +
/// 16·bit) − 16, with 4 the nibble less 8.
template <int Bits>
ILOTOKI_SKETCH_AVX2 inline __m256i nibble_block_values(const uint8_t *codes) {
    const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i *>(codes + (Bits == 5 ? 4 : 0)));
    const __m256i nibbles = _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(packed, 4), packed), _mm256_set1_epi8(0x0f));
    if constexpr (Bits == 5) {
        // Byte k takes the source byte k / 8 of the fifth bits (shuffles stay within each 128-bit
        // half; the four bytes are in both) and keeps its own bit k % 8: where it is set the
        // value is the nibble, else the nibble with its high bits set.
        uint32_t high;
        std::memcpy(&high, codes, sizeof(high));
        const __m256i which = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
        const __m256i bit = _mm256_set1_epi64x(static_cast<int64_t>(0x8040201008040201ull));
        const __m256i spread = _mm256_shuffle_epi8(_mm256_set1_epi32(static_cast<int>(high)), which);
        const __m256i set = _mm256_cmpeq_epi8(_mm256_and_si256(spread, bit), bit);
        return _mm256_or_si256(nibbles, _mm256_andnot_si256(set, _mm256_set1_epi8(static_cast<char>(0xf0))));
    } else {
        return _mm256_sub_epi8(nibbles, _mm256_set1_epi8(8));
    }
}
#endif

} // namespace ilotoki::sketch
