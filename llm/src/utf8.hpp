// The rules of well-formed UTF-8 (Unicode 15, table 3-7), shared by the prompt check and
// the output filter.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ilotoki::utf8 {

/// Length of the sequence that `lead` starts, or 0 if `lead` cannot start one.
inline int sequence_length(uint8_t lead) {
    if (lead < 0x80) return 1;
    if (lead >= 0xC2 && lead <= 0xDF) return 2;
    if (lead >= 0xE0 && lead <= 0xEF) return 3;
    if (lead >= 0xF0 && lead <= 0xF4) return 4;
    return 0;
}

/// Whether `byte` may follow `lead` as the second byte. This rules out overlong forms,
/// surrogates and code points above U+10FFFF.
inline bool valid_second_byte(uint8_t lead, uint8_t byte) {
    switch (lead) {
    case 0xE0: return byte >= 0xA0 && byte <= 0xBF;
    case 0xED: return byte >= 0x80 && byte <= 0x9F;
    case 0xF0: return byte >= 0x90 && byte <= 0xBF;
    case 0xF4: return byte >= 0x80 && byte <= 0x8F;
    default: return byte >= 0x80 && byte <= 0xBF;
    }
}

inline bool is_continuation(uint8_t byte) { return byte >= 0x80 && byte <= 0xBF; }

/// Whether `text` is well-formed UTF-8 without NUL bytes.
inline bool is_valid(const char *text, size_t length) {
    const auto *bytes = reinterpret_cast<const uint8_t *>(text);
    size_t i = 0;
    while (i < length) {
        if (bytes[i] == 0) return false;
        const int count = sequence_length(bytes[i]);
        if (count == 0 || i + static_cast<size_t>(count) > length) return false;
        for (int k = 1; k < count; ++k) {
            const bool ok = k == 1 ? valid_second_byte(bytes[i], bytes[i + 1]) : is_continuation(bytes[i + k]);
            if (!ok) return false;
        }
        i += static_cast<size_t>(count);
    }
    return true;
}

} // namespace ilotoki::utf8
