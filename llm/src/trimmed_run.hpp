// The trimmed head's state in one single translation (generation.cpp): whether it trims, the
// tokens chosen among the kept rows that wait for a check (held back from the output until
// they hold), and the run's counters. What to do with them is trimmed_policy.hpp's.
#pragma once

#include "llama.h"
#include "trimmed_head.hpp"
#include "trimmed_policy.hpp"

#include <cstdint>
#include <vector>

namespace ilotoki {

/// A token chosen but not yet final: chosen among the kept rows and held back from the output
/// until a check of the excluded rows says it holds (a single translation's, a batch's sequence's).
struct PendingToken {
    llama_token decoded; // the token evaluated at `position`, whose state chose `chosen`
    int32_t position;
    llama_token chosen;
    float value;         // the chosen row's logit
    bool exact;          // chosen with llama.cpp's own head (or over every row): nothing to check
    int32_t state = -1;  // a batch's: the head's slot holding the state (-1 for an exact one)
};

struct TrimmedRun {
    using Pending = PendingToken;

    /// Whether this translation's steps use the trimmed head.
    bool active = false;
    /// Where checks stream: instead of going on with llama.cpp's head (which reads every row
    /// through its mapping), every step is checked.
    bool check_every_step = false;
    std::vector<Pending> pending;
    trimmed::Counters counters;
    /// The head's run count before the last evaluation (to see whether the graph used it).
    uint64_t head_runs_before = 0;

    void reset(bool on) {
        active = on;
        check_every_step = false;
        pending.clear();
        counters = {};
    }

    /// What the policy needs of the waiting tokens; the excluded rows' best from `head`'s
    /// last check, slot by slot.
    std::vector<trimmed::PendingCheck> checks(const TrimmedHead &head) const {
        std::vector<trimmed::PendingCheck> out(pending.size());
        for (size_t i = 0; i < pending.size(); ++i) {
            const Pending &entry = pending[i];
            out[i] = {entry.value, entry.exact, entry.exact ? RowChoice{} : head.excluded_choice(static_cast<int32_t>(i))};
        }
        return out;
    }
};

} // namespace ilotoki
