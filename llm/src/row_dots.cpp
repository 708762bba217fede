#include "row_dots.hpp"

#include <algorithm>
#include <cstring>

#if defined(__x86_64__)
#if defined(__GNUC__) && !defined(__clang__)
// GCC 12's own AVX-512 intrinsics start some results from an "undefined" register and then
// warn about it where they are inlined.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>
#define ILOTOKI_ROW_DOTS_X86 1
#define ILOTOKI_VNNI __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,fma,f16c")))
#define ILOTOKI_AVX2 __attribute__((target("avx2,fma,f16c")))
#endif

// The arm64 kernel needs the dot-product instructions at compile time: the Android build
// asks for them (every arm64 Android phone since 2018 has them, as llama.cpp's build there
// assumes), and so does every Apple silicon Mac.
#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>
#define ILOTOKI_ROW_DOTS_NEON 1
#endif

namespace ilotoki {

namespace {

/// A Q8_0 block: its scale (IEEE half) and 32 signed quants.
constexpr size_t kBlockBytes = 34;
constexpr size_t kBlockValues = 32;

inline uint16_t load_half(const uint8_t *block) {
    uint16_t bits;
    std::memcpy(&bits, block, sizeof(bits));
    return bits;
}

/// IEEE half to float, in portable code (the states' scales, once per token).
float half_bits_to_float(uint16_t bits) {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
    const uint32_t exponent = (bits >> 10) & 0x1fu;
    const uint32_t mantissa = bits & 0x3ffu;
    float magnitude;
    if (exponent == 0) {
        magnitude = std::ldexp(static_cast<float>(mantissa), -24); // subnormal
    } else if (exponent == 31) {
        magnitude = mantissa == 0 ? INFINITY : NAN;
    } else {
        magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
    }
    uint32_t out;
    std::memcpy(&out, &magnitude, sizeof(out));
    out |= sign;
    float value;
    std::memcpy(&value, &out, sizeof(value));
    return value;
}

/// Where a row's value beats state `s`'s best so far, it becomes the best (rows arrive in
/// ascending order, so among equal values the earliest stays); with `runner_up`, the largest
/// value of any other row is kept there too.
inline void keep_if_better(RowChoice *best, float *runner_up, int s, float value, int32_t row) {
    keep_top_two(best[s], runner_up != nullptr ? &runner_up[s] : nullptr, value, row);
}

struct Layout {
    const uint8_t *quants;
    const float *scales;
    size_t quant_stride; // bytes from one state to the next
    size_t scale_stride; // floats from one state to the next
    int32_t blocks;
    const float *group_scales; // the AVX2 kernel's, 8 per block for each group of 4 states
    size_t group_stride;       // floats from one group to the next
};

constexpr int kGroup = 4;

#if ILOTOKI_ROW_DOTS_X86

/// 16 lanes per pair of blocks: VPDPBUSD multiplies unsigned by signed bytes, so the state
/// is stored as y + 128 and each sum starts at −128·Σx, which leaves Σ y·x exact in int32.
template <int States>
ILOTOKI_VNNI void best_rows_vnni(const uint8_t *head, size_t row_bytes, const int32_t *rows, size_t count,
                                 const Layout &layout, RowChoice *best, float *runner_up) {
    const int32_t pairs = (layout.blocks + 1) / 2;
    const bool odd = layout.blocks % 2 != 0;
    const __m512i offset = _mm512_set1_epi8(static_cast<char>(0x80));
    for (size_t i = 0; i < count; ++i) {
        if (i + kRowsAhead < count) prefetch_row(head + static_cast<size_t>(rows[i + kRowsAhead]) * row_bytes, row_bytes);
        const uint8_t *row = head + static_cast<size_t>(rows[i]) * row_bytes;
        __m512 sums[States];
        for (int s = 0; s < States; ++s) sums[s] = _mm512_setzero_ps();
        for (int32_t p = 0; p < pairs; ++p) {
            const uint8_t *first = row + static_cast<size_t>(2 * p) * kBlockBytes;
            const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(first + 2));
            const __m256 first_scale = _mm256_set1_ps(_cvtsh_ss(load_half(first)));
            __m512i x;
            __m512 scale;
            if (odd && p == pairs - 1) {
                // The last block alone: the upper lanes stay zero (and the state's are y = 0).
                x = _mm512_inserti64x4(_mm512_setzero_si512(), low, 0);
                scale = _mm512_insertf32x8(_mm512_setzero_ps(), first_scale, 0);
            } else {
                const uint8_t *second = first + kBlockBytes;
                x = _mm512_inserti64x4(_mm512_castsi256_si512(low),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i *>(second + 2)), 1);
                scale = _mm512_insertf32x8(_mm512_castps256_ps512(first_scale), _mm256_set1_ps(_cvtsh_ss(load_half(second))), 1);
            }
            const __m512i start = _mm512_sub_epi32(_mm512_setzero_si512(), _mm512_dpbusd_epi32(_mm512_setzero_si512(), offset, x));
            for (int s = 0; s < States; ++s) {
                const __m512i y = _mm512_loadu_si512(layout.quants + s * layout.quant_stride + static_cast<size_t>(p) * 64);
                const __m512i products = _mm512_dpbusd_epi32(start, y, x);
                const __m512 scales = _mm512_mul_ps(scale, _mm512_loadu_ps(layout.scales + s * layout.scale_stride + static_cast<size_t>(p) * 16));
                sums[s] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(products), scales, sums[s]);
            }
        }
        for (int s = 0; s < States; ++s) keep_if_better(best, runner_up, s, _mm512_reduce_add_ps(sums[s]), rows[i]);
    }
}

