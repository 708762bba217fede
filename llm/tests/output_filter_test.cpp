// Tests of OutputFilter: complete UTF-8 only, stop sequences held back and never emitted,
// the line limit. Run by scripts/test.sh; exits non-zero on the first failure.
#include "output_filter.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using ilotoki::OutputFilter;

namespace {

int failures = 0;

void expect(bool condition, const char *what, int line) {
    if (!condition) {
        std::fprintf(stderr, "output_filter_test:%d: FAILED: %s\n", line, what);
        failures += 1;
    }
}
#define EXPECT(condition) expect((condition), #condition, __LINE__)

struct Run {
    std::vector<std::string> pieces;
    OutputFilter::Outcome outcome = OutputFilter::Outcome::Continue;
    std::string joined() const {
        std::string all;
        for (const auto &piece : pieces) all += piece;
        return all;
    }
};

/// Feeds `chunks` one token at a time, collecting ready pieces; flushes at the end unless stopped.
Run run(const std::vector<std::string> &chunks, std::vector<std::string> stops = {}, int max_lines = 0) {
    OutputFilter filter;
    filter.reset(std::move(stops), max_lines);
    Run result;
    std::string piece;
    for (const auto &chunk : chunks) {
        result.outcome = filter.feed(chunk);
        if (filter.take_ready(piece)) result.pieces.push_back(piece);
        if (result.outcome != OutputFilter::Outcome::Continue) return result;
    }
    filter.flush();
    if (filter.take_ready(piece)) result.pieces.push_back(piece);
    return result;
}

bool all_valid(const Run &run) {
    for (const auto &piece : run.pieces) {
        for (size_t i = 0; i < piece.size();) {
            const auto lead = static_cast<unsigned char>(piece[i]);
            size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            if (lead >= 0x80 && lead < 0xC2) return false;
            if (i + length > piece.size()) return false;
            i += length;
        }
    }
    return true;
}

} // namespace

int main() {
    // Cyrillic "Привет" split in the middle of characters.
    {
        const std::string word = "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82";
        std::vector<std::string> chunks;
        for (size_t i = 0; i < word.size(); i += 3) chunks.push_back(word.substr(i, 3));
        const Run result = run(chunks);
        EXPECT(result.joined() == word);
        EXPECT(all_valid(result));
        EXPECT(result.pieces.size() == 4);
    }
    // Vietnamese "Việt" with the 3-byte ệ split over three tokens.
    {
        const Run result = run({"Vi", "\xE1", "\xBB", "\x87t"});
        EXPECT(result.joined() == "Vi\xE1\xBB\x87t");
        EXPECT(all_valid(result));
    }
    // A byte that can never start a character becomes U+FFFD at once.
    {
        const Run result = run({"a\xFF", "b"});
        EXPECT(result.joined() == "a\xEF\xBF\xBD" "b");
    }
    // The end of generation goes through the stop checks too: a character left unfinished
    // becomes U+FFFD, which completes this stop sequence, so nothing of it is emitted.
    {
        const Run result = run({"ok \xD2\xB7", "\xEF"}, {"\xD2\xB7\xEF\xBF\xBD"});
        EXPECT(result.joined() == "ok ");
    }
    // An unfinished character at the end of generation is flushed as U+FFFD.
    {
        const Run result = run({"ok", "\xE1\xBB"});
        EXPECT(result.joined() == "ok\xEF\xBF\xBD");
    }
    // A lead byte followed by a non-continuation byte: U+FFFD, then the byte itself.
    {
        const Run result = run({"\xD0", "A"});
        EXPECT(result.joined() == "\xEF\xBF\xBD" "A");
    }
    // Surrogates (ED A0..) are not valid UTF-8.
    {
        const Run result = run({"\xED\xA0\x80"});
        EXPECT(all_valid(result));
        EXPECT(result.joined().find("\xED\xA0") == std::string::npos);
    }
    // A stop sequence split across tokens is never emitted, and the text before it is.
    {
        const Run result = run({" I eat", "\nTo", "ki", " Pona:", " more"}, {"\nToki Pona:", "\nEnglish:"});
        EXPECT(result.outcome == OutputFilter::Outcome::StopSequence);
        EXPECT(result.joined() == " I eat");
    }
    // Text that only looked like the start of a stop sequence is released.
    {
        const Run result = run({"one", "\nTok", "yo"}, {"\nToki Pona:"}, 0);
        EXPECT(result.outcome == OutputFilter::Outcome::Continue);
        EXPECT(result.joined() == "one\nTokyo");
    }
    // Held text is released at the end of generation.
    {
        const Run result = run({"end", "\nEng"}, {"\nEnglish:"});
        EXPECT(result.joined() == "end\nEng");
    }
    // Line limit 1: the first newline ends the output and is not emitted.
    {
        const Run result = run({" fruit", " is good", "\n", "more"}, {}, 1);
        EXPECT(result.outcome == OutputFilter::Outcome::LineLimit);
        EXPECT(result.joined() == " fruit is good");
    }
    // Line limit 2 allows one newline.
    {
        const Run result = run({"a\nb", "\nc"}, {}, 2);
        EXPECT(result.outcome == OutputFilter::Outcome::LineLimit);
        EXPECT(result.joined() == "a\nb");
    }
    // A newline at once: an empty translation.
    {
        const Run result = run({"\n", "Toki Pona:"}, {"\nToki Pona:"}, 1);
        EXPECT(result.joined().empty());
    }
    // Stop sequences with non-ASCII text.
    {
        const Run result = run({"\xD0\xAF \xD0\xBB", "\xD1\x8E\xD0\xB1\xD0\xBB\xD1\x8E", "\nRussian", ":"}, {"\nRussian:"});
        EXPECT(result.joined() == "\xD0\xAF \xD0\xBB\xD1\x8E\xD0\xB1\xD0\xBB\xD1\x8E");
        EXPECT(result.outcome == OutputFilter::Outcome::StopSequence);
    }

    if (failures > 0) {
        std::fprintf(stderr, "output_filter_test: %d failure(s)\n", failures);
        return EXIT_FAILURE;
    }
    std::printf("output_filter_test: all passed\n");
    return EXIT_SUCCESS;
}
