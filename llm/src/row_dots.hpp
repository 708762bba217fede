// Dot products of Q8_0 head rows with several hidden states at once: the trimmed head's
// check, which compares the rows it skipped with up to kMaxStates stored states.
//
// ggml's vec_dot takes one row and one state per call and spends most of its time on the
// state's side (loads, sign fixes, scale conversion). Here each row's bytes and scales are
// loaded and prepared once and used for every state, and the states are kept in a layout
// prepared once per token, so a row costs about half the work per state (measured in
// docs/benchmarks.md, "The trimmed output head"). The integer part of each block's dot
// product is exact, as in ggml; only the order of the float sums differs, which the head's
// margin covers.
//
// Kernels: x86-64 with AVX-512 VNNI, x86-64 with AVX2, arm64 with the dot-product
// instructions; each is chosen at run time from what the CPU has. Elsewhere `make` returns
// null and the caller uses ggml's vec_dot.
#pragma once

#include "ggml.h"
#include "row_choice.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ilotoki {

/// How far ahead (in rows) the loops over a head's rows ask for the next rows' memory: rows
/// taken from a sparse set of ids defeat the CPU's own prefetcher.
inline constexpr size_t kRowsAhead = 4;

/// Asks the CPU to bring `row` (`bytes` long) into the cache.
inline void prefetch_row(const uint8_t *row, size_t bytes) {
    for (size_t offset = 0; offset < bytes; offset += 64) __builtin_prefetch(row + offset);
}

class RowDots {
public:
    static constexpr int kMaxStates = 8;

    enum class Kernel { Avx512Vnni, Avx2, NeonDot };

    /// The fastest kernel this CPU has for Q8_0 rows of `embedding` values, or null (another
    /// row type, or a CPU without any of the kernels). `prefer` picks a slower kernel for
    /// tests; it is ignored when the CPU lacks it.
    static std::unique_ptr<RowDots> make(ggml_type type, int32_t embedding, const Kernel *prefer = nullptr);

    Kernel kernel() const { return kernel_; }
    static const char *kernel_name(Kernel kernel);

    /// Sets state `index` (0 ..< kMaxStates) from its Q8_0 bytes: llama.cpp's quantization of
    /// the hidden state for a Q8_0 matrix product, whose quants lie in −127…127 (the AVX2
    /// kernel, like ggml's, negates them).
    void set_state(int index, const uint8_t *q8_0);

    /// For the rows `rows[0 ..< count]` of `head` (row r starts at head + r * row_bytes): each
    /// row's dot product with states 0 ..< states (at most kMaxStates), merged into best[] (a row
    /// replaces the best only when it beats it, so among equals the earliest row stays). With
    /// `runner_up`, each state's largest value of any row but its best is merged there too.
    void best_rows(const uint8_t *head, size_t row_bytes, const int32_t *rows, size_t count, int states,
                   RowChoice *best, float *runner_up = nullptr) const;

    /// The dot product of one row with state `index` (for tests).
    float dot(const uint8_t *row, int index) const;

private:
    RowDots(Kernel kernel, int32_t blocks);

    Kernel kernel_;
    int32_t blocks_;       // Q8_0 blocks per row
    int32_t padded_;       // blocks_ rounded up to a whole number of pairs
    // Per state: padded_ * 32 quant bytes (offset by 128 to unsigned for the VNNI kernel, so
    // that its unsigned-by-signed instruction applies), and the scales: one per block, or
    // for the VNNI kernel sixteen per pair of blocks (eight lanes for each).
    std::vector<uint8_t> quants_;
    std::vector<float> scales_;
    size_t scale_stride_;
    // The AVX2 kernel's scales for each group of four states, per block the eight lanes of its
    // packed sums: s0 s1 s2 s3 s0 s1 s2 s3 (row_dots.cpp, best_rows_avx2).
    std::vector<float> group_scales_;
};

} // namespace ilotoki