ILOTOKI_AVX2 inline float horizontal_sum(__m256 v) {
    const __m128 halves = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    const __m128 pairs = _mm_add_ps(halves, _mm_movehl_ps(halves, halves));
    return _mm_cvtss_f32(_mm_add_ss(pairs, _mm_movehdup_ps(pairs)));
}

/// One block at a time: |x| as unsigned bytes times sign(x)·y, as ggml's kernel does, but
/// |x| and the row's scale are computed once for all the states. Four states' block sums are
/// packed into one vector (three `vphaddd`: lanes s0 s1 s2 s3 in each half) before the float
/// work, so the conversion, the scaling and the accumulation run once for four states instead
/// of once each: the integer work (`vpsignb`, `vpmaddubsw`, `vpmaddwd`) is what is left per
/// state (docs/benchmarks.md). States beyond a multiple of four take one vector each.
template <int States>
ILOTOKI_AVX2 void best_rows_avx2(const uint8_t *head, size_t row_bytes, const int32_t *rows, size_t count,
                                 const Layout &layout, RowChoice *best, float *runner_up) {
    constexpr int Groups = States / kGroup;
    constexpr int Single = States % kGroup;
    const __m256i ones = _mm256_set1_epi16(1);
    const auto products_of = [&](const __m256i magnitude, const __m256i x, int s, int32_t b) ILOTOKI_AVX2 {
        const __m256i y = _mm256_loadu_si256(
            reinterpret_cast<const __m256i *>(layout.quants + s * layout.quant_stride + static_cast<size_t>(b) * kBlockValues));
        return _mm256_madd_epi16(_mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(y, x)), ones);
    };
    for (size_t i = 0; i < count; ++i) {
        if (i + kRowsAhead < count) prefetch_row(head + static_cast<size_t>(rows[i + kRowsAhead]) * row_bytes, row_bytes);
        const uint8_t *row = head + static_cast<size_t>(rows[i]) * row_bytes;
        __m256 grouped[Groups > 0 ? Groups : 1];
        __m256 single[Single > 0 ? Single : 1];
        for (int g = 0; g < Groups; ++g) grouped[g] = _mm256_setzero_ps();
        for (int s = 0; s < Single; ++s) single[s] = _mm256_setzero_ps();
        for (int32_t b = 0; b < layout.blocks; ++b) {
            const uint8_t *block = row + static_cast<size_t>(b) * kBlockBytes;
            const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(block + 2));
            const __m256i magnitude = _mm256_sign_epi8(x, x);
            const __m256 scale = _mm256_set1_ps(_cvtsh_ss(load_half(block)));
            for (int g = 0; g < Groups; ++g) {
                const int first = g * kGroup;
                const __m256i packed = _mm256_hadd_epi32(
                    _mm256_hadd_epi32(products_of(magnitude, x, first, b), products_of(magnitude, x, first + 1, b)),
                    _mm256_hadd_epi32(products_of(magnitude, x, first + 2, b), products_of(magnitude, x, first + 3, b)));
                const __m256 scales =
                    _mm256_mul_ps(scale, _mm256_loadu_ps(layout.group_scales + g * layout.group_stride + static_cast<size_t>(b) * 8));
                grouped[g] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(packed), scales, grouped[g]);
            }
            for (int k = 0; k < Single; ++k) {
                const int s = Groups * kGroup + k;
                const __m256 scales = _mm256_mul_ps(scale, _mm256_broadcast_ss(layout.scales + s * layout.scale_stride + b));
                single[k] = _mm256_fmadd_ps(_mm256_cvtepi32_ps(products_of(magnitude, x, s, b)), scales, single[k]);
            }
        }
        for (int g = 0; g < Groups; ++g) {
            // Each state's sum is its lane in the low half plus its lane in the high half.
            float sums[kGroup];
            _mm_storeu_ps(sums, _mm_add_ps(_mm256_castps256_ps128(grouped[g]), _mm256_extractf128_ps(grouped[g], 1)));
            for (int k = 0; k < kGroup; ++k) keep_if_better(best, runner_up, g * kGroup + k, sums[k], rows[i]);
        }
        for (int k = 0; k < Single; ++k) keep_if_better(best, runner_up, Groups * kGroup + k, horizontal_sum(single[k]), rows[i]);
    }
}
#endif

