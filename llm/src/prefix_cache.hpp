// The KV cells of the prompts' shared beginnings, kept so that a translation starts from a
// copy instead of evaluating them again. Every prompt of a format and direction begins with
// the same words ("Translate this from English to Toki Pona:\nEnglish:", and the few-shot
// examples where a format has them); a short sentence's prompt is mostly those words.
//
// The core knows no formats: an entry is a prompt's tokens with its sequence's cells (from
// llama_state_seq_get_data), and a new prompt takes the cells of the entry it shares the
// longest beginning with. Where that is shorter than the entry (the entry is a whole earlier
// prompt, its own words in it), the shared part becomes an entry of its own, and the new
// prompt is kept whole as well, always: an entry that begins it exactly may be only what
// prompts of other directions share with it ("Translate this from"), and its own next prompt
// must find it to split its own fixed beginning off. After two prompts of a format and
// direction their fixed beginning is an entry, and from then on each prompt copies it (the
// whole prompts kept meanwhile go first when the cache is full: least recently used). This is exact because the core evaluates every column of
// every product as it would alone (ggml_cpu_set_column_exact, llm/patches/0004): a cell's
// values depend on its token and the tokens before it, never on which call evaluated them.
//
// A cache belongs to one context (the single translation's, or the batch's): it is dropped
// with it, when the context is made again (another size) or the model is freed.
#pragma once

#include "llama.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ilotoki {

class PrefixCache {
public:
    /// The fewest shared tokens worth a copy (the BOS and a word or two are shared by any two
    /// prompts of a format).
    static constexpr int32_t kFewestShared = 4;
    /// The most entries kept (formats × directions in use, few-shot variants); the least
    /// recently used goes first.
    static constexpr size_t kMostEntries = 12;
    /// The most memory the entries take (about 18 KiB a token for Gemma 3 270M, so a dozen
    /// short prompts take about 5 MiB, a few-shot one a few MiB); an entry larger alone is
    /// not kept.
    static constexpr size_t kMostBytes = 16u << 20;

    /// Puts into `sequence` (which holds no cells) the cells of the longest cached beginning
    /// of `prompt`, never its last token (whose logits the caller evaluates): the caller
    /// evaluates `prompt` from there on. Returns the tokens copied: 0 when nothing cached is
    /// worth it.
    int32_t restore(llama_context *context, llama_seq_id sequence, const std::vector<llama_token> &prompt);
    /// How many tokens `restore` would copy for `prompt`.
    int32_t shared_with(const std::vector<llama_token> &prompt) const;
    /// The longest prompt whose cells can be kept: a model with a sliding window drops the
    /// window layers' cells that fall out of it as a prompt is evaluated, so a longer prompt's
    /// cells do not hold its beginning whole. 0: no limit.
    void set_longest(int32_t tokens) { longest_ = tokens; }

    /// After `prompt` was evaluated into `sequence` (its cells are the prompt's, no more):
    /// keeps them unless the prompt is longer than `set_longest` allows.
    void remember(llama_context *context, llama_seq_id sequence, const std::vector<llama_token> &prompt);
    void clear();
    /// The memory the entries take, in bytes.
    size_t bytes() const;
    size_t entries() const { return entries_.size(); }

private:
    struct Entry {
        std::vector<llama_token> tokens;
        std::vector<uint8_t> cells;
        uint64_t used = 0;
    };
    /// Takes `sequence`'s cells (all of them) into `entry`; false where llama.cpp cannot.
    static bool take_cells(llama_context *context, llama_seq_id sequence, Entry &entry);
    /// The entry `restore` takes for `prompt` (the end for none) and the tokens it shares.
    size_t best_for(const std::vector<llama_token> &prompt, size_t &shared) const;
    /// Adds an entry, the least recently used one going where the cache is full.
    void add(Entry entry);
    std::vector<Entry> entries_;
    uint64_t clock_ = 0;
    int32_t longest_ = 0;
};

} // namespace ilotoki
