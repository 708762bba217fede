#include "axes_sketch.hpp"

#include "check_sketch.hpp"
#include "sketch_numbers.hpp"
#include "ggml-cpu.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>


namespace ilotoki {

namespace {

using sketch::atomic_max;
using sketch::float_at_least;
using sketch::half_at_least;
using sketch::kValues; // axes in a block
using sketch::q8_0_values;
using sketch::sort_bound;
#if ILOTOKI_SKETCH_X86
constexpr size_t kTile = 128; // rows run through every group of states while in cache
constexpr int kGroup = 4;     // states packed into one vector
#endif


/// A block's bytes: half scale, half error norm, then the codes as ggml lays out Q4_0 (16 bytes,
/// code j in the low nibble of byte j and code j + 16 in its high nibble, less 8), Q5_0 (the 32
/// fifth bits first, then the nibbles, less 16) and Q8_0 (32 signed bytes) quants.
size_t block_bytes(int bits) { return 2 * sizeof(ggml_fp16_t) + (bits == 4 ? 16 : bits == 5 ? 20 : 32); }

void pack_codes(int bits, const int *codes, uint8_t *out) {
    if (bits == 8) {
        for (size_t j = 0; j < kValues; ++j) out[j] = static_cast<uint8_t>(static_cast<int8_t>(codes[j]));
        return;
    }
    const int offset = bits == 5 ? 16 : 8;
    uint32_t high = 0;
    uint8_t *nibbles = out + (bits == 5 ? 4 : 0);
    for (size_t j = 0; j < kValues / 2; ++j) {
        const auto low = static_cast<uint32_t>(codes[j] + offset), upper = static_cast<uint32_t>(codes[j + 16] + offset);
        nibbles[j] = static_cast<uint8_t>((low & 0x0f) | ((upper & 0x0f) << 4));
        high |= ((low >> 4) & 1u) << j;
        high |= ((upper >> 4) & 1u) << (j + 16);
    }
    if (bits == 5) std::memcpy(out, &high, sizeof(high));
}

void unpack_codes(int bits, const uint8_t *in, int *codes) {
    if (bits == 8) {
        for (size_t j = 0; j < kValues; ++j) codes[j] = static_cast<int8_t>(in[j]);
        return;
    }
    const int offset = bits == 5 ? 16 : 8;
    uint32_t high = 0;
    if (bits == 5) std::memcpy(&high, in, sizeof(high));
    const uint8_t *nibbles = in + (bits == 5 ? 4 : 0);
    for (size_t j = 0; j < kValues / 2; ++j) {
        codes[j] = static_cast<int>((nibbles[j] & 0x0f) | (((high >> j) & 1u) << 4)) - offset;
        codes[j + 16] = static_cast<int>((nibbles[j] >> 4) | (((high >> (j + 16)) & 1u) << 4)) - offset;
    }
}

#if ILOTOKI_SKETCH_X86

/// What the kernel reads of a sketch and its states.
struct AxesKernelData {
    const uint8_t *data;
    size_t row_bytes;
    const size_t *block_at;
    const int *bits;
    size_t blocks;
    size_t dimensions;
    const int16_t *quants;      // per state (whole groups of four): n values
    const float *group_scales;  // per group and block: σ of s0 s1 s2 s3 s0 s1 s2 s3
    const float *group_factors; // per group and block: F_b of s0 s1 s2 s3, then zeros
};

/// A block's 32 codes as signed bytes (the layouts of pack_codes).
ILOTOKI_SKETCH_AVX2 inline __m256i block_codes(int bits, const uint8_t *codes) {
    if (bits == 8) return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(codes));
    return bits == 5 ? sketch::nibble_block_values<5>(codes) : sketch::nibble_block_values<4>(codes);
}

/// Rows [first, first + count) against states [group, group + States): each block's codes
/// decoded once, widened to 16 bits and multiplied with each state's 16-bit block (sums of four
/// products, exact in 32 bits), scaled by d_b σ_b into eight float lanes; the bound's terms
/// E_b F_b in a scalar.
/// One or two states: each state's sums in a vector of its own (packing would leave most of a
/// group of four empty: 9.3 against 18.4 ms a pass over 230,113 rows for one state, one thread).
template <int States>
ILOTOKI_SKETCH_AVX2 void reach_each_avx2(const AxesKernelData &sketch, size_t first, size_t count, const float *floor, RowChoice *below,
                                       float *runner_below, std::vector<SketchReach> &reached) {
    const size_t n = sketch.dimensions;
    const size_t blocks = sketch.blocks;
    for (size_t position = first; position < first + count; ++position) {
        const uint8_t *row = sketch.data + position * sketch.row_bytes;
        __m256 sums[States];
        float bounds[States];
        for (int s = 0; s < States; ++s) {
            sums[s] = _mm256_setzero_ps();
            bounds[s] = 0.0f;
        }
        for (size_t b = 0; b < blocks; ++b) {
            const uint8_t *block = row + sketch.block_at[b];
            uint16_t half_scale, half_error;
            std::memcpy(&half_scale, block, sizeof(half_scale));
            std::memcpy(&half_error, block + 2, sizeof(half_error));
            const float scale = _cvtsh_ss(half_scale), error = _cvtsh_ss(half_error);
            const __m256i codes = block_codes(sketch.bits[b], block + 4);
            const __m256i low = _mm256_cvtepi8_epi16(_mm256_castsi256_si128(codes));
            const __m256i high = _mm256_cvtepi8_epi16(_mm256_extracti128_si256(codes, 1));
            for (int s = 0; s < States; ++s) {
                const int16_t *t = sketch.quants + static_cast<size_t>(s) * n + b * kValues;
                const __m256i products = _mm256_add_epi32(_mm256_madd_epi16(low, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(t))),
                                                          _mm256_madd_epi16(high, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(t + 16))));
                const size_t lanes = b * 8 + static_cast<size_t>(s);
                sums[s] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(products), _mm256_set1_ps(scale * sketch.group_scales[lanes]), sums[s]);
                bounds[s] = std::fma(error, sketch.group_factors[lanes], bounds[s]);
            }
        }
        for (int s = 0; s < States; ++s) {
            sort_bound(sketch::lane_sum(sums[s]) + bounds[s], static_cast<int32_t>(position), s, floor, below, runner_below, reached);
        }
    }
}