#if ILOTOKI_ROW_DOTS_NEON

inline float half_to_float(const uint8_t *block) {
    __fp16 half;
    std::memcpy(&half, block, sizeof(half));
    return static_cast<float>(half);
}

template <int States>
void best_rows_neon(const uint8_t *head, size_t row_bytes, const int32_t *rows, size_t count, const Layout &layout,
                    RowChoice *best, float *runner_up) {
    for (size_t i = 0; i < count; ++i) {
        if (i + kRowsAhead < count) prefetch_row(head + static_cast<size_t>(rows[i + kRowsAhead]) * row_bytes, row_bytes);
        const uint8_t *row = head + static_cast<size_t>(rows[i]) * row_bytes;
        float32x4_t sums[States];
        for (int s = 0; s < States; ++s) sums[s] = vdupq_n_f32(0.0f);
        for (int32_t b = 0; b < layout.blocks; ++b) {
            const uint8_t *block = row + static_cast<size_t>(b) * kBlockBytes;
            const int8x16_t low = vld1q_s8(reinterpret_cast<const int8_t *>(block + 2));
            const int8x16_t high = vld1q_s8(reinterpret_cast<const int8_t *>(block + 18));
            const float scale = half_to_float(block);
            for (int s = 0; s < States; ++s) {
                const auto *y = reinterpret_cast<const int8_t *>(layout.quants + s * layout.quant_stride + static_cast<size_t>(b) * kBlockValues);
                int32x4_t products = vdotq_s32(vdupq_n_s32(0), low, vld1q_s8(y));
                products = vdotq_s32(products, high, vld1q_s8(y + 16));
                sums[s] = vfmaq_n_f32(sums[s], vcvtq_f32_s32(products), scale * layout.scales[s * layout.scale_stride + b]);
            }
        }
        for (int s = 0; s < States; ++s) keep_if_better(best, runner_up, s, vaddvq_f32(sums[s]), rows[i]);
    }
}

#endif

using BestRows = void (*)(const uint8_t *, size_t, const int32_t *, size_t, const Layout &, RowChoice *, float *);

/// The kernel instance for `states` states (the sums stay in registers).
template <template <int> class Pick>
BestRows for_states(int states) {
    switch (states) {
    case 1: return Pick<1>::function;
    case 2: return Pick<2>::function;
    case 3: return Pick<3>::function;
    case 4: return Pick<4>::function;
    case 5: return Pick<5>::function;
    case 6: return Pick<6>::function;
    case 7: return Pick<7>::function;
    default: return Pick<8>::function;
    }
}

#if ILOTOKI_ROW_DOTS_X86
template <int States> struct Vnni {
    static constexpr BestRows function = best_rows_vnni<States>;
};
template <int States> struct Avx2 {
    static constexpr BestRows function = best_rows_avx2<States>;
};
#endif
#if ILOTOKI_ROW_DOTS_NEON
template <int States> struct Neon {
    static constexpr BestRows function = best_rows_neon<States>;
};
#endif

bool cpu_has(RowDots::Kernel kernel) {
    switch (kernel) {
#if ILOTOKI_ROW_DOTS_X86
    case RowDots::Kernel::Avx512Vnni:
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
               __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq") &&
               __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
    case RowDots::Kernel::Avx2:
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("f16c");
#endif
#if ILOTOKI_ROW_DOTS_NEON
    case RowDots::Kernel::NeonDot: return true;
#endif
    default: return false;
    }
}

} // namespace

