#include "check_sketch.hpp"

#include "sketch_numbers.hpp"

#include "ggml-cpu.h"

#include <sys/mman.h>

#include <algorithm>
#include <cmath>
#include <cstring>


namespace ilotoki {

namespace {

using sketch::atomic_max;
using sketch::float_at_least;
using sketch::half_at_least;
using sketch::kQ8Block;
using sketch::kValues; // values in a block (Q8_0, Q5_0 and Q4_0 alike)
using sketch::q8_0_values;
using sketch::sort_bound;
constexpr int kGroup = 4;           // states packed into one vector

/// The values of one Q5_0 or Q4_0 row: per block a half scale, for Q5_0 the 32 fifth bits
/// (bit j for value j), and 16 bytes whose low nibbles are values 0-15 and high nibbles 16-31.
void sketch_values(const uint8_t *row, int bits, int32_t blocks, size_t block_bytes, float *out) {
    for (int32_t b = 0; b < blocks; ++b) {
        const uint8_t *block = row + static_cast<size_t>(b) * block_bytes;
        ggml_fp16_t half;
        std::memcpy(&half, block, sizeof(half));
        const float scale = ggml_fp16_to_fp32(half);
        uint32_t high = 0;
        if (bits == 5) std::memcpy(&high, block + 2, sizeof(high));
        const uint8_t *nibbles = block + (bits == 5 ? 6 : 2);
        const int offset = bits == 5 ? 16 : 8;
        for (size_t j = 0; j < kValues / 2; ++j) {
            const int low = (nibbles[j] & 0x0f) | (bits == 5 ? static_cast<int>((high >> j) & 1u) << 4 : 0);
            const int upper = (nibbles[j] >> 4) | (bits == 5 ? static_cast<int>((high >> (j + 16)) & 1u) << 4 : 0);
            out[static_cast<size_t>(b) * kValues + j] = scale * static_cast<float>(low - offset);
            out[static_cast<size_t>(b) * kValues + j + 16] = scale * static_cast<float>(upper - offset);
        }
    }
}


#if ILOTOKI_SKETCH_X86

constexpr size_t kTile = 128; // rows run through every state group while in cache

/// The 32 values of a Q5_0 (Q4_0) block (its half scale first) as signed bytes.
template <int Bits>
ILOTOKI_SKETCH_AVX2 inline __m256i block_values(const uint8_t *block) {
    return sketch::nibble_block_values<Bits>(block + 2);
}

/// One group of four states (or two) at a time, as the check's AVX2 kernel (row_dots.cpp)
/// does: |x| as unsigned bytes times sign(x)·y, four states' block sums packed into one vector,
/// and per block the bound's term |d_b| ‖q_b‖ · ‖w_b − ŵ_b‖ added into the same lanes.
template <int Bits, int Groups>
ILOTOKI_SKETCH_AVX2 void reach_avx2(const uint8_t *data, size_t row_bytes, size_t block_bytes, int32_t blocks, size_t first, size_t count,
                                    int first_state, const int8_t *quants, const float *group_scales, const float *group_bounds,
                                    const float *floor, RowChoice *below, float *runner_below, std::vector<SketchReach> &reached) {
    const __m256i ones = _mm256_set1_epi16(1);
    const size_t quant_stride = static_cast<size_t>(blocks) * kValues;
    const size_t lane_stride = static_cast<size_t>(blocks) * 8;
    for (size_t i = first; i < first + count; ++i) {
        const uint8_t *row = data + i * row_bytes;
        const uint8_t *norms = row + static_cast<size_t>(blocks) * block_bytes;
        __m256 sums[Groups];
        for (int g = 0; g < Groups; ++g) sums[g] = _mm256_setzero_ps();
        for (int32_t b = 0; b < blocks; ++b) {
            const uint8_t *block = row + static_cast<size_t>(b) * block_bytes;
            const __m256i x = block_values<Bits>(block);
            const __m256i magnitude = _mm256_sign_epi8(x, x);
            uint16_t half_scale, half_norm;
            std::memcpy(&half_scale, block, sizeof(half_scale));
            std::memcpy(&half_norm, norms + static_cast<size_t>(b) * 2, sizeof(half_norm));
            const __m256 scale = _mm256_set1_ps(_cvtsh_ss(half_scale));
            const __m256 norm = _mm256_set1_ps(_cvtsh_ss(half_norm));
            for (int g = 0; g < Groups; ++g) {
                const int8_t *y = quants + static_cast<size_t>(g * kGroup) * quant_stride + static_cast<size_t>(b) * kValues;
                const auto products = [&](int k) ILOTOKI_SKETCH_AVX2 {
                    const __m256i yk = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(y + static_cast<size_t>(k) * quant_stride));
                    return _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(yk, x)), ones);
                };
                const __m256i packed = _mm256_hadd_epi32(_mm256_hadd_epi32(products(0), products(1)), _mm256_hadd_epi32(products(2), products(3)));
                const size_t lanes = static_cast<size_t>(g) * lane_stride + static_cast<size_t>(b) * 8;
                const __m256 scales = _mm256_mul_ps(scale, _mm256_loadu_ps(group_scales + lanes));
                sums[g] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(packed), scales, sums[g]);
                sums[g] = _mm256_fmadd_ps(norm, _mm256_loadu_ps(group_bounds + lanes), sums[g]);
            }
        }
        for (int g = 0; g < Groups; ++g) {
            float bounds[kGroup];
            sketch::group_sums(sums[g], bounds);
            for (int k = 0; k < kGroup; ++k) {
                sort_bound(bounds[k], static_cast<int32_t>(i), first_state + g * kGroup + k, floor, below, runner_below, reached);
            }
        }
    }
}

