// Which token texts each target language's trimmed head keeps (output_rows.cpp).
#include "output_rows.hpp"

#include <cstdio>
#include <string>

using ilotoki::OutputScript;

static int failures = 0;

static void expect(bool condition, const char *what, const std::string &text) {
    if (!condition) {
        std::fprintf(stderr, "FAIL: %s: '%s'\n", what, text.c_str());
        ++failures;
    }
}

static void fits(const std::string &text, OutputScript script) { expect(ilotoki::text_fits_script(text, script), "should fit", text); }
static void misfits(const std::string &text, OutputScript script) { expect(!ilotoki::text_fits_script(text, script), "should not fit", text); }

int main() {
    // Toki Pona: its fourteen letters in both cases, digits, punctuation.
    fits(" jan", OutputScript::TokiPona);
    fits("Sonja", OutputScript::TokiPona);
    fits(" mi olin e sina.", OutputScript::TokiPona);
    fits("«toki!»", OutputScript::TokiPona);
    fits(" 2024 —", OutputScript::TokiPona);
    misfits(" the", OutputScript::TokiPona);     // h is not a Toki Pona letter
    misfits("x", OutputScript::TokiPona);
    misfits(" привет", OutputScript::TokiPona);
    // Russian: Cyrillic, with ё, and the shared punctuation.
    fits(" ёлка", OutputScript::Russian);
    fits("«Привет», — сказал он.", OutputScript::Russian);
    misfits(" hello", OutputScript::Russian);
    // English: ASCII letters and Latin-1.
    fits(" naïve café", OutputScript::English);
    misfits(" tiếng", OutputScript::English);
    // Vietnamese: precomposed and combining marks, đ, ơ, ư.
    fits(" tiếng Việt đẹp", OutputScript::Vietnamese);
    fits(" ươ", OutputScript::Vietnamese);
    fits("a\xCC\x81", OutputScript::Vietnamese); // a + combining acute
    misfits(" да", OutputScript::Vietnamese);
    // All four: anything the four languages write, nothing else.
    fits(" привет tiếng", OutputScript::Any);
    misfits(" 日本", OutputScript::Any);
    misfits(" ελα", OutputScript::Any);
    // Part of a character (a byte-level piece) fits everywhere: the check cannot tell.
    fits("\xD0", OutputScript::TokiPona);
    // Language codes.
    expect(ilotoki::output_script_for_language("tok") == OutputScript::TokiPona, "tok", "tok");
    expect(ilotoki::output_script_for_language("ru") == OutputScript::Russian, "ru", "ru");
    expect(ilotoki::output_script_for_language("de") == OutputScript::Any, "de", "de");
    expect(ilotoki::output_script_for_language(nullptr) == OutputScript::Any, "null", "");
    if (failures == 0) std::printf("output_rows_test: all passed\n");
    return failures == 0 ? 0 : 1;
}
