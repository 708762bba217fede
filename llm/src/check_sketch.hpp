// The check's sketch: a compact copy of the excluded rows that rules most of them out without
// reading them, exactly.
//
// Where checks stream the excluded rows from the file (the device is short of memory), a check
// reads 150 MB for a model like Gemma 3 270M. The sketch holds each excluded row in 5 (or 4)
// bits, in ggml's Q5_0 (Q4_0) blocks, with each block's error norm ‖w − ŵ‖ beside it, rounded
// up. For a state x quantized as llama.cpp's product quantizes it (Q8_0: per block a scale d and
// quants q), the row's value is Σ_b d_b (q_b · w_b), and
//     |Σ_b d_b (q_b · w_b) − Σ_b d_b (q_b · ŵ_b)| ≤ Σ_b |d_b| ‖q_b‖ ‖w_b − ŵ_b‖   (Cauchy–Schwarz)
// so the sketch's value plus that sum is an upper bound on the row's value. A row whose bound
// stays under the kept winner's value less the policy's margin cannot beat it; only the others
// ("reached" rows: about 70 a check of the 230,113 → Toki Pona excluded rows, measured) are read
// exactly, from the file. The floats' rounding is covered by an allowance (`slack`) far above it.
//
// The sketch is built from the rows a streamed check reads anyway (the first check under
// pressure), lives in memory of its own, and is dropped where the kept rows change or checks
// read through the mapping again.
#pragma once

#include "ggml-cpu.h"
#include "ggml.h"
#include "row_choice.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ilotoki {

/// A row the sketch could not rule out for a state: its position in the sketch, the state, and
/// the bound.
struct SketchReach {
    int32_t position;
    int32_t state;
    float bound;
};

class CheckSketch {
public:
    /// The most states a check hands the sketch (its slots).
    static constexpr int kMostStates = 64;

    /// A sketch of `rows` rows of `embedding` values at `bits` (4 or 5) bits a value, for Q8_0
    /// rows, or null (another row type, a size that is not whole blocks, no memory).
    static std::unique_ptr<CheckSketch> make(int bits, ggml_type row_type, int32_t embedding, size_t rows);
    /// The bytes `make` would take for these.
    static size_t bytes_for(int bits, int32_t embedding, size_t rows);
    ~CheckSketch();
    CheckSketch(const CheckSketch &) = delete;
    CheckSketch &operator=(const CheckSketch &) = delete;

    int bits() const { return bits_; }
    size_t rows() const { return rows_; }
    size_t bytes() const { return row_bytes_ * rows_; }
    /// Whether every row was added.
    bool complete() const { return added_.load(std::memory_order_acquire) == rows_; }
    /// The kernel that runs `reach`: "avx2", or "vec_dot" (ggml's, one state at a time).
    const char *kernel_name() const;

    /// Quantizes the Q8_0 row `q8_0` into `position` (each position once; threads may add
    /// different positions at once).
    void add(size_t position, const uint8_t *q8_0);

    /// Takes states 0..<count (Q8_0 bytes, `state_bytes` apart) for the next `reach`es.
    void set_states(const uint8_t *states, size_t state_bytes, int count);
    /// What state `s`'s floor is lowered by to cover the floats' rounding: the sketch's own sum
    /// and llama.cpp's differ from the real numbers by far less.
    float slack(int state) const { return slack_[static_cast<size_t>(state)]; }

    /// For positions [first, first + count) and every state set: a row whose bound reaches
    /// `floor[s]` is appended to `reached`; the others' largest bound goes to below[s] (its
    /// position as the row), the next largest to runner_below[s] (merged: a value replaces only
    /// a smaller one, so among equals the earliest position stays).
    void reach(size_t first, size_t count, const float *floor, RowChoice *below, float *runner_below,
               std::vector<SketchReach> &reached) const;

    /// The sketch's bound for `position` and state `s` (tests; the portable arithmetic).
    float bound(size_t position, int state) const;

private:
    CheckSketch() = default;
    const uint8_t *row(size_t position) const { return data_ + position * row_bytes_; }

    int bits_ = 5;
    ggml_type type_ = GGML_TYPE_Q5_0;
    int32_t embedding_ = 0;
    int32_t blocks_ = 0;
    size_t block_bytes_ = 0; // one Q5_0 / Q4_0 block
    size_t row_bytes_ = 0;   // the blocks, then one half-precision error norm per block
    size_t rows_ = 0;
    uint8_t *data_ = nullptr;
    size_t mapped_ = 0;
    std::atomic<size_t> added_{0};
    // The largest ‖w_b‖ and ‖ŵ_b‖ of any block added (the rounding allowance's scale).
    std::atomic<float> largest_block_norm_{0.0f};
    bool avx2_ = false;
    ggml_vec_dot_t vec_dot_ = nullptr;

    // The states set, in the kernel's layout: groups of four (padded with empty states), per
    // group and block the eight lanes of the packed sums: s0 s1 s2 s3 s0 s1 s2 s3 for the
    // scales, s0 s1 s2 s3 0 0 0 0 for the bound factors |d_b| ‖q_b‖ (rounded up).
    int states_ = 0;
    const uint8_t *state_bytes_at_ = nullptr;
    size_t state_stride_ = 0;
    std::vector<int8_t> quants_;       // per state: blocks_ * 32
    std::vector<float> group_scales_;  // per group: blocks_ * 8
    std::vector<float> group_bounds_;  // per group: blocks_ * 8
    std::vector<float> factors_;       // per state: blocks_ (the portable path's, and one state's kernel)
    std::vector<float> scales_;        // per state: blocks_
    std::vector<float> slack_;
};

} // namespace ilotoki