/// One or two states: each state's products summed in a vector of its own (no packing, which
/// would leave the rest of a group of four empty), the bound's terms in a scalar. A check of one
/// state (every step of an answer that left the kept rows) costs less than half a group's: 6.9
/// against 15.0 ms over 230,113 rows on one thread of an AMD EPYC; with three states the group
/// of four is faster again (17.2 against 15.0).
template <int Bits, int States>
ILOTOKI_SKETCH_AVX2 void reach_each_avx2(const uint8_t *data, size_t row_bytes, size_t block_bytes, int32_t blocks, size_t first,
                                         size_t count, const int8_t *quants, const float *scales, const float *factors, const float *floor,
                                         RowChoice *below, float *runner_below, std::vector<SketchReach> &reached) {
    const __m256i ones = _mm256_set1_epi16(1);
    const size_t quant_stride = static_cast<size_t>(blocks) * kValues;
    for (size_t i = first; i < first + count; ++i) {
        const uint8_t *row = data + i * row_bytes;
        const uint8_t *norms = row + static_cast<size_t>(blocks) * block_bytes;
        __m256 sums[States];
        float bounds[States];
        for (int s = 0; s < States; ++s) {
            sums[s] = _mm256_setzero_ps();
            bounds[s] = 0.0f;
        }
        for (int32_t b = 0; b < blocks; ++b) {
            const uint8_t *block = row + static_cast<size_t>(b) * block_bytes;
            const __m256i x = block_values<Bits>(block);
            const __m256i magnitude = _mm256_sign_epi8(x, x);
            uint16_t half_scale, half_norm;
            std::memcpy(&half_scale, block, sizeof(half_scale));
            std::memcpy(&half_norm, norms + static_cast<size_t>(b) * 2, sizeof(half_norm));
            const float scale = _cvtsh_ss(half_scale);
            const float norm = _cvtsh_ss(half_norm);
            for (int s = 0; s < States; ++s) {
                const __m256i y = _mm256_loadu_si256(
                    reinterpret_cast<const __m256i *>(quants + static_cast<size_t>(s) * quant_stride + static_cast<size_t>(b) * kValues));
                const __m256i products = _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(y, x)), ones);
                const float state_scale = scales[static_cast<size_t>(s) * static_cast<size_t>(blocks) + static_cast<size_t>(b)];
                sums[s] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(products), _mm256_set1_ps(scale * state_scale), sums[s]);
                bounds[s] = std::fma(norm, factors[static_cast<size_t>(s) * static_cast<size_t>(blocks) + static_cast<size_t>(b)], bounds[s]);
            }
        }
        for (int s = 0; s < States; ++s) {
            sort_bound(sketch::lane_sum(sums[s]) + bounds[s], static_cast<int32_t>(i), s, floor, below, runner_below, reached);
        }
    }
}

bool cpu_has_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c"); }

#endif

} // namespace

