#include "prefix_cache.hpp"

#include <algorithm>

namespace ilotoki {

namespace {

size_t shared_beginning(const std::vector<llama_token> &a, const std::vector<llama_token> &b) {
    const size_t most = std::min(a.size(), b.size());
    size_t count = 0;
    while (count < most && a[count] == b[count]) count += 1;
    return count;
}

} // namespace

bool PrefixCache::take_cells(llama_context *context, llama_seq_id sequence, Entry &entry) {
    const size_t size = llama_state_seq_get_size_ext(context, sequence, LLAMA_STATE_SEQ_FLAGS_NONE);
    if (size == 0) return false;
    entry.cells.resize(size);
    const size_t written = llama_state_seq_get_data_ext(context, entry.cells.data(), size, sequence, LLAMA_STATE_SEQ_FLAGS_NONE);
    if (written == 0 || written > size) return false;
    entry.cells.resize(written);
    entry.cells.shrink_to_fit();
    return true;
}

void PrefixCache::add(Entry entry) {
    for (const Entry &known : entries_) {
        if (known.tokens == entry.tokens) return;
    }
    const size_t size = entry.cells.capacity() + entry.tokens.capacity() * sizeof(llama_token);
    if (size > kMostBytes) return;
    entry.used = ++clock_;
    while (!entries_.empty() && (entries_.size() >= kMostEntries || bytes() + size > kMostBytes)) {
        const auto oldest = std::min_element(entries_.begin(), entries_.end(), [](const Entry &a, const Entry &b) { return a.used < b.used; });
        entries_.erase(oldest);
    }
    entries_.push_back(std::move(entry));
}

size_t PrefixCache::best_for(const std::vector<llama_token> &prompt, size_t &best_shared) const {
    best_shared = 0;
    if (prompt.size() < 2) return entries_.size();
    // The most shared tokens; of entries that share as many, the shortest (no cut needed).
    size_t best = entries_.size();
    for (size_t i = 0; i < entries_.size(); ++i) {
        const size_t shared = std::min(shared_beginning(entries_[i].tokens, prompt), prompt.size() - 1);
        const bool better = shared > best_shared ||
                            (shared == best_shared && best < entries_.size() && entries_[i].tokens.size() < entries_[best].tokens.size());
        if (better) {
            best = i;
            best_shared = shared;
        }
    }
    if (best_shared < static_cast<size_t>(kFewestShared)) return entries_.size();
    return best;
}

int32_t PrefixCache::shared_with(const std::vector<llama_token> &prompt) const {
    size_t shared = 0;
    return best_for(prompt, shared) == entries_.size() ? 0 : static_cast<int32_t>(shared);
}

int32_t PrefixCache::restore(llama_context *context, llama_seq_id sequence, const std::vector<llama_token> &prompt) {
    size_t best_shared = 0;
    const size_t best = best_for(prompt, best_shared);
    if (best == entries_.size()) return 0;
    Entry &entry = entries_[best];
    llama_memory_t memory = llama_get_memory(context);
    if (llama_state_seq_set_data_ext(context, entry.cells.data(), entry.cells.size(), sequence, LLAMA_STATE_SEQ_FLAGS_NONE) == 0) {
        // llama.cpp refused the copy: the whole prompt is evaluated.
        llama_memory_seq_rm(memory, sequence, -1, -1);
        entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(best));
        return 0;
    }
    entry.used = ++clock_;
    if (best_shared == entry.tokens.size()) return static_cast<int32_t>(best_shared);
    // The entry goes on past the shared part (its own prompt's words): the shared part becomes
    // an entry of its own.
    if (!llama_memory_seq_rm(memory, sequence, static_cast<llama_pos>(best_shared), -1)) {
        llama_memory_seq_rm(memory, sequence, -1, -1);
        return 0;
    }
    Entry shared;
    shared.tokens.assign(prompt.begin(), prompt.begin() + static_cast<std::ptrdiff_t>(best_shared));
    if (take_cells(context, sequence, shared)) add(std::move(shared));
    return static_cast<int32_t>(best_shared);
}

void PrefixCache::remember(llama_context *context, llama_seq_id sequence, const std::vector<llama_token> &prompt) {
    if (prompt.size() <= static_cast<size_t>(kFewestShared)) return;
    if (longest_ > 0 && prompt.size() > static_cast<size_t>(longest_)) return;
    Entry entry;
    entry.tokens = prompt;
    if (take_cells(context, sequence, entry)) add(std::move(entry));
}

void PrefixCache::clear() {
    entries_.clear();
    entries_.shrink_to_fit();
}

size_t PrefixCache::bytes() const {
    size_t total = 0;
    for (const Entry &entry : entries_) total += entry.cells.capacity() + entry.tokens.capacity() * sizeof(llama_token);
    return total;
}

} // namespace ilotoki
