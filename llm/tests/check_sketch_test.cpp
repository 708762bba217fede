// The check's sketch (check_sketch.cpp): for random Q8_0 rows (rows like a model's, and rows
// with extreme quants, −128 included) and states quantized by ggml as llama.cpp's product
// quantizes them, at 4 and 5 bits,
//   - the bound plus the slack is never under the row's value as ggml's vec_dot computes it
//     (llama.cpp's arithmetic), nor under the exact value in double precision;
//   - the AVX2 kernel, where the CPU has it, sorts the rows as the portable path does: the same
//     rows reached for floors spread over the bounds (but rows within rounding of a floor), and
//     the same largest bound below;
//   - rows are reached only at or over their state's floor, and every state count from 1 to 9
//     (whole and partial groups of four) is served.
#include "check_sketch.hpp"
#include "ggml-cpu.h"
#include "ggml.h"
#include "q8_0_exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

using ilotoki::CheckSketch;
using ilotoki::RowChoice;
using ilotoki::SketchReach;

namespace {

int failures = 0;

void expect(bool condition, const char *what, int bits, const char *kernel) {
    if (!condition) {
        std::fprintf(stderr, "FAIL: %d bits, %s: %s\n", bits, kernel, what);
        ++failures;
    }
}

constexpr int32_t kEmbedding = 640;
constexpr size_t kQ8Block = 34;

/// Rows of a model's kind (values around ±0.04, a few larger) quantized to Q8_0 by ggml, and
/// some of raw random quants (every value from −128 to 127) and random scales.
std::vector<uint8_t> make_rows(int32_t rows, std::mt19937 &random) {
    const size_t row_bytes = ggml_row_size(GGML_TYPE_Q8_0, kEmbedding);
    std::vector<uint8_t> data(row_bytes * static_cast<size_t>(rows));
    std::normal_distribution<float> value(0.0f, 0.04f);
    std::uniform_int_distribution<int> quant(-128, 127), exponent(5, 12), mantissa(0, 1023), pick(0, 9);
    std::vector<float> floats(kEmbedding);
    for (int32_t r = 0; r < rows; ++r) {
        uint8_t *row = &data[static_cast<size_t>(r) * row_bytes];
        if (r % 5 == 4) {
            for (size_t at = 0; at < row_bytes; at += kQ8Block) {
                const auto bits = static_cast<uint16_t>((exponent(random) << 10) | mantissa(random));
                std::memcpy(&row[at], &bits, sizeof(bits));
                for (size_t j = 2; j < kQ8Block; ++j) row[at + j] = static_cast<uint8_t>(static_cast<int8_t>(quant(random)));
            }
            continue;
        }
        for (auto &v : floats) v = pick(random) == 0 ? 6.0f * value(random) : value(random);
        ggml_quantize_chunk(GGML_TYPE_Q8_0, floats.data(), row, 0, 1, kEmbedding, nullptr);
    }
    return data;
}

/// States like a model's final hidden states: most values small, a few blocks much larger.
std::vector<uint8_t> make_states(int count, std::mt19937 &random) {
    const size_t state_bytes = ggml_row_size(GGML_TYPE_Q8_0, kEmbedding);
    std::vector<uint8_t> data(state_bytes * static_cast<size_t>(count));
    std::normal_distribution<float> value(0.0f, 1.0f);
    std::vector<float> floats(kEmbedding);
    for (int s = 0; s < count; ++s) {
        for (int32_t i = 0; i < kEmbedding; ++i) floats[static_cast<size_t>(i)] = value(random) * ((i / 32) % 7 == s % 7 ? 40.0f : 3.0f);
        ggml_get_type_traits_cpu(GGML_TYPE_Q8_0)->from_float(floats.data(), &data[static_cast<size_t>(s) * state_bytes], kEmbedding);
    }
    return data;
}

double exact(const uint8_t *row, const uint8_t *state) { return exact_q8_0_dot(row, state, kEmbedding); }

void run(int bits, int32_t rows, const std::vector<uint8_t> &data, const std::vector<uint8_t> &states, int state_count) {
    const size_t row_bytes = ggml_row_size(GGML_TYPE_Q8_0, kEmbedding);
    const size_t state_bytes = row_bytes;
    // The portable path and, where the CPU has it, the AVX2 kernel.
    setenv("ILOTOKI_ROW_KERNEL", "vec_dot", 1);
    auto portable = CheckSketch::make(bits, GGML_TYPE_Q8_0, kEmbedding, static_cast<size_t>(rows));
    unsetenv("ILOTOKI_ROW_KERNEL");
    auto fast = CheckSketch::make(bits, GGML_TYPE_Q8_0, kEmbedding, static_cast<size_t>(rows));
    expect(portable != nullptr && fast != nullptr, "made", bits, "-");
    if (portable == nullptr || fast == nullptr) return;
    expect(!CheckSketch::make(bits, GGML_TYPE_Q4_0, kEmbedding, 4), "a row type other than Q8_0 has no sketch", bits, "-");
    expect(!CheckSketch::make(3, GGML_TYPE_Q8_0, kEmbedding, 4), "3 bits are refused", bits, "-");
    for (int32_t r = 0; r < rows; ++r) {
        expect(!portable->complete(), "incomplete until every row is added", bits, "-");
        portable->add(static_cast<size_t>(r), &data[static_cast<size_t>(r) * row_bytes]);
        fast->add(static_cast<size_t>(r), &data[static_cast<size_t>(r) * row_bytes]);
    }
    expect(portable->complete() && fast->complete(), "complete", bits, "-");
    const auto vec_dot = ggml_get_type_traits_cpu(GGML_TYPE_Q8_0)->vec_dot;
    for (int count = 1; count <= state_count; ++count) {
        portable->set_states(states.data(), state_bytes, count);
        fast->set_states(states.data(), state_bytes, count);
        // The bound holds: over ggml's value and over the exact one.
        std::vector<float> bounds(static_cast<size_t>(rows) * static_cast<size_t>(count));
        bool holds = true;
        for (int32_t r = 0; r < rows; ++r) {
            for (int s = 0; s < count; ++s) {
                const uint8_t *row = &data[static_cast<size_t>(r) * row_bytes];
                const uint8_t *state = &states[static_cast<size_t>(s) * state_bytes];
                float computed = 0.0f;
                vec_dot(kEmbedding, &computed, 0, row, 0, state, 0, 1);
                const float bound = portable->bound(static_cast<size_t>(r), s);
                bounds[static_cast<size_t>(r) * static_cast<size_t>(count) + static_cast<size_t>(s)] = bound;
                const double allowed = static_cast<double>(bound) + portable->slack(s);
                holds = holds && static_cast<double>(computed) <= allowed && exact(row, state) <= allowed;
            }
        }
        expect(holds, "the bound is never under the row's value", bits, "vec_dot");
        // Floors near the 90th and 99.5th percentile of each state's bounds, and one none reaches.
        for (const double share : {0.9, 0.995, 2.0}) {
            std::vector<float> floor(static_cast<size_t>(count));
            for (int s = 0; s < count; ++s) {
                std::vector<float> column;
                for (int32_t r = 0; r < rows; ++r) column.push_back(bounds[static_cast<size_t>(r) * static_cast<size_t>(count) + static_cast<size_t>(s)]);
                std::sort(column.begin(), column.end());
                // Between two rows' bounds, so that no row sits on the floor within rounding.
                const auto k = static_cast<size_t>(share * (rows - 2));
                floor[static_cast<size_t>(s)] = share > 1.0 ? INFINITY : (column[k] + column[k + 1]) / 2;
            }
            std::vector<SketchReach> reached[2];
            RowChoice below[2][CheckSketch::kMostStates];
            float runner[2][CheckSketch::kMostStates];
            for (int k = 0; k < 2; ++k) {
                std::fill(runner[k], runner[k] + CheckSketch::kMostStates, -INFINITY);
                CheckSketch &sketch = k == 0 ? *portable : *fast;
                // In two parts, as two workers would.
                sketch.reach(0, static_cast<size_t>(rows / 3), floor.data(), below[k], runner[k], reached[k]);
                sketch.reach(static_cast<size_t>(rows / 3), static_cast<size_t>(rows - rows / 3), floor.data(), below[k], runner[k], reached[k]);
            }
            const char *kernel = fast->kernel_name();
            bool sorted = true, same = true;
            for (const auto &reach : reached[0]) {
                sorted = sorted && bounds[static_cast<size_t>(reach.position) * static_cast<size_t>(count) + static_cast<size_t>(reach.state)] >=
                                       floor[static_cast<size_t>(reach.state)];
            }
            expect(sorted, "a row is reached only at or over its floor", bits, "vec_dot");
            // The same rows, but those within rounding of the floor.
            const auto near_floor = [&](const SketchReach &reach) {
                const float bound = bounds[static_cast<size_t>(reach.position) * static_cast<size_t>(count) + static_cast<size_t>(reach.state)];
                const float at = floor[static_cast<size_t>(reach.state)];
                return std::fabs(bound - at) <= 1e-4f * std::fmax(1.0f, std::fabs(at));
            };
            for (int k = 0; k < 2; ++k) {
                for (const auto &reach : reached[k]) {
                    const auto &other = reached[1 - k];
                    const bool found = std::any_of(other.begin(), other.end(), [&](const SketchReach &o) {
                        return o.position == reach.position && o.state == reach.state;
                    });
                    same = same && (found || near_floor(reach));
                }
            }
            expect(same, "the kernel reaches the rows the portable path reaches", bits, kernel);
            for (int s = 0; s < count; ++s) {
                const float a = below[0][s].value, b = below[1][s].value;
                const bool here = std::fabs(a - b) <= 1e-4f * std::fmax(1.0f, std::fabs(a)) && std::fabs(runner[0][s] - runner[1][s]) <= 1e-4f * std::fmax(1.0f, std::fabs(runner[0][s]));
                if (!here && std::getenv("SKETCH_TEST_VERBOSE")) std::fprintf(stderr, "count %d share %.3f state %d: below %g (row %d) vs %g (row %d), runner %g vs %g\n", count, share, s, a, below[0][s].row, b, below[1][s].row, runner[0][s], runner[1][s]);
                same = same && here;
            }
            expect(same, "the kernel's largest bounds below are the portable path's", bits, kernel);
            if (share > 1.0) expect(reached[0].empty() && reached[1].empty(), "no row reaches an infinite floor", bits, kernel);
        }
    }
}

} // namespace

int main() {
    ggml_cpu_init(); // the CPU kernels' tables
    std::mt19937 random(20261207);
    const int32_t rows = 1500;
    const std::vector<uint8_t> data = make_rows(rows, random);
    const std::vector<uint8_t> states = make_states(9, random);
    for (const int bits : {5, 4}) run(bits, rows, data, states, 9);
    if (failures != 0) {
        std::fprintf(stderr, "%d failures\n", failures);
        return 1;
    }
    std::printf("check_sketch_test: bounds hold and kernels agree at 4 and 5 bits, 1-9 states\n");
    return 0;
}