std::unique_ptr<CheckSketch> CheckSketch::make(int bits, ggml_type row_type, int32_t embedding, size_t rows) {
    if ((bits != 4 && bits != 5) || row_type != GGML_TYPE_Q8_0 || embedding <= 0 || embedding % static_cast<int32_t>(kValues) != 0 ||
        rows == 0) {
        return nullptr;
    }
    std::unique_ptr<CheckSketch> sketch(new CheckSketch());
    sketch->bits_ = bits;
    sketch->type_ = bits == 5 ? GGML_TYPE_Q5_0 : GGML_TYPE_Q4_0;
    sketch->embedding_ = embedding;
    sketch->blocks_ = embedding / static_cast<int32_t>(kValues);
    sketch->block_bytes_ = ggml_row_size(sketch->type_, kValues);
    sketch->row_bytes_ = bytes_for(bits, embedding, 1);
    sketch->rows_ = rows;
    sketch->vec_dot_ = ggml_get_type_traits_cpu(sketch->type_)->vec_dot;
#if ILOTOKI_SKETCH_X86
    sketch->avx2_ = cpu_has_avx2();
#endif
    // ILOTOKI_ROW_KERNEL=vec_dot runs the portable path here too (the arm64 path, on x86).
    if (const char *forced = std::getenv("ILOTOKI_ROW_KERNEL"); forced != nullptr && std::strcmp(forced, "vec_dot") == 0) sketch->avx2_ = false;
    // Memory of its own: handed back whole when the sketch goes.
    sketch->mapped_ = sketch->bytes();
    void *block = mmap(nullptr, sketch->mapped_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return nullptr;
#ifdef MADV_HUGEPAGE
    madvise(block, sketch->mapped_, MADV_HUGEPAGE);
#endif
    sketch->data_ = static_cast<uint8_t *>(block);
    return sketch;
}

size_t CheckSketch::bytes_for(int bits, int32_t embedding, size_t rows) {
    const size_t blocks = static_cast<size_t>(std::max(0, embedding)) / kValues;
    return blocks * (ggml_row_size(bits == 5 ? GGML_TYPE_Q5_0 : GGML_TYPE_Q4_0, kValues) + sizeof(ggml_fp16_t)) * rows;
}

CheckSketch::~CheckSketch() {
    if (data_ != nullptr) munmap(data_, mapped_);
}

const char *CheckSketch::kernel_name() const { return avx2_ ? "avx2" : "vec_dot"; }

void CheckSketch::add(size_t position, const uint8_t *q8_0) {
    if (position >= rows_) return;
    float values[8192];
    float sketched[8192];
    if (embedding_ > 8192) return;
    q8_0_values(q8_0, blocks_, values);
    uint8_t *out = data_ + position * row_bytes_;
    ggml_quantize_chunk(type_, values, out, 0, 1, embedding_, nullptr);
    sketch_values(out, bits_, blocks_, block_bytes_, sketched);
    auto *norms = reinterpret_cast<ggml_fp16_t *>(out + static_cast<size_t>(blocks_) * block_bytes_);
    float largest = 0.0f;
    for (int32_t b = 0; b < blocks_; ++b) {
        // In double: every value is an exact float (a half scale times a small integer), and
        // their differences and squares are exact or nearly so there; the norm is rounded up.
        double error = 0.0, row = 0.0, copy = 0.0;
        for (size_t j = 0; j < kValues; ++j) {
            const double w = values[static_cast<size_t>(b) * kValues + j];
            const double v = sketched[static_cast<size_t>(b) * kValues + j];
            error += (w - v) * (w - v);
            row += w * w;
            copy += v * v;
        }
        const double norm = std::sqrt(error);
        ggml_fp16_t half = half_at_least(norm * (1.0 + 1e-12));
        std::memcpy(&norms[b], &half, sizeof(half));
        largest = std::max({largest, float_at_least(std::sqrt(row)), float_at_least(std::sqrt(copy))});
    }
    atomic_max(largest_block_norm_, largest);
    added_.fetch_add(1, std::memory_order_acq_rel);
}

void CheckSketch::set_states(const uint8_t *states, size_t state_bytes, int count) {
    states_ = std::clamp(count, 0, kMostStates);
    state_bytes_at_ = states;
    state_stride_ = state_bytes;
    const int groups = (states_ + kGroup - 1) / kGroup;
    const size_t quant_stride = static_cast<size_t>(blocks_) * kValues;
    quants_.assign(static_cast<size_t>(groups * kGroup) * quant_stride, 0);
    group_scales_.assign(static_cast<size_t>(groups) * static_cast<size_t>(blocks_) * 8, 0.0f);
    group_bounds_.assign(group_scales_.size(), 0.0f);
    factors_.assign(static_cast<size_t>(states_) * static_cast<size_t>(blocks_), 0.0f);
    scales_.assign(factors_.size(), 0.0f);
    slack_.assign(static_cast<size_t>(states_), 0.0f);
    const float largest = largest_block_norm_.load(std::memory_order_acquire);
    for (int s = 0; s < states_; ++s) {
        const uint8_t *state = states + static_cast<size_t>(s) * state_bytes;
        double total = 0.0;
        for (int32_t b = 0; b < blocks_; ++b) {
            const uint8_t *block = state + static_cast<size_t>(b) * kQ8Block;
            ggml_fp16_t half;
            std::memcpy(&half, block, sizeof(half));
            const float scale = ggml_fp16_to_fp32(half);
            double squares = 0.0;
            for (size_t j = 0; j < kValues; ++j) {
                const auto q = static_cast<int8_t>(block[2 + j]);
                quants_[static_cast<size_t>(s) * quant_stride + static_cast<size_t>(b) * kValues + j] = q;
                squares += static_cast<double>(q) * q;
            }
            const float factor = float_at_least(std::fabs(static_cast<double>(scale)) * std::sqrt(squares));
            factors_[static_cast<size_t>(s) * static_cast<size_t>(blocks_) + static_cast<size_t>(b)] = factor;
            scales_[static_cast<size_t>(s) * static_cast<size_t>(blocks_) + static_cast<size_t>(b)] = scale;
            total += factor;
            float *scales = &group_scales_[(static_cast<size_t>(s / kGroup) * static_cast<size_t>(blocks_) + static_cast<size_t>(b)) * 8];
            float *bounds = &group_bounds_[(static_cast<size_t>(s / kGroup) * static_cast<size_t>(blocks_) + static_cast<size_t>(b)) * 8];
            scales[s % kGroup] = scale;
            scales[s % kGroup + kGroup] = scale;
            bounds[s % kGroup] = factor;
        }
        // Every block's term is at most |d_b| ‖q_b‖ · max(‖w_b‖, ‖ŵ_b‖), so every sum here and in
        // llama.cpp's product is of terms whose magnitudes add up to at most total · largest (and
        // the bound's own terms to twice that); a float sum of 20 or so such terms is off by a
        // few 2^-24 of it. 2^-14 of it covers that many times over.
        slack_[static_cast<size_t>(s)] = static_cast<float>(std::ldexp(total * static_cast<double>(largest) * 3.0, -14));
    }
}

float CheckSketch::bound(size_t position, int state) const {
    const uint8_t *sketch_row = row(position);
    float value = 0.0f;
    vec_dot_(embedding_, &value, 0, sketch_row, 0, state_bytes_at_ + static_cast<size_t>(state) * state_stride_, 0, 1);
    const auto *norms = reinterpret_cast<const ggml_fp16_t *>(sketch_row + static_cast<size_t>(blocks_) * block_bytes_);
    const float *factors = &factors_[static_cast<size_t>(state) * static_cast<size_t>(blocks_)];
    float total = value;
    for (int32_t b = 0; b < blocks_; ++b) {
        ggml_fp16_t half;
        std::memcpy(&half, &norms[b], sizeof(half));
        total += ggml_fp16_to_fp32(half) * factors[b];
    }
    return total;
}

void CheckSketch::reach(size_t first, size_t count, const float *floor, RowChoice *below, float *runner_below,
                        std::vector<SketchReach> &reached) const {
    if (states_ == 0 || count == 0) return;
    const size_t end = std::min(rows_, first + count);
#if ILOTOKI_SKETCH_X86
    if (avx2_ && states_ <= 2) {
        using Each = void (*)(const uint8_t *, size_t, size_t, int32_t, size_t, size_t, const int8_t *, const float *, const float *,
                              const float *, RowChoice *, float *, std::vector<SketchReach> &);
        static constexpr Each five[] = {reach_each_avx2<5, 1>, reach_each_avx2<5, 2>};
        static constexpr Each four[] = {reach_each_avx2<4, 1>, reach_each_avx2<4, 2>};
        (bits_ == 5 ? five : four)[states_ - 1](data_, row_bytes_, block_bytes_, blocks_, first, end - first, quants_.data(), scales_.data(),
                                                factors_.data(), floor, below, runner_below, reached);
        return;
    }
    if (avx2_) {
        const size_t quant_stride = static_cast<size_t>(blocks_) * kValues;
        const size_t lane_stride = static_cast<size_t>(blocks_) * 8;
        sketch::in_whole_groups<kMostStates, kGroup>(states_, floor, below, runner_below, [&](const float *floors, RowChoice *group_below,
                                                                                              float *group_runner, int padded) {
            for (size_t tile = first; tile < end; tile += kTile) {
                const size_t rows = std::min(kTile, end - tile);
                for (int group = 0; group < padded / kGroup; group += 2) {
                    const bool two = group + 1 < padded / kGroup;
                    const int8_t *quants = quants_.data() + static_cast<size_t>(group * kGroup) * quant_stride;
                    const float *scales = group_scales_.data() + static_cast<size_t>(group) * lane_stride;
                    const float *bounds = group_bounds_.data() + static_cast<size_t>(group) * lane_stride;
                    auto *kernel = bits_ == 5 ? (two ? reach_avx2<5, 2> : reach_avx2<5, 1>) : (two ? reach_avx2<4, 2> : reach_avx2<4, 1>);
                    kernel(data_, row_bytes_, block_bytes_, blocks_, tile, rows, group * kGroup, quants, scales, bounds, floors, group_below,
                           group_runner, reached);
                }
            }
        });
        return;
    }
#endif
    for (size_t position = first; position < end; ++position) {
        for (int s = 0; s < states_; ++s) {
            sort_bound(bound(position, s), static_cast<int32_t>(position), s, floor, below, runner_below, reached);
        }
    }
}

} // namespace ilotoki
