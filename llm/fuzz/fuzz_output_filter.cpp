// libFuzzer target: the output filter (src/output_filter.cpp), which turns the bytes of
// streamed tokens into pieces of complete UTF-8 and ends the output at a stop sequence or a
// line limit. The input chooses the line limit, up to three stop sequences and the token
// pieces (split at 0xFF bytes, which never occur in UTF-8). The properties checked:
//   - every piece handed out is valid UTF-8 (the Swift side relies on it);
//   - the text handed out never contains a stop sequence;
//   - it never has more newlines than the line limit allows;
//   - once the output has ended, nothing more is handed out.
#include "output_filter.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace {

bool valid_utf8(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        const unsigned char lead = static_cast<unsigned char>(text[i]);
        size_t length = 0;
        uint32_t code = 0;
        if (lead < 0x80) { length = 1; code = lead; }
        else if ((lead & 0xE0) == 0xC0) { length = 2; code = lead & 0x1F; }
        else if ((lead & 0xF0) == 0xE0) { length = 3; code = lead & 0x0F; }
        else if ((lead & 0xF8) == 0xF0) { length = 4; code = lead & 0x07; }
        else return false;
        if (i + length > text.size()) return false;
        for (size_t k = 1; k < length; ++k) {
            const unsigned char next = static_cast<unsigned char>(text[i + k]);
            if ((next & 0xC0) != 0x80) return false;
            code = (code << 6) | (next & 0x3F);
        }
        const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
        if (code < least[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return false;
        i += length;
    }
    return true;
}

/// A property does not hold: says which, with the text handed out so far, and stops.
[[noreturn]] void fail(const char *property, const std::string &out) {
    std::fprintf(stderr, "output filter property broken: %s; text handed out: \"%s\"\n", property, out.c_str());
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    const int max_lines = data[0] % 4;  // 0: no limit
    const size_t stop_count = data[1] % 4;
    std::vector<std::string_view> parts;
    size_t start = 2;
    for (size_t i = 2; i <= size; ++i) {
        if (i == size || data[i] == 0xFF) {
            parts.emplace_back(reinterpret_cast<const char *>(data) + start, i - start);
            start = i + 1;
        }
    }
    std::vector<std::string> stops;
    size_t next = 0;
    while (stops.size() < stop_count && next < parts.size()) {
        // As the C API passes them: only valid UTF-8 (it refuses the others).
        if (!parts[next].empty() && valid_utf8(parts[next])) stops.emplace_back(parts[next]);
        ++next;
    }

    ilotoki::OutputFilter filter;
    filter.reset(stops, max_lines);
    std::string out, piece;
    bool ended = false;
    for (; next < parts.size(); ++next) {
        const auto outcome = filter.feed(parts[next]);
        if (filter.take_ready(piece)) {
            if (ended) fail("nothing after the end", out);
            if (!valid_utf8(piece)) fail("every piece is valid UTF-8", out + piece);
            out += piece;
        }
        if (outcome != ilotoki::OutputFilter::Outcome::Continue) {
            ended = true;
            break;
        }
    }
    if (!ended) {
        filter.flush();
        if (filter.take_ready(piece)) {
            if (!valid_utf8(piece)) fail("the flushed piece is valid UTF-8", out + piece);
            out += piece;
        }
    }
    for (const auto &stop : stops) {
        if (out.find(stop) != std::string::npos) fail(("no stop sequence in the text: " + stop).c_str(), out);
    }
    if (max_lines > 0) {
        int newlines = 0;
        for (char c : out) newlines += c == '\n';
        if (newlines > max_lines - 1) fail("no more lines than the limit", out);
    }
    return 0;
}
