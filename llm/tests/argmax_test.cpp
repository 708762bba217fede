// Tests of first_maximum against the obvious one-pass argmax. Run by scripts/test.sh.
#include "argmax.hpp"

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

int32_t reference(const std::vector<float> &values) {
    int32_t best = 0;
    for (int32_t i = 1; i < static_cast<int32_t>(values.size()); ++i) {
        if (values[i] > values[best]) best = i;
    }
    return best;
}

int failures = 0;

void check(const std::vector<float> &values, const char *what) {
    const int32_t got = ilotoki::first_maximum(values.data(), static_cast<int32_t>(values.size()));
    const int32_t want = reference(values);
    if (got != want) {
        std::fprintf(stderr, "argmax_test: FAILED %s: got %d, want %d\n", what, got, want);
        failures += 1;
    }
}

} // namespace

int main() {
    std::mt19937 random(7);
    std::normal_distribution<float> normal;
    for (int size : {1, 2, 7, 8, 9, 15, 16, 17, 1000, 262144, 262145}) {
        std::vector<float> values(static_cast<size_t>(size));
        for (auto &value : values) value = normal(random);
        check(values, "random");
        // Ties: the first of equal maxima wins, wherever they fall among the lanes.
        values[values.size() / 2] = 100.0f;
        values.back() = 100.0f;
        check(values, "tie");
        values[0] = 100.0f;
        check(values, "tie at the start");
    }
    std::vector<float> same(300, -3.5f);
    check(same, "all equal");
    std::vector<float> negative(100);
    for (size_t i = 0; i < negative.size(); ++i) negative[i] = -1000.0f - static_cast<float>(i);
    check(negative, "all negative");
    if (failures > 0) return EXIT_FAILURE;
    std::printf("argmax_test: all passed\n");
    return EXIT_SUCCESS;
}