template <int Groups>
ILOTOKI_SKETCH_AVX2 void reach_avx2(const AxesKernelData &sketch, size_t first, size_t count, int first_state, const float *floor,
                                  RowChoice *below, float *runner_below, std::vector<SketchReach> &reached) {
    const size_t n = sketch.dimensions;
    const size_t blocks = sketch.blocks;
    for (size_t position = first; position < first + count; ++position) {
        const uint8_t *row = sketch.data + position * sketch.row_bytes;
        __m256 sums[Groups];
        for (int g = 0; g < Groups; ++g) sums[g] = _mm256_setzero_ps();
        for (size_t b = 0; b < blocks; ++b) {
            const uint8_t *block = row + sketch.block_at[b];
            uint16_t half_scale, half_error;
            std::memcpy(&half_scale, block, sizeof(half_scale));
            std::memcpy(&half_error, block + 2, sizeof(half_error));
            const __m256 scale = _mm256_set1_ps(_cvtsh_ss(half_scale));
            const __m256 error = _mm256_set1_ps(_cvtsh_ss(half_error));
            const __m256i codes = block_codes(sketch.bits[b], block + 4);
            const __m256i low = _mm256_cvtepi8_epi16(_mm256_castsi256_si128(codes));
            const __m256i high = _mm256_cvtepi8_epi16(_mm256_extracti128_si256(codes, 1));
            for (int g = 0; g < Groups; ++g) {
                const int16_t *t = sketch.quants + static_cast<size_t>(first_state + g * kGroup) * n + b * kValues;
                const auto products = [&](int k) ILOTOKI_SKETCH_AVX2 {
                    const int16_t *state = t + static_cast<size_t>(k) * n;
                    return _mm256_add_epi32(_mm256_madd_epi16(low, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(state))),
                                            _mm256_madd_epi16(high, _mm256_loadu_si256(reinterpret_cast<const __m256i *>(state + 16))));
                };
                // Four states' sums in one vector: lanes s0 s1 s2 s3 of each half.
                const __m256i packed = _mm256_hadd_epi32(_mm256_hadd_epi32(products(0), products(1)), _mm256_hadd_epi32(products(2), products(3)));
                const size_t lanes = (static_cast<size_t>(first_state / kGroup + g) * blocks + b) * 8;
                sums[g] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(packed), _mm256_mul_ps(scale, _mm256_loadu_ps(sketch.group_scales + lanes)), sums[g]);
                sums[g] = _mm256_fmadd_ps(error, _mm256_loadu_ps(sketch.group_factors + lanes), sums[g]);
            }
        }
        for (int g = 0; g < Groups; ++g) {
            float bounds[kGroup];
            sketch::group_sums(sums[g], bounds);
            for (int k = 0; k < kGroup; ++k) {
                sort_bound(bounds[k], static_cast<int32_t>(position), first_state + g * kGroup + k, floor, below, runner_below, reached);
            }
        }
    }
}

