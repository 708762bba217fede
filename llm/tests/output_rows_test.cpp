// Character sets and which token texts fit them (output_rows.cpp). The sets here are test
// data; the languages' own table is the app's (IloTokiCore, LanguageCharactersTests).
#include "output_rows.hpp"

#include <cstdio>
#include <string>
#include <vector>

using ilotoki::CharacterSet;

static int failures = 0;

static void expect(bool condition, const char *what, const std::string &text) {
    if (!condition) {
        std::fprintf(stderr, "FAIL: %s: '%s'\n", what, text.c_str());
        ++failures;
    }
}

static CharacterSet set(std::vector<ilotoki_llm_char_range> ranges) { return CharacterSet(ranges.data(), ranges.size()); }
static void fits(const std::string &text, const CharacterSet &characters) { expect(ilotoki::text_fits(text, characters), "should fit", text); }
static void misfits(const std::string &text, const CharacterSet &characters) { expect(!ilotoki::text_fits(text, characters), "should not fit", text); }

int main() {
    // Ranges in any order, overlapping and touching, come out sorted and merged.
    const CharacterSet merged = set({{0x61, 0x6D}, {0x20, 0x20}, {0x6E, 0x7A}, {0x65, 0x70}, {0x30, 0x39}});
    expect(merged.ranges().size() == 3, "three ranges after merging", "");
    expect(merged.ranges()[0].first == 0x20 && merged.ranges()[1].first == 0x30 && merged.ranges()[2].first == 0x61 &&
               merged.ranges()[2].last == 0x7A,
           "sorted and merged", "");
    expect(merged == set({{0x20, 0x20}, {0x30, 0x39}, {0x61, 0x7A}}), "equal to the same set written otherwise", "");
    expect(merged != set({{0x20, 0x20}, {0x61, 0x7A}}), "not equal to a smaller set", "");
    // A range whose first is above its last is empty; none at all is the empty set.
    expect(set({{0x7A, 0x61}}).empty(), "a backwards range is empty", "");
    expect(CharacterSet(nullptr, 4).empty(), "no ranges", "");
    // Both ends are in, their neighbours are not.
    expect(merged.contains(0x61) && merged.contains(0x7A) && !merged.contains(0x60) && !merged.contains(0x7B), "ends", "");
    expect(!merged.contains(0) && !merged.contains(0x10FFFF), "outside", "");
    const CharacterSet top = set({{0x10FFFE, 0xFFFFFFFF}});
    expect(top.contains(0x10FFFF) && !top.contains(0x10FFFD), "a range up to the largest value", "");

    // Text: every character must be in the set.
    const CharacterSet lowercase_and_space = set({{0x20, 0x20}, {0x61, 0x7A}});
    fits(" jan pona", lowercase_and_space);
    fits("", lowercase_and_space);
    misfits(" Jan", lowercase_and_space);
    misfits(" jan.", lowercase_and_space);
    const CharacterSet cyrillic = set({{0x20, 0x20}, {0x0400, 0x04FF}});
    fits(" ёлка", cyrillic);
    misfits(" ёлка!", cyrillic);
    misfits(" hello", cyrillic);
    // Four-byte characters are decoded whole.
    const CharacterSet sitelen_pona = set({{0xF1900, 0xF19FF}});
    fits("\xF3\xB1\xA4\x80", sitelen_pona); // U+F1900
    misfits("\xF3\xB1\xA4\x80\xF0\x9F\x98\x80", sitelen_pona); // U+F1900 U+1F600
    // Combining marks are characters of their own.
    const CharacterSet with_marks = set({{0x61, 0x7A}, {0x0300, 0x036F}});
    fits("a\xCC\x81", with_marks);
    misfits("a\xCC\x81", lowercase_and_space);
    // Part of a character (a byte-level piece) fits every set: the check cannot tell.
    fits("\xD0", lowercase_and_space);
    fits("\xD0", CharacterSet());
    // The empty set fits nothing but empty text.
    misfits("a", CharacterSet());
    fits("", CharacterSet());
    if (failures == 0) std::printf("output_rows_test: all passed\n");
    return failures == 0 ? 0 : 1;
}
