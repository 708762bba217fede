#include "output_rows.hpp"

#include "utf8.hpp"

#include <algorithm>
#include <string>

namespace ilotoki {

namespace {

/// Decodes well-formed UTF-8 (checked beforehand) one code point at a time.
uint32_t next_code_point(const uint8_t *bytes, size_t &i) {
    const uint8_t lead = bytes[i];
    const int count = utf8::sequence_length(lead);
    uint32_t code = count == 1 ? lead : count == 2 ? (lead & 0x1Fu) : count == 3 ? (lead & 0x0Fu) : (lead & 0x07u);
    for (int k = 1; k < count; ++k) code = (code << 6) | (bytes[i + static_cast<size_t>(k)] & 0x3Fu);
    i += static_cast<size_t>(count);
    return code;
}

} // namespace

CharacterSet::CharacterSet(const ilotoki_llm_char_range *ranges, size_t count) {
    if (ranges == nullptr) return;
    for (size_t i = 0; i < count; ++i) {
        if (ranges[i].first <= ranges[i].last) ranges_.push_back(ranges[i]);
    }
    std::sort(ranges_.begin(), ranges_.end(),
              [](const ilotoki_llm_char_range &a, const ilotoki_llm_char_range &b) { return a.first < b.first; });
    std::vector<ilotoki_llm_char_range> merged;
    for (const auto &range : ranges_) {
        // Touching ranges merge too (`last` + 1 cannot overflow past a real code point).
        if (!merged.empty() && static_cast<uint64_t>(range.first) <= static_cast<uint64_t>(merged.back().last) + 1) {
            merged.back().last = std::max(merged.back().last, range.last);
        } else {
            merged.push_back(range);
        }
    }
    ranges_ = std::move(merged);
}

bool CharacterSet::contains(uint32_t code_point) const {
    // The first range that ends at or after the code point.
    const auto found = std::lower_bound(ranges_.begin(), ranges_.end(), code_point,
                                        [](const ilotoki_llm_char_range &range, uint32_t c) { return range.last < c; });
    return found != ranges_.end() && found->first <= code_point;
}

bool CharacterSet::operator==(const CharacterSet &other) const {
    return ranges_.size() == other.ranges_.size() &&
           std::equal(ranges_.begin(), ranges_.end(), other.ranges_.begin(),
                      [](const ilotoki_llm_char_range &a, const ilotoki_llm_char_range &b) { return a.first == b.first && a.last == b.last; });
}

bool text_fits(std::string_view text, const CharacterSet &characters) {
    if (!utf8::is_valid(text.data(), text.size())) return true;
    const auto *bytes = reinterpret_cast<const uint8_t *>(text.data());
    size_t i = 0;
    while (i < text.size()) {
        if (!characters.contains(next_code_point(bytes, i))) return false;
    }
    return true;
}

std::string token_text(const llama_vocab *vocab, llama_token token, bool special) {
    char buffer[256];
    const int32_t length = llama_token_to_piece(vocab, token, buffer, sizeof(buffer), 0, special);
    if (length >= 0) return std::string(buffer, static_cast<size_t>(length));
    std::string text(static_cast<size_t>(-length), '\0');
    const int32_t written = llama_token_to_piece(vocab, token, text.data(), -length, 0, special);
    text.resize(written > 0 ? static_cast<size_t>(written) : 0);
    return text;
}

std::vector<int32_t> rows_for_characters(const llama_vocab *vocab, const CharacterSet &characters) {
    const int32_t count = llama_vocab_n_tokens(vocab);
    std::vector<int32_t> rows;
    for (int32_t token = 0; token < count; ++token) {
        const auto attributes = llama_vocab_get_attr(vocab, token);
        const bool always = (attributes & (LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_BYTE | LLAMA_TOKEN_ATTR_UNKNOWN)) != 0;
        if (always || text_fits(token_text(vocab, token, /*special*/ true), characters)) rows.push_back(token);
    }
    return rows;
}

} // namespace ilotoki
