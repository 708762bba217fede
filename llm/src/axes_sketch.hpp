// A sketch of the excluded rows in the kept rows' principal axes (principal_axes.hpp), at a
// number of bits chosen per block of axes: the reference for a copy smaller than CheckSketch's
// 5-bit one (docs/benchmarks.md, "A smaller copy": 4.25 bits a value there leave 30 rows a check
// to read against 84 for 5 bits in the file's basis, on held-out states).
//
// A row w (Q8_0, as in the file) is held as u = A w on the axes A, per block of 32 axes in k =
// 4, 5 or 8 bits (a half scale d and codes c in [−2^(k−1), 2^(k−1)), laid out as ggml's Q4_0,
// Q5_0 and Q8_0 quants are, which SIMD code decodes in a few instructions), with the
// block's error norm E ≥ ‖u_b − d c_b‖ beside it, rounded up (and raised by what the rotation's
// own rounding can add). A state x (Q8_0, as llama.cpp's product quantizes it) is rotated to
// y = A x in double and held in 16-bit blocks y_q = σ t. Then, with F_b ≥ ‖y_b‖ and
// D_b ≥ ‖y_b − y_q,b‖,
//     w·x ≤ Σ_b d_b σ_b (c_b · t_b) + Σ_b E_b F_b
//           + (largest ‖û_b‖) Σ_b D_b + ε_A (largest ‖w‖) ‖x‖ + the floats' rounding,
// where ε_A ≥ ‖AᵀA − I‖ (the axes are orthonormal only as far as doubles go). The last three
// terms are the state's `slack`; the first two its `bound`.
//
// Not yet used by the check: `add` rotates in double (the reference), `add_rows` in float with
// the float sums' error counted; `reach` runs an AVX2 kernel where the CPU has one.
#pragma once

#include "ggml.h"
#include "principal_axes.hpp"
#include "row_choice.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace ilotoki {

struct SketchReach;

class AxesSketch {
public:
    static constexpr int kMostStates = 64;

    /// A sketch of `rows` rows on `axes` (solved), block b of axes at bits[b] bits (4, 5 or 8), or
    /// null (a plan that does not cover the axes in blocks of 32, bits out of range, no memory).
    static std::unique_ptr<AxesSketch> make(std::shared_ptr<const PrincipalAxes> axes, const std::vector<int> &bits, size_t rows);
    /// The bytes a sketch of `rows` rows at these bits takes.
    static size_t bytes_for(const std::vector<int> &bits, size_t rows);

    size_t rows() const { return rows_; }
    /// The kernel that runs `reach`: "avx2", or "portable".
    const char *kernel_name() const { return avx2_ ? "avx2" : "portable"; }
    size_t bytes() const { return data_.size(); }
    bool complete() const { return added_.load(std::memory_order_acquire) == rows_; }

    /// Rotates (in double: the reference) and quantizes the Q8_0 row `q8_0` into `position`.
    void add(size_t position, const uint8_t *q8_0);
    /// The same for `count` Q8_0 rows `stride` bytes apart into positions first.., rotated in
    /// float (PrincipalAxes::rotate_rows, its error counted in the norms). Threads may add
    /// different positions at once.
    void add_rows(size_t first, const uint8_t *q8_0, size_t count, size_t stride);
    /// Takes states 0..<count (Q8_0 bytes, `state_bytes` apart) for the next bounds.
    void set_states(const uint8_t *states, size_t state_bytes, int count);
    /// What state `s`'s floor is lowered by (see the header's comment).
    float slack(int state) const { return slack_[static_cast<size_t>(state)]; }
    /// The bound for `position` and state `s`, less the slack.
    float bound(size_t position, int state) const;
    /// As CheckSketch::reach: an AVX2 kernel where the CPU has it, else the portable path.
    void reach(size_t first, size_t count, const float *floor, RowChoice *below, float *runner_below,
               std::vector<SketchReach> &reached) const;

private:
    AxesSketch() = default;
    /// Quantizes the rotated row `u` (of norm `length` before the rotation, each block off from
    /// the real rotation by at most `rotation_error`) into `position`.
    void store(size_t position, const double *u, double length, double rotation_error);
    /// Where state s's σ_b (and F_b) stand in the group arrays.
    size_t lane(int s, size_t b) const { return (static_cast<size_t>(s / 4) * static_cast<size_t>(blocks_) + b) * 8 + static_cast<size_t>(s % 4); }
    /// The bounds (less the slack) of row `position` for states first_state.. <first_state + count.
    void row_bounds(size_t position, int first_state, int count, float *out) const;

    std::shared_ptr<const PrincipalAxes> axes_;
    std::vector<int> bits_;
    std::vector<size_t> block_at_; // each block's offset in a row
    int32_t blocks_ = 0;
    size_t row_bytes_ = 0;
    size_t rows_ = 0;
    std::atomic<size_t> added_{0};
    std::vector<uint8_t> data_;
    bool avx2_ = false;
    std::atomic<float> largest_block_{0.0f}; // the largest ‖u_b‖ or ‖û_b‖ of any block added
    std::atomic<float> largest_row_{0.0f};   // the largest ‖w‖ of any row added

    int states_ = 0;
    std::vector<int16_t> quants_;   // per state (whole groups of four): the rotated state's 16-bit blocks
    std::vector<float> group_scales_;  // per group of four and block: σ_b of s0 s1 s2 s3 s0 s1 s2 s3
    std::vector<float> group_factors_; // per group of four and block: F_b of s0 s1 s2 s3, then zeros
    std::vector<float> slack_;
};

} // namespace ilotoki
