// The several-state row kernels (row_dots.cpp) against the exact value of a Q8_0 dot
// product, Σ over blocks of d_row·d_state·Σ(x·y) in double precision: every kernel this CPU
// has, on random rows (extreme quants included), even and odd numbers of blocks, every
// state count from 1 to 8; the best row per state must be the reference's, the earliest
// among equal rows. It needs no ggml library, so it also runs, cross-built, under an arm64
// emulator (scripts/check-row-dots-arm64.sh).
#include "row_dots.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

using ilotoki::RowChoice;
using ilotoki::RowDots;

namespace {

constexpr size_t kBlockBytes = 34;
int failures = 0;

void expect(bool condition, const char *kernel, int32_t embedding, int states, const char *what) {
    if (!condition) {
        std::fprintf(stderr, "FAIL: %s, %d values, %d states: %s\n", kernel, embedding, states, what);
        ++failures;
    }
}

/// A normal half-precision scale: 2^(e−15)·(1 + m/1024), as stored in a Q8_0 block.
double scale_of(const uint8_t *block) {
    uint16_t bits;
    std::memcpy(&bits, block, sizeof(bits));
    return std::ldexp(1024.0 + (bits & 0x3ff), ((bits >> 10) & 0x1f) - 25);
}

/// Random Q8_0 rows: scales between 2^-10 and 2^-3, quants anywhere from `lowest` to 127
/// (a file's rows may hold −128; ggml's quantizer, which makes the states, never writes it).
std::vector<uint8_t> random_rows(int32_t blocks, int32_t rows, int lowest, std::mt19937 &random) {
    std::vector<uint8_t> data(kBlockBytes * static_cast<size_t>(blocks) * static_cast<size_t>(rows));
    std::uniform_int_distribution<int> exponent(5, 12), mantissa(0, 1023), quant(lowest, 127);
    for (size_t at = 0; at < data.size(); at += kBlockBytes) {
        const auto bits = static_cast<uint16_t>((exponent(random) << 10) | mantissa(random));
        std::memcpy(&data[at], &bits, sizeof(bits));
        for (size_t j = 2; j < kBlockBytes; ++j) data[at + j] = static_cast<uint8_t>(static_cast<int8_t>(quant(random)));
    }
    return data;
}

/// The exact dot product, and the sum of its terms' magnitudes (the scale of rounding).
double reference(const uint8_t *row, const uint8_t *state, int32_t blocks, double &magnitude) {
    double sum = 0.0;
    magnitude = 0.0;
    for (int32_t b = 0; b < blocks; ++b) {
        const uint8_t *x = row + static_cast<size_t>(b) * kBlockBytes;
        const uint8_t *y = state + static_cast<size_t>(b) * kBlockBytes;
        int64_t products = 0;
        for (size_t j = 2; j < kBlockBytes; ++j) products += static_cast<int8_t>(x[j]) * static_cast<int8_t>(y[j]);
        const double term = scale_of(x) * scale_of(y) * static_cast<double>(products);
        sum += term;
        magnitude += std::fabs(term);
    }
    return sum;
}

void check(RowDots::Kernel kernel, int32_t embedding, std::mt19937 &random) {
    const char *name = RowDots::kernel_name(kernel);
    auto dots = RowDots::make(GGML_TYPE_Q8_0, embedding, &kernel);
    if (dots == nullptr || dots->kernel() != kernel) {
        std::printf("row_dots_test: no %s on this CPU, skipped\n", name);
        return;
    }
    const int32_t blocks = embedding / 32;
    const int32_t rows = 300;
    const size_t row_bytes = kBlockBytes * static_cast<size_t>(blocks);
    std::vector<uint8_t> head = random_rows(blocks, rows, -128, random);
    std::vector<uint8_t> states = random_rows(blocks, RowDots::kMaxStates, -127, random);
    // Row 250 repeats row 40 (where they are best, 40 must win), and row 7 is state 3 itself,
    // so that state has a clear winner.
    std::memcpy(&head[250 * row_bytes], &head[40 * row_bytes], row_bytes);
    std::memcpy(&head[7 * row_bytes], &states[3 * row_bytes], row_bytes);
    for (int s = 0; s < RowDots::kMaxStates; ++s) dots->set_state(s, &states[static_cast<size_t>(s) * row_bytes]);

    // A sparse set of rows, as the trimmed head's excluded rows are.
    std::vector<int32_t> ids;
    for (int32_t r = 0; r < rows; ++r) {
        if (r % 3 != 1) ids.push_back(r);
    }
    for (int count = 1; count <= RowDots::kMaxStates; ++count) {
        RowChoice best[RowDots::kMaxStates];
        float runner_up[RowDots::kMaxStates];
        for (float &value : runner_up) value = -INFINITY;
        // Two calls over the two halves: the best and the runner-up carry over from one to the next.
        const size_t half = ids.size() / 2;
        dots->best_rows(head.data(), row_bytes, ids.data(), half, count, best, runner_up);
        dots->best_rows(head.data(), row_bytes, ids.data() + half, ids.size() - half, count, best, runner_up);
        for (int s = 0; s < count; ++s) {
            // The runner-up is the best of every row but the best, computed the same way (the
            // same number of states: the AVX2 kernel sums groups of four in another order).
            std::vector<int32_t> others;
            for (const int32_t r : ids) {
                if (r != best[s].row) others.push_back(r);
            }
            RowChoice second[RowDots::kMaxStates];
            dots->best_rows(head.data(), row_bytes, others.data(), others.size(), count, second);
            expect(runner_up[s] == second[s].value, name, embedding, count, "another runner-up than the best of the other rows");
        }
        for (int s = 0; s < count; ++s) {
            const uint8_t *state = &states[static_cast<size_t>(s) * row_bytes];
            int32_t expected = -1;
            double expected_value = -INFINITY;
            bool close = true;
            for (const int32_t r : ids) {
                const uint8_t *row = &head[static_cast<size_t>(r) * row_bytes];
                double magnitude = 0.0;
                const double exact = reference(row, state, blocks, magnitude);
                if (exact > expected_value) {
                    expected_value = exact;
                    expected = r;
                }
                // The integer part is exact; only the float products and sums round.
                close = close && std::fabs(dots->dot(row, s) - exact) <= 1e-5 * std::max(1.0, magnitude);
            }
            expect(close, name, embedding, count, "a value is off the exact one by more than rounding");
            expect(best[s].row == expected, name, embedding, count, "another best row than the exact one");
        }
    }
    // Of two equal rows, the earlier one wins, and the other's equal value is the runner-up
    // (a tie: the trimmed head's near-tie rule must see it).
    dots->set_state(0, &states[5 * row_bytes]);
    RowChoice best[1];
    float runner_up[1] = {-INFINITY};
    const int32_t tied[] = {40, 250};
    dots->best_rows(head.data(), row_bytes, tied, 2, 1, best, runner_up);
    expect(best[0].row == 40, name, embedding, 1, "of two equal rows, the later one won");
    expect(runner_up[0] == best[0].value, name, embedding, 1, "of two equal rows, the runner-up is not the tie's value");
    std::printf("row_dots_test: %s, %d values: %s\n", name, embedding, failures == 0 ? "ok" : "FAILED");
}

} // namespace

int main() {
    std::mt19937 random(17);
    bool any = false;
    for (const auto kernel : {RowDots::Kernel::Avx512Vnni, RowDots::Kernel::Avx2, RowDots::Kernel::NeonDot}) {
        // Gemma 3 270M's 640 values (20 blocks), and odd block counts.
        for (const int32_t embedding : {640, 96, 32}) check(kernel, embedding, random);
        any = any || RowDots::make(GGML_TYPE_Q8_0, 640, &kernel) != nullptr;
    }
    // Other row types and partial blocks have no kernel: the head then uses ggml's vec_dot.
    expect(RowDots::make(GGML_TYPE_Q4_K, 640) == nullptr, "any", 640, 0, "a kernel for Q4_K rows");
    expect(RowDots::make(GGML_TYPE_Q8_0, 40) == nullptr, "any", 40, 0, "a kernel for a partial block");
    if (!any) std::printf("row_dots_test: this CPU has none of the kernels; the head uses ggml's vec_dot\n");
    if (failures > 0) {
        std::fprintf(stderr, "row_dots_test: %d failures\n", failures);
        return 1;
    }
    return 0;
}