#endif


} // namespace

std::unique_ptr<AxesSketch> AxesSketch::make(std::shared_ptr<const PrincipalAxes> axes, const std::vector<int> &bits, size_t rows) {
    if (axes == nullptr || rows == 0 || bits.empty() || static_cast<size_t>(axes->dimensions()) != bits.size() * kValues ||
        axes->orthonormal_error() <= 0.0) {
        return nullptr;
    }
    for (const int b : bits) {
        if (b != 4 && b != 5 && b != 8) return nullptr;
    }
    std::unique_ptr<AxesSketch> sketch(new AxesSketch());
    sketch->axes_ = std::move(axes);
    sketch->bits_ = bits;
    sketch->blocks_ = static_cast<int32_t>(bits.size());
    size_t at = 0;
    for (const int b : bits) {
        sketch->block_at_.push_back(at);
        at += block_bytes(b);
    }
    sketch->row_bytes_ = at;
    sketch->rows_ = rows;
    sketch->data_.assign(sketch->row_bytes_ * rows, 0);
#if ILOTOKI_SKETCH_X86
    sketch->avx2_ = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
#endif
    // ILOTOKI_ROW_KERNEL=vec_dot runs the portable path here too (the arm64 path, on x86).
    if (const char *forced = std::getenv("ILOTOKI_ROW_KERNEL"); forced != nullptr && std::strcmp(forced, "vec_dot") == 0) sketch->avx2_ = false;
    return sketch;
}

size_t AxesSketch::bytes_for(const std::vector<int> &bits, size_t rows) {
    size_t row = 0;
    for (const int b : bits) row += block_bytes(b);
    return row * rows;
}

void AxesSketch::add(size_t position, const uint8_t *q8_0) {
    if (position >= rows_ || axes_ == nullptr) return;
    const auto n = static_cast<size_t>(axes_->dimensions());
    std::vector<float> w(n);
    std::vector<double> u(n);
    q8_0_values(q8_0, blocks_, w.data());
    axes_->rotate(w.data(), u.data());
    double length = 0.0;
    for (const float v : w) length += static_cast<double>(v) * v;
    length = std::sqrt(length);
    // A block's error vector is off by at most √32 times a coordinate's error.
    store(position, u.data(), length, std::sqrt(static_cast<double>(kValues)) * axes_->double_rotation_error() * length);
}

void AxesSketch::add_rows(size_t first, const uint8_t *q8_0, size_t count, size_t stride) {
    if (axes_ == nullptr || first >= rows_) return;
    count = std::min(count, rows_ - first);
    const auto n = static_cast<size_t>(axes_->dimensions());
    constexpr size_t kBatch = 64;
    std::vector<float> w(kBatch * n), u(kBatch * n);
    std::vector<double> values(n);
    const double per_value = axes_->float_rotation_error();
    for (size_t at = 0; at < count; at += kBatch) {
        const size_t rows = std::min(kBatch, count - at);
        for (size_t r = 0; r < rows; ++r) q8_0_values(q8_0 + (at + r) * stride, blocks_, &w[r * n]);
        axes_->rotate_rows(w.data(), rows, u.data());
        for (size_t r = 0; r < rows; ++r) {
            double length = 0.0;
            for (size_t j = 0; j < n; ++j) {
                length += static_cast<double>(w[r * n + j]) * w[r * n + j];
                values[j] = u[r * n + j];
            }
            length = std::sqrt(length);
            store(first + at + r, values.data(), length, std::sqrt(static_cast<double>(kValues)) * per_value * length);
        }
    }
}

