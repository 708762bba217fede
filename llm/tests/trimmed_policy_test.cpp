// The trimmed head's policy (trimmed_policy.hpp), case by case: the cadence of checks, the
// near tie among the kept rows, when what waits is checked at once, and after a check which
// tokens are final, which failed and to which row, what the head does next and how the
// counters move. Links no llama.cpp. Run by scripts/test.sh; the 36 bench prompts' tokens,
// trimmed against full, are the Swift tests'.
#include "trimmed_policy.hpp"

#include <cstdio>
#include <string>
#include <vector>

namespace {

using ilotoki::RowChoice;
using ilotoki::trimmed::AfterChoice;
using ilotoki::trimmed::Cadence;
using ilotoki::trimmed::Counters;
using ilotoki::trimmed::NextRows;
using ilotoki::trimmed::PendingCheck;

int failures = 0;

void expect(bool ok, const std::string &what) {
    if (ok) return;
    std::fprintf(stderr, "trimmed_policy_test: FAILED %s\n", what.c_str());
    failures += 1;
}

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

void settlements() {
    struct Case {
        const char *name;
        std::vector<PendingCheck> pending;
        std::vector<int32_t> wider_rows; // rows of the wider set not in the kept set
        bool checked;
        Counters before;
        int32_t settled, failed, winner;
        NextRows next;
        Counters after;
    };
    const float margin = ilotoki::trimmed::margin(10.0f);
    const std::vector<Case> cases = {
        {"nothing pending", {}, {}, false, {0, 0}, 0, -1, -1, NextRows::Same, {0, 0}},
        {"every kept choice beats the excluded rows", {kept(10, 5), kept(12, 3), kept(8, 7.5f)}, {}, true, {0, 0}, 3, -1, -1,
         NextRows::Same, {1, 0}},
        {"exact tokens are never checked, and count no check", {exact(), exact()}, {}, false, {2, 0}, 2, -1, -1, NextRows::Same,
         {2, 0}},
        {"no excluded row checked", {PendingCheck{10, false, RowChoice{}}}, {}, true, {0, 0}, 1, -1, -1, NextRows::Same, {1, 0}},
        {"the second token loses: the first is final", {kept(10, 5), kept(10, 11, 901), kept(10, 12, 902)}, {}, true, {3, 0}, 1, 1,
         901, NextRows::Same, {4, 1}},
        {"within the margin is not final (llama.cpp's rounding)", {kept(10, 10 - margin / 2)}, {}, true, {0, 0}, 0, 0, 900,
         NextRows::Same, {1, 1}},
        {"just beyond the margin is final", {kept(10, 10 - margin * 2)}, {}, true, {0, 0}, 1, -1, -1, NextRows::Same, {1, 0}},
        {"an equal excluded logit is not final", {kept(10, 10)}, {}, true, {0, 0}, 0, 0, 900, NextRows::Same, {1, 1}},
        {"an exact token before a failure is final", {exact(), kept(10, 20, 903)}, {}, true, {0, 0}, 1, 1, 903, NextRows::Same,
         {1, 1}},
        {"the winner is another language's row: widen, no rollback counted", {kept(10, 20, 904)}, {904}, true, {0, 0}, 0, 0, 904,
         NextRows::Widen, {1, 0}},
        {"widening comes before giving up", {kept(10, 20, 904)}, {904}, true, {0, 5}, 0, 0, 904, NextRows::Widen, {1, 5}},
        {"a first rollback keeps trimming", {kept(10, 20, 905)}, {}, true, {0, 0}, 0, 0, 905, NextRows::Same, {1, 1}},
        {"the second rollback gives up: the full head", {kept(10, 20, 905)}, {}, true, {7, 1}, 0, 0, 905, NextRows::FullHead,
         {8, 2}},
    };
    for (const Case &c : cases) {
        const auto in_wider = [&](int32_t row) {
            for (int32_t wide : c.wider_rows) {
                if (wide == row) return true;
            }
            return false;
        };
        const auto got = ilotoki::trimmed::settle(c.pending.data(), static_cast<int32_t>(c.pending.size()), c.checked, in_wider, c.before);
        const bool ok = got.settled == c.settled && got.failed == c.failed && got.winner == c.winner && got.next == c.next &&
                        got.counters.checks_done == c.after.checks_done && got.counters.rollbacks == c.after.rollbacks;
        if (!ok) {
            std::fprintf(stderr,
                         "trimmed_policy_test: FAILED %s: settled %d failed %d winner %d next %s checks %d rollbacks %d; "
                         "want %d %d %d %s %d %d\n",
                         c.name, got.settled, got.failed, got.winner, name(got.next), got.counters.checks_done,
                         got.counters.rollbacks, c.settled, c.failed, c.winner, name(c.next), c.after.checks_done, c.after.rollbacks);
            failures += 1;
        }
    }
    // A batch gives up later: its limit is the caller's.
    const PendingCheck losing = kept(10, 20, 905);
    const auto in_none = [](int32_t) { return false; };
    expect(ilotoki::trimmed::settle(&losing, 1, true, in_none, {0, 3}, 8).next == NextRows::Same,
           "a batch's larger rollback limit keeps trimming at its fourth rollback");
    expect(ilotoki::trimmed::settle(&losing, 1, true, in_none, {0, 7}, 8).next == NextRows::FullHead,
           "a batch gives up at its own limit");
    const std::vector<PendingCheck> mixed = {exact(), kept(1, 0)};
    expect(!ilotoki::trimmed::needs_check(mixed.data(), 1), "exact tokens alone need no check");
    expect(ilotoki::trimmed::needs_check(mixed.data(), 2), "a kept choice needs the check");
}

void cadence() {
    const Cadence every8{4, 8};
    // The first check comes with the 4th waiting token, then with every 8th.
    for (int32_t waiting = 0; waiting < 12; ++waiting) {
        const bool first = ilotoki::trimmed::check_in_step(waiting, Counters{0, 0}, every8);
        expect(first == (waiting >= 3), "first check at the 4th token, waiting " + std::to_string(waiting));
        const bool later = ilotoki::trimmed::check_in_step(waiting, Counters{1, 0}, every8);
        expect(later == (waiting >= 7), "later checks every 8 tokens, waiting " + std::to_string(waiting));
    }
    const Cadence every32{4, 32};
    expect(!ilotoki::trimmed::check_in_step(30, Counters{2, 0}, every32), "a cadence of 32 waits at 31 tokens");
    expect(ilotoki::trimmed::check_in_step(31, Counters{2, 0}, every32), "a cadence of 32 checks with the 32nd token");
}

void near_ties() {
    const float margin = ilotoki::trimmed::margin(10.0f);
    expect(ilotoki::trimmed::near_tie(RowChoice{}, -INFINITY), "no kept row chosen is decided by the full head");
    expect(ilotoki::trimmed::near_tie(RowChoice{10.0f, 5}, 10.0f), "an equal runner-up is a near tie");
    expect(ilotoki::trimmed::near_tie(RowChoice{10.0f, 5}, 10.0f - margin / 2), "a runner-up within the margin is a near tie");
    expect(!ilotoki::trimmed::near_tie(RowChoice{10.0f, 5}, 10.0f - margin * 2), "beyond the margin the kept choice stands");
    expect(!ilotoki::trimmed::near_tie(RowChoice{0.5f, 5}, 0.5f - 2.0f / 1024), "small values use the margin of 1: 2^-10");
    expect(ilotoki::trimmed::near_tie(RowChoice{0.5f, 5}, 0.5f - 0.5f / 1024), "small values: within 2^-10 is a tie");
    expect(ilotoki::trimmed::margin(-2048.0f) == 2.0f, "the margin scales with the value's size");
}

void checks_now() {
    expect(!ilotoki::trimmed::check_now(AfterChoice{}), "an ordinary token waits for its turn");
    expect(ilotoki::trimmed::check_now(AfterChoice{true, false, false, false, false}), "what the step checked is settled");
    expect(ilotoki::trimmed::check_now(AfterChoice{false, true, false, false, false}), "the end of the output is settled");
    expect(ilotoki::trimmed::check_now(AfterChoice{false, false, true, false, false}), "full slots are settled");
    expect(ilotoki::trimmed::check_now(AfterChoice{false, false, false, true, false}), "the token limit is settled");
    expect(ilotoki::trimmed::check_now(AfterChoice{false, false, false, false, true}), "a line end that may stop is settled");
}

} // namespace

int main() {
    settlements();
    cadence();
    near_ties();
    checks_now();
    if (failures > 0) return 1;
    std::printf("trimmed_policy_test: every case passed\n");
    return 0;
}
