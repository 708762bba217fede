// The trimmed head's whole policy, as pure functions over plain values: when a step runs the
// check (the cadence), when a kept choice is too close to call (the near tie, the margin),
// when tokens that wait must be checked at once, and, after a check, which are final, which
// failed and to which row, what the head does next and how the run's counters move.
//
// The generation loop (generation.cpp) and the batch (batch.cpp) only act on what these say:
// they evaluate, release, roll back, widen, fall back. No llama.cpp here:
// llm/tests/trimmed_policy_test.cpp is the policy's table and links nothing else.
#pragma once

#include "row_choice.hpp"

#include <cmath>
#include <cstdint>

namespace ilotoki::trimmed {

/// How often the excluded rows are read: after `first` tokens of a translation, then every
/// `every` tokens (and at once where the output may end). `every` is also the number of
/// states the head keeps for a check.
struct Cadence {
    int32_t first = 4;
    int32_t every = 8;
};

/// A translation that had to roll back this often goes on with the full head.
inline constexpr int32_t kRollbacksBeforeFullHead = 2;

/// How much a choice must beat every other row by to be accepted without llama.cpp's own
/// head: covers the rounding difference between the row kernels and the kernel llama.cpp
/// picks (2^-10 of the value, at least 2^-10).
inline float margin(float value) { return std::ldexp(std::fmax(1.0f, std::fabs(value)), -10); }

/// The counters of one run (a translation, or a batch's sequences together).
struct Counters {
    int32_t checks_done = 0;
    /// Rollbacks that did not widen the kept rows.
    int32_t rollbacks = 0;
};

/// Whether the step that is about to evaluate the state of the `waiting`-th pending token
/// (counting from 0) also runs the check, for it and every state before it.
inline bool check_in_step(int32_t waiting, const Counters &counters, const Cadence &cadence) {
    const int32_t due = counters.checks_done == 0 ? cadence.first : cadence.every;
    return waiting + 1 >= due;
}

/// Whether the kept rows' choice is too close to call: no kept row won, or the runner-up is
/// within the margin, where the kernel's rounding could decide it. llama.cpp's own head then
/// takes the step.
inline bool near_tie(const RowChoice &best, float runner_up) {
    return best.row < 0 || !(best.value - runner_up > margin(best.value));
}

/// What is known after a token joined the ones that wait for a check.
struct AfterChoice {
    /// A check is due at this step: its own evaluation ran it, or (where checks stream from
    /// the file) it runs right after.
    bool checked_in_step = false;
    /// The token ends the output (end of generation).
    bool ends_output = false;
    /// Every state slot holds a waiting state.
    bool slots_full = false;
    /// The output reached its token limit.
    bool at_token_limit = false;
    /// The token ends a line where a stop sequence or a line limit may end the output.
    bool line_end_may_stop = false;
};

/// Whether what waits must be checked now: where the output may end, everything before it
/// must be final.
inline bool check_now(const AfterChoice &after) {
    return after.checked_in_step || after.ends_output || after.slots_full || after.at_token_limit || after.line_end_may_stop;
}

/// One token that waits for a check.
struct PendingCheck {
    /// Its logit among the kept rows.
    float value = 0.0f;
    /// Chosen by llama.cpp's own head (nothing to check).
    bool exact = false;
    /// The check's best excluded row for its state (`row` -1: none, or not checked).
    RowChoice excluded;
};

/// Whether any of the tokens that wait needs the excluded rows read (one chosen by the
/// kept rows); tokens all chosen by llama.cpp's head need no check.
inline bool needs_check(const PendingCheck *pending, int32_t count) {
    for (int32_t i = 0; i < count; ++i) {
        if (!pending[i].exact) return true;
    }
    return false;
}

/// What the head does after a failed check.
enum class NextRows {
    /// Goes on with the same kept rows (the failed step was taken with the full head).
    Same,
    /// The winner is one of the app's languages' rows: goes on with their union.
    Widen,
    /// Choices this close to the excluded rows keep failing: the rest with the full head.
    FullHead,
};

struct Settlement {
    /// Tokens, from the first, that are final.
    int32_t settled = 0;
    /// The first that is not (-1: none), and the excluded row that may beat it.
    int32_t failed = -1;
    int32_t winner = -1;
    NextRows next = NextRows::Same;
    /// The run's counters after this settlement.
    Counters counters;
};

/// Whether an excluded row may beat a kept row's logit: within the margin, it might under
/// llama.cpp's rounding, so the token is not final.
inline bool excluded_may_win(const RowChoice &excluded, float kept_value) {
    return excluded.row >= 0 && !(excluded.value < kept_value - margin(kept_value));
}

/// The decision after a check. `checked` says whether the excluded rows were read for these
/// tokens (in the step, or just before this call); `winner_in_wider_rows` whether a row is
/// among the wider set's (the head can widen to it); `rollbacks_before_full_head` is when the
/// run gives up trimming.
template <typename InWiderRows>
Settlement settle(const PendingCheck *pending, int32_t count, bool checked, InWiderRows winner_in_wider_rows, Counters counters,
                  int32_t rollbacks_before_full_head = kRollbacksBeforeFullHead) {
    Settlement result;
    result.settled = count;
    result.counters = counters;
    if (checked) result.counters.checks_done += 1;
    for (int32_t i = 0; i < count; ++i) {
        const PendingCheck &entry = pending[i];
        if (entry.exact) continue;
        if (excluded_may_win(entry.excluded, entry.value)) {
            result.settled = i;
            result.failed = i;
            result.winner = entry.excluded.row;
            break;
        }
    }
    if (result.failed < 0) return result;
    if (winner_in_wider_rows(result.winner)) {
        result.next = NextRows::Widen;
        return result;
    }
    if (counters.rollbacks + 1 >= rollbacks_before_full_head) result.next = NextRows::FullHead;
    result.counters.rollbacks += 1;
    return result;
}

} // namespace ilotoki::trimmed
