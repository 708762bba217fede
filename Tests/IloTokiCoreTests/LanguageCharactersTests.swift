import Testing

@testable import IloTokiCore

/// The languages' characters: the one table the detector reads and the engine hands to the
/// inference library for the trimmed head's rows.
@Suite struct LanguageCharactersTests {
    @Test(arguments: [
        // Toki Pona: its fourteen letters in both cases, digits, punctuation.
        (Language.tokiPona, " jan", true), (.tokiPona, "Sonja", true), (.tokiPona, " mi olin e sina.", true),
        (.tokiPona, "«toki!»", true), (.tokiPona, " 2024 —", true), (.tokiPona, "o!\n", true),
        (.tokiPona, " the", false), (.tokiPona, "x", false), (.tokiPona, " привет", false),
        // Russian: Cyrillic and the shared punctuation.
        (.russian, " ёлка", true), (.russian, "«Привет», — сказал он.", true), (.russian, "№ 5", true),
        (.russian, " hello", false),
        // English: ASCII and Latin-1's letters.
        (.english, " naïve café", true), (.english, " tiếng", false), (.english, "×", false),
        // Vietnamese: its letters precomposed or with combining marks.
        (.vietnamese, " tiếng Việt đẹp", true), (.vietnamese, " ươ", true), (.vietnamese, "a\u{301}", true),
        (.vietnamese, " да", false),
    ])
    func eachLanguageWritesItsOwnCharacters(language: Language, text: String, fits: Bool) {
        #expect(language.outputCharacters.containsAll(of: text) == fits, "\(language) \(text.debugDescription)")
    }

    @Test func allLanguagesAreTheFourTogetherAndNothingElse() {
        let all = CharacterClass.allLanguages
        #expect(all.containsAll(of: " привет tiếng jan pona naïve"))
        #expect(!all.containsAll(of: " 日本"))
        #expect(!all.containsAll(of: " ελα"))
        for language in Language.allCases {
            for range in language.outputCharacters.ranges {
                #expect(all.contains(Unicode.Scalar(range.lowerBound)!) && all.contains(Unicode.Scalar(range.upperBound)!))
            }
        }
    }

    @Test func rangesAreSortedAndMerged() {
        let merged = CharacterClass([0x61...0x6D, 0x20...0x20, 0x6E...0x7A, 0x65...0x70, 0x30...0x39])
        #expect(merged.ranges == [0x20...0x20, 0x30...0x39, 0x61...0x7A])
        #expect(merged == CharacterClass([0x30...0x39, 0x20...0x20, 0x61...0x7A]))
        #expect(merged.contains("a") && merged.contains("z") && !merged.contains("`") && !merged.contains("{"))
        #expect(CharacterClass([]).ranges.isEmpty && !CharacterClass([]).contains("a"))
        for language in Language.allCases {
            let ranges = language.outputCharacters.ranges
            for (left, right) in zip(ranges, ranges.dropFirst()) { #expect(UInt64(left.upperBound) + 1 < UInt64(right.lowerBound)) }
        }
    }

    /// The detector tells the scripts apart by the same table: a Cyrillic text is Russian, one
    /// with Vietnamese's tone letters Vietnamese.
    @Test func theDetectorReadsTheSameTable() {
        #expect(LanguageDetector.detect("кошка спит на коврике").language == .russian)
        #expect(LanguageDetector.detect("Tôi yêu bạn").language == .vietnamese)
        #expect(LanguageDetector.verdict(for: "こんにちは") == .unsupportedScript("Japanese"))
    }
}
