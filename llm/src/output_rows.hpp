// Which vocabulary rows a translation can write: the rows of the trimmed output head, the
// tokens whose text is made of the characters the caller names. The core knows no languages:
// the app's table (IloTokiCore's `Language.outputCharacters`) says what each one is written
// in. Computed from the model's own vocabulary (never from fixed token ids).
#pragma once

#include "ilotoki_llm.h"
#include "llama.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ilotoki {

/// A set of Unicode code points, held as sorted ranges that neither overlap nor touch.
class CharacterSet {
public:
    CharacterSet() = default;
    /// The code points of `count` ranges (both ends included; a range whose first is above
    /// its last is empty), in any order, overlapping or not.
    CharacterSet(const ilotoki_llm_char_range *ranges, size_t count);

    bool contains(uint32_t code_point) const;
    bool empty() const { return ranges_.empty(); }
    /// The ranges, sorted and merged.
    const std::vector<ilotoki_llm_char_range> &ranges() const { return ranges_; }
    bool operator==(const CharacterSet &other) const;
    bool operator!=(const CharacterSet &other) const { return !(*this == other); }

private:
    std::vector<ilotoki_llm_char_range> ranges_;
};

/// Whether every character of `text` (UTF-8) is in `characters`. Text that is not valid
/// UTF-8 (a token holding part of a character) fits every set: the check cannot tell.
bool text_fits(std::string_view text, const CharacterSet &characters);

/// The text of `token` (with `special`, control tokens' text too).
std::string token_text(const llama_vocab *vocab, llama_token token, bool special);

/// The token ids whose text fits `characters`, ascending, and every control, byte and
/// unknown token.
std::vector<int32_t> rows_for_characters(const llama_vocab *vocab, const CharacterSet &characters);

} // namespace ilotoki