void AxesSketch::store(size_t position, const double *u, double length, double rotation_error) {
    uint8_t *row = &data_[position * row_bytes_];
    float largest_block = 0.0f;
    for (int32_t b = 0; b < blocks_; ++b) {
        const int k = bits_[static_cast<size_t>(b)];
        const double *values = &u[static_cast<size_t>(b) * kValues];
        // The value of largest magnitude takes the code −2^(k−1), as ggml's Q4_0 does.
        double extreme = 0.0;
        for (size_t j = 0; j < kValues; ++j) {
            if (std::fabs(values[j]) > std::fabs(extreme)) extreme = values[j];
        }
        const int low = -(1 << (k - 1)), high = (1 << (k - 1)) - 1;
        const ggml_fp16_t half_scale = ggml_fp32_to_fp16(static_cast<float>(extreme / low));
        const double scale = ggml_fp16_to_fp32(half_scale);
        uint8_t *block = row + block_at_[static_cast<size_t>(b)];
        double error = 0.0, copy = 0.0, original = 0.0;
        int codes[kValues];
        for (size_t j = 0; j < kValues; ++j) {
            const int code = scale != 0.0 && std::isfinite(scale)
                                 ? static_cast<int>(std::clamp(std::nearbyint(values[j] / scale), static_cast<double>(low), static_cast<double>(high)))
                                 : 0;
            const double kept = scale * code;
            error += (values[j] - kept) * (values[j] - kept);
            copy += kept * kept;
            original += values[j] * values[j];
            codes[j] = code;
        }
        pack_codes(k, codes, block + 2 * sizeof(ggml_fp16_t));
        std::memcpy(block, &half_scale, sizeof(half_scale));
        const ggml_fp16_t half_error = half_at_least((std::sqrt(error) + rotation_error) * (1.0 + 1e-12));
        std::memcpy(block + sizeof(ggml_fp16_t), &half_error, sizeof(half_error));
        largest_block = std::max(largest_block, float_at_least(std::sqrt(std::max(copy, original)) * (1.0 + 1e-12) + rotation_error));
    }
    // Threads may store different rows at once.
    atomic_max(largest_block_, largest_block);
    atomic_max(largest_row_, float_at_least(length * (1.0 + 1e-12)));
    added_.fetch_add(1, std::memory_order_acq_rel);
}


void AxesSketch::set_states(const uint8_t *states, size_t state_bytes, int count) {
    states_ = std::clamp(count, 0, kMostStates);
    const auto n = static_cast<size_t>(axes_->dimensions());
    const auto blocks = static_cast<size_t>(blocks_);
    const size_t groups = static_cast<size_t>((states_ + 3) / 4);
    quants_.assign(groups * 4 * n, 0);
    group_scales_.assign(groups * blocks * 8, 0.0f);
    group_factors_.assign(groups * blocks * 8, 0.0f);
    slack_.assign(static_cast<size_t>(states_), 0.0f);
    std::vector<float> x(n);
    std::vector<double> y(n);
    for (int s = 0; s < states_; ++s) {
        q8_0_values(states + static_cast<size_t>(s) * state_bytes, blocks_, x.data());
        axes_->rotate(x.data(), y.data());
        double length = 0.0;
        for (const float v : x) length += static_cast<double>(v) * v;
        length = std::sqrt(length);
        // A block of the computed y is off from A x by at most this (as a row's in `add`).
        const double rotation_error = std::sqrt(static_cast<double>(kValues)) * axes_->double_rotation_error() * length;
        double rounding = 0.0, magnitudes = 0.0;
        for (size_t b = 0; b < blocks; ++b) {
            const double *values = &y[b * kValues];
            double largest = 0.0, squares = 0.0;
            for (size_t j = 0; j < kValues; ++j) {
                largest = std::max(largest, std::fabs(values[j]));
                squares += values[j] * values[j];
            }
            const auto sigma = static_cast<float>(largest / 32767.0);
            double off = 0.0;
            for (size_t j = 0; j < kValues; ++j) {
                const double t = sigma > 0.0f ? std::clamp(std::nearbyint(values[j] / sigma), -32767.0, 32767.0) : 0.0;
                quants_[static_cast<size_t>(s) * n + b * kValues + j] = static_cast<int16_t>(t);
                off += (values[j] - sigma * t) * (values[j] - sigma * t);
            }
            const double factor = std::sqrt(squares) + rotation_error;
            const double difference = (std::sqrt(off) + rotation_error) * (1.0 + 1e-12);
            group_scales_[lane(s, b)] = group_scales_[lane(s, b) + 4] = sigma;
            group_factors_[lane(s, b)] = float_at_least(factor * (1.0 + 1e-12));
            rounding += difference;
            // A block's terms: |d σ (c·t)| ≤ ‖û_b‖ ‖y_q,b‖ ≤ ‖û_b‖ (F_b + D_b), and
            // E_b F_b ≤ (‖u_b‖ + ‖û_b‖) F_b.
            magnitudes += factor + difference;
        }
        const double largest_block = std::max(static_cast<double>(largest_block_.load(std::memory_order_acquire)), 1e-30);
        // The floats' sums (a few tens of terms) are off by a few 2^-24 of the terms' magnitudes
        // (here at most three times largest_block (F + D) a block): 2^-14 of that covers it many
        // times over.
        const double floats = std::ldexp(3.0 * largest_block * magnitudes, -14);
        const double terms = largest_block * rounding + axes_->orthonormal_error() * static_cast<double>(largest_row_.load(std::memory_order_acquire)) * length + floats;
        slack_[static_cast<size_t>(s)] = float_at_least(terms * (1.0 + 1e-9));
    }
}

