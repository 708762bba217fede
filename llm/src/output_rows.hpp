// Which vocabulary rows a translation into each language can write: the rows of the trimmed
// output head. Computed from the model's own vocabulary (never from fixed token ids).
#pragma once

#include "llama.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ilotoki {

/// The script a translation is written in, from its target language.
enum class OutputScript : int {
    /// Unknown target: the union of the four languages below.
    Any = 0,
    TokiPona,
    English,
    Russian,
    Vietnamese,
};
inline constexpr int kOutputScriptCount = 5;

/// The script for a target language code ("tok", "en", "ru", "vi"); `Any` for anything else.
OutputScript output_script_for_language(const char *code);

/// A short name for figures and messages ("tok", "en", "ru", "vi", "any").
const char *output_script_name(OutputScript script);

/// Whether every character of `text` (UTF-8) belongs to what `script` writes: its letters,
/// digits, whitespace, ASCII and typographic punctuation. Text that is not valid UTF-8 (a
/// token holding part of a character) fits every script.
bool text_fits_script(std::string_view text, OutputScript script);

/// The text of `token` (with `special`, control tokens' text too).
std::string token_text(const llama_vocab *vocab, llama_token token, bool special);

/// The token ids `script` can use, ascending: every control, byte and unknown token, and
/// every other token whose text fits the script.
std::vector<int32_t> rows_for_script(const llama_vocab *vocab, OutputScript script);

} // namespace ilotoki
