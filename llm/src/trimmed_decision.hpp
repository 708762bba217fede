// The trimmed head's decision, as a pure function: given the tokens that wait for a check
// (each chosen among the kept rows, or exactly, by llama.cpp's own head) and what the check
// found among the excluded rows, how many are final, which one failed, which row beat it, and
// what the head does next. `ilotoki_llm::settle` (generation.cpp) only acts on it: releases,
// rolls back, widens, falls back. llm/tests/trimmed_decision_test.cpp is its table.
#pragma once

#include "trimmed_head.hpp"

#include <cstdint>

namespace ilotoki {

// A translation that had to roll back this often goes on with the full head.
inline constexpr int32_t kRollbacksBeforeFullHead = 2;

/// One token that waits for a check.
struct PendingCheck {
    /// Its logit among the kept rows.
    float value = 0.0f;
    /// Chosen by llama.cpp's own head (nothing to check).
    bool exact = false;
    /// The check's best excluded row for its state (`row` -1: none, or not checked).
    RowChoice excluded;
};

/// What the head does after a failed check.
enum class NextRows {
    /// Goes on with the same kept rows (the failed step was taken with the full head).
    Same,
    /// The winner is one of the four languages' rows: goes on with their union.
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
};

/// Whether an excluded row may beat a kept row's logit: within the margin, it might under
/// llama.cpp's rounding, so the token is not final.
inline bool excluded_may_win(const RowChoice &excluded, float kept_value) {
    return excluded.row >= 0 && !(excluded.value < kept_value - TrimmedHead::margin(kept_value));
}

/// The decision. `winner_in_wider_rows` says whether a row is among the four languages'
/// (the head can widen to it); `rollbacks` counts this translation's earlier rollbacks that
/// did not widen; `rollbacks_before_full_head` is when the head gives up trimming.
template <typename InWiderRows>
Settlement settle_pending(const PendingCheck *pending, int32_t count, InWiderRows winner_in_wider_rows, int32_t rollbacks,
                          int32_t rollbacks_before_full_head) {
    Settlement result;
    result.settled = count;
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
    } else if (rollbacks + 1 >= rollbacks_before_full_head) {
        result.next = NextRows::FullHead;
    }
    return result;
}

} // namespace ilotoki