void AxesSketch::row_bounds(size_t position, int first_state, int count, float *out) const {
    // Each block's codes decoded once for every state; each state's sums in the same order.
    const uint8_t *row = &data_[position * row_bytes_];
    const auto n = static_cast<size_t>(axes_->dimensions());
    float values[kMostStates] = {}, bounds[kMostStates] = {};
    for (size_t b = 0; b < static_cast<size_t>(blocks_); ++b) {
        const uint8_t *block = row + block_at_[b];
        ggml_fp16_t half_scale, half_error;
        std::memcpy(&half_scale, block, sizeof(half_scale));
        std::memcpy(&half_error, block + sizeof(ggml_fp16_t), sizeof(half_error));
        const float scale = ggml_fp16_to_fp32(half_scale), error = ggml_fp16_to_fp32(half_error);
        int codes[kValues];
        unpack_codes(bits_[b], block + 2 * sizeof(ggml_fp16_t), codes);
        for (int k = 0; k < count; ++k) {
            const int s = first_state + k;
            const int16_t *t = &quants_[static_cast<size_t>(s) * n + b * kValues];
            int32_t sum = 0;
            for (size_t j = 0; j < kValues; ++j) sum += codes[j] * t[j];
            values[k] += static_cast<float>(sum) * (scale * group_scales_[lane(s, b)]);
            bounds[k] += error * group_factors_[lane(s, b)];
        }
    }
    for (int k = 0; k < count; ++k) out[k] = values[k] + bounds[k];
}

float AxesSketch::bound(size_t position, int state) const {
    float value = 0.0f;
    row_bounds(position, state, 1, &value);
    return value;
}

void AxesSketch::reach(size_t first, size_t count, const float *floor, RowChoice *below, float *runner_below,
                       std::vector<SketchReach> &reached) const {
    if (states_ == 0 || first >= rows_) return;
    const size_t end = std::min(rows_, first + count);
#if ILOTOKI_SKETCH_X86
    const AxesKernelData kernel_data{data_.data(), row_bytes_, block_at_.data(), bits_.data(), static_cast<size_t>(blocks_),
                                     static_cast<size_t>(axes_->dimensions()), quants_.data(), group_scales_.data(), group_factors_.data()};
    if (avx2_ && states_ <= 2) {
        (states_ == 1 ? reach_each_avx2<1> : reach_each_avx2<2>)(kernel_data, first, end - first, floor, below, runner_below, reached);
        return;
    }
    if (avx2_) {
        sketch::in_whole_groups<kMostStates, kGroup>(states_, floor, below, runner_below, [&](const float *floors, RowChoice *group_below,
                                                                                              float *group_runner, int padded) {
            for (size_t tile = first; tile < end; tile += kTile) {
                const size_t rows = std::min(kTile, end - tile);
                for (int group = 0; group < padded / kGroup; group += 2) {
                    auto *kernel = group + 1 < padded / kGroup ? reach_avx2<2> : reach_avx2<1>;
                    kernel(kernel_data, tile, rows, group * kGroup, floors, group_below, group_runner, reached);
                }
            }
        });
        return;
    }
#endif
    float bounds[kMostStates];
    for (size_t position = first; position < end; ++position) {
        row_bounds(position, 0, states_, bounds);
        for (int s = 0; s < states_; ++s) sort_bound(bounds[s], static_cast<int32_t>(position), s, floor, below, runner_below, reached);
    }
}

} // namespace ilotoki
