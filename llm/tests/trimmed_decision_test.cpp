// The trimmed head's decision (trimmed_decision.hpp), case by case: which pending tokens are
// final after a check, which failed and to which row, and what the head does next. Run by
// scripts/test.sh; the 36 bench prompts' tokens, trimmed against full, are the Swift tests'.
#include "trimmed_decision.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

using ilotoki::NextRows;
using ilotoki::PendingCheck;
using ilotoki::RowChoice;

struct Case {
    const char *name;
    std::vector<PendingCheck> pending;
    std::vector<int32_t> wider_rows; // rows of the four languages' union not in the kept set
    int32_t rollbacks;
    int32_t settled, failed, winner;
    NextRows next;
};

PendingCheck kept(float value, float excluded_value, int32_t excluded_row = 900) {
    return PendingCheck{value, false, RowChoice{excluded_value, excluded_row}};
}

PendingCheck exact() { return PendingCheck{0.0f, true, RowChoice{}}; }

const char *name(NextRows next) {
    switch (next) {
    case NextRows::Same: return "same rows";
    case NextRows::Widen: return "widen";
    case NextRows::FullHead: return "full head";
    }
    return "?";
}

} // namespace

int main() {
    const float margin = ilotoki::TrimmedHead::margin(10.0f);
    const std::vector<Case> cases = {
        {"nothing pending", {}, {}, 0, 0, -1, -1, NextRows::Same},
        {"every kept choice beats the excluded rows", {kept(10, 5), kept(12, 3), kept(8, 7.5f)}, {}, 0, 3, -1, -1, NextRows::Same},
        {"exact tokens are never checked", {exact(), exact()}, {}, 0, 2, -1, -1, NextRows::Same},
        {"no excluded row checked", {PendingCheck{10, false, RowChoice{}}}, {}, 0, 1, -1, -1, NextRows::Same},
        {"the second token loses: the first is final", {kept(10, 5), kept(10, 11, 901), kept(10, 12, 902)}, {}, 0, 1, 1, 901,
         NextRows::Same},
        {"within the margin is not final (llama.cpp's rounding)", {kept(10, 10 - margin / 2)}, {}, 0, 0, 0, 900, NextRows::Same},
        {"just beyond the margin is final", {kept(10, 10 - margin * 2)}, {}, 0, 1, -1, -1, NextRows::Same},
        {"an equal excluded logit is not final", {kept(10, 10)}, {}, 0, 0, 0, 900, NextRows::Same},
        {"an exact token before a failure is final", {exact(), kept(10, 20, 903)}, {}, 0, 1, 1, 903, NextRows::Same},
        {"the winner is another language's row: widen", {kept(10, 20, 904)}, {904}, 0, 0, 0, 904, NextRows::Widen},
        {"widening comes before giving up", {kept(10, 20, 904)}, {904}, 5, 0, 0, 904, NextRows::Widen},
        {"a first rollback keeps trimming", {kept(10, 20, 905)}, {}, 0, 0, 0, 905, NextRows::Same},
        {"the second rollback gives up: the full head", {kept(10, 20, 905)}, {}, 1, 0, 0, 905, NextRows::FullHead},
    };
    int failures = 0;
    for (const Case &c : cases) {
        const auto in_wider = [&](int32_t row) {
            for (int32_t wide : c.wider_rows) {
                if (wide == row) return true;
            }
            return false;
        };
        const ilotoki::Settlement got = ilotoki::settle_pending(
            c.pending.data(), static_cast<int32_t>(c.pending.size()), in_wider, c.rollbacks, ilotoki::kRollbacksBeforeFullHead);
        if (got.settled != c.settled || got.failed != c.failed || got.winner != c.winner || got.next != c.next) {
            std::fprintf(stderr, "trimmed_decision_test: FAILED %s: settled %d failed %d winner %d next %s; want %d %d %d %s\n", c.name,
                         got.settled, got.failed, got.winner, name(got.next), c.settled, c.failed, c.winner, name(c.next));
            failures += 1;
        }
    }
    if (failures > 0) return 1;
    std::printf("trimmed_decision_test: %zu cases passed\n", cases.size());
    return 0;
}