const char *RowDots::kernel_name(Kernel kernel) {
    switch (kernel) {
    case Kernel::Avx512Vnni: return "avx512-vnni";
    case Kernel::Avx2: return "avx2";
    case Kernel::NeonDot: return "neon-dotprod";
    }
    return "?";
}

std::unique_ptr<RowDots> RowDots::make(ggml_type type, int32_t embedding, const Kernel *prefer) {
    if (type != GGML_TYPE_Q8_0 || embedding <= 0 || embedding % static_cast<int32_t>(kBlockValues) != 0) return nullptr;
    const int32_t blocks = embedding / static_cast<int32_t>(kBlockValues);
    if (prefer != nullptr && cpu_has(*prefer)) return std::unique_ptr<RowDots>(new RowDots(*prefer, blocks));
    for (const Kernel kernel : {Kernel::Avx512Vnni, Kernel::Avx2, Kernel::NeonDot}) {
        if (cpu_has(kernel)) return std::unique_ptr<RowDots>(new RowDots(kernel, blocks));
    }
    return nullptr;
}

RowDots::RowDots(Kernel kernel, int32_t blocks) : kernel_(kernel), blocks_(blocks), padded_(blocks + blocks % 2) {
    scale_stride_ = kernel_ == Kernel::Avx512Vnni ? static_cast<size_t>(padded_) * 8 : static_cast<size_t>(padded_);
    quants_.assign(static_cast<size_t>(kMaxStates) * static_cast<size_t>(padded_) * kBlockValues, 0);
    scales_.assign(static_cast<size_t>(kMaxStates) * scale_stride_, 0.0f);
    if (kernel_ == Kernel::Avx2) group_scales_.assign(static_cast<size_t>(kMaxStates / kGroup) * static_cast<size_t>(padded_) * 8, 0.0f);
}

void RowDots::set_state(int index, const uint8_t *q8_0) {
    uint8_t *quants = &quants_[static_cast<size_t>(index) * static_cast<size_t>(padded_) * kBlockValues];
    float *scales = &scales_[static_cast<size_t>(index) * scale_stride_];
    const bool offset = kernel_ == Kernel::Avx512Vnni;
    for (int32_t b = 0; b < padded_; ++b) {
        const bool real = b < blocks_;
        const uint8_t *block = q8_0 + static_cast<size_t>(b) * kBlockBytes;
        const float scale = real ? half_bits_to_float(load_half(block)) : 0.0f;
        for (size_t j = 0; j < kBlockValues; ++j) {
            const int value = real ? static_cast<int8_t>(block[2 + j]) : 0;
            quants[static_cast<size_t>(b) * kBlockValues + j] = static_cast<uint8_t>(offset ? value + 128 : value);
        }
        if (offset) {
            for (size_t lane = 0; lane < 8; ++lane) scales[static_cast<size_t>(b) * 8 + lane] = scale;
        } else {
            scales[b] = scale;
        }
        if (!group_scales_.empty()) {
            float *lanes = &group_scales_[(static_cast<size_t>(index / kGroup) * static_cast<size_t>(padded_) + static_cast<size_t>(b)) * 8];
            lanes[index % kGroup] = scale;
            lanes[index % kGroup + kGroup] = scale;
        }
    }
}

void RowDots::best_rows(const uint8_t *head, size_t row_bytes, const int32_t *rows, size_t count, int states,
                        RowChoice *best, float *runner_up) const {
    if (states <= 0) return;
    const int group = std::min(states, kMaxStates);
    const Layout layout{quants_.data(), scales_.data(), static_cast<size_t>(padded_) * kBlockValues, scale_stride_, blocks_,
                        group_scales_.data(), static_cast<size_t>(padded_) * 8};
    BestRows function = nullptr;
    switch (kernel_) {
#if ILOTOKI_ROW_DOTS_X86
    case Kernel::Avx512Vnni: function = for_states<Vnni>(group); break;
    case Kernel::Avx2: function = for_states<Avx2>(group); break;
#endif
#if ILOTOKI_ROW_DOTS_NEON
    case Kernel::NeonDot: function = for_states<Neon>(group); break;
#endif
    default: return;
    }
    function(head, row_bytes, rows, count, layout, best, runner_up);
}

float RowDots::dot(const uint8_t *row, int index) const {
    RowChoice best[kMaxStates];
    const int32_t only = 0;
    // Every state up to `index` is computed; the one asked for is returned.
    best_rows(row, 0, &only, 1, index + 1, best);
    return best[index].value;
}

} // namespace ilotoki
