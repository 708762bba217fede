#include "output_rows.hpp"

#include "utf8.hpp"

#include <cstring>
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

bool is_ascii_letter(uint32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// What every language writes: whitespace, digits, ASCII punctuation and symbols, the
/// typographic punctuation of the four languages (dashes, quotes, ellipsis, guillemets).
bool is_shared(uint32_t c) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0xA0) return true;
    if (c < 0x80) return c >= 0x21 && c <= 0x7E && !is_ascii_letter(c);
    if (c == 0xAB || c == 0xBB || c == 0xB7 || c == 0xA7 || c == 0xB0) return true; // « » · § °
    if (c >= 0x2010 && c <= 0x205E) return true;                                     // General Punctuation
    if (c == 0x2116) return true;                                                    // №
    return false;
}

bool is_toki_pona_letter(uint32_t c) {
    if (c >= 'A' && c <= 'Z') c += 'a' - 'A';
    return c < 0x80 && std::strchr("aeijklmnopstuw", static_cast<int>(c)) != nullptr && c != 0;
}

bool is_latin_1_letter(uint32_t c) { return c >= 0xC0 && c <= 0xFF && c != 0xD7 && c != 0xF7; }

bool is_cyrillic(uint32_t c) { return c >= 0x0400 && c <= 0x04FF; }

bool is_vietnamese(uint32_t c) {
    return is_ascii_letter(c) || is_latin_1_letter(c) || (c >= 0x0100 && c <= 0x024F) // Latin Extended-A and -B (ă đ ơ ư)
           || (c >= 0x0300 && c <= 0x036F)                                           // combining tone marks
           || (c >= 0x1EA0 && c <= 0x1EF9);                                          // Latin Extended Additional
}

bool fits(uint32_t c, OutputScript script) {
    if (is_shared(c)) return true;
    switch (script) {
    case OutputScript::TokiPona: return is_toki_pona_letter(c);
    case OutputScript::English: return is_ascii_letter(c) || is_latin_1_letter(c);
    case OutputScript::Russian: return is_cyrillic(c);
    case OutputScript::Vietnamese: return is_vietnamese(c);
    case OutputScript::Any: return is_vietnamese(c) || is_cyrillic(c);
    }
    return false;
}

} // namespace

OutputScript output_script_for_language(const char *code) {
    if (code == nullptr) return OutputScript::Any;
    const std::string language(code);
    if (language == "tok") return OutputScript::TokiPona;
    if (language == "en") return OutputScript::English;
    if (language == "ru") return OutputScript::Russian;
    if (language == "vi") return OutputScript::Vietnamese;
    return OutputScript::Any;
}

const char *output_script_name(OutputScript script) {
    switch (script) {
    case OutputScript::TokiPona: return "tok";
    case OutputScript::English: return "en";
    case OutputScript::Russian: return "ru";
    case OutputScript::Vietnamese: return "vi";
    case OutputScript::Any: return "any";
    }
    return "any";
}

bool text_fits_script(std::string_view text, OutputScript script) {
    if (!utf8::is_valid(text.data(), text.size())) return true;
    const auto *bytes = reinterpret_cast<const uint8_t *>(text.data());
    size_t i = 0;
    while (i < text.size()) {
        if (!fits(next_code_point(bytes, i), script)) return false;
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

std::vector<int32_t> rows_for_script(const llama_vocab *vocab, OutputScript script) {
    const int32_t count = llama_vocab_n_tokens(vocab);
    std::vector<int32_t> rows;
    for (int32_t token = 0; token < count; ++token) {
        const auto attributes = llama_vocab_get_attr(vocab, token);
        const bool always = (attributes & (LLAMA_TOKEN_ATTR_CONTROL | LLAMA_TOKEN_ATTR_BYTE | LLAMA_TOKEN_ATTR_UNKNOWN)) != 0;
        if (always || text_fits_script(token_text(vocab, token, /*special*/ true), script)) rows.push_back(token);
    }
    return rows;
}

} // namespace ilotoki
