// The runaway guard (repetition.hpp), case by case: loops of every kind are caught at the
// token where they become one, and output that only repeats a little is left alone.
#include "repetition.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Case {
    const char *name;
    std::vector<int32_t> tokens;
    int32_t caught_at; // index of the token that ends it, or -1 when it never does
};

std::vector<int32_t> repeat(std::vector<int32_t> prefix, const std::vector<int32_t> &block, int copies) {
    for (int i = 0; i < copies; ++i) prefix.insert(prefix.end(), block.begin(), block.end());
    return prefix;
}

std::vector<int32_t> distinct(int32_t count, int32_t from = 1000) {
    std::vector<int32_t> tokens;
    for (int32_t i = 0; i < count; ++i) tokens.push_back(from + i);
    return tokens;
}

} // namespace

int main() {
    const std::vector<int32_t> sentence = distinct(12);
    std::vector<Case> cases = {
        {"an ordinary translation", distinct(400), -1},
        {"one token 32 times", repeat({}, {7}, 40), 31},
        {"one token 31 times is not yet a loop", repeat({}, {7}, 31), -1},
        {"a word pair looping after a start", repeat(distinct(5), {3, 4}, 20), 5 + 31},
        {"a sentence of 12 tokens four times", repeat({}, sentence, 5), 47},
        {"the same sentence three times is left alone", repeat({}, sentence, 3), -1},
        {"a 32-token block four times", repeat({}, distinct(32, 5000), 4), 127},
        {"a 33-token block is longer than any period watched", repeat({}, distinct(33, 5000), 5), -1},
        {"'very, very, very' and on", repeat(distinct(3), {11, 12}, 3), -1},
        {"a loop broken just before it counts", repeat(repeat({}, {7}, 31), {8}, 1), -1},
    };
    int failures = 0;
    for (const Case &test : cases) {
        ilotoki::RepetitionGuard guard;
        guard.reset();
        int32_t caught = -1;
        for (size_t i = 0; i < test.tokens.size(); ++i) {
            if (guard.add(test.tokens[i])) {
                caught = static_cast<int32_t>(i);
                break;
            }
        }
        if (caught != test.caught_at) {
            std::fprintf(stderr, "FAIL %s: caught at %d, expected %d\n", test.name, caught, test.caught_at);
            ++failures;
        }
    }
    // A guard that is reset forgets the output before.
    ilotoki::RepetitionGuard guard;
    for (int i = 0; i < 20; ++i) guard.add(7);
    guard.reset();
    for (int i = 0; i < 20; ++i) {
        if (guard.add(7)) {
            std::fprintf(stderr, "FAIL reset: a loop carried over from the output before\n");
            ++failures;
            break;
        }
    }
    if (failures > 0) return 1;
    std::printf("repetition_test: %zu cases passed\n", cases.size() + 1);
    return 0;
}
